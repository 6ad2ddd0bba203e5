#!/bin/sh
# bench/detect's spike rows say in how many of H histories a one-run
# spike ended in a confirmed alert ("N (cusum's) of H").  perfwatch's N
# counted every alert confirmed the spike's way after it, so a history
# with two counted twice: with an engine made quick to confirm, 8%
# noise gave "spike +25%: 4 (3) of 3".  Each history counts once now,
# as cusum's does.
set -eu
. "$(dirname "$0")/lib.sh"

detect="$(dirname "$PERFWATCH")/../bench/detect"
[ -x "$detect" ] || fail "no $detect (make build-all builds it)"

# Confirmation on a single run at a loose alpha and fdr, no floor: alert
# after alert, so that some spike histories confirm twice.
"$detect" -h 3 -o 2 -a 0.5 -F 0.9 -f 0 -C 1 >"$T/out" 2>"$T/err" ||
    fail "detect: $(cat "$T/err")"
line=$(grep '^normal 8% .*spike +10%: ' "$T/out") ||
    fail "no spike row: $(cat "$T/out")"
# "normal 8%     spike +10%: A (B) of H  spike +25%: C (D) of H"
count='\([0-9][0-9]*\) (\([0-9][0-9]*\)) of \([0-9][0-9]*\)'
set -- $(echo "$line" |
    sed -n "s/.*spike +10%: $count  spike +25%: $count\$/\1 \2 \3 \4 \5 \6/p")
[ $# -eq 6 ] || fail "cannot read: $line"
[ "$3" -eq 3 ] && [ "$6" -eq 3 ] || fail "not 3 histories a spike: $line"
for n in "$1" "$2" "$4" "$5"; do
	[ "$n" -le 3 ] || fail "more spikes found than histories: $line"
done
# Not vacuous: perfwatch confirmed some +25% spike.
[ "$4" -ge 1 ] || fail "no +25% spike confirmed: $line"
pass
