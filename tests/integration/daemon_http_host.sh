#!/bin/sh
# A dashboard on a loopback address answers only a request whose Host is
# an address or localhost: one that names another host gets 421, so that
# a page of another site whose name is made to resolve to 127.0.0.1 (DNS
# rebinding) cannot read the dashboard through its visitor's browser.
# Before, every Host was answered, and "keep it on a loopback address"
# protected nothing from the browser on the same machine.
#
# curl asks with Host set as a browser would after a rebinding, on /,
# /api/runs and /api/changes (whose build is not started); then the
# Hosts a person or a local proxy sends are answered: 127.0.0.1 with
# and without the port, localhost (any case, with its trailing dot),
# [::1], and none at all (HTTP/1.0 from a python3 socket); HTTP/1.1
# without Host, or with two, gets 400.
set -eu
. "$(dirname "$0")/daemon.subr"

command -v curl >/dev/null 2>&1 || fail "curl is not installed"

PORT=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')

write_profile
write_conf_manual
awk -v v="127.0.0.1:$PORT" '{ print } /^\[perfwatch\]$/ {
	print "http = " v }' "$CONF" >"$CONF.new"
mv "$CONF.new" "$CONF"
start_daemon

# code HOST PATH: the status of GET PATH with Host: HOST.
code() {
	curl -sS --max-time 20 -o "$T/body" -D "$T/headers" \
	    -H "Host: $1" -w '%{http_code}' "http://127.0.0.1:$PORT$2"
}

for h in "rebound.example:$PORT" rebound.example "evil.127.0.0.1.nip.io:$PORT" \
    "localhost.example:$PORT" "127.0.0.1.example" "[::1]x:$PORT"; do
	for p in / /api/runs /api/changes; do
		c=$(code "$h" "$p")
		[ "$c" = 421 ] || fail "Host: $h, $p: $c, not 421"
	done
done
grep -q 'rebound' "$T/body" && fail "the 421 repeats the Host: $(cat "$T/body")"
grep -q 'dashboard: perfwatch changes: started' "$LOG" &&
	fail "a request refused started a build"

for h in "127.0.0.1:$PORT" 127.0.0.1 "localhost:$PORT" LocalHost \
    "localhost.:$PORT" "[::1]:$PORT"; do
	c=$(code "$h" /api/runs)
	[ "$c" = 200 ] || fail "Host: $h: $c, not 200"
done

python3 - "$PORT" <<'EOF' || fail "HTTP/1.0 without Host was not answered"
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET /api/runs HTTP/1.0\r\n\r\n")
reply = b""
while True:
    b = s.recv(4096)
    if not b:
        break
    reply += b
assert reply.startswith(b"HTTP/1.0 200 ") or reply.startswith(b"HTTP/1.1 200 "), reply[:100]
EOF

# HTTP/1.1 without Host: 400 (RFC 9112 3.2), where it was answered.
python3 - "$PORT" <<'EOF' || fail "HTTP/1.1 without Host was answered"
import socket, sys
for path in (b"/", b"/api/runs"):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
    s.sendall(b"GET " + path + b" HTTP/1.1\r\nConnection: close\r\n\r\n")
    reply = b""
    while True:
        b = s.recv(4096)
        if not b:
            break
        reply += b
    assert reply.startswith(b"HTTP/1.1 400 "), (path, reply[:100])
    assert b"must have a Host" in reply, (path, reply)
EOF

# Two Hosts, the first ours: 400, not the first taken and the rest let be.
python3 - "$PORT" <<'EOF' || fail "two Hosts were answered"
import socket, sys
for path in (b"/", b"/api/runs"):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
    s.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              b"Host: rebound.example\r\nConnection: close\r\n\r\n")
    reply = b""
    while True:
        b = s.recv(4096)
        if not b:
            break
        reply += b
    assert reply.startswith(b"HTTP/1.1 400 "), (path, reply[:100])
    assert b"more than one Host" in reply, (path, reply)
EOF

stop_daemon
[ "$DSTATUS" = 0 ] || fail "perfwatchd exited $DSTATUS"
pass
