#!/bin/sh
# check --bisect of a run named that did not complete cannot tell (125),
# as check --bisect without a run cannot when the newest run failed or
# was aborted: its figures are a part of the commit's, if any.  Named,
# an aborted run was judged and called good (0).
set -eu
. "$(dirname "$0")/lib.sh"

# r1 .. r4 at 100, r5 20% slower; r6 aborted and r7 failed, both slower.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,iteration,status"
	for (r = 1; r <= 7; r++)
		for (i = 1; i <= 3; i++)
			printf "r%d,%d,w,m,%.2f,s,lower,%d,%s\n", r, 1700000000 + r,
			    (r >= 5 ? 120 : 100) + 0.1 * i, i,
			    r == 6 ? "aborted" : r == 7 ? "failed" : "complete"
}' | pw import - >/dev/null
pw baseline set good r1 r2 r3 >/dev/null
pw baseline use good >/dev/null

while IFS='|' read -r want args msg; do
	rc=0
	# shellcheck disable=SC2086 # the words are split on purpose
	pw check $args >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" -eq "$want" ] || fail "check $args: exit $rc: $(cat "$T/err")"
	[ -z "$msg" ] || expect_match "$(cat "$T/err")" "$msg"
done <<'CASES'
0|--bisect r4|
1|--bisect r5|
125|--bisect r6|run r6 is aborted: cannot tell
125|--bisect r7|run r7 is failed: cannot tell
125|--bisect --baseline good r6|run r6 is aborted: cannot tell
125|--bisect|the newest run, r7, is failed: cannot tell
1|r6|
CASES
pass
