#!/bin/sh
# The medians that bench/snapshot and bench/changes print were the
# element at n / 2 of the sorted times: for an even count the upper of
# the two middle ones, for two times the larger.  They are the mean of
# the two now (stats_median_sorted, as bench/command's).  Two times
# each: the median printed is then halfway between the min and the max
# printed, to their rounding (it was the max).
set -eu
. "$(dirname "$0")/lib.sh"

top="$(dirname "$PERFWATCH")/../bench"
[ -x "$top/snapshot" ] && [ -x "$top/changes" ] ||
    skip "no $top/snapshot or $top/changes (make build-all)"

# halfway LINE TOLERANCE: in LINE, "median M", "min A" and "max B" (ms),
# M within TOLERANCE of (A + B) / 2.
halfway() {
	echo "$1" | awk -v tol="$2" '{
		for (i = 1; i < NF; i++) {
			v = $(i + 1); sub(/[^0-9.]+$/, "", v)
			if ($i == "median") m = v
			if ($i == "(min" || $i == "min") a = v
			if ($i == "max") b = v
		}
		d = m - (a + b) / 2
		if (d < 0) d = -d
		exit !(m != "" && a != "" && b != "" && d <= tol)
	}' || fail "median not halfway between min and max: $1"
}

"$top/snapshot" -n 2 >"$T/snapshot" 2>&1 ||
    fail "snapshot failed: $(cat "$T/snapshot")"
line=$(grep '^take: ' "$T/snapshot") || fail "no take line: $(cat "$T/snapshot")"
expect_match "$line" "over 2 runs"
halfway "$line" 0.01

"$top/changes" -s 1 -r 2 >"$T/changes" 2>&1 ||
    fail "changes failed: $(cat "$T/changes")"
line=$(grep '^time: ' "$T/changes") || fail "no time line: $(cat "$T/changes")"
expect_match "$line" "of 2 (min"
halfway "$line" 0.1
pass
