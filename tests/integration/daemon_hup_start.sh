#!/bin/sh
# A reload (SIGHUP) while perfwatchd starts, its store held locked by
# another process for a few seconds (a long import, a backup): the
# daemon gets ready and reloads, as SIGHUP means.  SIGHUP still had its
# default action until the event loop's handlers were set, late in the
# start: the daemon died of it (129) with no word, its socket left.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual
mkdir -p "$T/state"
empty_store "$DB"
hold_store_lock "$DB" "$T/locked" 4 &
locker=$!
wait_file -e "$T/locked" "$locker" "the locker"

"$PERFWATCHD" -d -f "$CONF" >>"$LOG" 2>&1 &
DPID=$!
# Within the start: it waits for the lock up to the busy timeout (5 s).
sleep 1
kill -0 "$DPID" 2>/dev/null || fail "perfwatchd ended before the reload"
kill -HUP "$DPID"
wait_until 30 "perfwatchd ready" grep -q "ready:" "$LOG" || {
	DSTATUS=0
	kill -0 "$DPID" 2>/dev/null || wait "$DPID" || DSTATUS=$?
	fail "perfwatchd did not get ready (exit $DSTATUS)"
}
wait_until 15 "the reload" grep -q "reloaded $CONF" "$LOG" ||
	fail "the SIGHUP sent while it started was not a reload"
kill -0 "$DPID" 2>/dev/null || fail "perfwatchd is gone"
pwc status >/dev/null 2>&1 || fail "status: perfwatchd does not answer"
wait "$locker" || :
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
