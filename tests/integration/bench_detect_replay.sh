#!/bin/sh
# bench/detect -t NOISE,CHANGE,HISTORY replays the history it names,
# whatever options come after it: -o, which -v's replays are often
# given beside -t, parsed its noise numbers into the variable that held
# -t's noise, so "-t 0,3,1 -o 2" replayed a history of noise 2 (normal
# 8%) under that noise's seed, silently.
set -eu
. "$(dirname "$0")/lib.sh"

detect="$(dirname "$PERFWATCH")/../bench/detect"
[ -x "$detect" ] || skip "no $detect (make build-all)"

"$detect" -h 4 -t 0,3,1 >"$T/alone" 2>/dev/null ||
    fail "detect -t 0,3,1 failed"
"$detect" -h 4 -t 0,3,1 -o 2 >"$T/with_o" 2>/dev/null ||
    fail "detect -t 0,3,1 -o 2 failed"
expect_eq "$(head -n 1 "$T/with_o")" "normal 1%, +5%, history 1"
# The same history, check by check.
cmp -s "$T/alone" "$T/with_o" ||
    fail "-o changed the replayed history: $(diff "$T/alone" "$T/with_o" |
    head -n 4)"
[ "$(wc -l <"$T/alone")" -gt 90 ] || fail "too short a replay"
pass
