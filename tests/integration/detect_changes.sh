#!/bin/sh
# The real TigerBeetle history (Apache Otava's test data), through the
# real binary: perfwatch changes reports the steps at r-0016 and r-0072,
# and whatever else it reports is a spike of one or two runs (r-0011 is);
# perfwatch check judges r-0062 by the noise of the runs around them.
set -eu
. "$(dirname "$0")/lib.sh"

src="$PERFWATCH_TOP/etc/examples/tigerbeetle-otava.csv"
[ -f "$src" ] || fail "missing $src"
pw import "$src" >/dev/null

out=$(pw changes)
line=$(printf '%s\n' "$out" | grep ' r-0016 ') || fail "no r-0016: $out"
expect_match "$line" " step "
line=$(printf '%s\n' "$out" | grep ' r-0072 ') || fail "no r-0072: $out"
expect_match "$line" " step "

pw changes --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
steps = [c["run"] for c in d if c["kind"] == "step"]
assert steps == ["r-0016", "r-0072"], steps
for c in d:
    if c["kind"] == "spike":
        assert c["runs"] <= 2, c
s16 = [c for c in d if c["run"] == "r-0016"][0]
assert -12.5 < s16["change_pct"] < -10.5 and s16["p"] < 0.01, s16
s72 = [c for c in d if c["run"] == "r-0072"][0]
assert s72["change_pct"] > 15 and s72["runs"] == 294, s72
'

# Filters and a lower floor: the smaller shifts appear, the two remain.
pw changes --workload tigerbeetle.demo --metric value --min-change 2 --json |
    python3 -c '
import json, sys
d = json.load(sys.stdin)
steps = [c["run"] for c in d if c["kind"] == "step"]
assert "r-0016" in steps and "r-0072" in steps and len(steps) > 2, steps
'
# A name that matches nothing is said to be one (65), not taken for a
# quiet history; a metric that is there and did not move is.
for f in "--metric nothing-like-this" "--workload nothing.like" \
    "--host nohost"; do
	rc=0
	pw changes $f >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 65 ] || fail "changes $f exited $rc, not 65"
	expect_match "$(cat "$T/err")" "perfwatch: no "
done
expect_match "$(cat "$T/err")" "no host nohost in the store"
out=$(pw changes --metric value --min-change 90)
expect_match "$out" "no change points"

# check judges r-0062's +2.8% by the noise of the runs, not by the r-0011
# spike and the r-0016 step in its window (detect.c, note 5), and says so.
out=$(pw check r-0062) && fail "check r-0062 found no regression: $out"
expect_match "$out" "noise of tigerbeetle.demo value: 60 runs; 14 moved \
across a step, 1 wild run left out"
pw check r-0062 --json | python3 -c '
import json, sys
v = json.load(sys.stdin)["verdicts"][0]
assert v["verdict"] == "regression" and 2 < v["change_pct"] < 4, v
assert v["noise_runs"] == 60 and v["noise_moved"] == 14, v
assert v["noise_left_out"] == 1 and v["noise"] < 200, v
'

# --window counts runs: a whole number, where 10.7 was taken as 10 and
# 0x10 as 16.
for w in 10.7 0x10 1e1 2 1001 ''; do
	rc=0
	pw changes --window "$w" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 64 ] || fail "changes --window '$w' exited $rc"
	[ ! -s "$T/out" ] || fail "changes --window '$w' printed: $(cat "$T/out")"
	expect_eq "$(head -n 1 "$T/err")" \
	    "perfwatch: --window: \"$w\" is not a whole number from 3 to 1000"
done
pw changes --window 3 --alpha 0.2 --metric value >/dev/null ||
	fail "changes --window 3 --alpha 0.2: exit $?"
# Windows too short for their test to reach alpha even once are refused:
# three runs a side give p 0.1 at best, four 0.029, five 0.0079, six
# 0.0022, each times the splits of two windows alone (1, 3, 5, 7): five
# and six were taken at 0.01, and could never find a step.
for wa in '3 0.01 0.1 7' '4 0.01 0.086 7' '4 0.02 0.086 6' '3 0.1 0.1 4' \
    '5 0.01 0.04 7' '6 0.01 0.015 7'; do
	set -- $wa
	rc=0
	pw changes --window "$1" --alpha "$2" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 64 ] || fail "changes --window $1 --alpha $2 exited $rc"
	expect_eq "$(head -n 1 "$T/err")" "perfwatch: --window: $1 runs a side \
cannot reach --alpha $2 (p $3 at best, over the splits of two windows \
alone); $4 or more can, and more on a long history"
done
pw changes --window 7 --metric value >/dev/null ||
	fail "changes --window 7: exit $?"
# Seven runs a side find a 50% step in 16 runs.
awk 'BEGIN { print "run,time,workload,metric,value,unit,better"
	for (r = 1; r <= 16; r++)
		printf "s%02d,%d,w,m,%d,s,lower\n", r, 1700000000 + r * 60,
		    (r > 8 ? 150 : 100) + r % 3 }' >"$T/short.csv"
PERFWATCH_DB="$T/short.db" pw import "$T/short.csv" >/dev/null
expect_match "$(PERFWATCH_DB="$T/short.db" pw changes --window 7 --csv)" \
    "s09"

# Hosts in name order, as history lists them: zeta's runs came first and
# its step was listed first.
awk 'BEGIN { print "run,time,workload,metric,value,unit,better,host"
	for (h = 0; h < 2; h++)
		for (r = 1; r <= 16; r++)
			printf "%s%02d,%d,w,m,%d,s,lower,%s\n",
			    h ? "a" : "z", r, 1700000000 + h * 10000 + r * 60,
			    (r > 8 ? 150 : 100) + r % 3, h ? "alpha" : "zeta" }' \
    >"$T/hosts.csv"
PERFWATCH_DB="$T/hosts.db" pw import "$T/hosts.csv" >/dev/null
expect_eq "$(PERFWATCH_DB="$T/hosts.db" pw changes --window 7 --csv |
    cut -d, -f1 | tr '\n' ' ')" "host alpha zeta "
pass
