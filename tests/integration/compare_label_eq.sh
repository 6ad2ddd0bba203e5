#!/bin/sh
# compare: a word that names a run is that run, whatever characters it
# has (perfwatch(1)), "=" among them: runs labelled opt=1 and opt=2 were
# read as two groups named "opt" (a usage error, 64), and "opt=1 b" as
# the group "opt" of a run "1" (65).  A word with "=" that names no run
# is still NAME=RUN,..., and a run named so can still be put in a group.
set -eu
. "$(dirname "$0")/lib.sh"

cat >"$T/h.csv" <<EOC
run,time,workload,metric,value,unit,better
opt=1,2020-01-01T00:00:00Z,w,t,10,s,lower
opt=2,2020-01-02T00:00:00Z,w,t,12,s,lower
b,2020-01-03T00:00:00Z,w,t,11,s,lower
EOC
pw import "$T/h.csv" >/dev/null
pw compare --csv opt=1 opt=2 >"$T/out" 2>"$T/err" ||
	fail "compare opt=1 opt=2: exit $?: $(cat "$T/err")"
expect_eq "$(head -n 1 "$T/out" | cut -d, -f1-5)" "workload,metric,opt=1,opt=2,opt=2 change_pct"
expect_eq "$(sed -n 2p "$T/out" | cut -d, -f1-4)" "w,t,10,12"
pw compare --csv opt=1 b >"$T/out" 2>"$T/err" ||
	fail "compare opt=1 b: exit $?: $(cat "$T/err")"
expect_eq "$(sed -n 2p "$T/out" | cut -d, -f1-4)" "w,t,10,11"
host=$(pw runs --csv | awk -F, '$1 == "b" { print $2 }')
pw compare --csv "$host:opt=2" b >"$T/out" 2>"$T/err" ||
	fail "compare HOST:opt=2 b: exit $?: $(cat "$T/err")"
expect_eq "$(sed -n 2p "$T/out" | cut -d, -f1-4)" "w,t,12,11"
# Groups as before, of runs so named or not.
pw compare --csv x=opt=1,opt=2 y=b >"$T/out" 2>"$T/err" ||
	fail "compare x=opt=1,opt=2 y=b: exit $?: $(cat "$T/err")"
expect_eq "$(head -n 1 "$T/out" | cut -d, -f1-4)" "workload,metric,x,y"
pw compare --csv g=b opt=2 >"$T/out" 2>"$T/err" ||
	fail "compare g=b opt=2: exit $?: $(cat "$T/err")"
expect_eq "$(head -n 1 "$T/out" | cut -d, -f1-4)" "workload,metric,g,opt=2"
pass
