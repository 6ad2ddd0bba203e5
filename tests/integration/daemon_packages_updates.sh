#!/bin/sh
# dpkg's journal: dpkg records each package it changes in updates/NNNN
# (written as updates/tmp.i, then renamed) and folds the journal into
# status only now and then.  A change that is so far only in updates/
# has its run; status rewritten later to fold it in, the list the same,
# has none.  The updates directory made anew is watched too, and so is
# the one of a directory put in place of the old.
set -eu
. "$(dirname "$0")/daemon.subr"

# journal_write NAME: standard input as the journal entry updates/NAME.
journal_write() {
	cat >"$T/dpkg/updates/tmp.i"
	mv "$T/dpkg/updates/tmp.i" "$T/dpkg/updates/$1"
}

# no_change_lines: how many times the daemon found no package changed.
no_change_lines() {
	grep -c "no package changed" "$LOG" || true
}

mkdir -p "$T/dpkg/updates"
start_packages_daemon 1s

dpkg_stanza libfoo1 1.1-1 | journal_write 0000
wait_package_run 1 "no run for a change in dpkg's journal"
expect_eq "$(package_detail)" "dpkg: libfoo1 1.0-1 → 1.1-1"

# The journal folded into status: the same packages, no run.
seen=$(no_change_lines)
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.1-1; } | dpkg_write
rm "$T/dpkg/updates/0000"
wait_until 15 "the folded journal judged" sh -c \
    "[ \$(grep -c 'no package changed' '$LOG') -gt $seen ]" ||
	fail "status with the journal folded in was not read"
expect_eq "$(count_runs "trigger = 'package'")" 1

# The updates directory removed and made again: watched again.
rmdir "$T/dpkg/updates"
mkdir "$T/dpkg/updates"
dpkg_stanza coreutils 9.2-1 | journal_write 0001
wait_package_run 2 "no run for a change in a new journal directory"
expect_eq "$(package_detail)" "dpkg: coreutils 9.1-1 → 9.2-1"

# The whole directory put in place anew, the old one kept beside it: the
# journal watched is the new one, not the one that moved away.
mkdir -p "$T/dpkg.new/updates"
{ dpkg_stanza coreutils 9.2-1; dpkg_stanza libfoo1 1.1-1; } \
    >"$T/dpkg.new/status"
seen=$(no_change_lines)
mv "$T/dpkg" "$T/dpkg.old"
mv "$T/dpkg.new" "$T/dpkg"
wait_until 15 "the new directory judged" sh -c \
    "[ \$(grep -c 'no package changed' '$LOG') -gt $seen ]" ||
	fail "the directory put in place was not read"
dpkg_stanza libfoo1 1.2-1 | journal_write 0000
wait_package_run 3 "no run for a change in the new directory's journal"
expect_eq "$(package_detail)" "dpkg: libfoo1 1.1-1 → 1.2-1"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
