#!/bin/sh
# Metrics far from 1 in magnitude are judged as any other: a 30% step of
# a metric near 1e200 (or 1e300) is a regression with an interval, where
# the squares of its deviations overflowed, the noise was inf (null in
# JSON), every p 1 and the step unseen; one near 1e-200 has an interval
# of some width, where the squares underflowed to 0.  One near 1.2e308,
# whose sums overflow, has a level and a verdict, where check printed a
# baseline and current of "inf" and no verdict.  show and history give
# such a run's stddev, not "inf" or 0.
set -eu
. "$(dirname "$0")/lib.sh"

# 26 runs of five iterations, about 1% apart; run 26 is 30% slower.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,host,iteration"
	s = 7
	for (r = 1; r <= 26; r++) {
		t = 1700000000 + r * 86400
		for (i = 1; i <= 5; i++) {
			s = (s * 1103515245 + 12345) % 2147483648
			v = (r == 26 ? 1.3 : 1) * (1 + 0.02 * (s / 2147483648 - 0.5))
			printf "r-%02d,%d,e,big,%.9e,x,lower,box,%d\n", r, t, v * 1e200, i
			printf "r-%02d,%d,e,huge,%.9e,x,lower,box,%d\n", r, t, v * 1e300, i
			printf "r-%02d,%d,e,max,%.9e,x,lower,box,%d\n", r, t, v * 1.2e308, i
			printf "r-%02d,%d,e,one,%.9e,x,lower,box,%d\n", r, t, v, i
			printf "r-%02d,%d,e,small,%.9e,x,lower,box,%d\n", r, t, v * 1e-200, i
		}
	}
}' >"$T/hist.csv"
pw import "$T/hist.csv" >/dev/null
for r in $(seq -w 1 25); do
	pw check "r-$r" >/dev/null 2>"$T/err" || fail "check r-$r: exit $?"
	[ ! -s "$T/err" ] || fail "check r-$r said: $(cat "$T/err")"
done
rc=0; pw check --json r-26 >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "check r-26 exited $rc: $(cat "$T/out")"
[ ! -s "$T/err" ] || fail "check r-26 said: $(cat "$T/err")"
python3 -c '
import json, sys
v = {x["metric"]: x for x in json.load(open(sys.argv[1]))["verdicts"]}
one = v["one"]
assert one["verdict"] == "regression", one
for m, scale in (("big", 1e200), ("huge", 1e300), ("max", 1.2e308),
    ("small", 1e-200)):
    x = v[m]
    # The same numbers as the metric near 1, scaled.
    assert x["verdict"] == "regression", x
    for k in ("change_pct", "ci_low", "ci_high", "p"):
        assert abs(x[k] - one[k]) <= 1e-6 * abs(one[k]), (k, x, one)
    assert x["ci_high"] - x["ci_low"] > 1, x
    for k in ("noise", "current", "baseline_level"):
        assert abs(x[k] / scale - one[k]) <= 1e-6 * abs(one[k]), (k, x, one)
' "$T/out" || fail "check --json r-26: $(cat "$T/out")"

out=$(pw show r-26)
case $out in
*inf*|*nan*) fail "show r-26: $out" ;;
esac
pw history --json --limit 1 | python3 -c '
import json, sys
h = {x["metric"]: x["runs"][0] for x in json.load(sys.stdin)}
one = h["one"]["stddev"]
assert one > 0, h
for m, scale in (("big", 1e200), ("huge", 1e300), ("max", 1.2e308),
    ("small", 1e-200)):
    sd = h[m]["stddev"]
    assert sd is not None and abs(sd / scale - one) <= 1e-6 * one, (m, h)
' || fail "history --json: $(pw history --json --limit 1)"
pass
