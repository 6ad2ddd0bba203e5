#!/bin/sh
# The table, --csv and --json of the listing commands say the same
# things, each in its own way: a name from the database is escaped in the
# table and in the lines beside it, and kept as stored in the CSV and
# the JSON.
set -eu
. "$(dirname "$0")/lib.sh"

step_history 8 6 8 3 rate >"$T/hist.csv"
pw import "$T/hist.csv" >/dev/null

# baseline list: the baseline in use, named with an escape sequence, is
# escaped in its "in use:" line as in the table's row (the line wrote
# the ESC to the terminal).
esc=$(printf 'b\033[31mX')
pw baseline set "$esc" r-01 r-02 r-03 >/dev/null
pw baseline use "$esc" >/dev/null
pw baseline list >"$T/out"
grep -q "$(printf '\033')" "$T/out" &&
	fail "baseline list wrote an ESC: $(od -c "$T/out" | head)"
expect_eq "$(head -n 1 "$T/out")" 'in use: b\x1b[31mX'
expect_match "$(pw baseline list --csv)" "$esc,3,"
pw baseline list --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["in_use"] == "b\x1b[31mX", d
assert d["baselines"][0]["in_use"] is True, d
'
pass
