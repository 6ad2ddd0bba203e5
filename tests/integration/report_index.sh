#!/bin/sh
# The system index table of `show` against the UnixBench write-up's own
# figures (tests/data/reference/unixbench-opensuse.csv): with SUSE 10.0 as
# the reference run, openSUSE 10.3's Index Score is the write-up's 485 /
# 513 x 1000 (and 10.3 as released its 393 / 513, 766.1, but for the
# rounding of the write-up's own scores: 765.7 from its tests).  A run that lacks a test its reference has (a workload that
# failed) lists it with no index, and its score says that it is partial.
set -eu
. "$(dirname "$0")/lib.sh"

# The write-up's per-test index scores, as runs of perfwatch's sys.* tests
# (the reference first, an hour apart), each in the unit its run records
# (an import in another is refused).
awk -F, -v OFS=, '
BEGIN {
	m["Dhrystone"] = "sys.dhrystone,lps,lps"
	m["Whetstone"] = "sys.whetstone,mwips,MWIPS"
	m["Execl"] = "sys.execl,lps,lps"
	m["File Copy 1024"] = "sys.fcopy1024,kbps,KBps"
	m["File Copy 256"] = "sys.fcopy256,kbps,KBps"
	m["File Copy 4096"] = "sys.fcopy4096,kbps,KBps"
	m["Pipe Throughput"] = "sys.pipe,lps,lps"
	m["Context Switch"] = "sys.context1,lps,lps"
	m["Process Creat"] = "sys.spawn,lps,lps"
	m["Shell Scripts1"] = "sys.shell1,lpm,lpm"
	m["Shell Scripts8"] = "sys.shell8,lpm,lpm"
	m["System Call"] = "sys.syscall,lps,lps"
	print "run,time,workload,metric,value,unit,better"
}
NR == 1 { for (i = 2; i <= NF; i++) name[i] = $i; next }
$1 in m {
	split(m[$1], a, ",")
	for (i = 4; i >= 2; i--)
		rows[i] = rows[i] name[i] "," 1200000000 + (4 - i) * 3600 \
		    "," a[1] "," a[2] "," $i "," a[3] ",higher\n"
}
END { for (i = 4; i >= 2; i--) printf "%s", rows[i] }
' "$PERFWATCH_TOP/tests/data/reference/unixbench-opensuse.csv" >"$T/ub.csv"
[ "$(grep -c . "$T/ub.csv")" -eq 37 ] || fail "conversion: $(cat "$T/ub.csv")"

pw import "$T/ub.csv" >/dev/null
out=$(pw show opensuse-10.3-new)
expect_match "$out" 'System Benchmarks (reference run suse-10.0)'
expect_match "$out" '  sys.syscall               772.0    lps          882.0    875.3'
expect_match "$out" 'System Benchmarks Index Score                            945.4'
out=$(pw show opensuse-10.3-old)
expect_match "$out" 'System Benchmarks Index Score                            765.7'
# The Index Score sits in the index column, under its rule, where it
# stood two columns to the left of both.
printf '%s\n' "$out" | awk '
/^  test .* index$/ { col = length($0) }
/^  sys\./ { if (length($0) != col) bad = bad "\n" $0 }
/^ *========$/ { if (length($0) != col) bad = bad "\n" $0 }
/Index Score/ { if (length($0) != col) bad = bad "\n" $0; seen = 1 }
END { if (!col || !seen || bad != "") { print bad; exit 1 } }
' || fail "index columns: $out"

# 10.3 as released without its system call test: the row is there with no
# index, and the score of the other 11 says that it is partial.
grep -v '^opensuse-10.3-old,.*sys.syscall' "$T/ub.csv" >"$T/part.csv"
PERFWATCH_DB="$T/part.db" pw import "$T/part.csv" >/dev/null
out=$(PERFWATCH_DB="$T/part.db" pw show opensuse-10.3-old)
expect_match "$out" '  sys.syscall                   -    lps          882.0        -'
expect_match "$out" 'System Benchmarks Index Score (partial: 11 of 12)        815.8'

# A test that scored 0 or less has no index either: the geometric mean
# is of the others, partial, where the Index Score was "-" (and a
# negative score had an index of -1000).
sed -e 's/^\(opensuse-10.3-old,.*sys.syscall,lps,\)[0-9.]*,/\10,/' \
    -e 's/^\(opensuse-10.3-old,.*sys.pipe,lps,\)[0-9.]*,/\1-295,/' \
    "$T/ub.csv" >"$T/zero.csv"
[ "$(grep -c ',sys.syscall,lps,0,' "$T/zero.csv")" -eq 1 ] &&
    [ "$(grep -c ',sys.pipe,lps,-295,' "$T/zero.csv")" -eq 1 ] ||
    fail "zero.csv: $(cat "$T/zero.csv")"
PERFWATCH_DB="$T/zero.db" pw import "$T/zero.csv" >/dev/null
out=$(PERFWATCH_DB="$T/zero.db" pw show opensuse-10.3-old)
expect_match "$out" '  sys.syscall                 0.0    lps          882.0        -'
expect_match "$out" '  sys.pipe                 -295.0    lps          479.0        -'
# exp(mean(log(score / reference))) x 1000 over the other ten tests.
expect_match "$out" 'System Benchmarks Index Score (partial: 10 of 12)        839.1'
PERFWATCH_DB="$T/zero.db" pw show --json opensuse-10.3-old | python3 -c '
import json, sys
ix = json.load(sys.stdin)["index"]
assert ix["scored"] == 10 and ix["partial"] is True, ix
assert round(ix["score"], 1) == 839.1, ix
t = {x["test"]: x for x in ix["tests"]}
assert t["sys.syscall"]["score"] == 0 and t["sys.syscall"]["index"] is None, t
assert t["sys.pipe"]["score"] == -295 and t["sys.pipe"]["index"] is None, t
' || fail "show --json: index with a score of 0"

# show --json has the same index, as run --json does.
PERFWATCH_DB="$T/part.db" pw show --json opensuse-10.3-old | python3 -c '
import json, sys
ix = json.load(sys.stdin)["index"]
assert ix["reference_run"] == "suse-10.0" and "reference" not in ix, ix
assert round(ix["score"], 1) == 815.8, ix
assert ix["scored"] == 11 and ix["partial"] is True, ix
t = {x["test"]: x for x in ix["tests"]}
assert len(t) == 12, ix
assert t["sys.syscall"] == {"test": "sys.syscall", "score": None,
    "unit": "lps", "reference": 882.0, "index": None}, t["sys.syscall"]
assert t["sys.pipe"]["score"] == 295.0 and \
    round(t["sys.pipe"]["index"], 1) == 615.9, t["sys.pipe"]
' || fail "show --json: index"
pw show --json opensuse-10.3-new | python3 -c '
import json, sys
ix = json.load(sys.stdin)["index"]
assert round(ix["score"], 1) == 945.4 and ix["partial"] is False, ix
' || fail "show --json: full index"
# show --csv has the index table too, in columns a spreadsheet reads:
# each test's row its reference run, the reference's score and its index,
# a test only the reference has a row of its own, and the Index Score a
# row "all,index" with the number of tests it is of as its samples.
PERFWATCH_DB="$T/part.db" pw show --csv opensuse-10.3-old | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
h = list(rows[0])
assert h == ["workload", "metric", "median", "min", "max", "stddev",
    "samples", "unit", "better", "reference_run", "reference", "index"], h
m = {(r["workload"], r["metric"]): r for r in rows}
tests = [r for r in rows if r["workload"].startswith("sys.")]
assert len(tests) == 12, rows
for r in tests:
    assert r["reference_run"] == "suse-10.0" and float(r["reference"]) > 0, r
p = m[("sys.pipe", "lps")]
assert p["median"] == "295" and round(float(p["index"]), 1) == 615.9, p
s = m[("sys.syscall", "lps")]
assert s["median"] == "-" and s["samples"] == "0" and s["index"] == "-", s
assert s["reference"] == "882" and s["unit"] == "lps", s
ix = m[("all", "index")]
assert ix == {"workload": "all", "metric": "index", "median": "", "min": "",
    "max": "", "stddev": "", "samples": "11", "unit": "", "better": "higher",
    "reference_run": "suse-10.0", "reference": ""} | {"index": ix["index"]}, ix
assert round(float(ix["index"]), 1) == 815.8, ix
assert rows[-1] is ix, rows[-1]
' || fail "show --csv: index: $(PERFWATCH_DB="$T/part.db" pw show --csv \
    opensuse-10.3-old)"
# The same figures as --json, every digit.
pw show --csv opensuse-10.3-new >"$T/new.csv"
pw show --json opensuse-10.3-new | python3 -c '
import csv, json, sys
ix = json.load(sys.stdin)["index"]
rows = {(r["workload"], r["metric"]): r for r in
    csv.DictReader(open(sys.argv[1]))}
assert float(rows[("all", "index")]["index"]) == ix["score"], ix
assert rows[("all", "index")]["samples"] == str(ix["scored"]), ix
assert rows[("all", "index")]["reference_run"] == ix["reference_run"], ix
for t in ix["tests"]:
    r = [v for k, v in rows.items() if k[0] == t["test"]]
    assert len(r) == 1, (t, r)
    assert float(r[0]["index"]) == t["index"], (t, r)
    assert float(r[0]["reference"]) == t["reference"], (t, r)
' "$T/new.csv" || fail "show --csv against --json: $(cat "$T/new.csv")"
# A run with no test of the index has the columns, empty, and no
# "all,index" row.
printf 'run,time,workload,metric,value,unit,better\nplain,2026-01-01T00:00:00Z,w,m,1,s,lower\n' \
    >"$T/plain.csv"
PERFWATCH_DB="$T/plain.db" pw import "$T/plain.csv" >/dev/null
expect_eq "$(PERFWATCH_DB="$T/plain.db" pw show --csv plain)" \
"workload,metric,median,min,max,stddev,samples,unit,better,reference_run,reference,index
w,m,1,1,1,-,1,s,lower,,,"
# A unit is the store's text: the index table escapes its control
# characters, as the metric table under it does, where it printed them
# raw (here: set the window's title).  An import gives a test of the
# index its own unit now; a store an older perfwatch filled may have any.
printf 'run,time,workload,metric,value,unit,better\nesc,2026-01-01T00:00:00Z,sys.pipe,lps,100,lps,higher\n' \
    >"$T/esc.csv"
PERFWATCH_DB="$T/esc.db" pw import "$T/esc.csv" >/dev/null ||
	fail "import esc.csv"
sqlite3 "$T/esc.db" "UPDATE metrics SET unit = 'l' || char(27) || ']0;x' ||
    char(7) WHERE workload = 'sys.pipe'" || fail "sqlite3"
PERFWATCH_DB="$T/esc.db" pw show esc >"$T/esc.out" 2>&1 ||
	fail "show esc: $(cat "$T/esc.out")"
no_raw "$T/esc.out"
grep -qF '  sys.pipe                  100.0 l\x1b]0;x\x07          100.0   1000.0' \
    "$T/esc.out" || fail "show esc: $(cat "$T/esc.out")"

# An import that gives a test of the index another direction or unit
# than its runs record is refused at its row, and the store is left as
# it was: the index read sys.pipe lps lower as higher, compare as lower,
# and every later run of sys.pipe failed on the metric.
for u in 'lps,lower' 'ops,higher'; do
	printf 'run,time,workload,metric,value,unit,better\nd1,1200000000,sys.pipe,lps,100,%s\n' \
	    "$u" >"$T/dir.csv"
	rc=0
	PERFWATCH_DB="$T/dir.db" pw import "$T/dir.csv" >/dev/null \
	    2>"$T/dir.err" || rc=$?
	[ "$rc" -eq 65 ] || fail "import sys.pipe lps $u: exit $rc"
	expect_eq "$(head -n 1 "$T/dir.err")" "perfwatch: $T/dir.csv:2:4: sys.pipe lps, a test of the system index, is in lps, higher is better (this says ${u%,*}, ${u#*,})"
	[ ! -e "$T/dir.db" ] || fail "import sys.pipe lps $u left a store"
done

# The reference is the host's first run with a test of the index: an
# earlier run of a workload of the user's own called sys.* (no test of
# the index) was taken, pinned, and every index had no reference.
{ echo 'run,time,workload,metric,value,unit,better'
  echo 'own,1100000000,sys.latency,ms,3,ms,lower'
  tail -n +2 "$T/ub.csv"; } >"$T/own.csv"
PERFWATCH_DB="$T/own.db" pw import "$T/own.csv" >/dev/null
out=$(PERFWATCH_DB="$T/own.db" pw show opensuse-10.3-new)
expect_match "$out" 'System Benchmarks (reference run suse-10.0)'
expect_match "$out" 'System Benchmarks Index Score                            945.4'
# A store where an older perfwatch pinned that run has the reference
# pinned anew.
n=$(sqlite3 "$T/own.db" "UPDATE settings SET value = (SELECT id FROM runs
    WHERE label = 'own') WHERE key LIKE 'index_reference:%'; SELECT changes()")
[ "$n" -eq 1 ] || fail "pinning the run own: $n settings"
out=$(PERFWATCH_DB="$T/own.db" pw show opensuse-10.3-old)
expect_match "$out" 'System Benchmarks (reference run suse-10.0)'
expect_match "$out" 'System Benchmarks Index Score                            765.7'

# The first run to be the reference is one that measured, of every test
# the store knows: a busy first run, a bisection's, or a first run of one
# test (which left every later score partial) is passed over.
{ echo 'run,time,workload,metric,value,unit,better,busy,trigger'
  echo 'busy-first,1100000000,sys.pipe,lps,400,lps,higher,load 7.9 above 2,manual'
  echo 'bisect-first,1100000100,sys.pipe,lps,400,lps,higher,,bisect'
  echo 'pipe-only,1100000200,sys.pipe,lps,400,lps,higher,,manual'
  tail -n +2 "$T/ub.csv" | sed 's/$/,,manual/'; } >"$T/first.csv"
PERFWATCH_DB="$T/first.db" pw import "$T/first.csv" >/dev/null ||
	fail "import first.csv"
out=$(PERFWATCH_DB="$T/first.db" pw show opensuse-10.3-new)
expect_match "$out" 'System Benchmarks (reference run suse-10.0)'
expect_match "$out" 'System Benchmarks Index Score                            945.4'
case $out in *partial*) fail "a partial score: $out" ;; esac

# The pinned reference replaced (import --replace) by an aborted run
# with its number: pinned anew, at a complete run.  The replacement took
# the number, and the pin, and an aborted run was the reference.
grep '^suse-10.0,' "$T/ub.csv" >"$T/ref.rows"
grep '^opensuse-10.3-new,' "$T/ub.csv" >"$T/late.rows"
{ echo 'run,time,workload,metric,value,unit,better'; cat "$T/late.rows"
} >"$T/late.csv"
{ echo 'run,time,workload,metric,value,unit,better'; cat "$T/ref.rows"
} >"$T/ref.csv"
{ echo 'run,time,workload,metric,value,unit,better,status'
  sed 's/$/,aborted/' "$T/ref.rows"; } >"$T/ref-aborted.csv"
PERFWATCH_DB="$T/rep.db" pw import "$T/late.csv" >/dev/null
PERFWATCH_DB="$T/rep.db" pw import "$T/ref.csv" >/dev/null
out=$(PERFWATCH_DB="$T/rep.db" pw show opensuse-10.3-new)
expect_match "$out" 'System Benchmarks (reference run suse-10.0)'
PERFWATCH_DB="$T/rep.db" pw import --replace "$T/ref-aborted.csv" \
    >/dev/null || fail "import --replace"
expect_eq "$(sqlite3 "$T/rep.db" "SELECT id FROM runs WHERE label = 'suse-10.0'")" 2
out=$(PERFWATCH_DB="$T/rep.db" pw show opensuse-10.3-new)
expect_match "$out" 'System Benchmarks (reference run opensuse-10.3-new)'
expect_match "$out" 'System Benchmarks Index Score                           1000.0'

# baseline index RUN chooses the reference: a complete run of a test of
# the index; an aborted run, and one of no test of the index, are
# refused.  There was no way to choose one.
out=$(PERFWATCH_DB="$T/first.db" pw baseline index opensuse-10.3-old) ||
	fail "baseline index: $out"
expect_match "$out" "is now against run opensuse-10.3-old"
out=$(PERFWATCH_DB="$T/first.db" pw show opensuse-10.3-old)
expect_match "$out" 'System Benchmarks (reference run opensuse-10.3-old)'
expect_match "$out" 'System Benchmarks Index Score                           1000.0'
out=$(PERFWATCH_DB="$T/first.db" pw show suse-10.0)
expect_match "$out" 'System Benchmarks (reference run opensuse-10.3-old)'
rc=0
PERFWATCH_DB="$T/rep.db" pw baseline index suse-10.0 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "baseline index of an aborted run: exit $rc"
expect_eq "$(cat "$T/err")" "perfwatch: run suse-10.0 cannot be the reference of the system index: it is not complete"
rc=0
PERFWATCH_DB="$T/own.db" pw baseline index own 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "baseline index of a run of no test: exit $rc"
expect_eq "$(cat "$T/err")" "perfwatch: run own cannot be the reference of the system index: it is of no test of the index"
rc=0
PERFWATCH_DB="$T/own.db" pw baseline index nosuch 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "baseline index of no run: exit $rc"

pass
