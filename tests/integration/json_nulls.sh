#!/bin/sh
# A key of a --json object that has no value is null, never left out, so
# that the objects of one list have the same keys: runs --json and show
# --json gave "profile", "trigger_detail" and "busy_why" only when the
# run had one (and show its "quiet"), compare's first column had none of
# the keys of a change.  show's "quiet" had no "why" for a quiet run and
# no "seen" for one that found another run measuring; run --json had no
# "check" nor "alerts" for a run it did not judge.
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
# An imported run marked busy: its quiet had "busy" and "why" alone.
printf 'run,time,workload,metric,value,unit,better,busy\nimpbusy,1700000100,tiny,wall,0.002,s,lower,load 3.00 > 1.00\n' \
    >"$T/busy.csv"
pw import "$T/busy.csv" >/dev/null || fail "import busy"
pw show --json impbusy >"$T/impbusy.json" || fail "show --json impbusy"
python3 - "$T/impbusy.json" <<'EOF' || fail "impbusy: $(cat "$T/impbusy.json")"
import json, sys
q = json.load(open(sys.argv[1]))["quiet"]
assert sorted(q) == ["busy", "policy", "seen", "waited", "why"], q
assert q["busy"] is True and q["why"] == "load 3.00 > 1.00", q
assert q["policy"] is None and q["waited"] is None and q["seen"] is None, q
EOF
pw -c "$T/pw.conf" run --no-check --profile "$T/tiny.profile" \
    --label here --detail "by hand" >"$T/run.out" 2>&1 ||
	fail "run: $(cat "$T/run.out")"

# A run while another holds the measuring lock (annotate: measured,
# marked): its quiet had no "seen", a quiet run's no "why".
printf '[workload "nap"]\ncommand = sleep 2\nmeasure = time\niterations = 1\n' \
    >"$T/nap.profile"
pw -c "$T/pw.conf" run --no-check --profile "$T/nap.profile" \
    --label napping >"$T/nap.out" 2>&1 &
napper=$!
i=0
until grep -q '"napping"' "$T/lock.json" 2>/dev/null; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || { kill "$napper"; fail "the napping run did not start"; }
	pw runs --json >"$T/lock.json" 2>/dev/null || :
	sleep 0.1
done
pw -c "$T/pw.conf" run --no-check --profile "$T/tiny.profile" \
    --label locked >"$T/locked.out" 2>&1 || { kill "$napper"; fail "run while locked: $(cat "$T/locked.out")"; }
wait "$napper" || fail "the napping run: $(cat "$T/nap.out")"
pw show --json locked >"$T/locked.json" || fail "show --json locked"
# A run stored before every key was written: its "why" left out.
cp "$PERFWATCH_DB" "$T/old.db"
sqlite3 "$T/old.db" "UPDATE runs SET quiet = json_remove(quiet, '$.why')
    WHERE label = 'here'" || fail "sqlite3"
pw -D "$T/old.db" show --json here >"$T/old.json" || fail "show --json old"

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
sl = json.load(open(t + "/locked.json"))
so = json.load(open(t + "/old.json"))
keys = sorted(sh["quiet"])
assert keys == ["busy", "policy", "seen", "waited", "why"], sh["quiet"]
assert sorted(sl["quiet"]) == keys and sorted(so["quiet"]) == keys, \
    (sl["quiet"], so["quiet"])
assert sh["quiet"]["why"] is None and so["quiet"]["why"] is None, \
    (sh["quiet"], so["quiet"])
assert sl["quiet"]["seen"] is None and sl["quiet"]["busy"] is True, sl["quiet"]
assert sl["quiet"]["why"] == "another perfwatch run was measuring", sl["quiet"]
c = json.load(open(t + "/cmp.json"))
for m in c["metrics"]:
    cells = m["cells"]
    assert len(cells) == 2 and list(cells[0]) == list(cells[1]), cells
    assert cells[0]["change_pct"] is None, cells
    assert cells[0]["verdict"] is None, cells
EOF

# run --json of a run not judged, by --no-check or for it failed, has the
# keys of a judged one, its "check" and "alerts" null: they were left out.
printf '[workload "bad"]\ncommand = exit 3\niterations = 1\n' >"$T/bad.profile"
rc=0
pw -c "$T/pw.conf" run --json --profile "$T/tiny.profile" \
    >"$T/judged.json" 2>"$T/judged.err" || rc=$?
[ "$rc" -le 1 ] || fail "run --json: exit $rc: $(cat "$T/judged.err")"
pw -c "$T/pw.conf" run --json --no-check --profile "$T/tiny.profile" \
    >"$T/unjudged.json" 2>"$T/unjudged.err" ||
	fail "run --json --no-check: $(cat "$T/unjudged.err")"
rc=0
pw -c "$T/pw.conf" run --json --profile "$T/bad.profile" \
    >"$T/failed.json" 2>"$T/failed.err" || rc=$?
[ "$rc" -eq 70 ] || fail "run --json of a failed run: exit $rc: \
$(cat "$T/failed.err")"
python3 - "$T" <<'EOF' || fail "run --json: a key left out"
import json, sys
t = sys.argv[1]
j = json.load(open(t + "/judged.json"))
assert isinstance(j["check"], dict) and isinstance(j["alerts"], list), j
for name in ("unjudged", "failed"):
    d = json.load(open(t + "/" + name + ".json"))
    assert list(d) == list(j), (name, list(d), list(j))
    assert d["check"] is None and d["alerts"] is None, (name, d)
EOF
pass
