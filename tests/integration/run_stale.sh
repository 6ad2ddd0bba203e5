#!/bin/sh
# Runs left "running" by a process that is gone.  Every `perfwatch run`
# holds a shared lock on DB.run while it records; perfwatchd at its
# start, and every run before it records, mark the host's running runs
# aborted only when nothing holds that lock.  So a run started by hand is
# left alone by a perfwatchd that starts meanwhile, and one killed by
# SIGKILL is closed by the next run, daemon or none.
set -eu
. "$(dirname "$0")/daemon.subr"

export PERFWATCH_DB="$DB"
write_profile
write_conf_manual
cat >"$T/hand.conf" <<EOF
[workload "hand"]
command = sh -c 'touch $T/started; exec sleep 60'
measure = time
iterations = 1
timeout = 5m
EOF

# kill_hand: SIGKILL the run by hand; wait until its lock is free (its
# guard and workload gone with it).
kill_hand() {
	kill -KILL "$HAND"
	wait "$HAND" 2>/dev/null || true
	wait_until 10 "the killed run's lock to be free" \
	    flock -n -x "$DB.run" true || fail "the killed run's lock is held"
}

# status_of LABEL: the run's status in the store.
status_of() {
	sql "SELECT status FROM runs WHERE label = '$1'"
}

# A run by hand, in its workload.
"$PERFWATCH" -c "$CONF" run --no-check --profile "$T/hand.conf" \
    --label by-hand >"$T/hand.out" 2>&1 &
HAND=$!
wait_until 20 "the run by hand in its workload" test -e "$T/started" ||
	fail "the run by hand did not start: $(cat "$T/hand.out")"
[ "$(status_of by-hand)" = running ] || fail "by-hand: $(status_of by-hand)"
test -f "$DB.run" || fail "no run lock beside the database"

# perfwatchd starting meanwhile leaves it running.
start_daemon
grep -q "a perfwatch run is in progress" "$LOG" ||
	fail "perfwatchd did not see the run in progress"
[ "$(status_of by-hand)" = running ] ||
	fail "perfwatchd marked a live run $(status_of by-hand)"

# A second run by hand, beside it, leaves it running too.
pwc run --no-check --profile "$T/profile.conf" --label beside \
    >"$T/beside.out" 2>&1 || fail "beside: $(cat "$T/beside.out")"
[ "$(status_of beside)" = complete ] || fail "beside: $(status_of beside)"
[ "$(status_of by-hand)" = running ] ||
	fail "a run beside it marked a live run $(status_of by-hand)"
if grep -q "left running" "$T/beside.out"; then
	fail "beside: $(cat "$T/beside.out")"
fi

# SIGKILL: the run stays running; its workload goes with it.
kill_hand
[ "$(status_of by-hand)" = running ] || fail "by-hand: $(status_of by-hand)"

# The daemon's next run closes it.
request '{"cmd":"trigger","workloads":["tiny"]}' | grep -q '"ok":true' ||
	fail "trigger refused"
wait_until 20 "the daemon's run" runs_at_least 1 \
    "trigger = 'manual' AND label NOT IN ('by-hand', 'beside') AND
    status = 'complete'" || fail "no run by the daemon"
[ "$(status_of by-hand)" = aborted ] ||
	fail "the daemon's run left by-hand $(status_of by-hand)"
# Its length is not known: no end, shown as "-", null in JSON.
[ "$(sql "SELECT ended IS NULL FROM runs WHERE label = 'by-hand'")" = 1 ] ||
	fail "by-hand has an end it never had"
grep -q "1 run left running by a process that is gone: marked aborted" \
    "$LOG" || fail "the daemon's run did not say so"

# A restart finds nothing to close.
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
start_daemon
[ "$(grep -c "left running by a process" "$LOG")" -eq 1 ] ||
	fail "a run was marked twice"
stop_daemon TERM

# Without a daemon: a run killed by hand is closed by the next run.
"$PERFWATCH" -c "$CONF" run --no-check --profile "$T/hand.conf" \
    --label killed >"$T/killed.out" 2>&1 &
HAND=$!
rm -f "$T/started"
wait_until 20 "the second run by hand" test -e "$T/started" ||
	fail "the second run by hand did not start: $(cat "$T/killed.out")"
kill_hand
[ "$(status_of killed)" = running ] || fail "killed: $(status_of killed)"
pwc run --no-check --profile "$T/profile.conf" --label next \
    >"$T/next.out" 2>&1 || fail "next: $(cat "$T/next.out")"
grep -q "1 run left running by a process that is gone: marked aborted" \
    "$T/next.out" || fail "next: $(cat "$T/next.out")"
[ "$(status_of killed)" = aborted ] || fail "killed: $(status_of killed)"
[ "$(status_of next)" = complete ] || fail "next: $(status_of next)"
pass
