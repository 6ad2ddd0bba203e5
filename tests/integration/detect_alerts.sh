#!/bin/sh
# An alert's life through the real binary: a history of 20 quiet runs and
# a 15% step, checked run by run.  The first bad run is suspected (exit
# 1), the next confirms; alerts lists it with the last good and first bad
# runs; checking again changes nothing (same outbox rows); ack; a run
# without a change exits 0.
set -eu
. "$(dirname "$0")/lib.sh"

# r-21 and r-22 15% slower; a steady rate beside it.
step_history 24 21 22 7 rate >"$T/hist.csv"
pw import "$T/hist.csv" >/dev/null

for r in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20; do
	pw check "r-$r" >"$T/out" || fail "r-$r: exit $?: $(cat "$T/out")"
done
expect_match "$(pw alerts)" "no open alerts"

rc=0; pw check r-21 >"$T/out" || rc=$?
[ "$rc" -eq 1 ] || fail "r-21 exited $rc"
expect_match "$(cat "$T/out")" "alert #1 sys.pipe time: new -> suspected"
line=$(grep ' time ' "$T/out")
expect_match "$line" "regression"
expect_match "$line" "#1 suspected"

rc=0; pw check r-22 >"$T/out" || rc=$?
[ "$rc" -eq 1 ] || fail "r-22 exited $rc"
expect_match "$(cat "$T/out")" "alert #1 sys.pipe time: suspected -> confirmed"

pw alerts --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d) == 1, d
a = d[0]
assert a["state"] == "confirmed" and a["direction"] == "regression", a
assert a["first_bad_run"] == "r-21" and a["last_good_run"] == "r-20", a
assert a["last_run"] == "r-22" and 13 < a["change_pct"] < 17, a
# Imported runs have no machine snapshot: no diff, and it says so.
assert a["attribution"]["diff"] is None, a
assert "no machine snapshot" in a["attribution"]["summary"], a
'
# The attribution, as perfwatch(1) lists it, its runs named as every
# --json names a run (run, host, time in RFC 3339: runs --json's), where
# it gave "label" and "started" in epoch seconds.
attribution_as_man() {
	pw runs --json >"$T/runs.json"
	pw alerts --all --json | python3 -c '
import json, sys
runs = {r["run"]: r for r in json.load(open(sys.argv[1]))}
a = json.load(sys.stdin)[0]
at = a["attribution"]
# Every key there, null without a value: same_snapshot was left out
# when a run had no snapshot.
assert set(at) == {"same_snapshot", "last_good_run", "first_bad_run",
    "diff", "git", "summary"}, at
assert at["same_snapshot"] is None, at
for key, label in (("last_good_run", "r-20"), ("first_bad_run", "r-21")):
    r = at[key]
    assert set(r) == {"run", "host", "time", "snapshot"}, r
    assert r["run"] == label == a[key], (r, a)
    assert r["host"] == "box" == a["host"], (r, a)
    assert r["time"] == runs[label]["time"], (r, runs[label])
    assert r["snapshot"] is None, r
' "$T/runs.json"
}
attribution_as_man
expect_match "$(pw alerts)" "no machine snapshot of either run"
# The document ends with one line feed, as every command's does: no blank
# line after it (alerts, changes, baseline list all print it so).
for args in "alerts --json" "changes --json" "baseline list --json"; do
	# shellcheck disable=SC2086 # the words of a command line
	pw $args | tail -c 2 | od -An -c | tr -d ' ' | grep -qx '[]}]\\n' ||
		fail "$args: $(pw $args | tail -c 3 | od -An -c)"
done
outbox() {
	python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute(
    "select count(*) from outbox").fetchone()[0])' "$PERFWATCH_DB"
}
[ "$(outbox)" -eq 2 ] || fail "outbox has $(outbox) rows, not 2"

# Checking again: the same verdicts, no alert change, no new row.
rc=0; pw check r-21 >"$T/out" || rc=$?
[ "$rc" -eq 1 ] || fail "r-21 again exited $rc"
grep -q 'alert #' "$T/out" && fail "re-check changed an alert: $(cat "$T/out")"
[ "$(outbox)" -eq 2 ] || fail "re-check queued rows: $(outbox)"
# ... but its verdict still names the alert it belongs to, as it stands.
line=$(grep ' time ' "$T/out") || fail "no time verdict: $(cat "$T/out")"
expect_match "$line" "regression  #1 confirmed"
pw check --json r-21 | python3 -c '
import json, sys
d = json.load(sys.stdin)
v = {x["metric"]: x for x in d["verdicts"]}
assert v["time"]["alert"] == 1 and v["time"]["alert_state"] == "confirmed", v
assert v["rate"]["alert"] is None, v
assert d["events"] == [], d["events"]
# An alert of the list is numbered "id", as alerts --json numbers it.
assert d["alerts"] == [{"id": 1, "workload": "sys.pipe", "metric": "time",
    "state": "confirmed", "can_confirm": True}], d["alerts"]
'
# A run before the alert's first bad run names none.
expect_match "$(pw check r-20 | grep ' time ')" "unchanged"
pw check r-20 | grep ' time ' | grep -q '#1' && fail "r-20 names alert #1"
[ "$(outbox)" -eq 2 ] || fail "re-checks queued rows: $(outbox)"

out=$(pw alerts ack 1)
expect_match "$out" "alert #1 acknowledged"
# An acknowledged alert is settled: gone from the open list, kept in --all.
[ "$(pw alerts)" = "no open alerts" ] || fail "open list after ack: $(pw alerts)"
expect_match "$(pw alerts --all)" "acknowledged"
pw alerts ack 1 2>/dev/null && fail "acknowledged twice"
# An alert confirmed by an older version keeps its attribution as it was
# written then ("label", "started"): it is given by today's names too.
sqlite3 "$PERFWATCH_DB" "UPDATE alerts SET attribution = json_object(
    'last_good_run', json_object('label', 'r-20', 'started', 1701728000,
    'snapshot', NULL), 'first_bad_run', json_object('label', 'r-21',
    'started', 1701814400, 'snapshot', NULL), 'diff', NULL,
    'git', json_array(), 'summary', 'no machine snapshot of either run')
    WHERE id = 1"
attribution_as_man
[ "$(outbox)" -eq 3 ] || fail "ack queued $(outbox) rows, not 3"
pw alerts --all --csv | grep -q '^1,acknowledged,regression,sys.pipe,time,' ||
	fail "alerts --csv: $(pw alerts --all --csv)"

# The rate never moved: its verdicts are unchanged throughout.
pw check --json r-22 | python3 -c '
import json, sys
d = json.load(sys.stdin)
v = {x["metric"]: x for x in d["verdicts"]}
assert v["rate"]["verdict"] == "unchanged", v["rate"]
assert v["time"]["verdict"] == "regression", v["time"]
'

# A shift that ends (runs 21-25 15% slower, then back): the alert is
# resolved and keeps the size of the shift, not one watered down by the
# runs that came back.
export PERFWATCH_DB="$T/ends.db"
step_history 30 21 25 7 >"$T/ends.csv"
pw import "$T/ends.csv" >/dev/null
r=1
while [ "$r" -le 30 ]; do
	pw check "$(printf 'r-%02d' "$r")" >/dev/null || true
	r=$((r + 1))
done
pw alerts --all --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d) == 1, d
a = d[0]
assert a["state"] == "resolved" and a["first_bad_run"] == "r-21", a
assert 13 < a["change_pct"] < 17, a
'
pass
