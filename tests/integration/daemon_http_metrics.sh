#!/bin/sh
# The dashboard's bounds on metrics, and perfwatchd(8) stating them: /
# links the first 500 metrics and says how many there are; a name that
# more than 16 workloads have is answered 400 by /metric and
# /api/history unless workload= says which, while one of 16 workloads
# gets a page linking each.  The manual said "a link to each metric"
# and nothing of the 400, which perfwatch history never gives.
set -eu
. "$(dirname "$0")/daemon.subr"
. "$(dirname "$0")/http.subr"

top=${PERFWATCH_TOP:?}

HTTP_MAX_TIME=10

# One run: 501 workloads with a metric m, and 16 with a metric n.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better"
	for (i = 1; i <= 501; i++)
		printf "r1,1700000000,w%03d,m,%d,s,lower\n", i, i
	for (i = 1; i <= 16; i++)
		printf "r1,1700000000,v%02d,n,%d,s,lower\n", i, i
}' >"$T/many.csv"
http_conf
pwc import "$T/many.csv" >/dev/null || fail "import"
start_daemon

# /: the first 500 of the 517, in workload order, and the count.
[ "$(get /)" = 200 ] || fail "/: $(cat "$T/body")"
grep -q '<p>The first 500 of 517\.</p>' "$T/body" ||
	fail "/ does not say it links the first 500 of 517 metrics"
links=$(grep -c '<li><a href="/metric?' "$T/body" || true)
expect_eq "$links" 500
grep -q 'workload=v01' "$T/body" || fail "/ does not link v01 n"
grep -q 'workload=w484' "$T/body" || fail "/ does not link w484 m"
! grep -q 'workload=w485' "$T/body" || fail "/ links a 501st metric"

# A name of 501 workloads: 400 on the page and in the API, naming
# workload=; with it, the metric's page.
for p in '/metric?name=m' '/api/history?metric=m'; do
	code=$(get "$p")
	[ "$code" = 400 ] || fail "$p: $code"
	grep -q 'name the workload too (workload=)' "$T/body" ||
		fail "$p: $(cat "$T/body")"
done
[ "$(get '/metric?name=m&workload=w501')" = 200 ] ||
	fail "/metric?name=m&workload=w501: $(cat "$T/body")"
[ "$(get '/api/history?metric=m&workload=w501')" = 200 ] ||
	fail "/api/history?metric=m&workload=w501"
# A name of 16: a page that links each, and every history.
[ "$(get '/metric?name=n')" = 200 ] || fail "/metric?name=n"
grep -q '<p>Metrics of this name:</p>' "$T/body" ||
	fail "/metric?name=n is not the list of its metrics"
expect_eq "$(grep -c '<li><a href="/metric?' "$T/body")" 16
[ "$(get '/api/history?metric=n')" = 200 ] || fail "/api/history?metric=n"
expect_eq "$(python3 -c 'import json, sys
print(len(json.load(open(sys.argv[1]))))' "$T/body")" 16
stop_daemon

# perfwatchd(8) gives both bounds.
tr '\n' ' ' <"$top/man/perfwatchd.8" >"$T/man"
for words in 'link to each metric, by workload and name (the first 500, and then how many there are' \
    'gets a page that links the metric of each; more than 16 such workloads are answered 400'; do
	grep -qF -- "$words" "$T/man" || fail "perfwatchd(8) lacks: $words"
done
pass
