#!/bin/sh
# bench/window's recall is the share of steps found by an alarm the
# step's way within 3 runs.  Only an alarm upward was counted, so a
# step down (-d under 0) was never found: 0.00% where the same step up
# gives 98%.  An alarm downward finds it now; and a step of 0, which
# has no way, counts an alarm either way, what chance alone gives.
set -eu
. "$(dirname "$0")/lib.sh"

bench="$(dirname "$PERFWATCH")/../bench/window"
[ -x "$bench" ] || skip "no $bench (make build-all)"

# recall STEP: the recall at c 3.5 over 400 histories, in %, whole.
recall() {
	"$bench" -n 400 -d "$1" 3.5 >"$T/out" 2>&1 ||
	    fail "window -d $1 failed: $(cat "$T/out")"
	tail -n 1 "$T/out" | awk '{ sub(/%$/, "", $3); printf "%d\n", $3 }'
}

down=$(recall -3.29)
up=$(recall 3.29)
none=$(recall 0)
# Seeds are fixed, but the sums may round apart from one compiler to
# another: bounds that both steps clear by far, and chance does not.
[ "$down" -ge 90 ] || fail "a step down: recall $down%, expected 90% or more"
[ "$up" -ge 90 ] || fail "a step up: recall $up%, expected 90% or more"
[ "$none" -le 5 ] || fail "no step: recall $none%, expected 5% or less"
pass
