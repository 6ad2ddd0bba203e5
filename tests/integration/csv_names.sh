#!/bin/sh
# Every --csv names each column as --json names the same thing, and
# gives it the same value: alerts said "change", "first bad", "last
# good", "last run" and "machine change", notify pending "row", "queued",
# "next attempt", "held by" and "last error"; check "baseline", "change", "ci low"
# and "ci high" (with "+19.9%" for 19.9) and "#1 confirmed" for an
# alert, changes and compare "change", show and history "n" for the
# samples and show "reference run", baseline list "in use", bisect
# --list-git "git" for the name: names a program reading both had to map
# by hand.  bisect --json named the tree "repo" where --list-git and
# status --json say "path".
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"
. "$(dirname "$0")/alerts.subr"

# same(v, o) in python: whether the CSV cell v is the --json value o of
# its name: null is "-", true and false "yes" and "no" (as runs --csv
# gives busy), a number the number with no "+" or "%", text the text.
cat >"$T/same.py" <<'EOPY'
def same(v, o):
    if o is None:
        return v == "-"
    if isinstance(o, bool):
        return v == ("yes" if o else "no")
    if isinstance(o, (int, float)):
        return v[:1] != "+" and "%" not in v and float(v) == o
    return v == o
EOPY

# An alert that r25 opens and r26 and r27 confirm, and each step queues
# a row for the built-in log sink.
alerts_make_confirmed

pw alerts --csv >"$T/alerts.csv" || fail "alerts --csv"
pw alerts --json >"$T/alerts.json" || fail "alerts --json"
expect_eq "$(head -n 1 "$T/alerts.csv")" \
    "id,state,direction,workload,metric,change_pct,first_bad_run,last_good_run,last_run,updated,summary,host"
python3 - "$T/alerts.csv" "$T/alerts.json" <<'EOPY' ||
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
objs = json.load(open(sys.argv[2]))
assert len(rows) == len(objs) == 1, (rows, objs)
r, o = rows[0], objs[0]
assert o["state"] == "confirmed" and o["first_bad_run"] == "r25", o
for k, v in r.items():
    if k == "summary":
        # The attribution's one line, as the JSON has it under that name.
        assert v == o["attribution"]["summary"], (v, o["attribution"])
    elif k == "change_pct":
        # The number, as --json gives it: no sign, no percent sign.
        assert float(v) == o[k] and v[0] != "+" and "%" not in v, (v, o[k])
    else:
        assert v == str(o[k]), (k, v, o[k])
EOPY
	fail "alerts --csv differs from --json: $(cat "$T/alerts.csv")"

pw notify pending --all --csv >"$T/pending.csv" || fail "notify pending --csv"
pw notify pending --all --json >"$T/pending.json" ||
	fail "notify pending --json"
expect_eq "$(head -n 1 "$T/pending.csv")" \
    "id,alert,sink,state,status,attempts,created,next_attempt,held_by,recipients,last_error"
python3 - "$T/pending.csv" "$T/pending.json" <<'EOPY' ||
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
objs = json.load(open(sys.argv[2]))
assert len(rows) == len(objs) >= 2, (rows, objs)
for r, o in zip(rows, objs):
    assert o["sink"] == "log" and o["status"] == "pending", o
    for k, v in r.items():
        # None the table's "-", as every CSV of perfwatch gives it.
        want = "-" if o[k] is None or o[k] == "" else str(o[k])
        assert v == want, (k, v, o[k])
# The later state of the alert waits for the first (held_by): both for
# the log sink, neither tried yet.
byid = {o["id"]: o for o in objs}
first = min(byid)
for i, o in byid.items():
    want = None if i == first else first
    assert o["held_by"] == want, (i, o["held_by"], want)
EOPY
	fail "notify pending --csv differs from --json: $(cat "$T/pending.csv")"

# check: a run with an alert (r28, the alert confirmed) and one without
# (r20); checked again, each gives the same verdicts.
for r in r28 r20; do
	pw check --csv "$r" >"$T/check-$r.csv" || true
	pw check --json "$r" >"$T/check-$r.json" || true
	expect_eq "$(head -n 1 "$T/check-$r.csv")" \
	    "workload,metric,baseline_level,current,change_pct,ci_low,ci_high,q,verdict,alert,unit,alert_state"
	PYTHONPATH=$T python3 - "$T/check-$r.csv" "$T/check-$r.json" <<'EOPY' ||
import csv, json, sys
from same import same
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
vs = json.load(open(sys.argv[2]))["verdicts"]
assert len(rows) == len(vs) == 1, (rows, vs)
for k, v in rows[0].items():
    assert same(v, vs[0][k]), (k, v, vs[0][k])
EOPY
		fail "check --csv $r differs from --json: $(cat "$T/check-$r.csv")"
done
grep -q ',1,s,confirmed$' "$T/check-r28.csv" ||
	fail "check --csv r28: no alert: $(cat "$T/check-r28.csv")"

pw changes --csv >"$T/changes.csv" || fail "changes --csv"
pw changes --json >"$T/changes.json" || fail "changes --json"
expect_eq "$(head -n 1 "$T/changes.csv")" \
    "host,workload,metric,run,kind,before,after,change_pct,p,runs,unit,last_run,index"
PYTHONPATH=$T python3 - "$T/changes.csv" "$T/changes.json" <<'EOPY' ||
import csv, json, sys
from same import same
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
objs = json.load(open(sys.argv[2]))
assert len(rows) == len(objs) >= 1 and objs[0]["run"] == "r25", objs
for r, o in zip(rows, objs):
    for k, v in r.items():
        assert same(v, o[k]), (k, v, o[k])
EOPY
	fail "changes --csv differs from --json: $(cat "$T/changes.csv")"

# compare: the first group's level, then each other group's columns,
# named after the group and --json's key of its cell.
pw compare --csv 'r0*' 'r2*' >"$T/compare.csv" || fail "compare --csv"
pw compare --json 'r0*' 'r2*' >"$T/compare.json" || fail "compare --json"
expect_eq "$(head -n 1 "$T/compare.csv")" \
    "workload,metric,r0*,r2*,r2* change_pct,r2* q,r2* verdict,r2* test,unit"
PYTHONPATH=$T python3 - "$T/compare.csv" "$T/compare.json" <<'EOPY' ||
import csv, json, sys
from same import same
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
d = json.load(open(sys.argv[2]))
ms, ix = d["metrics"], d["index"]
assert len(rows) == len(ms) + len(ix) == 2, (rows, d)
r, m = rows[0], ms[0]
for k in ("workload", "metric", "unit"):
    assert same(r[k], m[k]), (k, r, m)
assert same(r["r0*"], m["cells"][0]["level"]), (r, m)
assert same(r["r2*"], m["cells"][1]["level"]), (r, m)
for k in ("change_pct", "q", "verdict", "test"):
    assert same(r["r2* " + k], m["cells"][1][k]), (k, r, m)
assert m["cells"][1]["verdict"] == "regression", m
i = rows[1]
assert i["workload"] == "all", i
assert same(i["r0*"], ix[0]["values"][0]), (i, ix)
assert same(i["r2*"], ix[0]["values"][1]), (i, ix)
EOPY
	fail "compare --csv differs from --json: $(cat "$T/compare.csv")"

# show and history: the samples of a run "samples", as --json has them.
pw show --csv r25 >"$T/show.csv" || fail "show --csv"
pw show --json r25 >"$T/show.json" || fail "show --json"
expect_eq "$(head -n 1 "$T/show.csv")" \
    "workload,metric,median,min,max,stddev,samples,unit,better,reference_run,reference,index"
PYTHONPATH=$T python3 - "$T/show.csv" "$T/show.json" <<'EOPY' ||
import csv, json, sys
from same import same
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
ms = json.load(open(sys.argv[2]))["metrics"]
assert len(rows) == len(ms) == 1 and ms[0]["samples"] == 5, (rows, ms)
for k, v in rows[0].items():
    if k in ("reference_run", "reference", "index"):
        # No test of the system index: report_index.sh has those.
        assert v == "", (k, v)
    else:
        assert same(v, ms[0][k]), (k, v, ms[0][k])
EOPY
	fail "show --csv differs from --json: $(cat "$T/show.csv")"
pw history --csv >"$T/history.csv" || fail "history --csv"
pw history --json >"$T/history.json" || fail "history --json"
expect_eq "$(head -n 1 "$T/history.csv")" \
    "run,time,workload,metric,median,min,max,stddev,samples,unit,busy,host"
PYTHONPATH=$T python3 - "$T/history.csv" "$T/history.json" <<'EOPY' ||
import csv, json, sys
from same import same
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
ms = json.load(open(sys.argv[2]))
assert len(ms) == 1 and len(rows) == len(ms[0]["runs"]) == 20, (rows, ms)
for r, o in zip(rows, ms[0]["runs"]):
    for k, v in r.items():
        assert same(v, o[k] if k in o else ms[0][k]), (k, v, o)
EOPY
	fail "history --csv differs from --json: $(cat "$T/history.csv")"

# baseline list: the one in use "yes" under in_use, the other "no".
pw baseline set early r01 r02 r03 r04 r05 >/dev/null || fail "baseline set"
pw baseline set late r11 r12 r13 r14 r15 >/dev/null || fail "baseline set"
pw baseline use late >/dev/null || fail "baseline use"
pw baseline list --csv >"$T/bl.csv" || fail "baseline list --csv"
pw baseline list --json >"$T/bl.json" || fail "baseline list --json"
expect_eq "$(head -n 1 "$T/bl.csv")" "name,runs,created,in_use,host"
PYTHONPATH=$T python3 - "$T/bl.csv" "$T/bl.json" <<'EOPY' ||
import csv, json, sys
from same import same
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
objs = json.load(open(sys.argv[2]))["baselines"]
assert len(rows) == len(objs) == 2, (rows, objs)
assert sorted(o["in_use"] for o in objs) == [False, True], objs
for r, o in zip(rows, objs):
    for k, v in r.items():
        assert same(v, o[k]), (k, v, o[k])
EOPY
	fail "baseline list --csv differs from --json: $(cat "$T/bl.csv")"

# bisect --list-git: a [git] section's name "name", as in --json; and a
# bisection's --json names the tree "path", as --list-git does.
make_repo "ops 100 s lower" "ops 100 s lower" "ops 120 s lower" \
    "ops 120 s lower"
printf '[git "toy"]\npath = %s\n' "$T/repo" >>"$T/pw.conf"
pw -c "$T/pw.conf" bisect --list-git --csv >"$T/git.csv" ||
	fail "bisect --list-git --csv"
pw -c "$T/pw.conf" bisect --list-git --json >"$T/git.json" ||
	fail "bisect --list-git --json"
expect_eq "$(head -n 1 "$T/git.csv")" "name,path"
pw -c "$T/pw.conf" bisect --git toy --build "$BUILD" --workload toy \
    --json main~3..main >"$T/bisect.json" 2>"$T/err" ||
	fail "bisect --json: $(cat "$T/err")"
PYTHONPATH=$T python3 - "$T/git.csv" "$T/git.json" "$T/bisect.json" \
    "$T/repo" <<'EOPY' ||
import csv, json, sys
from same import same
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
objs = json.load(open(sys.argv[2]))
assert len(rows) == len(objs) == 1, (rows, objs)
for k, v in rows[0].items():
    assert same(v, objs[0][k]), (k, v, objs[0][k])
b = json.load(open(sys.argv[3]))
assert "repo" not in b and b["path"] == objs[0]["path"] == sys.argv[4], b
assert b["first_bad"]["summary"] == "c3", b
EOPY
	fail "bisect: $(cat "$T/git.csv" "$T/git.json" "$T/bisect.json")"

# bisect --csv: again over the same commits, it measures nothing anew
# (the runs are in the store) and gives the report --json gave, a row a
# commit: the full id under "id" and the change from the good end a
# number under "change_pct", as --json names them.
pw -c "$T/pw.conf" bisect --git toy --build "$BUILD" --workload toy \
    --csv main~3..main >"$T/bisect.csv" 2>"$T/err" ||
	fail "bisect --csv: $(cat "$T/err")"
expect_eq "$(head -n 1 "$T/bisect.csv")" \
    "verdict,id,runs,level,change_pct,llr,summary,first_bad,unit"
PYTHONPATH=$T python3 - "$T/bisect.csv" "$T/bisect.json" <<'EOPY' ||
import csv, json, sys
from same import same
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
b = json.load(open(sys.argv[2]))
objs = [b["good"]] + b["tested"] + [b["bad"]]
assert len(rows) == len(objs) == 4, (rows, objs)
assert b["first_bad"]["id"] == objs[2]["id"], b
for r, o in zip(rows, objs):
    for k, v in r.items():
        if k == "first_bad":
            # The one it is, as "first_bad" has it; no other.
            assert v == ("yes" if o["id"] == b["first_bad"]["id"] else
                ""), (k, v, o)
        elif k == "unit":
            assert v == b["metric"]["unit"] == "s", (v, b["metric"])
        else:
            assert same(v, o[k]), (k, v, o[k])
# A change to read: the first bad commit's, 20% slower.
assert abs(float(rows[2]["change_pct"]) - 20) < 0.1, rows[2]
EOPY
	fail "bisect --csv differs from --json: $(cat "$T/bisect.csv" "$T/bisect.json")"
pass
