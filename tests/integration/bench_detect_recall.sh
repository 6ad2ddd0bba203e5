#!/bin/sh
# bench/detect's recall table held the Perfherder-style reference to 3
# runs, though its t needs the 12 runs from its split on: it alerts 10
# runs after a step at the earliest, so its column read 0.0% in every
# cell, whatever it found.  Its column is the recall within 14 runs
# now, its split by the third run at the new level.  A step of 25% in
# 1% noise (46 between-run sds) is found by every detector.
set -eu
. "$(dirname "$0")/lib.sh"

detect="$(dirname "$PERFWATCH")/../bench/detect"
[ -x "$detect" ] || fail "no $detect (make build-all builds it)"

"$detect" -h 2 -o 0 >"$T/out" 2>"$T/err" || fail "detect: $(cat "$T/err")"
expect_match "$(cat "$T/out")" "recall within 3 runs (perfherder's within 14"
# noise (2 words), step, /sd, then a recall and a delay a detector:
# perfwatch, fixed-5%, perfherder, cusum.
row=$(awk '$1 == "normal" && $2 == "1%" && $3 == "+25%" && NF == 12' \
    "$T/out")
[ -n "$row" ] || fail "no row of the +25% step: $(cat "$T/out")"
set -- $row
expect_eq "$5 $7 $9 ${11}" "100.0% 100.0% 100.0% 100.0%"
pass
