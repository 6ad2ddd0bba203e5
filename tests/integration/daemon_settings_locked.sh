#!/bin/sh
# The daemon's own settings (a pause, a watched repository's last commit,
# the schedule's fires) while another process holds the store's write
# lock, as a long `perfwatch import` does.  perfwatchd used to wait the
# store's 5 s for each, its event loop standing still, then give the
# setting up, so that a restart forgot a pause.  Now a setting the lock
# refuses is kept and saved once the lock is let go: by a later try
# (every 5 s), or at stop, which waits the store's usual 5 s for it; what
# even that cannot save is said in the log.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual
start_daemon

# A pause behind a lock of 3 s: paused now, saved later, kept by a restart.
hold_store_lock "$DB" "$T/locked" 3 &
locker=$!
wait_file -e "$T/locked" "$locker" "the lock holder"
pwc pause >"$T/out" 2>"$T/err" || fail "pause: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "paused; not saved yet: another process holds the store locked, and perfwatchd saves it once the lock is let go"
grep -q "another process holds it locked; saving daemon:paused once it lets go" \
    "$LOG" || fail "the kept setting not logged"
wait "$locker" || fail "the lock holder failed"
wait_until 20 "the pause saved" setting_is daemon:paused yes ||
	fail "the pause was never saved"
grep -q "setting daemon:paused saved, after the store's lock had held it back" \
    "$LOG" || fail "the late save not logged"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
start_daemon
grep -q "ready: .*(paused)" "$LOG" || fail "the restart forgot the pause"
[ "$(status_field 'd["state"]')" = paused ] || fail "not paused after restart"

# A resume behind a lock, and a stop at once: the stop waits for the lock
# (3 s here, under the store's 5 s) and saves it on the way out.
hold_store_lock "$DB" "$T/locked2" 3 &
locker=$!
wait_file -e "$T/locked2" "$locker" "the lock holder"
pwc resume >"$T/out" 2>"$T/err" || fail "resume: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "resumed; not saved yet"
setting_is daemon:paused yes || fail "saved behind the lock?"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
wait "$locker" || fail "the lock holder failed"
setting_is daemon:paused "" || fail "the resume was not saved at stop"
[ "$(grep -c "setting daemon:paused saved, after the store's lock" "$LOG")" \
    -eq 2 ] || fail "the save at stop not logged"
start_daemon
[ "$(status_field 'd["state"]')" = idle ] ||
	fail "state after restart: $(status_field 'd["state"]')"

# A lock held past the stop's wait: the pause is lost, and the log says so.
hold_store_lock "$DB" "$T/locked3" 12 &
locker=$!
wait_file -e "$T/locked3" "$locker" "the lock holder"
pwc pause >"$T/out" 2>"$T/err" || fail "pause: $(cat "$T/err")"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
grep -q "setting daemon:paused: not saved, the store still locked (database is locked): a restart will not know it" \
    "$LOG" || fail "the lost setting not said"
wait "$locker" || fail "the lock holder failed"
setting_is daemon:paused "" || fail "saved after all?"
pass
