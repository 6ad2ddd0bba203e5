#!/bin/sh
# perfwatch bisect checks its answer side by side: the last good commit
# and the first bad one measured one right after the other.  On a steady
# machine the answer holds, and a bisection started again asks no new
# pair; the two ends' own runs give pairs too.  On
# a machine that slowed down once the ends were measured, every commit
# after looked bad and the search named the first one: the pair shows
# no step, the answer does not hold, and it exits 75.  --no-side-check
# leaves the check out, and takes the wrong answer.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

command -v sqlite3 >/dev/null || fail "sqlite3 is not installed"
runs() {
	sqlite3 "${1:-$PERFWATCH_DB}" "SELECT count(*) FROM runs"
}

# c1-c6 at 100 ops/s, c7-c10 at 80.
make_repo "ops 100 ops/s higher" "ops 100 ops/s higher" \
    "ops 100 ops/s higher" "ops 100 ops/s higher" "ops 100 ops/s higher" \
    "ops 100 ops/s higher" "ops 80 ops/s higher" "ops 80 ops/s higher" \
    "ops 80 ops/s higher" "ops 80 ops/s higher"

# 1. A steady machine: c7, and it holds side by side.
bisect --json main~9..main >"$T/out.json" 2>"$T/err" ||
	fail "steady: exit $?: $(cat "$T/err")"
[ "$(json_field "$T/out.json" first_bad.summary)" = c7 ] ||
	fail "steady: first bad $(json_field "$T/out.json" first_bad.summary)"
[ "$(json_field "$T/out.json" side_by_side.verdict)" = holds ] ||
	fail "steady: $(cat "$T/out.json")"
pairs=$(json_field "$T/out.json" side_by_side.pairs)
[ "$pairs" -ge 1 ] || fail "steady: $pairs pairs"
in_range "$(json_field "$T/out.json" side_by_side.change_pct)" -20.1 -19.9 ||
	fail "steady: side by side $(json_field "$T/out.json" \
	    side_by_side.change_pct)%, not -20%"
grep -q "bisect: checking the answer side by side: $(rev main~4 |
    cut -c1-12) then $(rev main~3 | cut -c1-12)" "$T/err" ||
	fail "steady: no progress line: $(cat "$T/err")"
grep -q "bisect: the answer holds side by side: $pairs pairs\{0,1\}, -20.0%" \
    "$T/err" || fail "steady: $(cat "$T/err")"
# The pair is c6's run and then c7's, the next the store recorded.
[ "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM runs a JOIN runs b
    ON b.id = a.id + 1 WHERE json_extract(a.git_commits, '$.bisect') =
    '$(rev main~4)' AND json_extract(b.git_commits, '$.bisect') =
    '$(rev main~3)'")" -ge "$pairs" ] || fail "steady: no pair of runs"
# Again: the pairs are in the store, so nothing is measured.
before=$(runs)
bisect main~9..main >"$T/out" 2>"$T/err" ||
	fail "steady again: exit $?: $(cat "$T/err")"
[ "$(runs)" = "$before" ] ||
	fail "steady again: $before runs, then $(runs): measured again"
grep -q "^side by side (the last good and the first bad, one right after the other): holds, $pairs pairs\{0,1\}, -20.0%$" \
    "$T/out" || fail "steady again: $(cat "$T/out")"
grep -q "^first bad commit: $(rev main~3) c7 (-20.0%)$" "$T/out" ||
	fail "steady again: $(cat "$T/out")"

# 2. One commit between the ends: the ends' runs are pairs too (the good
# end's third run and the bad end's first, then any made in turn while
# the ends are too close to tell), and no run more is made.
rm -f "$T/count"
PERFWATCH_DB="$T/ends.db" bisect --json main~4..main~3 >"$T/out.json" \
    2>"$T/err" || fail "ends: exit $?: $(cat "$T/err")"
[ "$(json_field "$T/out.json" side_by_side.verdict)" = holds ] ||
	fail "ends: $(cat "$T/out.json")"
[ "$(json_field "$T/out.json" side_by_side.pairs)" = 1 ] ||
	fail "ends: $(json_field "$T/out.json" side_by_side.pairs) pairs"
[ "$(runs "$T/ends.db")" = 6 ] || fail "ends: $(runs "$T/ends.db") runs"
if grep -q "checking the answer side by side" "$T/err"; then
	fail "ends: measured pairs: $(cat "$T/err")"
fi

# 3. The machine 20% slower from the 19th measurement on, once the ends'
# three runs of three iterations each were measured: every commit looks
# bad, the search names c2, and c1 and c2 side by side show no step.
rm -f "$T/count"
echo "18 0.8" >"$T/drift"
rc=0
PERFWATCH_DB="$T/drift.db" bisect --json main~9..main >"$T/out.json" \
    2>"$T/err" || rc=$?
[ "$rc" -eq 75 ] || fail "drift: exit $rc: $(cat "$T/err")"
[ "$(json_field "$T/out.json" first_bad.summary)" = c2 ] ||
	fail "drift: the search found $(json_field "$T/out.json" \
	    first_bad.summary), not c2 (the test's drift missed)"
[ "$(json_field "$T/out.json" side_by_side.verdict)" = does_not_hold ] ||
	fail "drift: $(cat "$T/out.json")"
in_range "$(json_field "$T/out.json" side_by_side.change_pct)" -0.1 0.1 ||
	fail "drift: side by side $(json_field "$T/out.json" \
	    side_by_side.change_pct)%"
grep -q "perfwatch: the answer does not hold side by side: $(rev main~9 |
    cut -c1-12) and $(rev main~8 | cut -c1-12), measured one right after the other (1 pair), differ by +0.0% where the ends differ by -20.0%; the machine's speed changed during the search" \
    "$T/err" || fail "drift: $(cat "$T/err")"
# The table says so too, with the same status.
rm -f "$T/count"
rc=0
PERFWATCH_DB="$T/drift2.db" bisect main~9..main >"$T/out" 2>"$T/err" ||
    rc=$?
[ "$rc" -eq 75 ] || fail "drift table: exit $rc: $(cat "$T/err")"
grep -q "^side by side (the last good and the first bad, one right after the other): does not hold, 1 pair, +0.0%$" \
    "$T/out" || fail "drift table: $(cat "$T/out")"
grep -q "^the search's first bad commit, which does not hold: $(rev main~8) c2 (-20.0%)$" \
    "$T/out" || fail "drift table: $(cat "$T/out")"
# --no-side-check: what the check is for, the wrong answer taken (0).
rm -f "$T/count"
PERFWATCH_DB="$T/drift3.db" bisect --no-side-check main~9..main \
    >"$T/out" 2>"$T/err" || fail "unchecked: exit $?: $(cat "$T/err")"
grep -q "^side by side: not checked (--no-side-check)$" "$T/out" ||
	fail "unchecked: $(cat "$T/out")"
grep -q "^first bad commit: $(rev main~8) c2 (-20.0%)$" "$T/out" ||
	fail "unchecked: $(cat "$T/out")"
if grep -q "side by side" "$T/err"; then
	fail "unchecked: $(cat "$T/err")"
fi
pass
