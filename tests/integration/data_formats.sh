#!/bin/sh
# Machine-readable output across commands and hosts: what a script that
# reads --json and --csv, or moves histories between machines, relies on.
# Alerts name their host; baseline show and compare name each run's host;
# history and show --csv give figures in full; export -o takes its format
# from the name; awkward names round-trip through CSV and JSON Lines, as
# does a run of 0 s, told from one of unknown length; a
# blank name, a JSON Lines iteration of 2.0 and a bad type are handled;
# compare --json of an infinite index; hosts with ':' in their names;
# a directory to import; integers beyond 64 bits in JSON Lines.
set -eu
. "$(dirname "$0")/lib.sh"

# Two hosts with the same labels and the same step: each gets an alert,
# and the listing says whose it is in the table, --csv and --json.
step_history 24 21 24 7 >"$T/box.csv"
sed 's/,box,/,other,/' "$T/box.csv" >"$T/other.csv"
pw import "$T/box.csv" >/dev/null
pw import "$T/other.csv" >/dev/null
for h in box other; do
	for r in 19 20 21 22 23 24; do
		pw check "$h:r-$r" >/dev/null || true
	done
done
pw alerts --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert sorted(a["host"] for a in d) == ["box", "other"], d
for a in d:
	assert a["first_bad_run"] == "r-21", a
'
pw alerts --csv | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert sorted(r["host"] for r in rows) == ["box", "other"], rows
'
out=$(pw alerts)
printf '%s\n' "$out" | head -n 1 | grep -q 'machine change  *host$' ||
	fail "alerts table header: $out"
[ "$(printf '%s\n' "$out" | grep -c ' other$')" -eq 1 ] ||
	fail "alerts table: $out"

# A baseline of both hosts' runs of the same labels is refused now, but
# one set before that still is shown: baseline show --json names each
# run's host, as runs --json does, not the label alone twice.
pw baseline set both 'r-0*' >/dev/null 2>&1 &&
	fail "a baseline of two hosts' runs was set"
sqlite3 "$PERFWATCH_DB" "INSERT INTO baselines (name, created)
    VALUES ('both', 1700000000);
    INSERT INTO baseline_runs SELECT b.id, r.id FROM baselines b, runs r
    WHERE b.name = 'both' AND r.label LIKE 'r-0%';"
pw baseline show --json both | python3 -c '
import json, sys
d = json.load(sys.stdin)
runs = d["runs"]
assert len(runs) == 18, runs
assert {(r["run"], r["host"]) for r in runs} == {("r-%02d" % i, h)
    for i in range(1, 10) for h in ("box", "other")}, runs
assert all(r["time"].endswith("Z") for r in runs), runs
'
# compare --json names a group's runs the same way, and a glob that
# matched both hosts' r-01 lists two runs, not "r-01" twice.
pw compare --json 'a=r-0[1]' 'b=box:r-24' | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["groups"][0]["runs"] == [
    {"run": "r-01", "host": "box", "time": "2023-11-15T22:13:20Z"},
    {"run": "r-01", "host": "other", "time": "2023-11-15T22:13:20Z"}], d["groups"]
assert d["groups"][1]["runs"] == [
    {"run": "r-24", "host": "box", "time": "2023-12-08T22:13:20Z"}], d["groups"]
'

# history --csv and show --csv give each figure in full, as --json does:
# rounded to the table's six digits (below 0.001 too), close latencies
# read alike and a large count lost its fraction.
PERFWATCH_DB="$T/digits.db"
printf 'run,time,workload,metric,value,unit,better
d1,1700000000,w,lat,0.0001231,s,lower
d1,1700000000,w,lat,0.0001236,s,lower
d1,1700000000,w,lat,0.0001234,s,lower
d1,1700000000,w,ops,123456.7,ops/s,higher
' | pw import - >/dev/null
expect_eq "$(pw show --csv d1 | tail -n +2)" 'w,lat,0.0001234,0.0001231,0.0001236,2.5166114784235007e-07,3,s,lower,,,
w,ops,123456.7,123456.7,123456.7,-,1,ops/s,higher,,,'
expect_eq "$(pw history --csv | tail -n +2 | cut -d, -f4-9)" \
    'lat,0.0001234,0.0001231,0.0001236,2.5166114784235007e-07,3
ops,123456.7,123456.7,123456.7,-,1'
# The same figures as --json.
pw show --csv d1 | python3 -c '
import csv, json, subprocess, sys
rows = list(csv.DictReader(sys.stdin))
js = json.loads(subprocess.check_output(["'"$PERFWATCH"'", "show", "--json", "d1"]))
for r, m in zip(rows, js["metrics"]):
	for k in ("median", "min", "max"):
		assert float(r[k]) == m[k], (r, m)
'
# The table stays for a person.
expect_match "$(pw show d1)" '0.0001234  0.0001231  0.0001236'
PERFWATCH_DB="$T/perfwatch.db"

# check, compare, changes, alerts and baseline show --csv give each figure
# in full too, the same numbers as --json: check's baseline and current
# were cut to six digits (100.123 for 100.12345...), its change and
# interval to one decimal, its q to three digits.
PERFWATCH_DB="$T/full.db"
step_history 24 21 24 7 | pw import - >/dev/null
pw baseline set early r-01 r-02 r-03 r-04 r-05 r-06 >/dev/null
pw check --csv r-21 >"$T/full-check.csv" && fail "check --csv r-21 found no regression"
pw check --json r-21 >"$T/full-check.json" && fail "check --json r-21 found no regression"
pw compare --csv 'r-0*' 'r-2*' >"$T/full-compare.csv"
pw compare --json 'r-0*' 'r-2*' >"$T/full-compare.json"
pw changes --csv >"$T/full-changes.csv"
pw changes --json >"$T/full-changes.json"
pw alerts --csv >"$T/full-alerts.csv"
pw alerts --json >"$T/full-alerts.json"
pw baseline show --csv early >"$T/full-baseline.csv"
pw baseline show --json early >"$T/full-baseline.json"
python3 - "$T" <<'PY' || fail "a --csv figure is not --json's"
import csv, json, sys
t = sys.argv[1]
def rows(name):
	return list(csv.DictReader(open("%s/full-%s.csv" % (t, name))))
def js(name):
	return json.load(open("%s/full-%s.json" % (t, name)))
def num(s):
	assert s[0] != "+" and "%" not in s, s
	return float(s)
r, v = rows("check"), js("check")["verdicts"]
assert len(r) == len(v) == 1, (r, v)
r, v = r[0], v[0]
assert float(r["baseline_level"]) == v["baseline_level"], (r, v)
assert float(r["current"]) == v["current"], (r, v)
# Named as --json names them, the numbers with no sign nor "%".
assert num(r["change_pct"]) == v["change_pct"], (r, v)
assert num(r["ci_low"]) == v["ci_low"] and num(r["ci_high"]) == v["ci_high"], (r, v)
assert float(r["q"]) == v["q"], (r, v)
r, d = rows("compare"), js("compare")
ix = [x for x in r if x["metric"].startswith("index")]
r = [x for x in r if not x["metric"].startswith("index")]
assert len(r) == len(d["metrics"]) == 1, (r, d)
r, c = r[0], d["metrics"][0]["cells"]
vals = list(r.values())
assert float(vals[2]) == c[0]["level"] and float(vals[3]) == c[1]["level"], (r, c)
assert num(vals[4]) == c[1]["change_pct"] and float(vals[5]) == c[1]["q"], (r, c)
assert len(ix) == len(d["index"]), (ix, d["index"])
for a, b in zip(ix, d["index"]):
	vals = list(a.values())
	assert float(vals[2]) == b["values"][0] and float(vals[3]) == b["values"][1], (a, b)
r, ch = rows("changes"), js("changes")
assert len(r) == len(ch) > 0, (r, ch)
for a, b in zip(r, ch):
	assert float(a["before"]) == b["before"] and float(a["after"]) == b["after"], (a, b)
	assert num(a["change_pct"]) == b["change_pct"] and float(a["p"]) == b["p"], (a, b)
r, al = rows("alerts"), js("alerts")
assert len(r) == len(al) == 1, (r, al)
# Named as --json names it, and its number, with no sign nor "%".
assert float(r[0]["change_pct"]) == al[0]["change_pct"], (r, al)
assert r[0]["change_pct"][0] != "+" and "%" not in r[0]["change_pct"], r
r, m = rows("baseline"), js("baseline")["metrics"]
assert len(r) == len(m) == 1, (r, m)
assert float(r[0]["level"]) == m[0]["level"], (r, m)
# Called as --json calls it: "noise", where the CSV's header said "spread".
assert list(r[0]) == ["workload", "metric", "runs", "level", "noise",
    "unit"], list(r[0])
assert float(r[0]["noise"]) == m[0]["noise"], (r, m)
PY
PERFWATCH_DB="$T/perfwatch.db"

# export -o takes its format from the name, as import reads it: .jsonl,
# .ndjson and .json are JSON Lines, .csv and any other name CSV, and
# --format (--csv, --json) says otherwise.  Each imports again as it is.
for ext in jsonl ndjson json csv txt; do
	pw export -o "$T/out.$ext" --run box:r-01
	case $ext in
	csv|txt) head -n 1 "$T/out.$ext" | grep -q '^run,time,' ||
		fail "export -o out.$ext: $(head -n 2 "$T/out.$ext")" ;;
	*) head -n 1 "$T/out.$ext" | python3 -c '
import json, sys
assert json.loads(sys.stdin.readline())["run"] == "r-01"' ||
		fail "export -o out.$ext: $(head -n 2 "$T/out.$ext")" ;;
	esac
	rm -f "$T/again.db"
	PERFWATCH_DB="$T/again.db" pw import "$T/out.$ext" >/dev/null ||
		fail "out.$ext does not import again"
	PERFWATCH_DB="$T/again.db" pw export --run box:r-01 >"$T/again.csv"
	pw export --run box:r-01 | cmp -s - "$T/again.csv" ||
		fail "out.$ext imported as: $(cat "$T/again.csv")"
done
pw export --csv -o "$T/forced.jsonl" --run box:r-01
head -n 1 "$T/forced.jsonl" | grep -q '^run,time,' || fail "--csv -o .jsonl"
pw export --format jsonl -o "$T/forced.csv" --run box:r-01
head -c 1 "$T/forced.csv" | grep -q '{' || fail "--format jsonl -o .csv"

# Awkward names go through export and import unchanged, in both formats:
# commas, quotes, a line feed, a tab, UTF-8, blanks at either end, and a
# leading = + - @, which CSV writes as it is (perfwatch(1) says why).
# Each run's length too, where it is known, and how its workload ended
# when it did not complete.
PERFWATCH_DB="$T/names.db"
python3 -c '
import csv, sys
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(["run", "time", "workload", "metric", "value", "unit", "better",
    "host", "iteration", "status", "trigger", "busy", "duration",
    "workload_status"])
labels = ["a,b", "say \"hi\"", "two\nlines", "tab\there", "caf\u00e9 \u65e5\u672c",
    " lead", "trail ", "=1+2", "+x", "-y", "@z"]
for i, l in enumerate(labels):
	w.writerow([l, "2023-11-14T22:13:%02dZ" % (20 + i), "w,1", "=SUM(A1)", -0.5 - i, "ops/s, \"x\"",
	    "higher", "h\u00f4te " + str(i % 2), 1,
	    ["complete", "aborted", "failed"][i % 3],
	    ["import", "schedule", "bisect", "git"][i % 4],
	    "" if i % 2 else "load 2.5 > 1.0, \"busy\"\nhere",
	    "" if i % 3 == 0 else str(i * 7),
	    "" if i % 2 == 0 else
	    ["failed", "timeout", "aborted", "skipped"][i // 2 % 4]])
' >"$T/names.csv"
pw import "$T/names.csv" >/dev/null
pw export >"$T/names-out.csv"
cmp "$T/names.csv" "$T/names-out.csv" ||
	fail "export differs from import: $(diff "$T/names.csv" "$T/names-out.csv")"
grep -q '^=1+2,.*,=SUM(A1),-7.5,' "$T/names-out.csv" ||
	fail "a leading = was changed: $(grep SUM "$T/names-out.csv" | head -3)"
pw export --json >"$T/names.jsonl"
PERFWATCH_DB="$T/names2.db" pw import "$T/names.jsonl" >/dev/null
PERFWATCH_DB="$T/names2.db" pw export | cmp -s - "$T/names.csv" ||
	fail "JSON Lines did not round-trip"
# What runs shows of them: the length given, "-" where none was.
expect_eq "$(pw runs --csv --limit 0 | awk -F, '$1 == "-y" || $1 == "+x" ||
    $1 == "=1+2" { print $1 "=" $4 }' | sort | tr '\n' ' ')" \
    "+x=56 -y=- =1+2=49 "
# The same names in runs --csv, read back by a CSV reader.
pw runs --csv --limit 0 | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert [r["run"] for r in rows][:3] == ["a,b", "say \"hi\"", "two\nlines"], rows
assert rows[7]["run"] == "=1+2" and rows[5]["run"] == " lead", rows
'
PERFWATCH_DB="$T/perfwatch.db"

# A run of 0 s has a length, told from one whose length is unknown:
# runs shows 0 and "-", --json 0 and null (show --json too), and export
# writes each back as it came, through CSV and JSON Lines.  An import
# of 0 s read as unknown, and was exported without its 0.
PERFWATCH_DB="$T/zero.db"
printf '%s\n' 'run,time,workload,metric,value,unit,better,host,iteration,status,trigger,busy,duration,workload_status' \
    'z,2023-11-14T22:13:20Z,w,m,1,s,lower,h,1,complete,import,,0,' \
    'n,2023-11-14T22:13:21Z,w,m,2,s,lower,h,1,complete,import,,,' \
    >"$T/zero.csv"
pw import "$T/zero.csv" >/dev/null
pw export | cmp -s - "$T/zero.csv" ||
	fail "0 s did not round-trip: $(pw export)"
pw export --json | PERFWATCH_DB="$T/zero2.db" pw import - >/dev/null
PERFWATCH_DB="$T/zero2.db" pw export | cmp -s - "$T/zero.csv" ||
	fail "0 s did not round-trip through JSON Lines"
expect_eq "$(pw runs --csv | awk -F, 'NR > 1 { print $1 "=" $4 }' |
    tr '\n' ' ')" "z=0 n=- "
expect_eq "$(pw runs | awk 'NR > 1 { print $1, $4 }' | tr '\n' ' ')" \
    "z 0 n - "
pw runs --json | python3 -c '
import json, sys
d = {r["run"]: r["duration"] for r in json.load(sys.stdin)}
assert d == {"z": 0, "n": None}, d
'
for r in z n; do
	pw show --json "h:$r" | python3 -c '
import json, sys
print(json.load(sys.stdin)["duration"])'
done >"$T/zero.out"
expect_eq "$(cat "$T/zero.out" | tr '\n' ' ')" "0 None "
# An end before the start (the wall clock set back while the run ran:
# both are time(3)) is no length either: it was exported as -3, which
# import refuses, and listed as -3.
sqlite3 "$PERFWATCH_DB" "UPDATE runs SET ended = started - 3 WHERE label = 'z'"
pw export >"$T/back.csv"
expect_eq "$(grep '^z,' "$T/back.csv")" 'z,2023-11-14T22:13:20Z,w,m,1,s,lower,h,1,complete,import,,,'
PERFWATCH_DB="$T/back.db" pw import "$T/back.csv" >/dev/null 2>"$T/err" ||
	fail "the export of a run that ended before it began: $(cat "$T/err")"
expect_eq "$(pw runs --csv | awk -F, '$1 == "z" { print $4 }')" "-"
# A start of 1970 (a machine without a clock, set by NTP while the run
# ran) makes a length of decades, written as it is: import refused any
# over 366 days, so the export did not import again.
sqlite3 "$PERFWATCH_DB" "UPDATE runs SET started = 0, ended = 1700000060
    WHERE label = 'z'"
pw export >"$T/jump.csv"
expect_eq "$(grep '^z,' "$T/jump.csv" | cut -d, -f1,2,13)" \
    "z,1970-01-01T00:00:00Z,1700000060"
for fmt in csv jsonl; do
	rm -f "$T/jump.db"
	pw export --format "$fmt" | PERFWATCH_DB="$T/jump.db" pw import - \
	    >/dev/null 2>"$T/err" ||
		fail "the export of a run of decades ($fmt): $(cat "$T/err")"
	PERFWATCH_DB="$T/jump.db" pw export | cmp -s - "$T/jump.csv" ||
		fail "a run of decades did not round-trip ($fmt)"
done
# An end past what a time can say (9999) is written as unknown.
sqlite3 "$PERFWATCH_DB" "UPDATE runs SET ended = 253402300800
    WHERE label = 'n'"
expect_eq "$(pw export | grep '^n,' | cut -d, -f1,13)" "n,"
PERFWATCH_DB="$T/perfwatch.db"

# A name of blanks alone is refused, as run --label refuses one, with its
# row and column, and the store is left as it was.
PERFWATCH_DB="$T/blank.db"
printf 'run,time,workload,metric,value,unit,better,host\nok,1,w,m,1,s,lower,\n' |
    pw import - >/dev/null
sqlite3 "$PERFWATCH_DB" .dump >"$T/before.sql"
for bad in '   ,1,w,m,1,s,lower,:2:1: run: blank' \
    'x,1,w, 	,1,s,lower,:2:4: metric: blank' \
    'x,1,	,m,1,s,lower,:2:3: workload: blank' \
    'x,1,w,m,1,s,lower, :2:8: host: blank'; do
	row=${bad%%:*}
	want=${bad#"$row"}
	printf 'run,time,workload,metric,value,unit,better,host\n%b\n' "$row" \
	    >"$T/blank.csv"
	if pw import "$T/blank.csv" 2>"$T/err"; then
		fail "import of \"$row\" succeeded"
	fi
	expect_match "$(cat "$T/err")" "blank.csv$want"
	sqlite3 "$PERFWATCH_DB" .dump | cmp -s - "$T/before.sql" ||
		fail "a refused import of \"$row\" changed the store"
done
printf '{"run":"x","time":1,"workload":"w","metric":"  ","value":1,"unit":"s","better":"lower"}\n' \
    >"$T/blank.jsonl"
pw import "$T/blank.jsonl" 2>"$T/err" && fail "a blank metric imported"
expect_match "$(cat "$T/err")" 'blank.jsonl:1:36: metric: blank'
PERFWATCH_DB="$T/perfwatch.db"

# JSON Lines takes an iteration written as a number with a fraction of
# zero (2.0, as a script computing it writes it), as CSV takes "2.0", and
# a wrong type is named for what the key wants.
PERFWATCH_DB="$T/iter.db"
obj='"run":"x","time":1,"workload":"w","metric":"m","value":1,"unit":"s","better":"lower"'
printf '{%s,"iteration":2.0}\n{%s,"iteration":3}\n' "$obj" "$obj" >"$T/iter.jsonl"
pw import "$T/iter.jsonl" >/dev/null || fail "iteration 2.0 refused"
expect_eq "$(pw export | tail -n +2 | cut -d, -f9 | tr '\n' ' ')" '2 3 '
printf '{%s,"iteration":2.5}\n' "$obj" | sed 's/"run":"x"/"run":"y"/' >"$T/iter.jsonl"
pw import "$T/iter.jsonl" 2>"$T/err" && fail "iteration 2.5 imported"
expect_match "$(cat "$T/err")" ':1:87: iteration: "2.5" is not a whole number'
printf '{%s,"iteration":true}\n' "$obj" | sed 's/"run":"x"/"run":"y"/' >"$T/iter.jsonl"
pw import "$T/iter.jsonl" 2>"$T/err" && fail "iteration true imported"
expect_match "$(cat "$T/err")" ':1:87: iteration: expected a whole number'
printf '{%s}\n' "$obj" | sed 's/"time":1/"time":true/;s/"run":"x"/"run":"y"/' >"$T/iter.jsonl"
pw import "$T/iter.jsonl" 2>"$T/err" && fail "time true imported"
expect_match "$(cat "$T/err")" ':1:12: time: expected a string or a number'
# busy is why the run was busy: a number is not a reason ("busy": 0 made
# the run busy, its reason "0"), where "run": 5 is the label "5".
printf '{%s,"busy":0}\n' "$obj" | sed 's/"run":"x"/"run":5/' >"$T/busy.jsonl"
pw import "$T/busy.jsonl" 2>"$T/err" && fail "busy 0 imported"
expect_match "$(cat "$T/err")" ':1:85: busy: expected a string, why the run was busy (a quiet run has no busy key)'
printf '{%s}\n' "$obj" | sed 's/"run":"x"/"run":5/' >"$T/busy.jsonl"
pw import "$T/busy.jsonl" >/dev/null || fail "run 5 refused"
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT label, quiet IS NULL FROM runs WHERE label = '5'")" "5|1"
# A CRLF file whose last line was blank, through $(...), ends in a lone
# CR: the blank line it was, not a record of one field.
printf 'run,time,workload,metric,value,unit,better\r\nz,1,w,m,1,s,lower\r\n\r\n' >"$T/crlf.csv"
crlf=$(cat "$T/crlf.csv")
printf '%s' "$crlf" | pw import --format csv - >/dev/null 2>"$T/err" ||
	fail "a CRLF file through \$(...): $(cat "$T/err")"
PERFWATCH_DB="$T/perfwatch.db"

# A value a double cannot hold is refused at its row and column, and the
# store is left as it was: 1e-400 was stored as 0 (strtod's underflow),
# in a CSV and in JSON Lines alike.  A denormal (1e-310) keeps what
# digits it can (it exports as 1e-310, the fewest digits that read back:
# it was 9.99999999999997e-311), and a 0 with an
# exponent is 0.
PERFWATCH_DB="$T/range.db"
printf 'run,time,workload,metric,value,unit,better\nok,1,w,m,1,s,lower\n' |
    pw import - >/dev/null
before=$(sqlite3 "$PERFWATCH_DB" .dump)
for bad in '1e-400|is too near 0 for a double, which would store it as 0' \
    '-2.5E-999|is too near 0 for a double, which would store it as 0' \
    '1e400|is beyond a double'"'"'s range (1.8e+308)' \
    '-1e400|is beyond a double'"'"'s range (1.8e+308)'; do
	v=${bad%%|*}
	printf 'run,time,workload,metric,value,unit,better\nx,2,w,m,1,s,lower\nx,2,w,n,%s,s,lower\n' \
	    "$v" >"$T/range.csv"
	rc=0
	pw import "$T/range.csv" 2>"$T/err" || rc=$?
	expect_eq "$rc" 65
	expect_eq "$(head -n 1 "$T/err")" \
	    "perfwatch: $T/range.csv:3:5: value: \"$v\" ${bad#*|}"
	printf '{"run":"x","time":2,"workload":"w","metric":"m","value":1,"unit":"s","better":"lower"}\n{"run":"x","time":2,"workload":"w","metric":"n","value":%s,"unit":"s","better":"lower"}\n' \
	    "$v" >"$T/range.jsonl"
	rc=0
	pw import "$T/range.jsonl" 2>"$T/err" || rc=$?
	expect_eq "$rc" 65
	case $v in
	*e-*|*E-*)
		expect_eq "$(head -n 1 "$T/err")" \
		    "perfwatch: $T/range.jsonl:2:49: value: \"$v\" ${bad#*|}" ;;
	*)	# Jansson refuses a number past a double's range, at its end.
		expect_eq "$(head -n 1 "$T/err")" \
		    "perfwatch: $T/range.jsonl:2:$((48 + 8 + ${#v})): real number overflow near '$v'" ;;
	esac
	[ "$(sqlite3 "$PERFWATCH_DB" .dump)" = "$before" ] ||
		fail "a refused import of $v changed the store"
done
printf 'run,time,workload,metric,value,unit,better\nd,3,w,m,1e-310,s,lower\nd,3,w,n,0e-400,s,lower\n' |
    pw import - >/dev/null || fail "a denormal or 0e-400 refused"
printf '{"run":"j","time":4,"workload":"w","metric":"m","value":1e-310,"unit":"s","better":"lower"}\n' |
    pw import --format jsonl - >/dev/null || fail "a denormal refused in JSON Lines"
expect_eq "$(pw export --run d --run j | cut -d, -f1,4,5 | tail -n +2 | tr '\n' ' ')" \
    'd,m,1e-310 d,n,0 j,m,1e-310 '
PERFWATCH_DB="$T/perfwatch.db"

# compare --json of levels whose index overflows a double (lower is better,
# 1e300 then 1e-300) gives null, as the table gives inf, where jansson's
# refusal of an infinite real was taken for "out of memory" and the command
# died with nothing on its output.
PERFWATCH_DB="$T/huge.db"
printf 'run,time,workload,metric,value,unit,better\na,1,w,m,1e300,s,lower
b,2,w,m,1e-300,s,lower\n' | pw import - >/dev/null
pw compare --json a b >"$T/huge.json" || fail "compare --json exited $?"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["index"][0]["values"] == [1000.0, None], d["index"]
' "$T/huge.json"
PERFWATCH_DB="$T/perfwatch.db"

# An imported host may have ':' in its name (an IPv6 address): its runs
# are named HOST:LABEL at the ':' that leaves a host and a run of it, and
# a name that two splits read as two runs is refused, not taken for one.
PERFWATCH_DB="$T/colons.db"
printf 'run,time,workload,metric,value,unit,better,host
x,1,w,m,1,s,lower,fe80::1
x,2,w,m,2,s,lower,c
x,3,w,m,3,s,lower,a:b
b:x,4,w,m,4,s,lower,a
' | pw import - >/dev/null
expect_eq "$(pw show --csv fe80::1:x | tail -n 1)" 'w,m,1,1,1,-,1,s,lower,,,'
expect_eq "$(pw show --csv c:x | tail -n 1)" 'w,m,2,2,2,-,1,s,lower,,,'
expect_eq "$(pw export --run fe80::1:x | tail -n 1)" \
    'x,1970-01-01T00:00:01Z,w,m,1,s,lower,fe80::1,1,complete,import,,,'
pw show a:b:x >/dev/null 2>"$T/err" && fail "a:b:x named one run of two"
expect_match "$(cat "$T/err")" '"a:b:x" names runs of two hosts; say #ID'
# runs gives the id that names such a run: #3 in the table, 3 in --csv,
# "id": 3 in --json and show --json.
expect_eq "$(pw runs | awk '$1 == "x" && $2 == "a:b" { print $(NF - 1) }')" '#3'
expect_eq "$(pw runs --csv | tail -n +2 | cut -d, -f1,2,10 | tr '\n' ' ')" \
    'x,fe80::1,1 x,c,2 x,a:b,3 b:x,a,4 '
id=$(pw runs --json | python3 -c '
import json, sys
print([r["id"] for r in json.load(sys.stdin) if r["host"] == "a:b"][0])')
expect_eq "$id" 3
expect_eq "$(pw show --csv "#$id" | tail -n 1)" 'w,m,3,3,3,-,1,s,lower,,,'
expect_eq "$(pw show --json "#$id" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["id"], d["host"])')" '3 a:b'
PERFWATCH_DB="$T/perfwatch.db"

# A directory to import is refused as one (66), where it read as an empty
# file ("DIR: empty file", 65); standard input too.
mkdir "$T/adir"
rc=0; PERFWATCH_DB="$T/dir.db" pw import "$T/adir" 2>"$T/err" || rc=$?
expect_eq "$rc" 66
expect_eq "$(cat "$T/err")" "perfwatch: $T/adir: Is a directory"
rc=0; PERFWATCH_DB="$T/dir.db" pw import - <"$T/adir" 2>"$T/err" || rc=$?
expect_eq "$rc" 66
expect_eq "$(cat "$T/err")" "perfwatch: <stdin>: Is a directory"
[ ! -e "$T/dir.db" ] || fail "a refused import created the database"
# So does a bad file, and an empty one, read into a store that is not
# there yet: it left an empty database (and the directories made for it)
# behind, which the commands that read then took for the store meant.
printf 'run,time,workload,metric,value,unit,better\nr,1,w,m,fast,s,lower\n' \
    >"$T/fast.csv"
for f in "$T/fast.csv" /dev/null; do
	rc=0; pw -D "$T/new/dir/x.db" import "$f" 2>"$T/err" || rc=$?
	expect_eq "$rc" 65
	[ ! -e "$T/new" ] || fail "import $f left $(ls -R "$T/new")"
done
expect_match "$(cat "$T/err")" "nothing was imported"
# One that does not exist yet in a directory that does: the directory
# stays.
mkdir "$T/new"
rc=0; pw -D "$T/new/x.db" import "$T/fast.csv" 2>/dev/null || rc=$?
expect_eq "$rc" 65
[ -d "$T/new" ] && [ -z "$(ls -A "$T/new")" ] ||
	fail "import into $T/new: $(ls -la "$T/new")"

# A value written as an integer beyond 64 bits (a byte counter) imports
# from JSON Lines as it does from CSV, where jansson's "too big integer"
# refused the line.
obj='"run":"x","time":1700000000,"workload":"w","metric":"m","unit":"B","better":"higher"'
printf '{%s,"value":18446744073709551615,"iteration":3}\n{%s,"value":-99999999999999999999,"iteration":4}\n' \
    "$obj" "$obj" >"$T/big.jsonl"
PERFWATCH_DB="$T/bigj.db" pw import "$T/big.jsonl" >/dev/null ||
	fail "a big integer value refused"
printf 'run,time,workload,metric,value,unit,better,iteration
x,1700000000,w,m,18446744073709551615,B,higher,3
x,1700000000,w,m,-99999999999999999999,B,higher,4
' >"$T/big.csv"
PERFWATCH_DB="$T/bigc.db" pw import "$T/big.csv" >/dev/null
expect_eq "$(PERFWATCH_DB="$T/bigj.db" pw export | cut -d, -f5,9 | tr '\n' ' ')" \
    'value,iteration 1.8446744073709552e+19,3 -1e+20,4 '
PERFWATCH_DB="$T/bigj.db" pw export | cmp -s - "$(PERFWATCH_DB="$T/bigc.db" \
    pw export >"$T/bigc.out"; echo "$T/bigc.out")" ||
	fail "JSON Lines and CSV imports differ"
# On such a line the other numbers are read as written too: a time of 21
# digits is out of range as the CSV says it (it was quoted as "1e+20",
# which "expected YYYY-MM-DD"), and a label of digits is still one.
printf '{"run":"y","time":100000000000000000000,"workload":"w","metric":"m","value":1,"unit":"B","better":"higher"}\n' \
    >"$T/bigt.jsonl"
PERFWATCH_DB="$T/bigt.db" pw import "$T/bigt.jsonl" 2>"$T/err" &&
	fail "a time of 21 digits imported"
expect_eq "$(cat "$T/err" | head -n 1)" \
    "perfwatch: $T/bigt.jsonl:1:12: time: \"100000000000000000000\": time out of range (epoch seconds or RFC 3339 expected)"
printf '{"run":7,"time":1700000000,"workload":"w","metric":"m","value":100000000000000000000,"unit":"B","better":"higher"}\n' \
    >"$T/bigt.jsonl"
PERFWATCH_DB="$T/bigt.db" pw import "$T/bigt.jsonl" >/dev/null 2>"$T/err" ||
	fail "run 7 beside a big value: $(cat "$T/err")"
expect_eq "$(PERFWATCH_DB="$T/bigt.db" pw export | cut -d, -f1,5 | tail -n 1)" '7,1e+20'

# A run's state goes with it: status, trigger and why it was busy, so
# that a run that did not count in one store does not count in another.
# A run exported while it ran comes in aborted; rows of one run that
# disagree, and values perfwatch does not record, are refused at
# row:column with the store untouched.
PERFWATCH_DB="$T/state.db"
printf '%s\n' 'run,time,workload,metric,value,unit,better,status,trigger,busy' \
    'a,1,w,m,1,s,lower,aborted,schedule,' \
    'b,2,w,m,2,s,lower,complete,bisect,' \
    'c,3,w,m,3,s,lower,,,"load 3.0 > 1.0, ""x"""' \
    'd,4,w,m,4,s,lower,running,manual,' \
    'e,5,w,m,5,s,lower,failed,git,' >"$T/state.csv"
pw import "$T/state.csv" >/dev/null
expect_eq "$(pw runs --csv | cut -d, -f1,5,7,8 | tr '\n' ' ')" \
    'run,trigger,status,busy a,schedule,aborted,no b,bisect,complete,no c,import,complete,yes d,manual,aborted,no e,git,failed,no '
expect_match "$(pw show c | sed -n 2p)" 'measured on a busy machine: load 3.0 > 1.0, "x"'
# None of the five counts (aborted, a bisection's, busy, aborted,
# failed): a check of a sixth run finds no baseline run.
printf 'run,time,workload,metric,value,unit,better\nf,6,w,m,6,s,lower\n' \
    >"$T/f.csv"
pw import "$T/f.csv" >/dev/null
expect_eq "$(pw check --json f | python3 -c '
import json, sys
print(json.load(sys.stdin)["verdicts"][0]["baseline_runs"])')" 0
before=$(sqlite3 "$PERFWATCH_DB" .dump)
for bad in 'x,1,w,m,1,s,lower,complete,import,,|x,1,w,m,2,s,lower,aborted,import,,|3:8|status: "aborted", where run "x" has "complete" in an earlier row (a run has one status)' \
    'x,1,w,m,1,s,lower,,,,|x,1,w,m,2,s,lower,,,busy,|3:10|busy: "busy", where run "x" has "" in an earlier row (a run has one busy)' \
    'x,1,w,m,1,s,lower,done,,,|x,2,w,m,1,s,lower,,,,|2:8|status: "done" is not complete, aborted, failed or running' \
    'x,1,w,m,1,s,lower,,cron,,|x,2,w,m,1,s,lower,,,,|2:9|trigger: "cron" is not one perfwatch records' \
    'x,1,w,m,1,s,lower,,,,5|x,1,w,m,2,s,lower,,,,6|3:11|duration: "6", where run "x" has "5" in an earlier row (a run has one duration)' \
    'x,1,w,m,1,s,lower,,,,-1|x,2,w,m,1,s,lower,,,,|2:11|duration: "-1" is not a whole number of seconds from 0 to 253402300798, which ends the run at 9999-12-31T23:59:59Z' \
    'x,1,w,m,1,s,lower,,,,253402300799|x,2,w,m,1,s,lower,,,,|2:11|duration: "253402300799" is not a whole number of seconds from 0 to 253402300798, which ends the run at 9999-12-31T23:59:59Z'; do
	r1=${bad%%|*}; rest=${bad#*|}; r2=${rest%%|*}; rest=${rest#*|}
	pos=${rest%%|*}; msg=${rest#*|}
	printf '%s\n' 'run,time,workload,metric,value,unit,better,status,trigger,busy,duration' \
	    "$r1" "$r2" >"$T/bad.csv"
	rc=0
	pw import "$T/bad.csv" 2>"$T/err" || rc=$?
	expect_eq "$rc" 65
	expect_eq "$(head -n 1 "$T/err")" "perfwatch: $T/bad.csv:$pos: $msg"
done
[ "$(sqlite3 "$PERFWATCH_DB" .dump)" = "$before" ] ||
	fail "a refused import changed the store"

pass
