#!/bin/sh
# A client that asks once, quickly, then sends its next request on the
# connection kept alive a byte at a time, each within http_timeout: the
# connection is closed http_timeout after the reply, as a first request
# sent so is.  The deadline was of a connection's first request alone,
# and such a connection stayed open for ever (a byte each 1.5 s with a
# timeout of 2 s); 64 of them took the dashboard.
set -eu
. "$(dirname "$0")/daemon.subr"

PORT=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
write_profile
write_conf_manual
awk -v p="$PORT" '{ print } /^\[perfwatch\]$/ {
	print "http = 127.0.0.1:" p; print "http_timeout = 2s" }' "$CONF" \
    >"$T/conf.tmp"
mv "$T/conf.tmp" "$CONF"
start_daemon
timeout 60 python3 - "$PORT" <<'EOF' || fail "a kept-alive connection"
import socket, sys, time

port = int(sys.argv[1])
kept = socket.create_connection(("127.0.0.1", port))
kept.settimeout(20)
kept.sendall(b"GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
head = b""
while b"\r\n\r\n" not in head:
    b = kept.recv(1)
    if not b:
        print("FAIL: no reply", file=sys.stderr)
        sys.exit(1)
    head += b
if not head.startswith(b"HTTP/1.1 200"):
    print("FAIL: reply %r" % head[:40], file=sys.stderr)
    sys.exit(1)
length = [int(h.split(b":")[1]) for h in head.split(b"\r\n")
          if h.lower().startswith(b"content-length:")][0]
body = b""
while len(body) < length:
    body += kept.recv(length - len(body))
req = b"GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Slow: y\r\n" * 50
start = time.monotonic()
kept.setblocking(False)
for i in range(len(req)):
    try:
        kept.sendall(req[i:i + 1])
        if kept.recv(1) == b"":
            break
    except BlockingIOError:
        pass
    except (ConnectionResetError, BrokenPipeError):
        break
    if time.monotonic() - start > 12:
        print("FAIL: still open %.1f s after the reply, %d bytes of the "
              "next request sent 1.5 s apart" % (time.monotonic() - start,
              i + 1), file=sys.stderr)
        sys.exit(1)
    time.sleep(1.5)
EOF
# The dashboard still answers.
python3 - "$PORT" <<'EOF' || fail "the dashboard does not answer"
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
s.sendall(b"GET /api/runs HTTP/1.0\r\n\r\n")
assert s.recv(64).startswith(b"HTTP/1.0 200")
EOF
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
