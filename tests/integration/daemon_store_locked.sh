#!/bin/sh
# A battery whose run cannot record itself, another process holding the
# store's write lock past SQLite's busy timeout (5 s; a long import, a
# backup): the run exits 75, as one the [quiet] policy skips does, and
# perfwatchd took it for that: it logged "skipped: the machine was busy"
# and dropped the battery's reasons, so a package upgrade's battery was
# lost.  It is now queued again and tried after 10 s, the status and
# systemd's STATUS say so, and it runs once the lock is let go.  (A
# [quiet] skip is still dropped: daemon_quiet.sh.)
set -eu
. "$(dirname "$0")/daemon.subr"

SLOW=5 write_profile slow
write_conf_manual
notify_listen
NOTIFY_SOCKET="$T/notify.sock" start_daemon

# The lock, held for 13 s: past the run's two waits of a busy timeout
# (its sweep of dead runs, then its snapshot), not past the retry.
hold_store_lock "$DB" "$T/locked" 13 &
locker=$!
wait_file -e "$T/locked" "$locker" "the locker"

request '{"cmd":"trigger","workloads":["slow"]}' | grep -q '"ok":true' ||
	fail "trigger refused"
wait_until 30 "the run that found the store locked" grep -q \
    "the battery (manual) could not record its run: machine snapshot: .*database is locked (another process holds the store locked); trying again in 10 s" \
    "$LOG" || fail "no retry said after the locked store"
if grep -q "skipped: the machine was busy" "$LOG"; then
	fail "the locked store was taken for a busy machine"
fi
expect_retry "workloads slow" "a run could not record itself"
[ "$(count_runs "1")" -eq 0 ] || fail "a run was recorded"

wait "$locker" || fail "the locker failed"
# Started at last: the retry's message is no longer the problem.
wait_until 30 "the retried battery's start" sh -c \
    "[ \$(grep -c 'battery started (manual' '$LOG') -ge 2 ]" ||
	fail "the battery was not started again"
[ "$(status_field 'd["work"] is not None and d["last_error"] is None')" = \
    True ] || fail "status while it runs: $(request '{"cmd":"status"}')"
wait_until 40 "the battery after the retry" runs_at_least 1 \
    "trigger = 'manual' AND status = 'complete'" ||
	fail "the kept battery never ran"
expect_eq "$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'manual'")" \
    "workloads slow"
[ "$(status_field 'len(d["pending"])')" = 0 ] || fail "still queued"
[ "$(status_field 'd["retry_at"]')" = None ] || fail "a retry still armed"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
