#!/bin/sh
# The dashboard serves at most 64 connections at once, and closes one
# that has said nothing for http_timeout.  64 clients connect and send
# half a request; a 65th is closed at once while the 64 stay open, and so
# is a full request for /api/runs, the daemon logging one line for the
# burst; the control socket answers meanwhile.  Once http_timeout has
# closed the idle ones, /api/runs is answered again and the daemon says
# how many it closed.  Before, every connection was taken: the 65th
# stayed open, idle, until the timeout closed it with the others.  Then
# a request sent a byte at a time is cut off after http_timeout, the
# first on a connection (before, each byte reset evhttp's timeout, and
# it held its connection for ever) or the next on one kept alive.
#
# Nothing here is timed: each step waits for what it needs (with a bound
# that only a stuck daemon reaches), and http_timeout is long enough
# that the 64 are still open when the 65th is looked at.
set -eu
. "$(dirname "$0")/daemon.subr"

PORT=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')

write_profile
write_conf_manual
# set_perfwatch KEY = VALUE...: lines into [perfwatch].
set_perfwatch() {
	awk -v v="$*" '{ print } /^\[perfwatch\]$/ { print v }' "$CONF" \
	    >"$T/conf.tmp"
	mv "$T/conf.tmp" "$CONF"
}
set_perfwatch "http = 127.0.0.1:$PORT"

# A timeout out of range is an error naming the file and line.
cp "$CONF" "$T/good.conf"
set_perfwatch "http_timeout = 0"
rc=0
out=$("$PERFWATCHD" -n -f "$CONF" 2>&1) || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd -n on http_timeout = 0: exit $rc: $out"
expect_match "$out" "$CONF:2: "
expect_match "$out" "http_timeout"
cp "$T/good.conf" "$CONF"

set_perfwatch "http_timeout = 15s"
start_daemon

timeout 120 python3 - "$PORT" "$PERFWATCH" "$CONF" <<'EOF' ||
import socket, subprocess, sys, time

port = int(sys.argv[1])
perfwatch, conf = sys.argv[2:]


def bad(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def closed(s):
    """True once the daemon has closed s (an EOF or a reset)."""
    try:
        return s.recv(4096, socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except ConnectionResetError:
        return True


def wait_closed(s, what, limit=30):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if closed(s):
            return
        time.sleep(0.05)
    bad("gave up after %ds waiting for the daemon to close %s" %
        (limit, what))


def get_runs():
    """The status line of GET /api/runs, or None if closed unanswered."""
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(20)
    try:
        s.sendall(b"GET /api/runs HTTP/1.0\r\n\r\n")
        reply = b""
        while True:
            b = s.recv(65536)
            if not b:
                break
            reply += b
    except (ConnectionResetError, BrokenPipeError):
        reply = b""
    finally:
        s.close()
    return reply.split(b"\r\n", 1)[0] if reply else None


# The dashboard answers before the burst.
if get_runs() != b"HTTP/1.0 200 OK":
    bad("/api/runs was not answered before the burst")

held = []
for i in range(64):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /api/r")
    held.append(s)
extra = socket.create_connection(("127.0.0.1", port))
wait_closed(extra, "the 65th connection")
still = sum(1 for s in held if not closed(s))
if still != 64:
    bad("the 65th connection was closed, but so were %d of the 64 "
        "before it" % (64 - still))
line = get_runs()
if line is not None:
    bad("/api/runs was answered beyond the 64 connections: %r" % line)
# The control socket has its descriptors still.
st = subprocess.run([perfwatch, "-c", conf, "status"], timeout=20,
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
if st.returncode != 0:
    bad("perfwatch status failed during the burst: %s" % st.stderr)

# http_timeout closes the idle ones; then /api/runs is answered again.
for s in held:
    wait_closed(s, "an idle connection (http_timeout)", 60)
end = time.monotonic() + 30
while get_runs() != b"HTTP/1.0 200 OK":
    if time.monotonic() > end:
        bad("/api/runs not answered after the idle connections closed")
    time.sleep(0.2)
EOF
	fail "the dashboard's connection limit"

n=$(grep -c "dashboard: 64 connections open, the most served at once; closing new ones until some end" "$LOG" || true)
[ "$n" -eq 1 ] || fail "$n lines for one burst of refused connections, expected 1"
grep -q "dashboard: serving new connections again; 2 were closed meanwhile" \
    "$LOG" || fail "no line when the dashboard served again"

# A client that sends its request a byte at a time, each well within the
# timeout, is closed all the same once it has had http_timeout to send
# it whole (2s after a reload, which sets it for what comes), and so is
# one that does so with its second request on a connection kept alive
# (evhttp itself closes that one, http_timeout after its last reply),
# while one that asked in time is answered.
sed 's/^http_timeout = .*/http_timeout = 2s/' "$CONF" >"$T/conf.tmp"
mv "$T/conf.tmp" "$CONF"
kill -HUP "$DPID"
wait_until 15 "the reload" grep -q "reloaded" "$LOG" || fail "not reloaded"
timeout 120 python3 - "$PORT" <<'EOF' || fail "a request sent a byte at a time"
import socket, sys, time

port = int(sys.argv[1])
req = b"GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Slow: y\r\n" * 100


def trickle(s, what):
    """Send req a byte at a time until the daemon closes s."""
    start = time.monotonic()
    closed = False
    for i in range(len(req)):
        try:
            s.sendall(req[i:i + 1])
            if s.recv(1, socket.MSG_DONTWAIT) == b"":
                closed = True
        except BlockingIOError:
            pass
        except (ConnectionResetError, BrokenPipeError):
            closed = True
        if closed or time.monotonic() - start > 30:
            break
        time.sleep(0.25)
    if not closed:
        print("FAIL: %s: still open after %d bytes sent a quarter of a "
              "second apart" % (what, i + 1), file=sys.stderr)
        sys.exit(1)


trickle(socket.create_connection(("127.0.0.1", port)), "a first request")

# Kept alive: a request answered, then the next sent a byte at a time.
kept = socket.create_connection(("127.0.0.1", port))
kept.settimeout(20)
kept.sendall(b"GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
head = b""
while b"\r\n\r\n" not in head:
    b = kept.recv(1)
    if not b:
        print("FAIL: no reply on the kept-alive connection", file=sys.stderr)
        sys.exit(1)
    head += b
length = [int(h.split(b":")[1]) for h in head.split(b"\r\n")
          if h.lower().startswith(b"content-length:")][0]
body = b""
while len(body) < length:
    body += kept.recv(length - len(body))
if not head.startswith(b"HTTP/1.1 200"):
    print("FAIL: kept-alive reply: %r" % head[:40], file=sys.stderr)
    sys.exit(1)
trickle(kept, "a second request on a kept-alive connection")
quick = socket.create_connection(("127.0.0.1", port))
quick.settimeout(20)
quick.sendall(b"GET /api/runs HTTP/1.0\r\n\r\n")
if not quick.recv(64).startswith(b"HTTP/1.0 200"):
    print("FAIL: a request sent at once was not answered", file=sys.stderr)
    sys.exit(1)
EOF
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
