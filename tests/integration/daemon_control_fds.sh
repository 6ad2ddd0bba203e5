#!/bin/sh
# Out of file descriptors, the control socket backs off: a connection it
# cannot accept stays in the backlog and keeps the socket readable, so
# the daemon stops listening for a second at a time instead of spinning
# (and logging) in a loop.  Once the clients are gone it serves again.
set -eu
. "$(dirname "$0")/daemon.subr"

if ! command -v prlimit >/dev/null 2>&1 || [ ! -d /proc/self/fd ]; then
	skip "needs prlimit(1) and /proc"
fi
write_profile
write_conf_manual
start_daemon
# Room for four more descriptors above the lowest free one.
free=0
while [ -e "/proc/$DPID/fd/$free" ]; do
	free=$((free + 1))
done
soft=$(prlimit --pid "$DPID" --nofile --output SOFT --noheadings)
prlimit --pid "$DPID" --nofile="$((free + 4)):" ||
	fail "cannot lower the daemon's descriptor limit"
# Twelve clients connect and hold on for two seconds and a half.
timeout 20 python3 - "$SOCK" <<'EOF'
import socket, sys, time
held = []
for i in range(12):
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    held.append(s)
time.sleep(2.5)
EOF
n=$(grep -c "control: accept" "$LOG" || true)
[ "$n" -ge 1 ] || fail "the daemon never ran out of descriptors"
# At most one pause a second (and some slack): no loop.
[ "$n" -le 6 ] || fail "$n accept errors logged in 2.5 s: a busy loop"
grep -q "control: accept; not accepting for 1 s: Too many open files" "$LOG" ||
	fail "the pause was not logged"
prlimit --pid "$DPID" --nofile="$soft:" || fail "cannot raise the limit again"
wait_until 10 "the daemon answering" sh -c \
    "$PERFWATCH -c '$CONF' status --json | grep -q '\"state\": \"idle\"'" ||
	fail "the daemon does not answer after the clients left"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
