#!/bin/sh
# compare: a metric that a group lacks has no verdict and no test, in
# every output alike.  The table leaves its mark out and the CSV its q,
# verdict and test fields empty (perfwatch(1)), but --json, which "has
# the same", gave it "verdict": "inconclusive" and "test": "none", so a
# program counting inconclusive columns counted every missing metric.
set -eu
. "$(dirname "$0")/lib.sh"

cat >"$T/h.csv" <<EOC
run,time,workload,metric,value,unit,better
a1,2020-01-01T00:00:00Z,w,both,10,s,lower
a1,2020-01-01T00:00:00Z,w,only_a,5,s,lower
a2,2020-01-02T00:00:00Z,w,both,11,s,lower
a2,2020-01-02T00:00:00Z,w,only_a,5,s,lower
b1,2020-01-03T00:00:00Z,w,both,10,s,lower
b2,2020-01-04T00:00:00Z,w,both,12,s,lower
EOC
pw import "$T/h.csv" >/dev/null
expect_eq "$(pw compare --csv 'a*' 'b*' | grep only_a)" "w,only_a,5,-,-,,,,s"
pw compare --json 'a*' 'b*' | python3 -c '
import json, sys
d = json.load(sys.stdin)
m = {x["metric"]: x["cells"][1] for x in d["metrics"]}
missing = m["only_a"]
assert missing["runs"] == 0 and missing["level"] is None, missing
assert missing["verdict"] is None and missing["test"] is None, missing
assert m["both"]["verdict"] == "inconclusive", m["both"]
assert m["both"]["test"] != None, m["both"]
'
pass
