#!/bin/sh
# Four ways an alert was opened or placed wrong, each found by a review:
# - Under a pinned baseline, acknowledging an alert accepted nothing: the
#   next runs, at the level accepted, opened a new alert of the same
#   shift and confirmed it, notifications and all.  Now they open none,
#   and a shift beyond the accepted level opens one, from its own first
#   run.
# - Under a pinned baseline, an alert's last good run was the baseline's
#   newest run, of any age, not the run before the shift: the machine
#   diff and the bisection it suggests spanned every change since the
#   baseline was pinned.
# - A run checked only after newer runs were (a check that failed busy,
#   a run recorded with --no-check) opened an alert of what the newer
#   runs had already shown to be one night's.
# - A shift the other way that resolves a confirmed alert (faster, then
#   slower) opened its alert from the second run of the new level, with
#   the last good run from before the first shift.
set -eu
. "$(dirname "$0")/lib.sh"

# history SEED RUNS STEPS: runs r01.. of workload w, metrics a and b (5
# iterations, 1% noise, the run's own 1% offset, lower is better), a's
# level moved by STEPS, "RUN:PCT,..." (from RUN on, PCT% off 100).
history() {
	python3 - "$@" <<'PYEOF'
import random, sys
rng = random.Random(int(sys.argv[1]))
steps = sorted((int(s.split(":")[0]), float(s.split(":")[1]))
    for s in sys.argv[3].split(",") if s)
print("run,time,workload,metric,value,unit,better")
for r in range(1, int(sys.argv[2]) + 1):
    off = rng.gauss(0, 0.01)
    for m in ("a", "b"):
        pct = 0
        for start, p in steps:
            if m == "a" and r >= start:
                pct = p
        for i in range(5):
            v = 100 * (1 + pct / 100) * (1 + off + rng.gauss(0, 0.01))
            print(f"r{r:02d},{1700000000 + r * 3600},w,{m},{v:.4f},s,lower")
PYEOF
}

# alerts_of DB: "ID:STATE:DIRECTION:FIRST_BAD:LAST_GOOD" of metric a's
# alerts, oldest first, a line each.
alerts_of() {
	PERFWATCH_DB="$1" pw alerts --all --json | python3 -c '
import json, sys
for a in reversed(json.load(sys.stdin)):
    if a["metric"] == "a":
        print("%d:%s:%s:%s:%s" % (a["id"], a["state"], a["direction"],
            a["first_bad_run"], a["last_good_run"]))'
}

# check_runs DB FROM TO [ACK_AFTER ACK_ID]: check rFROM..rTO in order
# (exit 0 or 1 each), acknowledging alert ACK_ID after run ACK_AFTER.
check_runs() {
	r=$2
	while [ "$r" -le "$3" ]; do
		rc=0
		PERFWATCH_DB="$1" pw check "$(printf 'r%02d' "$r")" \
		    >"$T/check.out" 2>&1 || rc=$?
		[ "$rc" -le 1 ] || fail "check r$r: exit $rc: $(cat "$T/check.out")"
		if [ "$r" = "${4:-}" ]; then
			PERFWATCH_DB="$1" pw alerts ack "$5" >/dev/null ||
				fail "alerts ack $5"
		fi
		r=$((r + 1))
	done
}

# pinned DB: the baseline B of r01..r10, in use.
pinned() {
	PERFWATCH_DB="$1" pw baseline set B r01 r02 r03 r04 r05 r06 r07 \
	    r08 r09 r10 >/dev/null || fail "baseline set"
	PERFWATCH_DB="$1" pw baseline use B >/dev/null || fail "baseline use"
}

# 1. Pinned, 20% slower from r25, acknowledged after r28: nothing more.
history 71 34 "25:20" >"$T/ack.csv"
PERFWATCH_DB="$T/ack.db" pw import "$T/ack.csv" >/dev/null
pinned "$T/ack.db"
check_runs "$T/ack.db" 11 28
reg=$(alerts_of "$T/ack.db" | grep ':regression:' | cut -d: -f1)
[ -n "$reg" ] || fail "no regression alert: $(alerts_of "$T/ack.db")"
expect_eq "$(alerts_of "$T/ack.db" | grep "^$reg:")" \
    "$reg:confirmed:regression:r25:r24"
PERFWATCH_DB="$T/ack.db" pw alerts ack "$reg" >/dev/null
check_runs "$T/ack.db" 29 34
expect_eq "$(alerts_of "$T/ack.db" | tail -n 1)" \
    "$reg:acknowledged:regression:r25:r24"
# The verdicts still say what the pinned baseline says.
rc=0
PERFWATCH_DB="$T/ack.db" pw check r34 >/dev/null || rc=$?
expect_eq "$rc" 1

# 2. The same, then 35% slower from r31: one alert, from r31.
history 71 40 "25:20,31:35" >"$T/further.csv"
PERFWATCH_DB="$T/further.db" pw import "$T/further.csv" >/dev/null
pinned "$T/further.db"
check_runs "$T/further.db" 11 28
reg=$(alerts_of "$T/further.db" | grep ':regression:' | cut -d: -f1)
PERFWATCH_DB="$T/further.db" pw alerts ack "$reg" >/dev/null
check_runs "$T/further.db" 29 40
expect_eq "$(alerts_of "$T/further.db" | grep ':regression:' | tail -n 2 |
    cut -d: -f2- | tr '\n' ' ')" \
    "acknowledged:regression:r25:r24 confirmed:regression:r31:r30 "

# 3. A one-run spike at r26, checked after r27..r30 were: no alert.
history 7 30 "26:25,27:0" >"$T/spike.csv"
PERFWATCH_DB="$T/spike.db" pw import "$T/spike.csv" >/dev/null
check_runs "$T/spike.db" 1 25
check_runs "$T/spike.db" 27 30
before=$(alerts_of "$T/spike.db")
rc=0
PERFWATCH_DB="$T/spike.db" pw check --json r26 >"$T/spike.json" || rc=$?
expect_eq "$rc" 1
expect_match "$(cat "$T/spike.json")" '"verdict": "regression"'
expect_eq "$(alerts_of "$T/spike.db")" "$before"
# Checked in its turn, the same spike raises its suspicion.
PERFWATCH_DB="$T/spike2.db" pw import "$T/spike.csv" >/dev/null
check_runs "$T/spike2.db" 1 26
expect_match "$(alerts_of "$T/spike2.db" | tail -n 1)" \
    ":suspected:regression:r26:r25"

# 4. Rolling: 20% faster from r23, then 15% slower than at first from r31.
history 3 40 "23:-20,31:15" >"$T/turn.csv"
PERFWATCH_DB="$T/turn.db" pw import "$T/turn.csv" >/dev/null
check_runs "$T/turn.db" 1 40
expect_eq "$(alerts_of "$T/turn.db" | cut -d: -f2- | tr '\n' ' ')" \
    "resolved:improvement:r23:r22 confirmed:regression:r31:r30 "
pass
