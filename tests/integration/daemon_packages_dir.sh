#!/bin/sh
# The package database's directory put in place anew, as rpm --rebuilddb
# does (it builds a new database beside it, renames the old directory
# away, the new one into its place, and removes the old): perfwatchd
# watches the directory now at that path, and a change made there after
# it still gets its run.
set -eu
. "$(dirname "$0")/daemon.subr"

start_packages_daemon 1s

# The directory rebuilt and swapped in, with the same packages.
mkdir "$T/dpkg.rebuild"
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.0-1; } \
    >"$T/dpkg.rebuild/status"
mv "$T/dpkg" "$T/dpkg.old"
mv "$T/dpkg.rebuild" "$T/dpkg"
rm -rf "$T/dpkg.old"
wait_until 15 "the rebuilt database judged" grep -q "no package changed" \
    "$LOG" || fail "the swapped directory was not read"
[ "$(count_runs "trigger = 'package'")" -eq 0 ] ||
	fail "a rebuilt database with the same packages started a run"

# An upgrade in the directory now in place.
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.1-1; } | dpkg_write
wait_until 15 "the package run" runs_at_least 1 \
    "trigger = 'package' AND status = 'complete'" ||
	fail "no run for a change in the directory put in place"
detail=$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'package'")
expect_eq "$detail" "dpkg: libfoo1 1.0-1 → 1.1-1"
grep -q "send SIGHUP" "$LOG" && fail "the daemon asked for a SIGHUP"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
