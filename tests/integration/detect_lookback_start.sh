#!/bin/sh
# An alert opened by the look-back of a check whose runs before were
# recorded unchecked (an import) names the run where the shift began as
# its first bad one, and the run before it as its last good one.  The
# look-back's stretches reach back `window` (4) runs, and the rolling
# baseline before the oldest of them left the shift's first run out as
# a wild run: the alert named r-27 and r-25, with r-26, already 15%
# slower, between them, so that its machine diff and the bisection it
# suggests were between the wrong runs.  And the run that opened it,
# checked again, is judged against the runs before the shift.
set -eu
. "$(dirname "$0")/lib.sh"

# js EXPR: the Python expression over the alerts d, as compact JSON.
js() {
	pw alerts --all --json | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(json.dumps(eval(sys.argv[1]), separators=(",", ":")))' "$1"
}

# r-26 to r-30 15% slower, r-30 alone checked.
step_history 30 26 30 7 | pw import - >/dev/null
pw check r-30 >"$T/out" || true
expect_match "$(cat "$T/out")" "alert #1 sys.pipe time: new -> confirmed (regression"
expect_eq "$(js '[(a["state"], a["direction"], a["first_bad_run"],
    a["last_good_run"], a["last_run"]) for a in d]')" \
    '[["confirmed","regression","r-26","r-25","r-30"]]'
expect_eq "$(js '[(a["attribution"]["last_good_run"]["run"],
    a["attribution"]["first_bad_run"]["run"]) for a in d]')" \
    '[["r-25","r-26"]]'
# Its size is the stretch's pooled: 15% slower.
expect_eq "$(js '[13 < a["change_pct"] < 17 for a in d]')" '[true]'
# r-26, checked again, is one of the alert's runs; r-25 is none.
expect_match "$(pw check r-26 | grep ' time ')" "#1 confirmed"
if pw check r-25 | grep ' time ' | grep -q '#1'; then
	fail "r-25 names alert #1: $(pw check r-25)"
fi
# r-30, which opened it, checked again is a regression, and bad to a
# bisection: its baseline skips the alert's runs before it, as every
# later run's does.  It took r-26 to r-29 in, and said "unchanged", and
# check --bisect "good".
expect_match "$(pw check r-30 | grep ' time ')" " regression  #1 confirmed"
rc=0
pw check --bisect r-30 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "check --bisect r-30: exit $rc, not 1 (bad)"

# A run out of line the other way just before the shift is not where it
# began: the alert starts at r-27, and its last good run is the newest
# one of the baseline, r-25, not the wild r-26.
export PERFWATCH_DB="$T/wild.db"
step_history 30 27 30 7 |
    awk -F, -v OFS=, '$1 == "r-26" { $5 = sprintf("%.4f", $5 * 0.8) } 1' |
    pw import - >/dev/null
pw check r-30 >"$T/out" || true
expect_eq "$(js '[(a["state"], a["first_bad_run"], a["last_good_run"])
    for a in d]')" '[["confirmed","r-27","r-25"]]'
pass
