#!/bin/sh
# The package trigger: an upgrade of a test dpkg admin directory, written
# in several steps the way dpkg does (status-new, then a rename), is one
# run after the settle period, with trigger "package" and a detail that
# names what changed.  A rewrite that changes no package is no run.  A
# reload while a change settles does not lose it.
set -eu
. "$(dirname "$0")/daemon.subr"

start_packages_daemon 2s

# An upgrade in three steps, each within the settle period of the last.
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.0-1;
    dpkg_stanza newpkg 2.0-1; } |
    dpkg_write
sleep 0.5
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.1-1;
    dpkg_stanza newpkg 2.0-1; } |
    dpkg_write
sleep 0.5
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.1-2;
    dpkg_stanza newpkg 2.0-1; } |
    dpkg_write
t_last=$(date +%s)
wait_until 20 "the package run" runs_at_least 1 \
    "trigger = 'package' AND status = 'complete'" ||
	fail "no run after the package change"
t_run=$(sql "SELECT started FROM runs WHERE trigger = 'package'")
# It waited for the settle period after the last change.
[ "$t_run" -ge $((t_last + 2)) ] ||
	fail "the run started at $t_run, before the database settled ($t_last + 2)"
detail=$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'package'")
printf '%s\n' "$detail" >"$T/detail.out"
expect_match "$detail" "dpkg: "
expect_match "$detail" "libfoo1 1.0-1"
expect_match "$detail" "1.1-2"
expect_match "$detail" "+newpkg 2.0-1"
grep -q coreutils "$T/detail.out" && fail "unchanged coreutils in: $detail"

# Exactly one: wait out another settle period and a run's length.
sleep 4
[ "$(count_runs "trigger = 'package'")" -eq 1 ] ||
	fail "$(count_runs "trigger = 'package'") package runs, expected 1"

# The same packages written again: no change, no run.
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.1-2;
    dpkg_stanza newpkg 2.0-1; } |
    dpkg_write
wait_until 15 "the rewrite judged" grep -q "no package changed" "$LOG" ||
	fail "the rewrite was not read"
sleep 1
[ "$(count_runs "trigger = 'package'")" -eq 1 ] ||
	fail "a rewrite without a change started a run"

# A removal is named too.
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.1-2; } | dpkg_write
wait_package_run 2 "no run after the removal"
expect_match "$(package_detail)" "-newpkg 2.0-1"

# A reload while a change settles keeps it, and the list from before it:
# the upgrade still gets its run.  (The settle period is made longer
# first, so that the reload surely comes within it.)
write_conf "
[schedule]
cron = none
[triggers]
packages = yes
package_settle = 5s
dpkg_admin_dir = $T/dpkg
kernel = no"
kill -HUP "$DPID"
wait_until 15 "the first reload" grep -q "reloaded" "$LOG" ||
	fail "not reloaded"
seen=$(grep -c "changed; running once" "$LOG")
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.2-1; } | dpkg_write
wait_until 5 "the change seen" sh -c \
    "[ \$(grep -c 'changed; running once' '$LOG') -gt $seen ]" ||
	fail "the change was not seen"
kill -HUP "$DPID"
wait_until 15 "the second reload" sh -c \
    "[ \$(grep -c 'reloaded' '$LOG') -eq 2 ]" || fail "not reloaded"
wait_until 20 "the package run after the reload" runs_at_least 3 \
    "trigger = 'package' AND status = 'complete'" ||
	fail "no run after a reload during the settle period"
grep -q "a change is still settling" "$LOG" || fail "the reload did not say"
detail=$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'package'
    ORDER BY id DESC LIMIT 1")
expect_match "$detail" "libfoo1 1.1-2"
expect_match "$detail" "1.2-1"

# The status file removed for longer than the settle period: the list
# cannot be read, which is not every package removed.  Put back as it
# was, nothing changed: no run for it.
nruns=$(count_runs "trigger = 'package'")
mv "$T/dpkg/status" "$T/status.saved"
wait_until 20 "the run for the missing list" runs_at_least $((nruns + 1)) \
    "trigger = 'package' AND status = 'complete'" ||
	fail "no run after the status file went away"
detail=$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'package'
    ORDER BY id DESC LIMIT 1")
expect_eq "$detail" \
    "the package database changed (the new list could not be read)"
grep -q "cannot read the package list: $T/dpkg/status: No such file" \
    "$LOG" || fail "the missing status file was not named"
rewrites=$(grep -c "no package changed" "$LOG")
mv "$T/status.saved" "$T/dpkg/status"
wait_until 15 "the restored list judged" sh -c \
    "[ \$(grep -c 'no package changed' '$LOG') -gt $rewrites ]" ||
	fail "the restored status file was not judged unchanged"
sleep 1
[ "$(count_runs "trigger = 'package'")" -eq $((nruns + 1)) ] ||
	fail "the restored status file started a run"

# A reload that changes package_settle while a change settles: the new
# one applies (an hour would outlast the test; a second does not).
conf_settle() {
	write_conf "
[schedule]
cron = none
[triggers]
packages = yes
package_settle = $1
dpkg_admin_dir = $T/dpkg
kernel = no"
}
conf_settle 1h
nreloads=$(grep -c "reloaded" "$LOG")
kill -HUP "$DPID"
wait_until 15 "the reload to an hour" sh -c \
    "[ \$(grep -c 'reloaded' '$LOG') -gt $nreloads ]" || fail "not reloaded"
nruns=$(count_runs "trigger = 'package'")
{ dpkg_stanza coreutils 9.2-1; dpkg_stanza libfoo1 1.2-1; } | dpkg_write
wait_until 15 "the change seen" grep -q "still for 3600s" "$LOG" ||
	fail "the change was not seen"
conf_settle 1s
kill -HUP "$DPID"
wait_until 20 "the run after the shorter settle" runs_at_least \
    $((nruns + 1)) "trigger = 'package' AND status = 'complete'" ||
	fail "the package run waited for the settle period of before the reload"
grep -q "a change is still settling; running once it has been still for 1s" \
    "$LOG" || fail "the reload did not say the change waits 1s"
detail=$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'package'
    ORDER BY id DESC LIMIT 1")
expect_match "$detail" "coreutils 9.1-1"
expect_match "$detail" "9.2-1"

stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# An upgrade made while perfwatchd was down (stopped for it, or the one
# that restarted it): at start the list differs from the last run that
# measured, which is a change like any other, run once it has settled,
# its detail the diff against that run.
{ dpkg_stanza coreutils 9.2-1; dpkg_stanza libfoo1 1.3-1; } | dpkg_write
nruns=$(count_runs "trigger = 'package'")
start_daemon
wait_until 20 "the run for the upgrade made while down" runs_at_least \
    $((nruns + 1)) "trigger = 'package' AND status = 'complete'" ||
	fail "no run for the packages changed while perfwatchd was down"
grep -q "packages: dpkg: libfoo1 1.2-1 → 1.3-1 since the last run; running once it has been still for 1s" \
    "$LOG" || fail "the start did not say what changed since the last run"
detail=$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'package'
    ORDER BY id DESC LIMIT 1")
expect_eq "$detail" "dpkg: libfoo1 1.2-1 → 1.3-1"
stop_daemon TERM
# Started again with nothing changed since that run: no package run.
lists=$(grep -c 'packages: 2 packages (dpkg)' "$LOG")
start_daemon
wait_until 15 "the package list at start" sh -c \
    "[ \$(grep -c 'packages: 2 packages (dpkg)' '$LOG') -gt $lists ]" ||
	fail "the list was not read at start"
sleep 2
[ "$(count_runs "trigger = 'package'")" -eq $((nruns + 1)) ] ||
	fail "a start with the packages of the last run started a run"
[ "$(grep -c 'since the last run' "$LOG")" -eq 1 ] ||
	fail "a start with the packages of the last run saw a change"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# dpkg_admin_dir names a directory without a status file (a typo, or a
# database not made yet): the daemon says which file it did not find, and
# waits for that one, watching no other database.
write_conf "
[schedule]
cron = none
[triggers]
packages = yes
dpkg_admin_dir = $T/nodpkg
kernel = no"
lines=$(wc -l <"$LOG")
start_daemon
grep -q "packages: $T/nodpkg/status: No such file or directory (dpkg_admin_dir); watching for it" \
    "$LOG" || fail "the missing status file of dpkg_admin_dir was not named"
tail -n +"$((lines + 1))" "$LOG" | grep "packages: watching " |
    grep -qv "$T/nodpkg (dpkg)" &&
	fail "watching another database"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
