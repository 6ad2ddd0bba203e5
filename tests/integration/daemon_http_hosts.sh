#!/bin/sh
# A metric's page and its history without host= read each host's runs in
# the daemon's loop, up to 400 of them per host: a metric measured on
# more than 32 hosts is refused there with 400 asking for host=, and its
# /api/changes is built by a child, as that of every metric is.  Before,
# every host was read and charted, however many the store held (0.9 s
# and 8 MiB of JSON for 3000 hosts of 10 runs, the dashboard and the
# control socket waiting meanwhile).
#
# The store has lat on 33 hosts and few on 32, three runs each.
set -eu
. "$(dirname "$0")/daemon.subr"
. "$(dirname "$0")/http.subr"

http_conf
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,host,iteration"
	for (h = 1; h <= 33; h++)
		for (r = 1; r <= 3; r++) {
			printf "h%02d-r%d,%d,w,lat,%d,ms,lower,host%02d,1\n",
			    h, r, 1703000000 + r * 86400 + h, 100 + r, h
			if (h <= 32)
				printf "h%02d-r%d,%d,w,few,%d,ms,lower,host%02d,1\n",
				    h, r, 1703000000 + r * 86400 + h, 50 + r, h
		}
}' >"$T/hosts.csv"
pwc import "$T/hosts.csv" >/dev/null || fail "import"
pwc changes --json --metric lat >"$T/changes.cli" || fail "changes --json"
start_daemon

# 33 hosts: refused, naming host=.
[ "$(get '/api/history?metric=lat')" = 400 ] ||
	fail "/api/history of 33 hosts: not 400: $(head -c 300 "$T/body")"
python3 - "$T/body" <<'EOF' || fail "400 is not JSON asking for host=: $(cat "$T/body")"
import json, sys
e = json.load(open(sys.argv[1]))["error"]
assert "more than 32 hosts" in e and "host=" in e, e
EOF
[ "$(get '/metric?name=lat')" = 400 ] ||
	fail "/metric of 33 hosts: not 400: $(head -c 300 "$T/body")"
grep -q 'more than 32 hosts' "$T/body" || fail "the page does not say why"

# One of them named, or 32 hosts: answered.
[ "$(get '/api/history?metric=lat&host=host07')" = 200 ] ||
	fail "/api/history of one host: $(head -c 300 "$T/body")"
python3 - "$T/body" <<'EOF' || fail "/api/history of host07: $(cat "$T/body")"
import json, sys
a = json.load(open(sys.argv[1]))
assert [s["host"] for s in a] == ["host07"], a
assert len(a[0]["runs"]) == 3, a
EOF
[ "$(get '/metric?name=lat&host=host07')" = 200 ] || fail "/metric of one host"
[ "$(get '/api/history?metric=few')" = 200 ] || fail "/api/history of 32 hosts"
python3 - "$T/body" <<'EOF' || fail "/api/history of few: $(head -c 300 "$T/body")"
import json, sys
assert len(json.load(open(sys.argv[1]))) == 32
EOF
[ "$(get '/metric?name=few')" = 200 ] || fail "/metric of 32 hosts"

# Its change points: by a child, as the command prints them.
grep -q 'dashboard: perfwatch changes: started' "$LOG" &&
	fail "a build before /api/changes"
[ "$(get '/api/changes?metric=lat')" = 200 ] ||
	fail "/api/changes of 33 hosts: $(head -c 300 "$T/body")"
cmp -s "$T/body" "$T/changes.cli" ||
	fail "/api/changes?metric=lat differs from changes --json --metric lat"
grep -q 'dashboard: perfwatch changes: started' "$LOG" ||
	fail "/api/changes of 33 hosts was not built by a child"

stop_daemon
[ "$DSTATUS" = 0 ] || fail "perfwatchd exited $DSTATUS"
pass
