#!/bin/sh
# The real bonnie data (tests/data/reference), judged by the real
# binary: SCO HTFS against Red Hat shows block write as a regression of
# about -64% and block read as an improvement of about +24%, each with
# q < 0.01, through compare (groups by glob) and through check against a
# pinned baseline; the Red Hat runs split in two halves (A/A) show
# nothing; check --bisect answers 1, 0 and 125.  Checked run by run, the
# block write's drop stays suspected: too few runs before it to confirm;
# the block read's rise is cleared after its window.
set -eu
. "$(dirname "$0")/lib.sh"

src="$PERFWATCH_TOP/tests/data/reference/bonnie-linux-vs-sco.csv"
[ -f "$src" ] || fail "missing $src"
awk -f "$PERFWATCH_TOP/scripts/bonnie2import.awk" "$src" >"$T/bonnie.csv"
pw import "$T/bonnie.csv" >/dev/null

# Groups by glob: a column per group, a row per metric, and the index.
# The table: level, level, change and mark, each in its own column.
out=$(pw compare 'redhat-*' 'sco-5.05-htfs-*')
line=$(printf '%s\n' "$out" | grep ' write_kps ') || fail "no write_kps: $out"
expect_eq "$(printf '%s\n' "$line" | awk '{ print $3, $4, $5, $6 }')" \
    "18116 6467 -64.3% worse"
line=$(printf '%s\n' "$out" | grep ' read_kps ') || fail "no read_kps: $out"
expect_eq "$(printf '%s\n' "$line" | awk '{ print $5, $6 }')" "+24.0% better"
expect_match "$out" "index (12 metrics)"
printf '%s\n' "$out" | grep -q ' $' && fail "a line ends in a blank: $out"

# The CSV: a field each, named after its group, each described by
# perfwatch(1) (".Ql NAME q").
pw compare --csv 'redhat-*' 'sco-5.05-htfs-*' 'sco-5.05-eafs-*' |
    python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
h = rows[0]
g = ["sco-5.05-htfs-*", "sco-5.05-eafs-*"]
assert h == ["workload", "metric", "redhat-*"] + [x + s for x in g
    for s in ("", " change_pct", " q", " verdict", " test")] + ["unit"], h
man = open(sys.argv[1]).read().splitlines()
for s in ("", " change_pct", " q", " verdict", " test"):
    assert any(l.startswith(".Ql NAME" + s + " ") for l in man), s
m = {r[1]: dict(zip(h, r)) for r in rows[1:]}
w = m["write_kps"]
assert w["redhat-*"] == "18116" and w["sco-5.05-htfs-*"] == "6467", w
# In full, as --json gives it: -64.3% in the table.
assert w["sco-5.05-htfs-* change_pct"] == "-64.30227423272245", w
assert w["sco-5.05-htfs-* verdict"] == "regression", w
assert 0 < float(w["sco-5.05-htfs-* q"]) < 0.01, w
assert w["sco-5.05-htfs-* test"] == "runs", w
assert w["unit"] == "K/sec", w
assert m["read_kps"]["sco-5.05-htfs-* verdict"] == "improvement", m
i = m["index (12 metrics)"]
assert i["redhat-*"] == "1000" and i["sco-5.05-htfs-* change_pct"] == "", i
assert i["unit"] == "", i
' "$PERFWATCH_TOP/man/perfwatch.1"

pw compare --json 'redhat-*' 'sco-5.05-htfs-*' | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [g["name"] for g in d["groups"]] == ["redhat-*", "sco-5.05-htfs-*"]
assert len(d["groups"][0]["runs"]) == 7 and len(d["groups"][1]["runs"]) == 9
m = {x["metric"]: x["cells"][1] for x in d["metrics"]}
w, r = m["write_kps"], m["read_kps"]
assert w["verdict"] == "regression" and w["test"] == "runs", w
assert -65 < w["change_pct"] < -63.5 and w["q"] < 0.01, w
assert r["verdict"] == "improvement", r
assert 23.5 < r["change_pct"] < 24.5 and r["q"] < 0.01, r
assert d["index"][0]["values"][0] == 1000
# How many metrics a row is of is a count, metric_count; "metrics" is a
# list wherever a document has it.
assert d["index"][0]["metric_count"] == 12, d["index"][0]
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            assert k != "metrics" or isinstance(v, list), (k, v)
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(d)
'

# The named-group form, A/A: nothing.  Three runs against four cannot
# reach p 0.05 (2 / 35 at best): inconclusive, with the test's p, no q.
pw compare --json 'A=redhat-6.2-ext2-1,redhat-6.2-ext2-2,redhat-6.2-ext2-3' \
    'B=redhat-6.2-ext2-[4-7]' | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [len(g["runs"]) for g in d["groups"]] == [3, 4]
for x in d["metrics"]:
    c = x["cells"][1]
    assert c["verdict"] == "inconclusive" and c["test"] == "runs", c
    assert c["p"] >= 2 / 35 - 1e-12 and c["q"] is None, (x["metric"], c)
'
out=$(pw compare 'A=redhat-6.2-ext2-[1-3]' 'B=redhat-6.2-ext2-[4-7]')
expect_eq "$(printf '%s\n' "$out" | grep ' write_kps ' | awk '{ print $(NF - 1) }')" '?'

# check against the pinned Red Hat runs: exit 1 on the regression.
out=$(pw baseline set rh 'redhat-*')
expect_match "$out" "baseline rh: 7 runs"
rc=0
pw check --baseline rh --json sco-5.05-htfs-1 >"$T/check.json" || rc=$?
[ "$rc" -eq 1 ] || fail "check exited $rc, not 1"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["baseline"] == "rh" and d["alerts_advanced"] is False
v = {x["metric"]: x for x in d["verdicts"]}
assert v["write_kps"]["verdict"] == "regression", v["write_kps"]
assert -65 < v["write_kps"]["change_pct"] < -63 and v["write_kps"]["q"] < 0.01
assert v["read_kps"]["verdict"] == "improvement", v["read_kps"]
assert 23.5 < v["read_kps"]["change_pct"] < 24.5 and v["read_kps"]["q"] < 0.01
assert v["write_kps"]["baseline_runs"] == 7
' "$T/check.json"
# The CSV: the interval's ends and q as fields a program can read.
rc=0
pw check --baseline rh --csv sco-5.05-htfs-1 >"$T/check.csv" || rc=$?
[ "$rc" -eq 1 ] || fail "check --csv exited $rc, not 1"
python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert list(rows[0]) == ["workload", "metric", "baseline_level", "current",
    "change_pct", "ci_low", "ci_high", "q", "verdict", "alert", "unit",
    "alert_state"], list(rows[0])
w = {r["metric"]: r for r in rows}["write_kps"]
lo, hi = float(w["ci_low"]), float(w["ci_high"])
assert lo < -63.9 < hi < 0, w
assert 0 < float(w["q"]) < 0.01 and w["verdict"] == "regression", w
' "$T/check.csv"
# changes: block write fell at the first HTFS run and again at the first
# EAFS run (the first step used to be put a run late, at HTFS run 2).
out=$(pw changes --csv --metric write_kps)
expect_eq "$(printf '%s\n' "$out" | sed -n 1p)" \
    "host,workload,metric,run,kind,before,after,change_pct,p,runs,unit,last_run,index"
# The change in full (-64.30...%), here to the table's one decimal.
expect_eq "$(printf '%s\n' "$out" | awk -F, 'NR > 1 {
    printf "%s %s %.1f%% ", $4, $5, $8 }')" \
    "sco-5.05-htfs-1 step -64.3% sco-5.05-eafs-1 step -17.1% "
printf '%s\n' "$out" | awk -F, 'NR > 1 && !($9 > 0 && $9 < 0.01) {
	print "p not a number under 0.01: " $0; bad = 1 } END { exit bad }' ||
	fail "changes --csv: $out"

out=$(pw check --baseline rh sco-5.05-htfs-9) && fail "no regression found"
expect_match "$out" "baseline rh (alerts not advanced)"
line=$(printf '%s\n' "$out" | grep ' write_kps ')
expect_match "$line" "regression"

# git bisect run's answers: 1 bad, 0 good, 125 cannot tell.
rc=0; pw check --bisect --baseline rh sco-5.05-htfs-2 >/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "bisect on a bad run exited $rc"
pw check --bisect --baseline rh redhat-6.2-ext2-5 >/dev/null ||
	fail "bisect on a good run exited $?"
pw baseline set two redhat-6.2-ext2-1 redhat-6.2-ext2-2 >/dev/null
# Two baseline runs give no verdict at any commit: stop, not skip each.
rc=0; pw check --bisect --baseline two sco-5.05-htfs-2 >/dev/null 2>&1 ||
	rc=$?
[ "$rc" -eq 128 ] || fail "bisect with two baseline runs exited $rc"
out=$(pw check --baseline two sco-5.05-htfs-2)
expect_match "$out" "inconclusive: a verdict needs 3 runs with the metric in the baseline, which has 2"
rc=0; pw check --bisect --baseline nope sco-5.05-htfs-2 2>/dev/null || rc=$?
[ "$rc" -ge 128 ] || fail "bisect with a missing baseline exited $rc"

# Baselines: list, use, show, delete.
out=$(pw baseline list)
expect_match "$out" "in use: rolling"
expect_match "$out" "rh       7"
pw baseline use rh >/dev/null
out=$(pw baseline list)
expect_match "$out" "in use: rh"
out=$(pw baseline show rh)
expect_match "$out" "compaq-ml350:redhat-6.2-ext2-7"
# The level check judges by (the Hodges-Lehmann location of the seven
# runs), as check --baseline rh prints it, not their median (18116).
line=$(printf '%s\n' "$out" | grep ' write_kps ')
expect_eq "$(echo $line)" "disk.bonnie write_kps 7 18236.5 838.605 K/sec"
expect_match "$(pw check --baseline rh sco-5.05-htfs-1 | grep ' write_kps ')" \
    " 18236.5 "
# With rh in use, a plain check judges against it and exits 1.
rc=0; pw check sco-5.05-htfs-3 >"$T/out" || rc=$?
[ "$rc" -eq 1 ] || fail "check with rh in use exited $rc"
expect_match "$(cat "$T/out")" "baseline rh"
pw baseline delete rh >/dev/null
expect_match "$(pw baseline list)" "in use: rolling"
pw baseline show rh 2>/dev/null && fail "deleted baseline still shown"

# Two single runs: side by side, no test on one iteration each: "?".
out=$(pw compare redhat-6.2-ext2-1 sco-5.05-htfs-1)
line=$(printf '%s\n' "$out" | grep ' write_kps ')
expect_match "$line" "19004"
expect_eq "$(printf '%s\n' "$line" | awk '{ print $4, $5, $6, NF }')" \
    "6589 -65.3% ? 7"

# Each run checked in turn, as perfwatchd checks them, against the
# rolling baseline: the block write's drop is suspected at the first HTFS
# run, and stays suspected to the last run, since seven Red Hat runs are
# too few to confirm it and too many runs say it is real to clear it.
# Cleared, its runs would join the baseline and the drop be taken as the
# norm.  The check says why it is not confirmed; an acknowledgement is
# what accepts the new level.
PERFWATCH_DB="$T/inorder.db"
pw import "$T/bonnie.csv" >/dev/null
for r in $(pw runs --limit 0 --csv | sed 1d | cut -d, -f1); do
	pw check "$r" >"$T/out" || true
done
cp "$T/out" "$T/last-check"
pw alerts --all --csv | python3 -c '
import csv, sys
alerts = list(csv.DictReader(sys.stdin))
# An improvement is let go after its window (four runs), as before: held,
# its runs would stay out of the baseline and a slide back hide in it.
rows = [r for r in alerts if r["metric"] == "read_kps" and
    r["first_bad_run"] == "sco-5.05-htfs-1"]
assert len(rows) == 1, rows
assert rows[0]["direction"] == "improvement", rows
assert rows[0]["state"] == "resolved", rows
assert rows[0]["last_run"] == "sco-5.05-htfs-4", rows
rows = [r for r in alerts if r["metric"] == "write_kps"]
assert len(rows) == 1, rows
a = rows[0]
assert a["state"] == "suspected" and a["direction"] == "regression", a
assert a["first_bad_run"] == "sco-5.05-htfs-1", a
assert a["last_good_run"] == "redhat-6.2-ext2-7", a
assert a["last_run"] == "sco-5.05-eafs-9", a
print(a["id"])
' >"$T/id" || fail "the block write alert: $(pw alerts --all)"
# The note under the table names the alert it speaks of.
held=$(grep '^suspected, not confirmed: ' "$T/last-check") ||
    fail "no note of the held suspicions: $(cat "$T/last-check")"
expect_match "$held, " " #$(cat "$T/id"), "
expect_match "$(cat "$T/last-check")" \
    "confirming needs 20 runs before the shift, and there are at most 16"
pw check --json sco-5.05-eafs-9 | python3 -c '
import json, sys
d = json.load(sys.stdin)
v = {x["metric"]: x for x in d["verdicts"]}["write_kps"]
assert v["verdict"] == "regression" and v["alert_state"] == "suspected", v
assert v["noise_runs"] == 7 and v["baseline_runs"] == 7, v
a = {x["metric"]: x for x in d["alerts"]}["write_kps"]
assert a["state"] == "suspected" and a["can_confirm"] is False, a
' || fail "eafs-9 checked again"
pw alerts ack "$(cat "$T/id")" >/dev/null
expect_match "$(pw alerts --all | grep ' write_kps ')" "acknowledged"
pass
