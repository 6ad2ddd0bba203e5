#!/bin/sh
# Two things of an alert's end.  A confirmed +15% alert that a further
# shift (+32%) supersedes keeps the size of its own shift: it was set
# from the runs since its first bad one, through the second shift, and
# read +19%, neither shift.  And the run whose check resolves an alert
# names none: its verdict's alert and alert_state are both null ("-"),
# where the state said "resolved" beside no alert.
set -eu
. "$(dirname "$0")/lib.sh"

# gen LEVELS: a history of sys.pipe time (lower is better), r001 ...,
# five samples a run, 1% noise and a run offset of about 0.5%.
gen() {
	python3 - "$1" <<'EOF'
import random, sys
rnd = random.Random(1)
print("run,time,workload,metric,value,unit,better,host,iteration")
for k, level in enumerate(sys.argv[1].split(",")):
    off = rnd.gauss(0, 0.5)
    for i in range(1, 6):
        v = float(level) * (1 + 0.01 * off + 0.01 * (rnd.random() - 0.5))
        print("r%03d,%d,sys.pipe,time,%.4f,s,lower,box,%d" %
              (k + 1, 1700000000 + k * 86400, v, i))
EOF
}

gen "$(python3 -c "print(','.join(['100'] * 25 + ['115'] * 6 + ['132'] * 6))")" \
    >"$T/s.csv"
PERFWATCH_DB="$T/s.db" pw import "$T/s.csv" >/dev/null
for i in $(seq 20 37); do
	PERFWATCH_DB="$T/s.db" pw check "r0$i" >>"$T/s.out" 2>&1 || true
done
grep -q "alert #1 .*suspected -> confirmed" "$T/s.out" ||
	fail "no confirmed alert #1: $(cat "$T/s.out")"
grep -q "alert #1 .*confirmed -> resolved" "$T/s.out" ||
	fail "alert #1 was not superseded: $(cat "$T/s.out")"
PERFWATCH_DB="$T/s.db" pw alerts --all --json >"$T/alerts.json"
python3 - "$T/alerts.json" <<'EOF' || fail "alerts: $(cat "$T/alerts.json")"
import json, sys
alerts = {a["id"]: a for a in json.load(open(sys.argv[1]))}
one, two = alerts[1], alerts[2]
assert one["state"] == "resolved", one
assert 13 < one["change_pct"] < 17, one
assert two["state"] == "confirmed" and two["change_pct"] > 12, two
EOF

# A one-run excursion: suspected at r026, resolved by r027's check.
gen "$(python3 -c "print(','.join(['100'] * 25 + ['115'] + ['100'] * 5))")" \
    >"$T/r.csv"
PERFWATCH_DB="$T/r.db" pw import "$T/r.csv" >/dev/null
for i in $(seq 20 26); do
	PERFWATCH_DB="$T/r.db" pw check "r0$i" >/dev/null 2>&1 || true
done
PERFWATCH_DB="$T/r.db" pw check --json r027 >"$T/r027.json" ||
	fail "check r027: exit $?"
python3 - "$T/r027.json" <<'EOF' || fail "r027: $(cat "$T/r027.json")"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["verdicts"][0]
assert v["alert"] is None and v["alert_state"] is None, v
assert d["alerts"] == [], d["alerts"]
assert any(e["to"] == "resolved" for e in d["events"]), d["events"]
EOF
pass
