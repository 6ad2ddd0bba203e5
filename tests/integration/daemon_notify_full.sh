#!/bin/sh
# A NOTIFY_SOCKET whose reader has stopped reading (its queue full) does
# not stop perfwatchd: READY=1 and the STATUS= lines it has no room for
# are dropped with a warning, and the daemon answers and stops as ever.
# Its sendto() used to block, and the event loop with it, for ever.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual

# A reader that has filled its queue, then reads nothing.
stuck_socket dgram "$T/notify.sock"

NOTIFY_SOCKET="$T/notify.sock" start_daemon
reply=$(request '{"cmd":"status"}') ||
	fail "perfwatchd did not answer with its notify socket full"
expect_match "$reply" '"pending"'
grep -q "NOTIFY_SOCKET: its queue is full (the service manager does not \
read it): READY=1 not sent" "$LOG" ||
	fail "no warning of the dropped READY=1: $(cat "$LOG")"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
