#!/bin/sh
# A pinned baseline that [detect] baseline names but the store does not
# have: check and run said only 'no baseline "nosuch"' (exit 65), a name
# the user never typed, with nothing to say it came from the
# configuration.  The message now names [detect] baseline and its
# file:line; a --baseline typed on the line is said as before.
set -eu
. "$(dirname "$0")/lib.sh"

step_history 6 7 7 11 >"$T/hist.csv"
pw import "$T/hist.csv" >/dev/null
mkdir -p "$T/work"
cat >"$T/pin.conf" <<EOC
[perfwatch]
work_dir = $T/work

[detect]
baseline = nosuch

[quiet]
$QUIET_ANY_LOAD
EOC
want='no baseline "nosuch", which [detect] baseline names at '"$T/pin.conf"':5: pin one so named with perfwatch baseline set, or name another there'
rc=0; pw -c "$T/pin.conf" check r-06 >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "check: exit $rc: $(cat "$T/err")"
expect_eq "$(cat "$T/err")" "perfwatch: $want"

# A run measures, then says why it could not be judged.
printf '[workload "tiny"]\ncommand = true\nmeasure = time\niterations = 1\n' \
    >"$T/profile.conf"
rc=0
pw -c "$T/pin.conf" run --profile "$T/profile.conf" >/dev/null \
    2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "run: exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "perfwatch: judging the run: $want"

# Typed on the line, the name is the user's own.
rc=0; pw -c "$T/pin.conf" check --baseline other r-06 >/dev/null \
    2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "check --baseline other: exit $rc"
expect_eq "$(cat "$T/err")" 'perfwatch: no baseline "other"'
# Set, it judges.
pw baseline set nosuch r-01 r-02 r-03 >/dev/null
pw -c "$T/pin.conf" check r-06 >/dev/null ||
	fail "check against the pinned baseline: exit $?"
pass
