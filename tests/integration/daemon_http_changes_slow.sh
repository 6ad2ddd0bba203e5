#!/bin/sh
# Clients that read /api/changes (every metric) slowly do not each hold
# its whole answer in the daemon's memory.  The answer is built into a
# file and sent from it a piece at a time, the next piece read only once
# the last has left; before, every slow reader kept the whole answer (up
# to 256 MiB) in the daemon, and several slow readers multiplied it.
#
# The store holds 1200 metrics with a step each and names of 16 KiB, an
# answer of some 19 MiB.  Four python3 clients each ask for it with a
# 4 KiB receive buffer and then read 64 bytes every quarter second; once
# all four have their reply headers, the daemon's resident memory must
# have grown by less than 24 MiB (the four answers are 76 MiB).  Four
# answers being read are the most: a fifth request gets 503 with
# Retry-After, and starts no build (before, every slow reader kept a
# file of up to 256 MiB in state_dir).  Once the four have left, a fast
# client gets the answer whole, as `perfwatch changes --json` prints
# it, with its length (HEAD, which builds nothing, has none).
set -eu
. "$(dirname "$0")/daemon.subr"
. "$(dirname "$0")/http.subr"

command -v sqlite3 >/dev/null 2>&1 || skip "sqlite3 is not installed"
# Long enough that no slow reader is cut while the test looks.
http_conf "http_timeout = 300"
# One metric with a step, imported; then 1200 more of the same samples.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,host,iteration"
	s = 7
	for (r = 1; r <= 16; r++)
		for (i = 1; i <= 3; i++) {
			s = (s * 1103515245 + 12345) % 2147483648
			v = (r <= 8 ? 100 : 130) * (1 + 0.02 * (s / 2147483648 - 0.5))
			printf "r%02d,%d,w,seed,%.4f,ms,lower,box,%d\n",
			    r, 1703000000 + r * 86400, v, i
		}
}' >"$T/seed.csv"
pwc import "$T/seed.csv" >/dev/null || fail "import"
sql "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
	WHERE i < 1200)
    INSERT INTO metrics (workload, metric, unit, better)
	SELECT 'w', printf('m%04d-', i) || hex(zeroblob(8192)), 'ms', 'lower'
	FROM n;
    INSERT INTO samples (run, metric, iteration, value)
	SELECT s.run, m.id, s.iteration, s.value FROM samples s, metrics m
	WHERE s.metric = (SELECT id FROM metrics WHERE metric = 'seed')
	AND m.metric <> 'seed';" || fail "the metrics were not made"
pwc changes --json >"$T/changes.cli" || fail "changes --json"
size=$(wc -c <"$T/changes.cli" | tr -d ' ')
[ "$size" -gt $((18 * 1024 * 1024)) ] ||
	fail "changes --json is only $size bytes"
start_daemon

http_slow_readers "/api/changes"

# Their files are on no path of state_dir.
ls "$T/state" | grep -q changes && fail "an answer's file left in state_dir"

# A fifth while the four are read: 503 with Retry-After, and no build.
builds=$(grep -c 'dashboard: perfwatch changes: started' "$LOG")
http_busy "/api/changes"
[ "$(grep -c 'dashboard: perfwatch changes: started' "$LOG")" = "$builds" ] ||
	fail "the fifth request started a build"

# The slow readers leave; then a client that reads at once gets it all,
# as the command prints it.
kill "$SLOWPY" 2>/dev/null || true
wait "$SLOWPY" 2>/dev/null || true
wait_until 60 "an answer once the slow readers left" http_all "/api/changes" ||
	fail "/api/changes once the slow readers left: $(cat "$T/all.code")"
cmp -s "$T/all.body" "$T/changes.cli" ||
	fail "/api/changes differs from changes --json"
grep -qi '^content-type: application/json' "$T/all.headers" ||
	fail "no Content-Type: $(cat "$T/all.headers")"
grep -qi '^x-content-type-options: nosniff' "$T/all.headers" ||
	fail "no nosniff: $(cat "$T/all.headers")"
# GET says the length of the answer; HEAD, which builds nothing, not.
grep -qi "^content-length: $size" "$T/all.headers" ||
	fail "GET: not $size bytes: $(cat "$T/all.headers")"
curl -sS --max-time 120 -I -o "$T/head.headers" \
    "http://127.0.0.1:$PORT/api/changes" || fail "HEAD /api/changes"
grep -qi "^content-length:" "$T/head.headers" &&
	fail "HEAD: a length without a build: $(cat "$T/head.headers")"
grep -qi '^content-type: application/json' "$T/head.headers" ||
	fail "HEAD: no Content-Type: $(cat "$T/head.headers")"

stop_daemon
[ "$DSTATUS" = 0 ] || fail "perfwatchd exited $DSTATUS"
pass
