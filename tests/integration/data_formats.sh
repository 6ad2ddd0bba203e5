#!/bin/sh
# Machine-readable output across commands and hosts: what a script that
# reads --json and --csv, or moves histories between machines, relies on.
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

# A baseline of both hosts' runs of the same labels: baseline show --json
# names each run's host, as runs --json does, not the label alone twice.
pw baseline set both 'r-0*' >/dev/null 2>&1
pw baseline show --json both | python3 -c '
import json, sys
d = json.load(sys.stdin)
runs = d["runs"]
assert len(runs) == 18, runs
assert {(r["run"], r["host"]) for r in runs} == {("r-%02d" % i, h)
    for i in range(1, 10) for h in ("box", "other")}, runs
assert all(r["time"].endswith("Z") for r in runs), runs
'

pass
