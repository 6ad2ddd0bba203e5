#!/bin/sh
# Crashes.  kill -9 of the daemon and of its run (a power cut, the OOM
# killer): the run is left "running"; a restart takes the lock again,
# marks it "aborted" and the next run works.  kill -9 of the daemon
# alone: its run is told (SIGTERM when its parent dies) and marks itself
# aborted instead of living on.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile slow
write_conf_manual

# wait_gone PID: until the process is gone (at most 10 s).
wait_gone() {
	wait_until 10 "process $1 to go" sh -c "! kill -0 $1 2>/dev/null"
}

start_daemon
start_slow
# The run, its workload (its process group) and the daemon, all at once:
# the daemon is stopped first so that it cannot see its child die.
kill -STOP "$DPID"
kill -KILL "-$child"
kill -KILL "$DPID"
wait "$DPID" 2>/dev/null || true
DPID=
wait_gone "$child" || fail "the run survived kill -9"
[ "$(sql "SELECT status FROM runs WHERE label = '$label'")" = running ] ||
	fail "run $label is not left running"

start_daemon
grep -q "1 run left running by a process that is gone: marked aborted" "$LOG" ||
	fail "the restart did not report the stale run"
[ "$(sql "SELECT status FROM runs WHERE label = '$label'")" = aborted ] ||
	fail "run $label was not marked aborted"
request '{"cmd":"trigger","workloads":["tiny"]}' | grep -q '"ok":true' ||
	fail "trigger refused after the restart"
wait_until 20 "a run after the restart" runs_at_least 1 \
    "status = 'complete'" || fail "no run after the restart"

# kill -9 of the daemon alone: the orphaned run aborts itself.
start_slow
kill -KILL "$DPID"
wait "$DPID" 2>/dev/null || true
DPID=
wait_gone "$child" || fail "the run outlived its daemon"
wait_until 10 "the orphan's own abort" sh -c \
    "[ \"\$(sqlite3 $DB \"SELECT status FROM runs WHERE label = '$label'\")\" = aborted ]" ||
	fail "run $label: $(sql "SELECT status FROM runs WHERE label = '$label'")"
[ "$(sql "PRAGMA integrity_check")" = ok ] || fail "integrity_check failed"
start_daemon
[ "$(grep -c "left running by a process" "$LOG")" -eq 1 ] ||
	fail "the orphan left its run running"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
