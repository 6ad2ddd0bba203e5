#!/bin/sh
# /api/history of one metric can be large: it holds every iteration of
# each of the newest 400 runs, and a run may have up to 100000.  It is
# built as /api/changes of every metric is: by `perfwatch history` as a
# child, into a file, sent a piece at a time.  Before, the daemon read
# it and built it whole in its own memory, in its loop, and held the
# whole answer while a slow client read it (a store made by hand, 16
# workloads' "wall" on 32 hosts, gave 92 MiB, the loop blocked 6 s and
# the daemon's peak resident memory 590 MB).
#
# The store holds one metric of 400 runs of 2500 iterations: an answer
# of some 20 MiB.  Four python3 clients each ask for it with a 4 KiB
# receive buffer and then read 64 bytes every quarter second; once all
# four have their reply headers, the daemon's resident memory must have
# grown by less than 24 MiB (the four answers are 80 MiB), and a child
# must have built each.  A fifth gets 503 with Retry-After and starts
# no build.  Once the four have left, a fast client gets the answer
# whole, with its length, as `perfwatch history --limit 400 --json`
# prints it; HEAD starts no build and says no length.
set -eu
. "$(dirname "$0")/daemon.subr"

command -v curl >/dev/null 2>&1 || fail "curl is not installed"
command -v sqlite3 >/dev/null 2>&1 || skip "sqlite3 is not installed"
[ -r /proc/self/status ] || skip "no /proc to read the daemon's memory"
export PERFWATCH_DB="$DB"

PORT=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')

# rss: the daemon's resident memory in KiB.
rss() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$DPID/status"
}

# started: how many children have built a history.
started() {
	grep -c 'dashboard: perfwatch history: started' "$LOG" || true
}

write_profile
write_conf_manual
# Long enough that no slow reader is cut while the test looks.
awk -v v="127.0.0.1:$PORT" '{ print } /^\[perfwatch\]$/ {
	print "http = " v; print "http_timeout = 300" }' "$CONF" >"$CONF.new"
mv "$CONF.new" "$CONF"
mkdir -p "$T/state"
# 400 runs of five iterations, imported; then 2495 more of each.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,host,iteration"
	s = 5
	for (r = 1; r <= 400; r++)
		for (i = 1; i <= 5; i++) {
			s = (s * 1103515245 + 12345) % 2147483648
			printf "r%03d,%d,w,hist,%.4f,ms,lower,box,%d\n", r,
			    1600000000 + r * 86400,
			    100 * (1 + 0.02 * (s / 2147483648 - 0.5)), i
		}
}' >"$T/seed.csv"
pwc import "$T/seed.csv" >/dev/null || fail "import"
sql "WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n
	WHERE k < 499)
    INSERT INTO samples (run, metric, iteration, value)
	SELECT s.run, s.metric, s.iteration + 5 * n.k, s.value + n.k
	FROM samples s, n;" || fail "the iterations were not made"
pwc history --metric hist --limit 400 --json >"$T/history.cli" ||
	fail "history --json"
size=$(wc -c <"$T/history.cli" | tr -d ' ')
[ "$size" -gt $((18 * 1024 * 1024)) ] ||
	fail "history --json is only $size bytes"
start_daemon

before=$(rss)
python3 - "$PORT" "$T/slow.ready" <<'EOF' &
import socket, sys, threading, time
port, ready = int(sys.argv[1]), sys.argv[2]
def slow(s):
    # A few bytes a second, until the daemon closes the connection.
    try:
        while s.recv(64):
            time.sleep(0.25)
    except OSError:
        pass
threads = []
for k in range(4):
    # One build at a time: each asks once the last has its answer.
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /api/history?metric=hist HTTP/1.1\r\n"
              b"Host: 127.0.0.1\r\n\r\n")
    head = b""
    while b"\r\n\r\n" not in head:
        b = s.recv(1)
        if not b:
            sys.exit("connection %d closed before its headers" % k)
        head += b
    if not head.startswith(b"HTTP/1.1 200 "):
        sys.exit("reply %d: %r" % (k, head))
    t = threading.Thread(target=slow, args=(s,))
    t.start()
    threads.append(t)
open(ready, "w").close()
# Until killed, or the daemon is gone (a test that fails kills it).
for t in threads:
    t.join()
EOF
SLOWPY=$!
wait_until 120 "four slow readers with their headers" test -e "$T/slow.ready" ||
	fail "the slow readers did not get their answers"
after=$(rss)
grown=$(( (after - before) / 1024 ))
echo "rss before ${before} KiB, with four slow readers ${after} KiB"
[ "$grown" -lt 24 ] ||
	fail "four slow readers grew the daemon by $grown MiB (24 at most)"
[ "$(started)" = 4 ] || fail "$(started) children built the four answers"

# A fifth while the four are read: 503 with Retry-After, and no build.
c=$(curl -sS --max-time 60 -o "$T/five.body" -D "$T/five.headers" \
    -w '%{http_code}' "http://127.0.0.1:$PORT/api/history?metric=hist")
[ "$c" = 503 ] || fail "a fifth answer while four are read: $c, not 503"
grep -qi '^retry-after: 5' "$T/five.headers" ||
	fail "503 without Retry-After: $(cat "$T/five.headers")"
grep -q 'still being read' "$T/five.body" ||
	fail "503 does not say why: $(cat "$T/five.body")"
[ "$(started)" = 4 ] || fail "the fifth request started a build"

# The slow readers leave; then a client that reads at once gets it all,
# as the command prints it.
kill "$SLOWPY" 2>/dev/null || true
wait "$SLOWPY" 2>/dev/null || true
# all: GET /api/history into $T/all.*, true when it is answered 200.
all() {
	curl -sS --max-time 120 -o "$T/all.body" -D "$T/all.headers" \
	    -w '%{http_code}' "http://127.0.0.1:$PORT/api/history?metric=hist" \
	    >"$T/all.code" && [ "$(cat "$T/all.code")" = 200 ]
}
wait_until 60 "an answer once the slow readers left" all ||
	fail "/api/history once the slow readers left: $(cat "$T/all.code")"
cmp -s "$T/all.body" "$T/history.cli" ||
	fail "/api/history differs from history --json"
grep -qi "^content-length: $size" "$T/all.headers" ||
	fail "GET: not $size bytes: $(cat "$T/all.headers")"
grep -qi '^content-type: application/json' "$T/all.headers" ||
	fail "no Content-Type: $(cat "$T/all.headers")"
n=$(started)
curl -sS --max-time 60 -I -o "$T/head.headers" \
    "http://127.0.0.1:$PORT/api/history?metric=hist" || fail "HEAD"
grep -q '^HTTP/1.1 200 ' "$T/head.headers" ||
	fail "HEAD: $(cat "$T/head.headers")"
grep -qi "^content-length:" "$T/head.headers" &&
	fail "HEAD: a length without a build: $(cat "$T/head.headers")"
[ "$(started)" = "$n" ] || fail "HEAD /api/history started a build"

stop_daemon
[ "$DSTATUS" = 0 ] || fail "perfwatchd exited $DSTATUS"
pass
