#!/bin/sh
# A metric whose runs all tie (a counter: 3 syscalls an operation, run
# after run, three iterations each) is judged as a quiet one: its step to
# 4 is suspected at its first run and confirmed at its second, as a
# step of a noisy metric is, with its first bad run the step's first.
# The pooled evidence of such a stretch is infinite, and its resampled
# p was 1 (inf - inf counted every draw), so the alert was never
# confirmed, was cleared after four runs, and a new one opened a run
# late.
set -eu
. "$(dirname "$0")/lib.sh"

# tie_history RUNS STEP [WILD]: runs t01.. of w ops at 3, 4 from run
# STEP on, and 30 at run WILD.
tie_history() {
	awk -v runs="$1" -v step="$2" -v wild="${3:-0}" 'BEGIN {
		print "run,time,workload,metric,value,unit,better,iteration"
		for (r = 1; r <= runs; r++)
			for (i = 1; i <= 3; i++)
				printf "t%02d,%d,w,ops,%d,calls,lower,%d\n", r,
				    1700000000 + r * 100,
				    (r == wild ? 30 : (r >= step ? 4 : 3)), i
	}'
}

tie_history 36 35 >"$T/tie.csv"
pw import "$T/tie.csv" >/dev/null
for r in $(seq -w 1 34); do
	pw check "t$r" >"$T/out" 2>&1 || fail "t$r: exit $?: $(cat "$T/out")"
done
rc=0; pw check t35 >"$T/out" || rc=$?
expect_eq "$rc" 1
expect_match "$(cat "$T/out")" 'alert #1 w ops: new -> suspected (regression +33.3%)'
rc=0; pw check t36 >"$T/out" || rc=$?
expect_eq "$rc" 1
expect_match "$(cat "$T/out")" 'alert #1 w ops: suspected -> confirmed (regression +33.3%)'
expect_eq "$(pw alerts --csv | tail -n +2 | cut -d, -f1,2,7,8)" '1,confirmed,t35,t34'
pass
