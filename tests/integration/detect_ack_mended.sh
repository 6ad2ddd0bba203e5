#!/bin/sh
# An acknowledged regression accepts its level until the level moves
# back: then the accepted level's runs are left out of the rolling
# baseline, as a resolved alert's are.  Cut at the shift for ever, the
# baseline mixed the accepted runs with the mended ones (whose
# improvement, too young to confirm, was let go), its noise grew twelve
# times the runs', and a 15% regression after the fix was never told:
# "unchanged" for ten runs, check --bisect "good", until it was the
# baseline's level.
set -eu
. "$(dirname "$0")/lib.sh"

# js EXPR: the Python expression over the alerts d, as compact JSON.
js() {
	pw alerts --all --json | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(json.dumps(eval(sys.argv[1]), separators=(",", ":")))' "$1"
}

# 100 until r-25, 10% slower from r-26 (acknowledged after r-27), back
# to 100 from r-31 (the fix), 15% slower from r-37; each run 5 samples
# within 1%, imported and checked in turn, as perfwatchd does.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,host,iteration"
	s = 3
	for (r = 1; r <= 42; r++) {
		level = r >= 37 ? 115 : r >= 31 ? 100 : r >= 26 ? 110 : 100
		for (i = 1; i <= 5; i++) {
			s = (s * 1103515245 + 12345) % 2147483648
			printf "r-%02d,%d,app,lat,%.4f,ms,lower,box,%d\n", r,
			    1700000000 + r * 86400,
			    level * (1 + 0.02 * (s / 2147483648 - 0.5)), i
		}
	}
}' >"$T/all.csv"
r=1
while [ "$r" -le 42 ]; do
	run=$(printf 'r-%02d' "$r")
	{ head -n 1 "$T/all.csv"; grep "^$run," "$T/all.csv"; } >"$T/one.csv"
	pw import "$T/one.csv" >/dev/null || fail "import $run"
	rc=0
	pw check "$run" >"$T/check-$run" 2>&1 || rc=$?
	[ "$rc" -le 1 ] || fail "check $run: exit $rc: $(cat "$T/check-$run")"
	if [ "$r" -eq 27 ]; then
		expect_eq "$(js '[(a["id"], a["state"], a["first_bad_run"])
		    for a in d]')" '[[1,"confirmed","r-26"]]'
		pw alerts ack 1 >/dev/null || fail "alerts ack 1"
	fi
	r=$((r + 1))
done

# The 15% regression: suspected at r-37, confirmed at r-38, and every
# run of it bad to a bisection.
expect_match "$(cat "$T/check-r-37")" "new -> suspected (regression +1"
expect_match "$(cat "$T/check-r-38")" "suspected -> confirmed (regression"
expect_eq "$(js '[(a["state"], a["first_bad_run"], a["last_good_run"])
    for a in d if a["direction"] == "regression" and a["id"] != 1]')" \
    '[["confirmed","r-37","r-36"]]'
expect_eq "$(js '[12 < a["change_pct"] < 18 for a in d
    if a["first_bad_run"] == "r-37"]')" '[true]'
rc=0
pw check --bisect r-40 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "check --bisect r-40: exit $rc, not 1 (bad)"
# The acknowledged alert stays so; the noise r-40 is judged by is the
# runs' (within 1%), not a mix of three levels.
expect_eq "$(js '[a["state"] for a in d if a["id"] == 1]')" \
    '["acknowledged"]'
pw check --json r-40 | python3 -c '
import json, sys
v = json.load(sys.stdin)["verdicts"][0]
assert v["noise"] < 2 and 98 < v["baseline_level"] < 102, v
' || fail "check --json r-40: $(pw check --json r-40)"
pass
