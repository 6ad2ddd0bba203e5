#!/bin/sh
# compare's rank test with ties: an integer counter, 3 in each of four
# runs against 4 in each of four, got the normal approximation's p 0.013,
# below the least p any split of four runs against four can give
# (2/70 = 0.029, as perfwatch(1) says), and so "worse" (q 0.026) where
# the same runs untied (3.01 against 4.01) were inconclusive (q 0.057).
# Both are inconclusive now, with the same q.
set -eu
. "$(dirname "$0")/lib.sh"

# hist M1A M1D: runs a1-a4 and d1-d4 of four samples, m1 at M1A+i/1000
# in the a runs and M1D+i/1000 in the d runs (i the sample), m2 steady.
hist() {
	awk -v a="$1" -v d="$2" -v step="$3" 'BEGIN {
		print "run,time,workload,metric,value,unit,better"
		for (g = 0; g < 2; g++)
			for (r = 1; r <= 4; r++)
				for (i = 1; i <= 4; i++) {
					t = 1700000000 + (g * 4 + r) * 3600
					printf "%s%d,%d,w,m1,%g,count,lower\n",
					    g ? "d" : "a", r, t,
					    (g ? d : a) + step * (r * 4 + i)
					printf "%s%d,%d,w,m2,%d,count,lower\n",
					    g ? "d" : "a", r, t, 100 + 2 * (i % 2)
				}
	}'
}

for kind in tied untied; do
	if [ "$kind" = tied ]; then
		hist 3 4 0 >"$T/$kind.csv"
	else
		hist 3 4 0.0001 >"$T/$kind.csv"
	fi
	PERFWATCH_DB="$T/$kind.db" pw import "$T/$kind.csv" >/dev/null
	PERFWATCH_DB="$T/$kind.db" pw compare --csv 'a=a*' 'd=d*' \
	    >"$T/$kind.out" || fail "compare $kind: exit $?"
done
tied=$(grep '^w,m1,' "$T/tied.out" | cut -d, -f6,7)
untied=$(grep '^w,m1,' "$T/untied.out" | cut -d, -f6,7)
for got in "$tied" "$untied"; do
	case "$got" in
	0.057142857142857*,inconclusive) ;;
	*) fail "m1: $got: $(cat "$T/tied.out" "$T/untied.out")" ;;
	esac
done
pass
