#!/bin/sh
# A reload whose copy for the runs (state_dir/run.conf) cannot be
# written keeps the configuration in use, and says so: the daemon took
# the new file and said "reloaded", while its runs went on reading the
# old copy (a workload's iterations changed by the reload: the runs did
# one).  Once the copy can be written, a reload takes it.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual
start_daemon

# samples RUN-NUMBER: the samples of tiny's wall in the Nth run.
samples() {
	sql "SELECT count(*) FROM samples s JOIN metrics m ON m.id = s.metric
	    WHERE m.workload = 'tiny' AND m.metric = 'wall' AND s.run =
	    (SELECT id FROM runs ORDER BY id LIMIT 1 OFFSET $(($1 - 1)))"
}

# The copy's place taken by a directory, as a full disk would refuse it.
mkdir "$T/state/run.conf.tmp"
printf '\n[workload "tiny"]\niterations = 3\n' >>"$CONF"
kill -HUP "$DPID"
wait_until 15 "the refused reload" grep -q \
    "$CONF: not reloaded; the configuration in use is kept: cannot write $T/state/run.conf, which its runs read" \
    "$LOG" || fail "the reload was not refused"
if grep -q "reloaded $CONF" "$LOG"; then
	fail "a reload said done whose runs read the old copy"
fi
pwc trigger --workload tiny >/dev/null 2>&1 || fail "trigger refused"
wait_until 30 "run 1" runs_at_least 1 "status = 'complete'" ||
	fail "run 1 did not complete"
[ "$(samples 1)" -eq 1 ] || fail "run 1: $(samples 1) iterations, not 1"

rmdir "$T/state/run.conf.tmp"
kill -HUP "$DPID"
wait_until 15 "the reload" grep -q "reloaded $CONF" "$LOG" ||
	fail "the reload after the copy could be written was not taken"
grep -q "iterations = 3" "$T/state/run.conf" || fail "run.conf is old"
pwc trigger --workload tiny >/dev/null 2>&1 || fail "trigger 2 refused"
wait_until 30 "run 2" runs_at_least 2 "status = 'complete'" ||
	fail "run 2 did not complete"
[ "$(samples 2)" -eq 3 ] || fail "run 2: $(samples 2) iterations, not 3"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
