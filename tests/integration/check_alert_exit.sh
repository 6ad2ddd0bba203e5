#!/bin/sh
# A check that opens or confirms a regression alert exits 1, and says
# why when the run's own verdict is no regression.  Runs recorded
# unchecked (an import) of a shift five runs old when the latest is
# checked: the rolling baseline takes the shift in as a step, so the
# verdict is "unchanged", while the look-back pools the runs before it
# and confirms a regression alert.  The check exited 0, as if nothing
# were worse, where perfwatch(1) has it exit 1 when it finds a
# regression.
set -eu
. "$(dirname "$0")/lib.sh"

# r-26 to r-30 15% slower; r-30 alone checked, each way it prints.
step_history 30 26 30 7 >"$T/hist.csv"
for out in table csv json; do
	export PERFWATCH_DB="$T/$out.db"
	pw import "$T/hist.csv" >/dev/null
	rc=0
	case $out in
	table) pw check r-30 >"$T/out" 2>"$T/err" || rc=$? ;;
	*) pw check --"$out" r-30 >"$T/out" 2>"$T/err" || rc=$? ;;
	esac
	[ "$rc" -eq 1 ] || fail "check --$out r-30 exited $rc: $(cat "$T/out" "$T/err")"
	# The one alert: confirmed at once, a regression.
	expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT id, state, direction
	    FROM alerts")" "1|confirmed|regression"
	cp "$T/out" "$T/$out.out"
	cp "$T/err" "$T/$out.err"
done
expect_match "$(grep ' time ' "$T/table.out")" "unchanged  #1 confirmed"
expect_match "$(cat "$T/table.out")" "alert #1 sys.pipe time: new -> confirmed (regression"
expect_match "$(cat "$T/table.out")" "
sys.pipe time: unchanged alone, a regression pooled with the runs before it (alert #1)"
[ ! -s "$T/table.err" ] || fail "check r-30 on stderr: $(cat "$T/table.err")"
expect_eq "$(cat "$T/csv.err")" "perfwatch: sys.pipe time: unchanged alone, a regression pooled with the runs before it (alert #1)"
expect_eq "$(awk -F, 'NR > 1 { print $9, $10, $12 }' "$T/csv.out")" \
    "unchanged 1 confirmed"
python3 - "$T/json.out" <<'EOF' || fail "check --json r-30: $(cat "$T/json.out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["regressions"] == 0, d
assert [v["verdict"] for v in d["verdicts"]] == ["unchanged"], d
assert [(e["alert"], e["from"], e["to"], e["direction"])
    for e in d["events"]] == [(1, None, "confirmed", "regression")], d
EOF

# Checked again, the run advances no alert: it exits by its verdict,
# which is now against the runs before the shift, the alert's runs
# left out (it was "unchanged", exit 0, against a baseline that took
# them in).
export PERFWATCH_DB="$T/table.db"
rc=0
pw check r-30 >"$T/out" || rc=$?
[ "$rc" -eq 1 ] || fail "check r-30 again exited $rc: $(cat "$T/out")"
expect_match "$(grep ' time ' "$T/out")" "regression  #1 confirmed"
if grep -q "a regression pooled\|alert #1 sys.pipe time:" "$T/out"; then
	fail "check r-30 again: $(cat "$T/out")"
fi

# The same shift of a metric where higher is better is an improvement:
# its alert, confirmed as well, finds no regression.
export PERFWATCH_DB="$T/better.db"
sed 's/,s,lower,/,s,higher,/' "$T/hist.csv" | pw import - >/dev/null
pw check r-30 >"$T/out" || fail "improvement: exit $?: $(cat "$T/out")"
expect_match "$(cat "$T/out")" "alert #1 sys.pipe time: new -> confirmed (improvement"
if grep -q "a regression pooled" "$T/out"; then
	fail "improvement: $(cat "$T/out")"
fi
pass
