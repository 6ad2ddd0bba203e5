#!/bin/sh
# A run of one or two samples (iterations = 1, run --iterations 1) has
# no standard error of its own, and was judged as if its level were
# exact: against ten runs of five samples of N(100, 3), one sample of
# 103.88, well within one baseline run's own range, was a regression at
# q 0.02 that opened an alert and exited 1 (12 of 30 such draws were
# flagged).  Its level is now as uncertain as one sample of the baseline
# runs: unchanged.  A single sample 10% off is still a regression.
set -eu
. "$(dirname "$0")/lib.sh"

python3 - >"$T/h.csv" <<'EOF'
import random
random.seed(5)
print("run,time,workload,metric,value,unit,better")
for i in range(10):
    for _ in range(5):
        print("b%d,%d,w,m,%.4f,s,lower" % (i, 1700000000 + i * 3600,
                                          random.gauss(100, 3)))
print("c,1700090000,w,m,103.8804,s,lower")
print("d,1700093600,w,m,110.2,s,lower")
EOF
pw import "$T/h.csv" >/dev/null

rc=0
pw check --json c >"$T/c.json" || rc=$?
[ "$rc" -eq 0 ] || fail "check c exited $rc: $(cat "$T/c.json")"
python3 - "$T/c.json" <<'EOF' || fail "c: $(cat "$T/c.json")"
import json, sys
v = json.load(open(sys.argv[1]))["verdicts"][0]
assert v["verdict"] == "unchanged", v
assert v["alert"] is None, v
EOF

# d is judged against the runs before it, c among them: 10% is found.
rc=0
pw check --json d >"$T/d.json" || rc=$?
[ "$rc" -eq 1 ] || fail "check d exited $rc: $(cat "$T/d.json")"
python3 - "$T/d.json" <<'EOF' || fail "d: $(cat "$T/d.json")"
import json, sys
v = json.load(open(sys.argv[1]))["verdicts"][0]
assert v["verdict"] == "regression", v
assert 8 < v["change_pct"] < 12, v
EOF
pass
