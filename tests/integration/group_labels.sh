#!/bin/sh
# A word of compare or baseline set that names a run is that run, glob
# characters or not: the label "r[1]" was read as a glob, which matched
# the run "r1", so that `baseline set b 'r[1]'` pinned r1 and `compare
# 'r[1]' r1` compared r1 with itself, while `show 'r[1]'` showed r[1].
# A word that names no run is a glob, as before.
set -eu
. "$(dirname "$0")/lib.sh"

printf 'run,time,workload,metric,value,unit,better\n%s\n%s\n%s\n' \
    'r[1],1,w,m,1,s,lower' 'r1,2,w,m,2,s,lower' 'r2,3,w,m,4,s,lower' \
    >"$T/l.csv"
pw import "$T/l.csv" >/dev/null
host=$(pw runs --csv | awk -F, 'NR == 2 { print $2 }')
pw baseline set b 'r[1]' >/dev/null
expect_eq "$(pw baseline show --json b | python3 -c '
import json, sys
print(" ".join(r["run"] for r in json.load(sys.stdin)["runs"]))')" 'r[1]'
pw baseline set h "$host:r[1]" >/dev/null
expect_eq "$(pw baseline show --json h | python3 -c '
import json, sys
print(" ".join(r["run"] for r in json.load(sys.stdin)["runs"]))')" 'r[1]'
# A glob that names no run matches as one.
pw baseline set g 'r[12]' >/dev/null
expect_eq "$(pw baseline show --json g | python3 -c '
import json, sys
print(" ".join(r["run"] for r in json.load(sys.stdin)["runs"]))')" 'r1 r2'
pw compare --json 'r[1]' r1 | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [[r["run"] for r in g["runs"]] for g in d["groups"]] == \
    [["r[1]"], ["r1"]], d["groups"]
' || fail "compare r[1] r1"
pass
