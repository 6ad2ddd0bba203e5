#!/bin/sh
# A package change seen before a battery started is in that battery's
# snapshot: the run queued for it while the battery ran is dropped once
# the battery has measured the whole profile on a quiet machine, with a
# line in the log.  A change seen after the start still gets its run.
# Here a manual battery waits at its gate while libfoo1 is upgraded
# (after its start: a run of its own); htop is removed while the manual
# one still runs and settles while libfoo1's runs, which started after
# the removal: libfoo1's run measured it.  Each reason was judged once,
# when queued, and htop's ran the whole battery again for nothing.
set -eu
. "$(dirname "$0")/daemon.subr"

{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.0-1;
    dpkg_stanza htop 3.2.2-2; } | dpkg_write
# Each battery waits at gate until it is let through (a token).
write_profile gate
# A settle long enough that the next battery starts within it on a
# loaded machine (under ASan, beside other tests).
write_conf_packages 8s
start_daemon
wait_packages 3

# logged N TEXT: the log has TEXT N times or more.
logged() {
	[ "$(grep -c -- "$2" "$LOG")" -ge "$1" ]
}

pwc trigger >/dev/null 2>&1 || fail "trigger refused"
wait_until 30 "the manual battery at its gate" at_gate manual ||
	fail "the manual battery did not start"
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.1-1;
    dpkg_stanza htop 3.2.2-2; } | dpkg_write
wait_until 30 "libfoo1's run queued" \
    logged 1 "queued a battery: package: dpkg: libfoo1" ||
	fail "the upgrade was not queued"
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.1-1; } | dpkg_write
wait_until 30 "the removal seen" logged 2 "changed; running once" ||
	fail "the removal was not seen"
touch "$T/token"
wait_until 30 "libfoo1's battery at its gate" at_gate package ||
	fail "libfoo1's battery did not start"
wait_until 30 "htop's run queued" \
    logged 1 "queued a battery: package: dpkg: -htop 3.2.2-2" ||
	fail "the removal was not queued"
# The order this test is about: libfoo1's battery started before the
# removal had settled (8 s after it was seen).
grep "battery started (package\|queued a battery: package: dpkg: -htop" \
    "$LOG" | head -n 1 | grep -q "battery started" ||
	fail "the removal settled before libfoo1's battery started"
touch "$T/token"
wait_until 30 "libfoo1's run complete" runs_at_least 1 \
    "trigger = 'package' AND status = 'complete'" ||
	fail "libfoo1's run did not complete"
label=$(sql "SELECT label FROM runs WHERE trigger = 'package'")
wait_until 30 "htop's run dropped" logged 1 "package change (dpkg: -htop \
3.2.2-2) measured by run $label; not run again" ||
	fail "htop's run was not dropped"
[ "$(status_field 'len(d["pending"])')" = 0 ] ||
	fail "still queued: $(request '{"cmd":"status"}')"
[ "$(status_field 'd["work"]')" = None ] ||
	fail "a battery runs: $(request '{"cmd":"status"}')"
[ "$(count_runs 1)" -eq 2 ] || fail "$(count_runs 1) runs, expected 2"
# libfoo1's run measured without htop: in its snapshot's packages.
[ "$(sql "SELECT group_concat(name, ',') FROM (SELECT name FROM packages
    WHERE package_set = (SELECT s.package_set FROM snapshots s JOIN runs r
    ON r.snapshot = s.id WHERE r.label = '$label') ORDER BY name)")" = \
    "coreutils,libfoo1" ] || fail "libfoo1's run did not measure the removal"
expect_match "$(package_detail)" "libfoo1 1.0-1"

# A change seen after the battery started is not its: a run of its own.
pwc trigger >/dev/null 2>&1 || fail "trigger refused"
wait_until 30 "the manual battery at its gate" at_gate manual ||
	fail "the second manual battery did not start"
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.2-1; } | dpkg_write
wait_until 30 "libfoo1 1.2-1's run queued" \
    logged 1 "queued a battery: package: dpkg: libfoo1 1.1-1" ||
	fail "the second upgrade was not queued"
touch "$T/token"
wait_until 30 "its battery at its gate" at_gate package ||
	fail "the second upgrade's battery did not start"
touch "$T/token"
wait_package_run 2 "the upgrade seen after the battery started was dropped"
expect_match "$(package_detail)" "1.2-1"
grep -q "1.1-1.*measured by run" "$LOG" &&
	fail "an upgrade after the battery's start was taken as measured"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
