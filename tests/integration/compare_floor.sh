#!/bin/sh
# compare marks a change worse or better only when its q is at most fdr
# and its Hodges-Lehmann interval reaches min_change on the side it
# moved, as check does; its JSON gives that shift as shift_pct, the
# centre of ci_low and ci_high.  perfwatch(1) said a change counts when
# its q is at most fdr, and named neither the floor nor shift_pct.
set -eu
. "$(dirname "$0")/lib.sh"
top=${PERFWATCH_TOP:?}

# Six runs a side, three samples each, the second side 1% slower and
# apart from the first: q well under 0.05, the whole interval under 2%.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better"
	for (r = 1; r <= 6; r++)
		for (i = 1; i <= 3; i++) {
			printf "a%d,%d,w,m,%.2f,s,lower\n", r,
			    1700000000 + r * 60, 100 + r * 0.05 + i * 0.01
			printf "b%d,%d,w,m,%.2f,s,lower\n", r,
			    1700001000 + r * 60, 101 + r * 0.05 + i * 0.01
		}
}' >"$T/cmp.csv"
pw import "$T/cmp.csv" >/dev/null || fail "import"

# cell CONF: the second column's cell of compare --json, as
# "verdict q<=0.05 shift_pct-in-interval".
cell() {
	pw -c "$1" compare --json 'a*' 'b*' >"$T/cmp.json" ||
		fail "compare --json with $1"
	python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["metrics"][0]["cells"][1]
print(c["verdict"], c["q"] <= 0.05,
    c["ci_low"] <= c["shift_pct"] <= c["ci_high"],
    0.8 < c["ci_low"] and c["ci_high"] < 1.2)' "$T/cmp.json"
}
printf '[detect]\nfdr = 0.05\n' >"$T/default.conf"
printf '[detect]\nmin_change = 0.5\n' >"$T/floor.conf"
expect_eq "$(cell "$T/default.conf")" "unchanged True True True"
expect_eq "$(cell "$T/floor.conf")" "regression True True True"
pw -c "$T/default.conf" compare 'a*' 'b*' >"$T/out"
expect_eq "$(sed -n 2p "$T/out" | awk '{ print $(NF - 1) }')" "+1.0%"
pw -c "$T/floor.conf" compare 'a*' 'b*' >"$T/out"
expect_eq "$(sed -n 2p "$T/out" | awk '{ print $(NF - 1) }')" "worse"

# perfwatch(1)'s compare says both.
tr '\n' ' ' <"$top/man/perfwatch.1" >"$T/man"
for words in 'a change counts when its q is at most .Ic fdr and its interval, on the side it moved, reaches .Ic min_change ,' \
    '.Ql shift_pct and its 95% interval, .Ql ci_low and .Ql ci_high ;'; do
	grep -qF -- "$words" "$T/man" || fail "perfwatch(1) lacks: $words"
done
pass
