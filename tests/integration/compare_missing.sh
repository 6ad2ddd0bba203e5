#!/bin/sh
# compare: a metric that a group lacks has no verdict and no test, in
# every output alike.  The table leaves its mark out and the CSV its q,
# verdict and test fields empty (perfwatch(1)), but --json, which "has
# the same", gave it "verdict": "inconclusive" and "test": "none", so a
# program counting inconclusive columns counted every missing metric.
# So did a metric that the first group lacks, in both outputs: nothing
# judges the other group's runs of it.
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
b1,2020-01-03T00:00:00Z,w,only_b,7,s,lower
b2,2020-01-04T00:00:00Z,w,only_b,7,s,lower
EOC
pw import "$T/h.csv" >/dev/null
expect_eq "$(pw compare --csv 'a*' 'b*' | grep only_a)" "w,only_a,5,-,-,,,,s"
expect_eq "$(pw compare --csv 'a*' 'b*' | grep only_b)" "w,only_b,-,7,-,,,,s"
pw compare --json 'a*' 'b*' | python3 -c '
import json, sys
d = json.load(sys.stdin)
m = {x["metric"]: x["cells"][1] for x in d["metrics"]}
missing = m["only_a"]
assert missing["runs"] == 0 and missing["level"] is None, missing
assert missing["verdict"] is None and missing["test"] is None, missing
unjudged = m["only_b"]
assert unjudged["runs"] == 2 and unjudged["level"] == 7, unjudged
assert unjudged["verdict"] is None and unjudged["test"] is None, unjudged
assert unjudged["p"] is None and unjudged["change_pct"] is None, unjudged
assert m["both"]["verdict"] == "inconclusive", m["both"]
assert m["both"]["test"] != None, m["both"]
'
pass
