#!/bin/sh
# Runs measured on a busy machine (their [quiet] record says busy, as
# `perfwatch run` writes it under policy annotate or wait, or beside
# another run) are judged but move nothing: check says so, opens no
# alert, and under --bisect cannot tell (125); rolling baselines, the
# alerts of later runs and `changes` pass over them; `baseline set`
# leaves them out of a glob and takes one named alone with a warning.
set -eu
. "$(dirname "$0")/lib.sh"

# 30 runs; r-21 on are 15% slower; r-21 and r-22 were busy nights.
step_history 30 21 30 11 >"$T/hist.csv"
pw import "$T/hist.csv" >/dev/null
busy='{"busy":true,"policy":"annotate","why":"load average 3.1 per CPU"}'
sqlite3 "$PERFWATCH_DB" "UPDATE runs SET quiet = '$busy'
    WHERE label IN ('r-21', 'r-22')"
sqlite3 "$PERFWATCH_DB" "UPDATE runs SET quiet = '{\"busy\":false}'
    WHERE label = 'r-20'"

for r in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20; do
	pw check "r-$r" >"$T/out" || fail "r-$r: exit $?: $(cat "$T/out")"
done
if grep -q "busy machine" "$T/out"; then
	fail "r-20, quiet, is called busy: $(cat "$T/out")"
fi

# The busy nights: regressions (exit 1), said to be busy, no alert.
for r in 21 22; do
	rc=0; pw check "r-$r" >"$T/out" || rc=$?
	[ "$rc" -eq 1 ] || fail "r-$r exited $rc: $(cat "$T/out")"
	expect_match "$(cat "$T/out")" "run r-$r on box, baseline rolling (alerts not advanced)"
	expect_match "$(cat "$T/out")" "measured on a busy machine: load average 3.1 per CPU; its verdicts move no alert and no baseline"
	expect_match "$(cat "$T/out")" "regression"
	if grep -q "alert #" "$T/out"; then
		fail "r-$r, busy, moved an alert: $(cat "$T/out")"
	fi
done
[ "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM alerts")" = 0 ] ||
	fail "a busy run opened an alert"
pw check --json r-22 | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["busy"] is True, d
assert d["busy_why"] == "load average 3.1 per CPU", d
assert d["alerts_advanced"] is False and d["events"] == [], d
assert d["regressions"] == 1, d
'
pw check --json r-20 | python3 -c '
import json, sys
d = json.load(sys.stdin)
# A key without a value is null, never left out.
assert d["busy"] is False and d["busy_why"] is None, d
'
# git bisect run: a busy run cannot tell, whatever its verdicts.
rc=0; pw check --bisect r-22 >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 125 ] || fail "check --bisect of a busy run exited $rc"
expect_match "$(cat "$T/err")" "run r-22 was measured on a busy machine: cannot tell"

# history says which runs were busy.
[ "$(pw history --csv --limit 0 | awk -F, '$11 == "yes" { printf "%s ", $1 }')" = "r-21 r-22 " ] ||
	fail "history: busy runs: $(pw history --csv --limit 0)"
pw history --json --limit 0 | python3 -c '
import json, sys
h = {r["run"]: r["busy"] for r in json.load(sys.stdin)[0]["runs"]}
assert h["r-21"] is True and h["r-20"] is False, h
'
# runs lists which runs were busy.
[ "$(pw runs --csv --limit 0 | awk -F, '$8 == "yes" { printf "%s ", $1 }')" = "r-21 r-22 " ] ||
	fail "runs: busy runs: $(pw runs --csv --limit 0)"
[ "$(pw runs --csv --limit 0 | head -1)" = "run,host,time,duration,trigger,profile,status,busy,trigger_detail,id,incomplete" ] ||
	fail "runs: header $(pw runs --csv | head -1)"
pw runs --json --limit 0 | python3 -c '
import json, sys
d = {r["run"]: r for r in json.load(sys.stdin)}
assert d["r-21"]["busy"] is True, d["r-21"]
assert d["r-21"]["busy_why"] == "load average 3.1 per CPU", d["r-21"]
for q in ("r-20", "r-23"):
    assert d[q]["busy"] is False and d[q]["busy_why"] is None, d[q]
assert len({tuple(r) for r in d.values()}) == 1, d
'

# The first quiet slow run opens the alert and the next confirms it,
# both judged against r-11 .. r-20: the last good run is r-20.
rc=0; pw check r-23 >"$T/out" || rc=$?
[ "$rc" -eq 1 ] || fail "r-23 exited $rc: $(cat "$T/out")"
expect_match "$(cat "$T/out")" "alert #1 sys.pipe time: new -> suspected"
rc=0; pw check --json r-24 >"$T/out" || rc=$?
[ "$rc" -eq 1 ] || fail "r-24 exited $rc: $(cat "$T/out")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["events"][0]["to"] == "confirmed", d["events"]
v = d["verdicts"][0]
assert v["baseline_runs"] == 10 and v["noise"] < 3, v
' "$T/out" || fail "r-24: $(cat "$T/out")"
pw alerts --json | python3 -c '
import json, sys
a = json.load(sys.stdin)
assert len(a) == 1, a
assert a[0]["first_bad_run"] == "r-23" and a[0]["last_good_run"] == "r-20", a
'

# changes: the step begins at the first quiet slow run.
pw changes --json | python3 -c '
import json, sys
c = json.load(sys.stdin)
assert [(x["run"], x["kind"]) for x in c] == [("r-23", "step")], c
'

# A pinned baseline: a glob passes over the busy runs, a name takes one.
pw baseline set late 'r-2*' >"$T/out" 2>"$T/err" ||
	fail "baseline set: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "left out 2 runs measured on a busy machine"
expect_match "$(cat "$T/out")" "baseline late: 8 runs"
pw baseline set named r-21 >"$T/out" 2>"$T/err" ||
	fail "baseline set r-21: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "run r-21 was measured on a busy machine (load average 3.1 per CPU); taken, as it is named"
expect_match "$(cat "$T/out")" "baseline named: 1 run"
rc=0; pw baseline set none 'r-2[12]' 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "a baseline of busy runs only: exit $rc"
expect_match "$(cat "$T/err")" "no complete, quiet run matches \"r-2[12]\""
pass
