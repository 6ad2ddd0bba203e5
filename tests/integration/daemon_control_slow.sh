#!/bin/sh
# Control socket clients that hold the daemon without asking anything:
# - one that sends a byte every few seconds and never a whole request:
#   its 30 s counted from each byte, it was never closed, and 32 such
#   clients locked everyone out ("too many connections").  It is closed
#   30 s after it connected, however it trickles;
# - one that sends requests without reading the replies: they piled up
#   in the daemon's memory, 50 MB in 20 s.  It is not read while 256 KiB
#   of replies wait for it; the daemon grows by less than 8 MiB.
# Meanwhile the daemon answers others.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual
start_daemon

rss() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$DPID/status"
}
before=$(rss)
# Under a sanitizer freed memory is held back (ASan's quarantine), so the
# daemon's size says nothing of what it keeps: the bound is not checked.
sanitized=0
if ldd "$PERFWATCHD" 2>/dev/null | grep -q 'libasan\|libtsan'; then
	sanitized=1
fi
timeout 60 python3 - "$SOCK" "$DPID" "$before" "$sanitized" <<'EOF' ||
import socket, sys, time
path, pid, before = sys.argv[1], sys.argv[2], int(sys.argv[3])
sanitized = sys.argv[4] == "1"

def rss():
    for l in open("/proc/%s/status" % pid):
        if l.startswith("VmRSS:"):
            return int(l.split()[1])

# Requests without reading a reply, for 6 s.
flood = socket.socket(socket.AF_UNIX)
flood.connect(path)
flood.setblocking(False)
req = b'{"cmd":"status"}\n' * 64
end = time.monotonic() + 6
sent = 0
while time.monotonic() < end:
    try:
        sent += flood.send(req)
    except BlockingIOError:
        time.sleep(0.01)
grew = rss() - before
assert sanitized or grew < 8 * 1024, \
    "the daemon grew by %d KiB for %d bytes of requests" % (grew, sent)

# Another client is answered meanwhile.
other = socket.socket(socket.AF_UNIX)
other.connect(path)
other.settimeout(10)
other.sendall(b'{"cmd":"status"}\n')
assert other.makefile("rb").readline().startswith(b'{"ok":true'), "no answer"
other.close()

# The one that reads nothing: once it reads, its replies come, and more.
flood.setblocking(True)
flood.settimeout(10)
got = flood.recv(65536)
assert got.startswith(b'{"ok":true'), got[:80]
flood.close()

# A byte every 3 s, never a newline: closed within 30 s of connecting.
slow = socket.socket(socket.AF_UNIX)
slow.connect(path)
slow.settimeout(1)
start = time.monotonic()
closed = None
while time.monotonic() - start < 45:
    try:
        slow.send(b" ")
        if slow.recv(1) == b"":
            closed = time.monotonic() - start
            break
    except socket.timeout:
        pass
    except (BrokenPipeError, ConnectionResetError):
        closed = time.monotonic() - start
        break
    time.sleep(2)
assert closed is not None, "a client sending a byte every 3 s kept its connection 45 s"
assert closed >= 25, "closed after %.1f s, before its 30" % closed
EOF
	fail "the slow clients"
[ "$(status_field 'd["state"]')" = idle ] || fail "the daemon after the slow clients"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
