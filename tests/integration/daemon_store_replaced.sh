#!/bin/sh
# A database replaced (a backup put back with mv) or removed while
# perfwatchd runs: the daemon went on with the file it had opened, for
# good, while its runs (which open the path) wrote the new one; status
# showed the old, and a pause went into the removed file and was lost at
# the next start.  perfwatchd now sees it (at a status, a write of its
# own, or the end of a battery), says so, and stops with 75, for its
# supervisor to start it on the file there now.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual
start_daemon
pwc trigger >/dev/null || fail "trigger"
wait_until 30 "the run" runs_at_least 1 "status = 'complete'" ||
	fail "no run"
[ "$(status_field 'd["store_error"]')" = None ] || fail "a store error at first"

# Put back a copy of it, as a restored backup is.
sql "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
cp "$DB" "$T/backup.db"
mv "$T/backup.db" "$DB"
rm -f "$DB-wal" "$DB-shm"
rc=0
pwc status >"$T/st.out" 2>&1 || rc=$?
[ "$rc" -eq 70 ] || fail "status exited $rc: $(cat "$T/st.out")"
expect_match "$(cat "$T/st.out")" "store:     cannot be read: $DB: removed or replaced since perfwatchd opened it"
n=0
while kill -0 "$DPID" 2>/dev/null; do
	n=$((n + 1))
	[ "$n" -le 100 ] || fail "perfwatchd did not stop"
	sleep 0.1
done
DSTATUS=0
wait "$DPID" || DSTATUS=$?
DPID=
[ "$DSTATUS" -eq 75 ] || fail "perfwatchd exited $DSTATUS"
grep -q "$DB: replaced since perfwatchd opened it: stopping" "$LOG" ||
	fail "no word in the log"

# Started again, on the file there now: a pause is kept in it.
start_daemon
pwc pause >/dev/null || fail "pause"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
setting_is daemon:paused yes || fail "the pause went elsewhere"

# Removed: the same, said "removed".
start_daemon
rm -f "$DB" "$DB-wal" "$DB-shm"
rc=0
pwc resume >"$T/resume.out" 2>&1 || rc=$?
n=0
while kill -0 "$DPID" 2>/dev/null; do
	n=$((n + 1))
	[ "$n" -le 100 ] || fail "perfwatchd did not stop after a removal"
	sleep 0.1
done
DSTATUS=0
wait "$DPID" || DSTATUS=$?
DPID=
[ "$DSTATUS" -eq 75 ] || fail "perfwatchd exited $DSTATUS after a removal"
grep -q "$DB: removed since perfwatchd opened it: stopping" "$LOG" ||
	fail "no word of the removal: $(cat "$T/resume.out")"
pass
