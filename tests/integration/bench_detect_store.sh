#!/bin/sh
# bench/detect -S DB times "check" on a bench/store history in process
# and through perfwatch.  Its perfwatch was "build/bin/perfwatch",
# relative: from anywhere but the top of the tree no run of it was
# timed ("not found", then "stats_median: value 0 is not finite"), and
# the bench exited 0 all the same.  It runs the perfwatch beside it now
# (../bin, as bench/store does), and exits 1 when the command failed
# every time.
set -eu
. "$(dirname "$0")/lib.sh"

top="$(cd "$(dirname "$PERFWATCH")/../bench" && pwd)"
[ -x "$top/detect" ] && [ -x "$top/store" ] ||
    skip "no $top/detect or $top/store (make build-all)"

mkdir "$T/s" "$T/elsewhere"
"$top/store" -r 40 -m 4 -i 2 -d "$T/s" >"$T/store.out" 2>&1 ||
    fail "store failed: $(cat "$T/store.out")"

rc=0
(cd "$T/elsewhere" && "$top/detect" -S "$T/s/bench.db" -r 3) \
    >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 0 ] || fail "exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/out")" \
    "$top/../bin/perfwatch check #40 (the newest)  median "
[ ! -s "$T/err" ] || fail "it said: $(cat "$T/err")"

# A perfwatch that never runs: said, and the exit status says so.
rc=0
(cd "$T/elsewhere" && "$top/detect" -S "$T/s/bench.db" -r 2 \
    -p "$T/no-perfwatch") >"$T/out" 2>"$T/err" || rc=$?
expect_eq "$rc" 1
expect_match "$(cat "$T/out")" \
    "$T/no-perfwatch check #40 (the newest)  failed  (2 times)"
expect_eq "$(grep -c '" failed$' "$T/err")" 2
pass
