#!/bin/sh
# Percentages that round to nothing read +0.0%, as no change does, never
# -0.0%: the bonnie write-up's EAFS block reads of 7490 and 7489 K/sec
# (etc/examples/bonnie-linux-vs-sco.csv) in compare, its CSV and check.
# And names with numbers are listed by their value (tps_t2 before
# tps_t16), and a change that rounds to 100.0% is "+100%".
set -eu
. "$(dirname "$0")/lib.sh"

pw import "$PERFWATCH_TOP/etc/examples/bonnie-linux-vs-sco.csv" >/dev/null
out=$(pw compare sco-5.05-eafs-4 sco-5.05-eafs-1)
row=$(printf '%s\n' "$out" | grep ' read_kps ')
# One sample a side: no test, so "?", not a silent "unchanged".
expect_eq "$(echo $row)" 'disk.bonnie read_kps 7490 7489 +0.0% ? K/sec'
# The CSV gives the change in full, as --json does: the number.
out=$(pw compare --csv sco-5.05-eafs-4 sco-5.05-eafs-1)
expect_eq "$(printf '%s\n' "$out" | grep ',read_kps,' | cut -d, -f1-5)" \
    'disk.bonnie,read_kps,7490,7489,-0.01335113484646195'
# Checked in order, run 6 is 7489 against a baseline level of 7489.5.
for i in 1 2 3 4 5; do
	pw check sco-5.05-eafs-$i >/dev/null || true
done
out=$(pw check sco-5.05-eafs-6 || true)
row=$(printf '%s\n' "$out" | grep ' read_kps ')
expect_eq "$(echo "$row" | awk '{ print $3, $4, $5 }')" '7489.5 7489 +0.0%'
case $out in
*-0.0*) fail "a -0.0 in: $out" ;;
esac

# A run with no baseline run has no noise measured: null, not 0.
PERFWATCH_DB="$T/first.db" pw import \
    "$PERFWATCH_TOP/etc/examples/bonnie-linux-vs-sco.csv" >/dev/null
PERFWATCH_DB="$T/first.db" pw check --json redhat-6.2-ext2-1 |
    python3 -c '
import json, sys
v = json.load(sys.stdin)["verdicts"]
assert len(v) == 12, v
for x in v:
    assert x["baseline_runs"] == 0 and x["noise_runs"] == 0, x
    assert x["noise"] is None and x["baseline_level"] is None, x
' || fail "check --json of a first run: noise"
# Names with numbers list by their value: a sweep's thread counts read
# 1, 2, 4, 8, 16 (and fcopy256 before fcopy1024), not 1, 16, 2, 4, 8,
# in show, history, compare and their CSV, whatever the import's order.
{
	echo 'run,time,workload,metric,value,unit,better'
	for r in 1 2; do
		for t in 16 1 8 2 4; do
			echo "o$r,$((1700000000 + r)),db.oltp,tps_t$t,$((t * 100 + r)),tps,higher"
		done
		echo "o$r,$((1700000000 + r)),sys.fcopy1024,score,$((5 + r)),KBps,higher"
		echo "o$r,$((1700000000 + r)),sys.fcopy256,score,$((3 + r)),KBps,higher"
	done
} >"$T/oltp.csv"
PERFWATCH_DB="$T/oltp.db" pw import "$T/oltp.csv" >/dev/null
want='db.oltp tps_t1 db.oltp tps_t2 db.oltp tps_t4 db.oltp tps_t8 db.oltp tps_t16 sys.fcopy256 score sys.fcopy1024 score'
expect_eq "$(PERFWATCH_DB="$T/oltp.db" pw show --csv o2 | tail -n +2 |
    cut -d, -f1,2 | tr ',\n' '  ' | sed 's/ $//')" "$want"
expect_eq "$(PERFWATCH_DB="$T/oltp.db" pw compare --csv o1 o2 |
    tail -n +2 | grep -v '^all,' | grep -v ',index (' | cut -d, -f1,2 |
    tr ',\n' '  ' | sed 's/ $//')" "$want"
expect_eq "$(PERFWATCH_DB="$T/oltp.db" pw history --csv --limit 1 |
    tail -n +2 | cut -d, -f3,4 | tr ',\n' '  ' | sed 's/ $//')" "$want"

# A change against a level near 0 is a percentage of 200 digits: three
# significant ones and an exponent, where its digits overran the buffer
# and lost the "%" (check, its CSV, compare, alerts).
{
	echo 'run,time,workload,metric,value,unit,better'
	for r in 1 2 3 4; do
		v=1e-200
		[ "$r" -lt 4 ] || v=5
		echo "p$r,$((1700000000 + r)),w,m,$v,x,lower"
	done
} >"$T/pct.csv"
export PERFWATCH_DB="$T/pct.db"
pw import "$T/pct.csv" >/dev/null
for r in 1 2 3; do
	pw check "p$r" >/dev/null
done
out=$(pw check p4 || true)
expect_eq "$(printf '%s\n' "$out" | grep '^w ' | awk '{ print $3, $4, $5, $6, $7 }')" \
    '1e-200 5 +5e+202% [+5e+202, +5e+202]'
# check --csv's change_pct, ci_low and ci_high are --json's numbers.
out=$(pw check --csv p4 || true)
expect_eq "$(printf '%s\n' "$out" | tail -1 | cut -d, -f1-7)" \
    'w,m,1e-200,5,5e+202,5e+202,5e+202'
expect_eq "$(pw compare p1 p4 | grep '^w ' | awk '{ print $5 }')" '+5e+202%'
# alerts --csv's change_pct is --json's number, without the sign and %.
expect_eq "$(pw alerts --csv | tail -1 | cut -d, -f6)" '5e+202'

# A change that one decimal rounds to 100.0 has none, as 100 and over:
# 10 to 19.996 read "+100.0%".
{
	echo 'run,time,workload,metric,value,unit,better'
	echo 'h1,1700000001,w,m,10,x,higher'
	echo 'h2,1700000002,w,m,19.996,x,higher'
	echo 'h3,1700000003,w,m,19.99,x,higher'
} >"$T/hundred.csv"
PERFWATCH_DB="$T/hundred.db" pw import "$T/hundred.csv" >/dev/null
expect_eq "$(PERFWATCH_DB="$T/hundred.db" pw compare h1 h2 h3 |
    grep '^w ' | awk '{ print $5, $8 }')" '+100% +99.9%'

# perfwatch(1): the change is in percent of the level's size, so -5 to
# -8 is -60% (an improvement when lower is better); a level of 0 has no
# percentage ("-", null), and the change counts whatever the floor.
export PERFWATCH_DB="$T/signs.db"
{
	echo 'run,time,workload,metric,value,unit,better'
	for r in 1 2 3 4; do
		a=-5 b=0
		[ "$r" -lt 4 ] || { a=-8; b=1; }
		echo "s$r,$((1700000000 + r)),w,delta,$a,ms,lower"
		echo "s$r,$((1700000000 + r)),w,errors,$b,n,lower"
	done
} | pw import - >/dev/null
for r in 1 2 3; do
	pw check "s$r" >/dev/null
done
out=$(pw check s4 || true)
expect_eq "$(printf '%s\n' "$out" | grep '^w ' | awk '{ print $2, $3, $4, $5, $(NF - 1) }')" \
'delta -5 -8 -60.0% suspected
errors 0 1 - suspected'
pw check --json s4 | python3 -c '
import json, sys
v = {x["metric"]: x for x in json.load(sys.stdin)["verdicts"]}
assert v["delta"]["verdict"] == "improvement", v
assert v["delta"]["change_pct"] == -60, v
assert v["errors"]["verdict"] == "regression", v
assert v["errors"]["change_pct"] is None and v["errors"]["ci_low"] is None, v
' || fail "check --json s4: $(pw check --json s4)"
# No metric is above 0 in both runs: compare has no index row, and its
# footnote no longer explains one.
out=$(pw compare s1 s4)
case $out in
*index*) fail "compare s1 s4: $out" ;;
esac
expect_match "$out" '?: too few runs and samples for a
test to tell, among as many metrics)'

# An index of such levels is past what %.0f prints in a column, or past
# a double's range: an exponent, or "-" and null, where the table had
# 200 digits or "inf" and compare --json died ("jansson: out of
# memory") with nothing printed.
export PERFWATCH_DB="$T/index.db"
printf '%s\n' 'run,time,workload,metric,value,unit,better' \
    'a,1700000000,w,m,1e-300,x,higher' 'b,1700000001,w,m,1e300,x,higher' \
    'c,1700000002,w,m,1e-100,x,higher' | pw import - >/dev/null
expect_eq "$(pw compare a b c | grep '^all ' | awk '{ print $5, $6, $7 }')" \
    '1000 - 1e+203'
expect_eq "$(pw compare --csv a b c | grep '^all,' | cut -d, -f3,4,9)" \
    '1000,-,1.0000000000000221e+203'
expect_eq "$(pw compare c a | grep '^all ' | awk '{ print $5, $6 }')" \
    '1000 1e-197'
pw compare --json a b c | python3 -c '
import json, sys
ix = json.load(sys.stdin)["index"]
assert len(ix) == 1 and ix[0]["values"][:2] == [1000.0, None], ix
assert abs(ix[0]["values"][2] / 1e203 - 1) < 1e-9, ix
' || fail "compare --json a b c: $(pw compare --json a b c 2>&1)"
export PERFWATCH_DB="$T/perfwatch.db"

# The classic tables keep their columns for a value too large for them:
# with an exponent, where %f printed the 301 digits of 1e300.
{
	echo 'run,time,workload,metric,value,unit,better'
	t=1700000000
	echo "big,$t,disk.bonnie,putc_kps,1e300,K/sec,higher"
	echo "big,$t,disk.bonnie,putc_cpu,3,%,lower"
	echo "big,$t,disk.stream,write_mibps,1.5e300,MiB/s,higher"
	echo "big,$t,db.oltp,tps_t1,123456789e12,tps,higher"
	echo "big,$t,db.oltp,p95_ms_t1,2,ms,lower"
	echo "big,$t,db.oltp,scalability,1e300,x,higher"
} >"$T/big.csv"
PERFWATCH_DB="$T/big.db" pw import "$T/big.csv" >/dev/null
out=$(PERFWATCH_DB="$T/big.db" pw show big)
expect_match "$out" '
   1    1e+300   3.0        -     -'
expect_match "$out" '
     1 1.5e+300            - +-      -            -'
expect_match "$out" '
         1  1.23457e+20       2.00'
expect_match "$out" "scalability (median of the iterations' peak / 1 thread): 1e+300x"
printf '%s\n' "$out" | awk 'length($0) > 100 { exit 1 }' ||
    fail "a line too long: $out"
# A value that rounds to nothing in a classic table's column is 0, as no
# value is, not -0 (-0.2 K/sec) or -0.0 (-0.04 %CPU, -0.02 MiB/s).
printf '%s\n' 'run,time,workload,metric,value,unit,better' \
    'neg,1700000000,disk.bonnie,write_kps,-0.2,K/sec,higher' \
    'neg,1700000000,disk.bonnie,write_cpu,-0.04,%CPU,lower' \
    'neg,1700000000,disk.bonnie,seeks_ps,-1.5,/sec,higher' \
    'neg,1700000000,disk.stream,write_mibps,-0.02,MiB/s,higher' |
    PERFWATCH_DB="$T/neg.db" pw import - >/dev/null
out=$(PERFWATCH_DB="$T/neg.db" pw show neg)
expect_match "$out" '
   1         -     -        0   0.0        -     -        -     -        -     -     -1.5     -
med.         -     -        0   0.0        -     -        -     -        -     -     -1.5     -
'
expect_match "$out" '
     1     0.0            - +-      -            -
median     0.0            - +-      -            -
'

# A figure past a double's range is "-", as --json's null, never "inf":
# the spread of 1.7e308 and -1.7e308 in show, history and their CSV, and
# an index of 1e300 over a reference of 1e-300 in show's index table.
export PERFWATCH_DB="$T/inf.db"
printf '%s\n' 'run,time,workload,metric,value,unit,better,host,iteration' \
    'ref,1700000000,sys.pipe,lps,1e-300,lps,higher,h,1' \
    'ref,1700000000,sys.syscall,lps,2,lps,higher,h,1' \
    'wide,1700000001,w,m,1.7e308,u,lower,h,1' \
    'wide,1700000001,w,m,-1.7e308,u,lower,h,2' \
    'wide,1700000001,sys.pipe,lps,1e300,lps,higher,h,1' \
    'wide,1700000001,sys.syscall,lps,4,lps,higher,h,1' | pw import - >/dev/null
out=$(pw show wide)
case $out in
*inf*) fail "show wide: $out" ;;
esac
expect_match "$out" '
  sys.pipe                 1e+300    lps            0.0        -
  sys.syscall                 4.0    lps            2.0   2000.0
                                                        ========
  System Benchmarks Index Score                                -
'
expect_match "$out" '
w            m            0  -1.7e+308  1.7e+308       -  2  u     lower'
expect_eq "$(pw show --csv wide | grep '^w,')" \
    'w,m,0,-1.7e+308,1.7e+308,-,2,u,lower,,,'
expect_eq "$(pw history --csv --metric m | tail -n 1 | cut -d, -f5-9)" \
    '0,-1.7e+308,1.7e+308,-,2'
expect_eq "$(pw history --metric m | tail -n 1 | awk '{ print $8 }')" '-'
pw show --json wide | python3 -c '
import json, sys
d = json.load(sys.stdin)
m = [x for x in d["metrics"] if x["metric"] == "m"][0]
assert m["stddev"] is None, m
ix = d["index"]
assert ix["score"] is None and ix["tests"][0]["index"] is None, ix
' || fail "show --json wide: $(pw show --json wide)"
export PERFWATCH_DB="$T/perfwatch.db"
pass
