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
# A table's columns line up after an emoji outside the CJK blocks, which
# a terminal shows two columns wide (U+1F680, U+2615), as after one of
# them (U+1F600); a symbol of the same blocks that it shows narrow
# (U+2605) takes one.  The rocket and the cup were counted one column
# wide, and the columns after them stood a column too far to the right.
{
	echo 'run,time,workload,metric,value,unit,better,host'
	for l in abcdef "$(printf '\360\237\232\200go')" \
	    "$(printf '\342\230\225go')" "$(printf '\360\237\230\200go')" \
	    "$(printf '\342\230\205go')"; do
		echo "$l,1700000000,w,m,1,s,lower,box"
	done
} >"$T/wide.csv"
pw -D "$T/wide.db" import "$T/wide.csv" >/dev/null
pw -D "$T/wide.db" runs | sed -n 's/\(.*box\).*/\1/p' >"$T/out"
cat >"$T/want" <<EOF2
abcdef  box
$(printf '\360\237\232\200go')    box
$(printf '\342\230\225go')    box
$(printf '\360\237\230\200go')    box
$(printf '\342\230\205go')     box
EOF2
cmp -s "$T/out" "$T/want" ||
	fail "runs' columns: $(diff "$T/want" "$T/out")"
pass
