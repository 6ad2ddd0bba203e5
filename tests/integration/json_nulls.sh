#!/bin/sh
# A key of a --json object that has no value is null, never left out, so
# that the objects of one list have the same keys: runs --json and show
# --json gave "profile", "trigger_detail" and "busy_why" only when the
# run had one (and show its "quiet"), compare's first column had none of
# the keys of a change.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
printf '[workload "tiny"]\ncommand = true\nmeasure = time\niterations = 3\n' \
    >"$T/tiny.profile"
# An imported run (no profile, quiet) and one measured here.
printf 'run,time,workload,metric,value,unit,better\n' >"$T/in.csv"
for i in 1 2 3; do
	printf 'imp,1700000000,tiny,wall,0.00%s,s,lower\n' "$i" >>"$T/in.csv"
done
pw import "$T/in.csv" >/dev/null || fail "import"
pw -c "$T/pw.conf" run --no-check --profile "$T/tiny.profile" \
    --label here --detail "by hand" >"$T/run.out" 2>&1 ||
	fail "run: $(cat "$T/run.out")"

pw runs --json >"$T/runs.json" || fail "runs --json"
pw show --json imp >"$T/imp.json" || fail "show --json imp"
pw show --json here >"$T/here.json" || fail "show --json here"
pw compare --json imp here >"$T/cmp.json" || fail "compare --json"
python3 - "$T" <<'EOF' || fail "a key left out"
import json, sys
t = sys.argv[1]
runs = {r["run"]: r for r in json.load(open(t + "/runs.json"))}
imp, here = runs["imp"], runs["here"]
assert list(imp) == list(here), (imp, here)
assert imp["profile"] is None and imp["busy_why"] is None, imp
assert here["trigger_detail"] == "by hand", here
assert here["profile"].endswith("tiny.profile"), here
si = json.load(open(t + "/imp.json"))
sh = json.load(open(t + "/here.json"))
assert list(si) == list(sh), (list(si), list(sh))
assert si["quiet"] is None and isinstance(sh["quiet"], dict), (si, sh)
c = json.load(open(t + "/cmp.json"))
for m in c["metrics"]:
    cells = m["cells"]
    assert len(cells) == 2 and list(cells[0]) == list(cells[1]), cells
    assert cells[0]["change_pct"] is None, cells
    assert cells[0]["verdict"] is None, cells
EOF
pass
