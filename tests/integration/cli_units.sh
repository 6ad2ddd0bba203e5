#!/bin/sh
# A figure is read with its unit: compare, changes and check give each
# metric's unit in their table and their CSV (a column "unit", the last,
# never inside a number's field), the one --json gives.  Two metrics of
# the same size in two units (K/sec and MB/s) must not read alike.
set -eu
. "$(dirname "$0")/lib.sh"

# Twenty runs, 30% faster from run 11 on: a step for changes, a regression
# or improvement for check, a change for compare.
{
	echo 'run,time,workload,metric,value,unit,better'
	for r in $(seq 20); do
		for i in 1 2 3; do
			k=$((1500000 + i * 1000))
			m=$((1500 + i))
			[ "$r" -lt 11 ] || { k=$((k * 13 / 10)); m=$((m * 13 / 10)); }
			echo "u$r,$((1700000000 + r * 86400)),disk.x,kread,$k,K/sec,higher"
			echo "u$r,$((1700000000 + r * 86400)),disk.x,mread,$m,MB/s,higher"
		done
	done
} >"$T/units.csv"
pw import "$T/units.csv" >/dev/null

# The units as a CSV gives them under its header "unit", by metric.
csv_units() {
	python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert rows, "no rows"
for r in rows:
    assert "unit" in r, r
    if r["metric"] in ("kread", "mread"):
        print(r["metric"], r["unit"])
' | sort -u | tr '\n' ' '
}
want='kread K/sec mread MB/s '

# compare: the table and the CSV end each metric's row with its unit.
out=$(pw compare u1 u20)
expect_eq "$(printf '%s\n' "$out" | head -1 | awk '{ print $NF }')" unit
expect_eq "$(printf '%s\n' "$out" | awk '$2 == "kread" { print $NF }')" \
    'K/sec'
expect_eq "$(printf '%s\n' "$out" | awk '$2 == "mread" { print $NF }')" \
    'MB/s'
expect_eq "$(pw compare --csv u1 u20 | csv_units)" "$want"
expect_eq "$(pw compare --csv 'a=u1,u2,u3,u4,u5' 'b=u16,u17,u18,u19,u20' | csv_units)" \
    "$want"
# A column cannot take the unit's name, as none can take workload's.
rc=0; pw compare unit=u1 u20 2>"$T/err" || rc=$?
expect_eq "$rc" 64
expect_match "$(cat "$T/err")" "two columns named 'unit'"
# The CSV's unit is the one --json gives.
pw compare --json u1 u20 | python3 -c '
import json, sys
m = {x["metric"]: x["unit"] for x in json.load(sys.stdin)["metrics"]}
assert m == {"kread": "K/sec", "mread": "MB/s"}, m
'

# changes: the step of each metric, with its unit.
out=$(pw changes)
expect_eq "$(printf '%s\n' "$out" | head -1 | awk '{ print $NF }')" unit
expect_eq "$(printf '%s\n' "$out" | awk '$3 == "kread" { print $NF }')" \
    'K/sec'
expect_eq "$(printf '%s\n' "$out" | awk '$3 == "mread" { print $NF }')" \
    'MB/s'
expect_eq "$(pw changes --csv | csv_units)" "$want"
pw changes --json | python3 -c '
import json, sys
m = {x["metric"]: x["unit"] for x in json.load(sys.stdin)}
assert m == {"kread": "K/sec", "mread": "MB/s"}, m
'

# check: its baseline and current figures, with their unit.
for r in $(seq 19); do
	pw check "u$r" >/dev/null || true
done
out=$(pw check u20 || true)
expect_eq "$(printf '%s\n' "$out" | grep '^workload ' | awk '{ print $NF }')" \
    unit
expect_eq "$(printf '%s\n' "$out" | awk '$2 == "kread" { print $NF }')" \
    'K/sec'
expect_eq "$(printf '%s\n' "$out" | awk '$2 == "mread" { print $NF }')" \
    'MB/s'
expect_eq "$( (pw check --csv u20 || true) | csv_units)" "$want"
pass
