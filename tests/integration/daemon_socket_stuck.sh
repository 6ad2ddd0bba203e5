#!/bin/sh
# A process that listens on perfwatchd's socket path but takes no
# connection (another perfwatchd, stuck, its backlog full) stops the
# start with a reason, within seconds.  The start-up probe of the socket
# used to wait in connect() for ever.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual
mkdir -p "$(dirname "$SOCK")"

# A listener that has filled its backlog, then accepts nothing.
stuck_socket stream "$SOCK"

rc=0
timeout 20 "$PERFWATCHD" -d -f "$CONF" >"$LOG" 2>&1 || rc=$?
[ "$rc" -ne 124 ] || fail "perfwatchd hung on the stuck listener's socket"
[ "$rc" -eq 1 ] || fail "perfwatchd exited $rc"
grep -q "$SOCK: a process listens on this socket but has taken no \
connection in 2 s (another perfwatchd, stuck?)" "$LOG" ||
	fail "no reason given"
test -S "$SOCK" || fail "the listener's socket was removed"
pass
