#!/bin/sh
# A metric whose runs all tie (a counter: 3 syscalls an operation, run
# after run, three iterations each) is judged as a quiet one: its step to
# 4 is suspected at its first run and confirmed at its second, as a
# step of a noisy metric is, with its first bad run the step's first.
# The pooled evidence of such a stretch is infinite, and its resampled
# p was 1 (inf - inf counted every draw), so the alert was never
# confirmed, was cleared after four runs, and a new one opened a run
# late.  A wild run among such runs is left out of their noise.
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

# One wild run (30, at t20) among them is left out of the noise, as a
# run ten spreads out is: kept, it set a noise of 300% for the next 90
# runs (t35 "unchanged", interval [-296.7, +363.4]) and the step was
# never reported.
export PERFWATCH_DB="$T/wild.db"
tie_history 36 35 20 >"$T/wild.csv"
pw import "$T/wild.csv" >/dev/null
for r in $(seq -w 1 34); do
	pw check "t$r" >"$T/out" 2>&1 || [ "$r" -ge 20 ] ||
		fail "t$r: exit $?: $(cat "$T/out")"
done
rc=0; pw check t35 >"$T/out" || rc=$?
expect_eq "$rc" 1
out=$(cat "$T/out")
expect_match "$out" 'w         ops            3        4  +33.3%  [+33.3, +33.3]  <1e-4  regression'
expect_match "$out" 'noise of w ops: 33 runs; 1 wild run left out'
rc=0; pw check t36 >"$T/out" || rc=$?
expect_eq "$rc" 1
expect_match "$(cat "$T/out")" 'w ops: suspected -> confirmed (regression +33.3%)'
pass
