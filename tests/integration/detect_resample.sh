#!/bin/sh
# The resampling check of pooled evidence draws every stretch of m runs
# from the baseline's k noise runs, k^m of them, holding k^(m/2) sums a
# side.  With baseline_runs = 100 (900 noise runs) and confirm_runs = 4
# (stretches of up to 5 runs), each check that looked back over five
# runs held 900^3 sums: 11 GB and three minutes a check, or, where the
# memory was not there, a death by xreallocarray, exit 1, which check
# gives for a regression.  A stretch whose draws are too many is left to
# the t test, as one too long is.
set -eu
. "$(dirname "$0")/lib.sh"

# 900 runs of 100 with a noise of about 0.1, then six at 101.5: a shift
# of 15 noise sds but under the 2% floor, so that no run is a
# regression, no alert opens and each check looks back over 2 .. 5 runs.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,iteration"
	for (r = 1; r <= 906; r++)
		printf "r%04d,%d,w,a,%.6f,ms,lower,1\n", r, 1700000000 + r * 100,
		    (r > 900 ? 101.5 : 100) + 0.1 * sin(r * 1.7)
}' >"$T/long.csv"
pw import "$T/long.csv" >/dev/null
printf '[detect]\nbaseline_runs = 100\nconfirm_runs = 4\n' >"$T/long.conf"

# A gigabyte is 30 times what such a check needs.
for r in 0901 0902 0903 0904 0905 0906; do
	rc=0
	in_a_gigabyte "$PERFWATCH" -c "$T/long.conf" check "r$r" \
	    >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 0 ] || fail "check r$r: exit $rc: $(cat "$T/err")"
	expect_match "$(cat "$T/out")" "unchanged"
done
pass
