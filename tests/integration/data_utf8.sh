#!/bin/sh
# Text that is not UTF-8: import refuses it with file:row:column, run
# refuses such a --label, and a store that already holds such bytes (from
# before imports checked) still gives valid JSON from show, history and
# export, and an export that imports again.
set -eu
. "$(dirname "$0")/lib.sh"

hdr='run,time,workload,metric,value,unit,better'
printf '%s\nr1,1700000000,w,m,1.5,s,lower\nr\3771,1700000000,w\376,m,1.5,s,lower\n' \
    "$hdr" >"$T/bad8.csv"
if pw import "$T/bad8.csv" 2>"$T/err"; then
	fail "import of bytes that are not UTF-8 succeeded"
fi
expect_match "$(cat "$T/err")" \
    'bad8.csv:3:1: run: not valid UTF-8 (byte 0xff at offset 1)'
[ ! -f "$PERFWATCH_DB" ] || [ -z "$(pw export | tail -n +2)" ] ||
	fail "refused import left rows"
# The same through stdin and with the bad byte in a later column.
printf '%s\nr1,1700000000,w,m,1.5,s\351,lower\n' "$hdr" >"$T/bad8b.csv"
if pw import - <"$T/bad8b.csv" 2>"$T/err"; then
	fail "import of a unit that is not UTF-8 succeeded"
fi
expect_match "$(cat "$T/err")" '<stdin>:2:6: unit: not valid UTF-8'
# JSON Lines names the byte's own column (Jansson's was one early).
printf '{"run":"a","time":1,"workload":"w","metric":"m","value":1,"unit":"s","better":"lower"}\n{"run":"r\377","time":1,"workload":"w","metric":"m","value":1,"unit":"s","better":"lower"}\n' \
    >"$T/bad8.jsonl"
if pw import "$T/bad8.jsonl" 2>"$T/err"; then
	fail "import of JSON Lines that are not UTF-8 succeeded"
fi
expect_eq "$(head -n 1 "$T/err")" \
    "perfwatch: $T/bad8.jsonl:2:10: not valid UTF-8 (byte 0xff)"

# run --label refuses it before doing anything.
set +e
pw run --label "$(printf 'v\377')" --workload none >/dev/null 2>"$T/err"
rc=$?
set -e
[ "$rc" -eq 64 ] || fail "run --label with bad UTF-8 exited $rc, not 64"
expect_match "$(cat "$T/err")" '--label: not valid UTF-8'

# A store written before the check: put the bytes in with SQLite itself.
printf '%s\nr1,1700000000,w,m,1.5,s,lower\nr1,1700000000,w,m,2.5,s,lower\n' \
    "$hdr" | pw import - >/dev/null
python3 - "$PERFWATCH_DB" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE runs SET label = CAST(X'72FF31' AS TEXT)")
db.execute("UPDATE metrics SET workload = CAST(X'77FE' AS TEXT)")
db.commit()
PY
# show --json: valid JSON, bad bytes as U+FFFD, the numbers intact.
label=$(printf 'r\3771')
pw show --json "$label" >"$T/show.json" || fail "show --json exited $?"
python3 - "$T/show.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["run"] == "r\ufffd1", d["run"]
m = d["metrics"][0]
assert m["workload"] == "w\ufffd" and m["median"] == 2.0, m
assert m["values"] == [1.5, 2.5], m
PY
# history --json: every run under its metric (this used to free the array).
pw history --json >"$T/hist.json" || fail "history --json exited $?"
python3 - "$T/hist.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert len(d) == 1 and d[0]["workload"] == "w\ufffd", d
runs = d[0]["runs"]
assert len(runs) == 1 and runs[0]["run"] == "r\ufffd1", runs
assert runs[0]["samples"] == 2 and runs[0]["median"] == 2.0, runs
PY
# The JSON Lines export is UTF-8 and imports into a new store.
pw export --format jsonl >"$T/e.jsonl"
python3 -c 'import sys; open(sys.argv[1], encoding="utf-8").read()' \
    "$T/e.jsonl" || fail "export is not UTF-8"
PERFWATCH_DB="$T/second.db" pw import "$T/e.jsonl" >/dev/null ||
	fail "export did not import again"
out=$(PERFWATCH_DB="$T/second.db" pw show --csv "$(printf 'r\357\277\2751')")
expect_match "$out" "$(printf 'w\357\277\275,m,2,1.5,2.5,')"
# So is the CSV export, with the same U+FFFD: its bad bytes were written
# raw, and import refused them ("run: not valid UTF-8").
pw export --format csv >"$T/e.csv"
python3 -c 'import sys; open(sys.argv[1], encoding="utf-8").read()' \
    "$T/e.csv" || fail "the CSV export is not UTF-8"
PERFWATCH_DB="$T/third.db" pw import "$T/e.csv" >"$T/out" 2>&1 ||
	fail "the CSV export did not import again: $(cat "$T/out")"
expect_eq "$(PERFWATCH_DB="$T/third.db" pw export --format csv)" \
    "$(PERFWATCH_DB="$T/second.db" pw export --format csv)"

# Tables line up by the columns text takes on a terminal, not its bytes
# (an accent is one column, a CJK character two), and show a label's
# control characters as escapes, never raw.
export PERFWATCH_DB="$T/wide.db"
printf '%s\nr\303\251sum\303\251-\346\227\245\346\234\254,100,w,m,1,s,lower\nplain,200,w,m,2,s,lower\n' \
    "$hdr" | pw import - >/dev/null
printf '{"run":"nl\\nx","time":300,"workload":"w","metric":"m","value":1,"unit":"s","better":"lower"}\n{"run":"esc\\u001b[31mred","time":400,"workload":"w","metric":"m","value":1,"unit":"s","better":"lower"}\n' \
    >"$T/ctl.jsonl"
pw import "$T/ctl.jsonl" >/dev/null
pw history >"$T/wide.txt"
python3 - "$T/wide.txt" <<'PY' || fail "history table: $(cat "$T/wide.txt")"
import sys, unicodedata
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
def col(line, word):
    # the terminal column where word begins
    i = line.index(word)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in line[:i])
assert len(lines) == 5, lines
starts = [col(l, "1970-") for l in lines[1:]]
assert len(set(starts)) == 1 and starts[0] == col(lines[0], "time"), starts
assert not any("\x1b" in l for l in lines), lines
assert lines[3].startswith("nl\\nx "), lines[3]
assert lines[4].startswith("esc\\x1b[31mred "), lines[4]
PY
# So do the classic tables, whose units an import may write in any
# script: padded by their bytes, "µs" put its row's figures a column
# left of the next row's, and a bonnie header "KB/秒" short by one.
export PERFWATCH_DB="$T/units.db"
# (A test of the index is imported in its own unit now; a store an older
# perfwatch filled may have any, as the update stands for.)
printf '%s\nu1,1700000000,sys.pipe,lps,1000,lps,higher\nu1,1700000000,sys.spawn,lps,1000,lps,higher\nu1,1700000000,disk.bonnie,putc_kps,100,KB/\347\247\222,higher\n' \
    "$hdr" | pw import - >/dev/null
sqlite3 "$PERFWATCH_DB" "UPDATE metrics SET unit = 'µs' WHERE
    workload = 'sys.pipe'" || fail "sqlite3"
pw show u1 >"$T/units.txt"
python3 - "$T/units.txt" <<'PY' || fail "show's tables: $(cat "$T/units.txt")"
import sys, unicodedata
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
def width(s):
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in s)
def end(line, word):
    # the terminal column just past word
    return width(line[:line.index(word) + len(word)])
rows = [l for l in lines if l.startswith("  sys.")]
assert len(rows) == 2, lines
assert end(rows[0], "1000.0   1000.0") == end(rows[1], "1000.0   1000.0"), rows
head = [l for l in lines if l.startswith("iter ")][0]
one = [l for l in lines if l.startswith("   1 ")][0]
assert end(head, "KB/\u79d2") == end(one, "100"), (head, one)
PY
pass
