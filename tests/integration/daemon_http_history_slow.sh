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
. "$(dirname "$0")/http.subr"

command -v sqlite3 >/dev/null 2>&1 || skip "sqlite3 is not installed"
[ -r /proc/self/status ] || skip "no /proc to read the daemon's memory"
# started: how many children have built a history.
started() {
	grep -c 'dashboard: perfwatch history: started' "$LOG" || true
}

# Long enough that no slow reader is cut while the test looks.
http_conf "http_timeout = 300"
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

http_slow_readers "/api/history?metric=hist"
[ "$(started)" = 4 ] || fail "$(started) children built the four answers"

# A fifth while the four are read: 503 with Retry-After, and no build.
http_busy "/api/history?metric=hist"
[ "$(started)" = 4 ] || fail "the fifth request started a build"

# The slow readers leave; then a client that reads at once gets it all,
# as the command prints it.
kill "$SLOWPY" 2>/dev/null || true
wait "$SLOWPY" 2>/dev/null || true
wait_until 60 "an answer once the slow readers left" \
    http_all "/api/history?metric=hist" ||
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
