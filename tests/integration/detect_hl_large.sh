#!/bin/sh
# compare of two single runs tests their samples, with the
# Hodges-Lehmann shift over every pair of them: two runs of 30000
# iterations (a workload may have 100000) held and sorted 900 million
# differences, 7.2 GB, or died of it in xreallocarray (exit 1).  Their
# order statistics are now selected without holding them.
set -eu
. "$(dirname "$0")/lib.sh"

awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,iteration"
	for (r = 1; r <= 2; r++)
		for (i = 1; i <= 30000; i++)
			printf "x%d,%d,w,a,%.6f,ms,lower,%d\n", r,
			    1700000000 + r * 100,
			    (r == 2 ? 110 : 100) + 0.5 * sin(i * 1.7 + r), i
}' >"$T/hl.csv"
pw import "$T/hl.csv" >/dev/null

# A gigabyte is 60 times what the comparison needs.
rc=0
in_a_gigabyte "$PERFWATCH" compare --csv x1 x2 >"$T/out" 2>"$T/err" ||
	rc=$?
[ "$rc" -eq 0 ] || fail "compare: exit $rc: $(cat "$T/err")"
expect_eq "$(sed -n 2p "$T/out" | cut -d, -f1,2,7,8)" \
    'w,a,regression,samples'
# q at the least p a split of 30000 samples against 30000 can give (the
# normal approximation's 0 is below it).
python3 -c 'import sys; assert 0 < float(sys.argv[1]) < 1e-300, sys.argv[1]' \
    "$(sed -n 2p "$T/out" | cut -d, -f6)" || fail "q: $(cat "$T/out")"
in_a_gigabyte "$PERFWATCH" compare --json x1 x2 >"$T/out" 2>"$T/err" ||
	fail "compare --json: $(cat "$T/err")"
python3 - "$T/out" <<'EOPY'
import json, sys
c = json.load(open(sys.argv[1]))["metrics"][0]["cells"][1]
# The shift of 10 on a level of 100, and an interval about it.
assert abs(c["shift_pct"] - 10) < 0.01, c
assert 9.99 < c["ci_low"] < c["shift_pct"] < c["ci_high"] < 10.01, c
EOPY
pass
