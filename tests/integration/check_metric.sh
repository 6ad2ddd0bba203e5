#!/bin/sh
# check --workload and --metric decide on the metrics named, with q of
# their own: a run of 20 metrics in which pipe's lps fell 5.7% (p about
# 0.02) has q 0.43 over the run's family and is "unchanged"; named alone,
# its q is its p and it is a regression (a pre-specified question has no
# others to be corrected for); two named are adjusted between them.  The
# verdicts stored stay those of the whole run; a selection refused (a
# name no metric has) writes nothing; the JSON says what was selected and
# perfwatch(1) names its keys.
set -eu
. "$(dirname "$0")/lib.sh"
top=${PERFWATCH_TOP:?}

command -v sqlite3 >/dev/null || fail "sqlite3 is not installed"

# 30 runs of pipe lps and spawn m01 .. m19, each run's level 2% apart
# (a fixed generator); r30 has pipe 3.2 sds lower, the others at 1000.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,iteration"
	s = 12345
	for (r = 1; r <= 30; r++) {
		t = 1700000000 + r * 3600
		for (m = 0; m <= 19; m++) {
			z = 0
			for (j = 0; j < 4; j++) {
				s = (s * 1103515245 + 12345) % 2147483648
				z += s / 2147483648 - 0.5
			}
			z *= 1.732
			if (r == 30)
				z = (m == 0) ? -3.2 : 0
			for (i = 1; i <= 5; i++) {
				w = 1 + 0.001 * ((i * 7 + r) % 5 - 2)
				v = 1000 * (1 + 0.02 * z) * w
				if (m == 0)
					printf "r%02d,%d,pipe,lps,%.3f,lps,higher,%d\n",
					    r, t, v, i
				else
					printf "r%02d,%d,spawn,m%02d,%.3f,ops,higher,%d\n",
					    r, t, m, v, i
			}
		}
	}
}' | pw import - >/dev/null || fail "import"

verdicts() {
	sqlite3 "$PERFWATCH_DB" "SELECT r.label, m.workload, m.metric,
	    v.verdict, v.q FROM verdicts v JOIN runs r ON r.id = v.run
	    JOIN metrics m ON m.id = v.metric ORDER BY r.label, m.metric"
}

# The whole run: pipe is one of 20, and unchanged.
rc=0
pw check --json r30 >"$T/all.json" || rc=$?
expect_eq "$rc" 0
verdicts >"$T/stored.all"
rc=0
pw check --bisect r30 >/dev/null || rc=$?
expect_eq "$rc" 0

# Named alone: q = p, a regression, exit 1; good for git bisect too.
rc=0
pw check --json --workload pipe r30 >"$T/pipe.json" || rc=$?
expect_eq "$rc" 1
rc=0
pw check --bisect --workload pipe r30 >/dev/null || rc=$?
expect_eq "$rc" 1
rc=0
pw check --bisect --metric 'l?s' r30 >/dev/null || rc=$?
expect_eq "$rc" 1
python3 - "$T/all.json" "$T/pipe.json" <<'EOF' || fail "check --workload pipe"
import json, sys
a = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
assert a["selection"] is None, a["selection"]
assert len(a["verdicts"]) == 20, len(a["verdicts"])
pa = [v for v in a["verdicts"] if v["workload"] == "pipe"][0]
assert pa["verdict"] == "unchanged", pa
assert 0.01 < pa["p"] < 0.03 and pa["q"] > 0.4, pa
assert s["selection"] == {"workloads": ["pipe"], "metrics": [],
    "run_metrics": 20}, s["selection"]
assert len(s["verdicts"]) == 1, s["verdicts"]
v = s["verdicts"][0]
assert v["metric"] == "lps" and v["verdict"] == "regression", v
assert v["p"] == pa["p"] and v["q"] == v["p"], v
assert -7 < v["change_pct"] < -5, v
assert (s["regressions"], s["improvements"], s["inconclusive"]) == \
    (1, 0, 0), s
EOF
# The verdicts stored are still the whole run's.
verdicts >"$T/stored.pipe"
cmp -s "$T/stored.all" "$T/stored.pipe" ||
	fail "check --workload changed the stored verdicts: $(diff \
	    "$T/stored.all" "$T/stored.pipe")"
expect_match "$(grep '^r30|pipe|lps|' "$T/stored.pipe")" "r30|pipe|lps|unchanged|0.43"

# Two named are one family: pipe's q is twice its p (m01's p is large).
rc=0
pw check --json --metric lps --metric m01 r30 >"$T/two.json" || rc=$?
expect_eq "$rc" 1
python3 - "$T/two.json" <<'EOF' || fail "check --metric lps --metric m01"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["selection"]["metrics"] == ["lps", "m01"], s["selection"]
assert [v["metric"] for v in s["verdicts"]] == ["lps", "m01"], s
v = s["verdicts"][0]
assert abs(v["q"] - 2 * v["p"]) < 1e-12 and v["verdict"] == "regression", v
EOF

# The table says what was selected and over what q is; CSV has its rows.
rc=0
pw check --workload pipe r30 >"$T/table" || rc=$?
expect_eq "$rc" 1
expect_eq "$(sed -n 2p "$T/table")" \
    "selected: --workload pipe; q and verdicts over these metrics alone (the stored verdicts and alerts: over the run's 20)"
expect_eq "$(grep -c '^spawn' "$T/table" || true)" 0
rc=0
pw check --csv --workload 'sp*' --metric 'm1?' r30 >"$T/csv" || rc=$?
expect_eq "$rc" 0
expect_eq "$(wc -l <"$T/csv" | tr -d ' ')" 11
expect_eq "$(cut -d, -f2 "$T/csv" | sed -n '2p;11p' | tr '\n' ' ')" "m10 m19 "

# Refused before anything is written: r29 was never checked.
for args in '--metric lsp' '--workload pipe --metric m01' '--workload pip'; do
	rc=0
	# shellcheck disable=SC2086 # the words are split on purpose
	pw check $args r29 >"$T/out" 2>"$T/err" || rc=$?
	expect_eq "$rc" 65
	expect_eq "$(cat "$T/out")" ""
	expect_match "$(cat "$T/err")" "no metric in $PERFWATCH_DB matches"
	rc=0
	# shellcheck disable=SC2086
	pw check --bisect $args r29 >/dev/null 2>&1 || rc=$?
	expect_eq "$rc" 128
done
verdicts >"$T/stored.after"
cmp -s "$T/stored.all" "$T/stored.after" ||
	fail "a refused selection wrote verdicts"
# An empty name is a usage error, and under --bisect stops.
rc=0
pw check --metric '' r30 >/dev/null 2>&1 || rc=$?
expect_eq "$rc" 64
rc=0
pw check --bisect --workload ' ' r30 >/dev/null 2>&1 || rc=$?
expect_eq "$rc" 128

# Each key of the selection is named in perfwatch(1)'s entry for check.
awk '/^\.It Ic check / { on = 1; next } /^\.It Ic / { on = 0 } on' \
    "$top/man/perfwatch.1" >"$T/entry"
json_keys "$T/pipe.json" >"$T/keys"
for k in selection workloads metrics run_metrics; do
	grep -qx "$k" "$T/keys" || fail "no key $k in check --json"
done
while read -r k; do
	grep -Eq "^\\.(Ic|Dq) ([a-z_]+ , )*$k( |$)" "$T/entry" ||
		fail "perfwatch(1) check does not name the --json key $k"
done <"$T/keys"
pass
