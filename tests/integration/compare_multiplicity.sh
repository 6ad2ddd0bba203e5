#!/bin/sh
# compare of four runs against four, whose run test reaches p 2/70 =
# 0.029 alone: with one metric a clean 15% shift of runs that do not
# overlap is a regression; beside a second metric, BH's q of that p is
# 0.057 at best, and the shift was "unchanged" (a stricter fdr 0.01,
# which sent it to the samples' test, found it).  It is inconclusive
# now, its q shown; the flat metric too, as nothing there could have
# been told.
set -eu
. "$(dirname "$0")/lib.sh"

step_history 30 25 30 7 | pw -D "$T/one.db" import - >/dev/null
step_history 30 25 30 7 rate | pw -D "$T/two.db" import - >/dev/null
groups="old=r-18,r-19,r-20,r-21 new=r-2[6-9]"
# shellcheck disable=SC2086 # two groups, split on purpose
pw -D "$T/one.db" compare --csv $groups >"$T/one.csv" || fail "compare one"
# shellcheck disable=SC2086
pw -D "$T/two.db" compare --csv $groups >"$T/two.csv" || fail "compare two"
# shellcheck disable=SC2086
pw -D "$T/two.db" compare $groups >"$T/two.out" || fail "compare two table"
python3 - "$T" <<'EOPY' || fail "the verdicts: $(cat "$T/one.csv" "$T/two.csv")"
import csv, sys
t = sys.argv[1]
def rows(name):
    return {r["metric"]: r for r in csv.DictReader(open(t + "/" + name))}
one, two = rows("one.csv"), rows("two.csv")
assert one["time"]["new verdict"] == "regression", one["time"]
assert abs(float(one["time"]["new q"]) - 2 / 70) < 1e-12, one["time"]
for m in ("time", "rate"):
    assert two[m]["new verdict"] == "inconclusive", two[m]
    assert two[m]["new test"] == "runs", two[m]
assert abs(float(two["time"]["new q"]) - 4 / 70) < 1e-12, two["time"]
EOPY
expect_match "$(cat "$T/two.out")" "sys.pipe  time               99.8157  114.877  +15.1%  ?  s"
pass
