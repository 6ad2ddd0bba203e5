#!/bin/sh
# A run glob of baseline set and compare is over labels, and over
# host:label only when it has a colon: "*" matches a colon too, so "v6*"
# took every run of the host v6-builder, and a pinned baseline of the
# release held the regressed nightly runs that check then judged
# unchanged (+12% [-27, +52]), as compare showed +0.6% for +30%.
set -eu
. "$(dirname "$0")/lib.sh"

awk 'BEGIN { print "run,time,workload,metric,value,unit,better,host,iteration"
	s = 7
	for (r = 1; r <= 7; r++) {
		label = r <= 3 ? "v6.1-run" r : "nightly-" r
		for (i = 1; i <= 5; i++) {
			s = (s * 1103515245 + 12345) % 2147483648
			v = (r <= 3 ? 100 : 130) * (1 + 0.01 * (s / 2147483648 - 0.5))
			printf "%s,%d,sys.pipe,time,%.4f,s,lower,v6-builder,%d\n",
			    label, 1700000000 + r * 86400, v, i
		}
	}
}' >"$T/h.csv"
pw import "$T/h.csv" >/dev/null

pw baseline set release 'v6*' >"$T/set.out" 2>&1 ||
	fail "baseline set: exit $?: $(cat "$T/set.out")"
expect_match "$(cat "$T/set.out")" "3 runs"
pw baseline show release --json >"$T/show.json" ||
	fail "baseline show: exit $?"
expect_eq "$(python3 -c 'import json, sys
print(" ".join(sorted(r["run"] for r in json.load(open(sys.argv[1]))["runs"])))' \
    "$T/show.json")" "v6.1-run1 v6.1-run2 v6.1-run3"

pw compare --json old='v6*' new='nightly-*' >"$T/cmp.json" ||
	fail "compare: exit $?"
python3 - "$T/cmp.json" <<'EOF' || fail "compare: $(cat "$T/cmp.json")"
import json, sys
d = json.load(open(sys.argv[1]))
row = [m for m in d["metrics"] if m["metric"] == "time"][0]
cells = row["cells"]
assert 28 < cells[1]["change_pct"] < 32, cells
EOF

# A glob with a colon is over host:label, as perfwatch(1) says.
pw baseline set all 'v6-builder:*' >"$T/all.out" 2>&1 ||
	fail "baseline set host glob: exit $?: $(cat "$T/all.out")"
expect_match "$(cat "$T/all.out")" "7 runs"
pw baseline set nightly 'v6-builder:nightly-*' >"$T/n.out" 2>&1 ||
	fail "baseline set host:label glob: exit $?: $(cat "$T/n.out")"
expect_match "$(cat "$T/n.out")" "4 runs"
pass
