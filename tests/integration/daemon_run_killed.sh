#!/bin/sh
# A run whose process is killed while the daemon lives (kill -9 of its
# group: the OOM killer, a person).  perfwatchd marks it aborted itself.
# While another process holds the store's write lock (a long import) it
# waits for that only a moment, not the store's 5 s with its event loop
# standing still: the run is left "running" with no process behind it,
# the log says who marks it, and the next run's sweep does.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile slow
write_conf_manual

# kill_slow: kill -9 the run's process group, and wait until the daemon
# has seen the run end.
kill_slow() {
	kill -KILL "-$child"
	wait_until 15 "the daemon to see run $label end" sh -c \
	    "grep -q 'run $label (manual) ended without a report' '$LOG'" ||
		fail "the daemon did not see run $label end"
}

start_daemon

# Nothing in the way: marked at once.
start_slow
kill_slow
grep -q "run $label: its process was killed; marked aborted" "$LOG" ||
	fail "the killed run not reported marked"
[ "$(sql "SELECT status FROM runs WHERE label = '$label'")" = aborted ] ||
	fail "run $label: $(sql "SELECT status FROM runs WHERE label = '$label'")"
[ "$(status_field 'd["last_run"]["status"]')" = aborted ] ||
	fail "last run: $(status_field 'd["last_run"]')"

# Behind a lock of 3 s (under the store's 5 s wait, which would have
# outlasted it): left running, and the log says the next run marks it.
start_slow
hold_store_lock "$DB" "$T/locked" 3 &
locker=$!
wait_file -e "$T/locked" "$locker" "the lock holder"
kill_slow
grep -q "run $label: its process was killed; $DB is locked by another process, so the next run, or perfwatchd's next start, marks it aborted" \
    "$LOG" || fail "the lock's refusal not said: $(grep "run $label" "$LOG")"
wait "$locker" || fail "the lock holder failed"
[ "$(sql "SELECT status FROM runs WHERE label = '$label'")" = running ] ||
	fail "run $label marked after all?"
# The daemon answered at once meanwhile, and the next run sweeps it up.
request '{"cmd":"trigger","workloads":["tiny"]}' | grep -q '"ok":true' ||
	fail "trigger refused"
wait_until 20 "the next run" runs_at_least 1 "status = 'complete'" ||
	fail "no run after the killed one"
[ "$(sql "SELECT status FROM runs WHERE label = '$label'")" = aborted ] ||
	fail "the next run left $label $(sql "SELECT status FROM runs WHERE label = '$label'")"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
