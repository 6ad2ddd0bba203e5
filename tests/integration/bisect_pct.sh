#!/bin/sh
# perfwatch bisect's changes are check's: in percent of the good level's
# size.  A command workload prints the value its commit's build left,
# with 0.01% of jitter: -5 to -8 (higher is better) is -60%, not +60%;
# a commit 0.03% under the good level is +0.0%, not -0.0%; from a good
# level of 0 there is no percentage ("-", null), not +inf% or nan%, and
# the change from 0 to 5 is still bisected.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

# 1. A negative level: -5 to -8, higher is better, is 60% worse.
make_repo "score -5 pt higher" "score -5 pt higher" "score -8 pt higher" \
    "score -8 pt higher"
bisect --json main~3..main >"$T/out.json" 2>"$T/err" ||
	fail "negative: $(cat "$T/err")"
# Printed as the other commands print --json: it was on one line.
json_as_printed "$T/out.json" ||
	fail "bisect --json is not printed as --json is: $(cat "$T/out.json")"
expect_eq "$(json_field "$T/out.json" first_bad.summary)" c3
for k in first_bad.change_pct bad.change_pct; do
	c=$(json_field "$T/out.json" "$k")
	in_range "$c" -60.1 -59.9 || fail "negative: $k $c, not -60"
done
bisect main~3..main >"$T/out.txt" 2>"$T/err" ||
	fail "negative, table: $(cat "$T/err")"
grep -q "^first bad commit: $(rev main~1) c3 (-60\.0%)$" "$T/out.txt" ||
	fail "negative, table: $(cat "$T/out.txt")"
grep -q "^bad  *$(rev main | cut -c1-12) .* -60\.0% " "$T/out.txt" ||
	fail "negative, the bad row: $(cat "$T/out.txt")"
grep -q "(-60\.0%); about" "$T/err" || fail "negative, progress: $(cat "$T/err")"
# As check has it, on the same runs: the last run against the first.
first=$(sqlite3 "$PERFWATCH_DB" "SELECT label FROM runs ORDER BY id LIMIT 1")
last=$(sqlite3 "$PERFWATCH_DB" "SELECT label FROM runs ORDER BY id DESC LIMIT 1")
bad_run=$(sqlite3 "$PERFWATCH_DB" "SELECT label FROM runs WHERE
    json_extract(git_commits, '\$.bisect') = '$(rev main)' LIMIT 1")
pw compare --json "$first" "$bad_run" >"$T/cmp.json" 2>&1 ||
	fail "compare: $(cat "$T/cmp.json")"
grep -q '"change_pct": -60\.0\|"change_pct": -59\.9' "$T/cmp.json" ||
	fail "compare does not say -60%: $(cat "$T/cmp.json")"

# 2. A change that rounds to nothing: c2 is 0.03% under the good level
# (and good), which the table gives as +0.0%, never -0.0%; the CSV gives
# each change in full, as --json does: a number, under its key.
make_repo "lat 100 ms lower" "lat 99.97 ms lower" "lat 120 ms lower"
bisect --csv main~2..main >"$T/out.csv" 2>"$T/err" ||
	fail "small: $(cat "$T/err")"
python3 - "$T/out.csv" "$(rev main~1)" "$(rev main)" <<'PY' ||
import csv, sys
rows = {r["id"]: r for r in csv.DictReader(open(sys.argv[1]))}
c2, c3 = rows[sys.argv[2]], rows[sys.argv[3]]
assert c2["verdict"] == "good" and c2["summary"] == "c2", c2
assert -0.04 < float(c2["change_pct"]) < -0.02, c2
assert c3["verdict"] == "bad" and c3["first_bad"] == "yes", c3
assert 19.9 < float(c3["change_pct"]) < 20.1, c3
# More digits than the table's one decimal, and no "+" nor "%".
assert len(c3["change_pct"]) > len("20.0") and len(c3["level"]) > 6, c3
assert not any(c in r["change_pct"] for r in rows.values() for c in "+%"), rows
# The levels' unit beside them, in every row.
assert {r["unit"] for r in rows.values()} == {"ms"}, rows
PY
	fail "small: $(cat "$T/out.csv")"
bisect main~2..main >"$T/out.txt" 2>"$T/err" ||
	fail "small, table: $(cat "$T/err")"
# ... and in the table's first line, after the metric.
expect_match "$(head -n 1 "$T/out.txt")" "lat in ms (lower is better), "
grep -q "^good  *$(rev main~1 | cut -c1-12) .* +0\.0% " "$T/out.txt" ||
	fail "small, table: c2's change: $(cat "$T/out.txt")"
if grep -q -- "-0\.0%" "$T/out.txt"; then
	fail "small: a -0.0%: $(cat "$T/out.txt")"
fi

# 3. A good level of 0 (errors, lower is better): 0 to 5 is bisected,
# with no percentage: "-" in the table, null in JSON; c2 at 0 too.
make_repo "errs 0 count lower" "errs 0 count lower" "errs 5 count lower"
bisect --json main~2..main >"$T/out.json" 2>"$T/err" ||
	fail "zero: $(cat "$T/err")"
expect_eq "$(json_field "$T/out.json" first_bad.summary)" c3
expect_eq "$(json_field "$T/out.json" first_bad.change_pct)" None
expect_eq "$(json_field "$T/out.json" tested.0.change_pct)" None
expect_eq "$(json_field "$T/out.json" tested.0.verdict)" good
bisect main~2..main >"$T/out.txt" 2>"$T/err" || fail "zero, table: $(cat "$T/err")"
if grep -qi "inf\|nan" "$T/out.txt" "$T/err"; then
	fail "zero: inf or nan: $(cat "$T/out.txt" "$T/err")"
fi
grep -q "^good  *$(rev main~1 | cut -c1-12)  *[0-9]*  *0  *-  " "$T/out.txt" ||
	fail "zero: c2's row: $(cat "$T/out.txt")"
grep -q "^first bad commit: $(rev main) c3 (0 to 5\.\{0,1\}[0-9]* count)$" "$T/out.txt" ||
	fail "zero: the first bad line: $(cat "$T/out.txt")"
pass
