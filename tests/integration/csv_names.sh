#!/bin/sh
# alerts --csv and notify pending --csv name each column as --json names
# the same thing, and give it the same value: alerts said "change",
# "first bad", "last good", "last run" and "machine change", notify
# pending "row", "queued", "next attempt" and "last error", names a
# program reading both had to map by hand.
set -eu
. "$(dirname "$0")/lib.sh"

# 30 runs, 20% slower from r25: r25 opens an alert, r26 and r27 confirm
# it, and each step queues a row for the built-in log sink.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better"
	for (r = 1; r <= 30; r++)
		for (i = 1; i <= 5; i++)
			printf "r%02d,%d,w,m,%.1f,s,lower\n", r,
			    1700000000 + r * 3600,
			    (r >= 25 ? 120 : 100) + ((i * 7 + r * 3) % 5) * 0.3
}' >"$T/step.csv"
pw import "$T/step.csv" >/dev/null || fail "import"
for r in r25 r26 r27; do
	rc=0
	pw check "$r" >/dev/null || rc=$?
	expect_eq "$rc" 1
done

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
    "id,alert,sink,state,status,attempts,created,next_attempt,recipients,last_error"
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
EOPY
	fail "notify pending --csv differs from --json: $(cat "$T/pending.csv")"
pass
