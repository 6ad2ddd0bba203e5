#!/bin/sh
# The real bonnie data (tests/data/reference) converted to the import
# format, imported by the real binary: 25 runs of 12 metrics, and `show`
# of the first Red Hat run prints 19004 K/sec for block write.
set -eu
. "$(dirname "$0")/lib.sh"

src="$PERFWATCH_TOP/tests/data/reference/bonnie-linux-vs-sco.csv"
[ -f "$src" ] || fail "missing $src"
awk -f "$PERFWATCH_TOP/scripts/bonnie2import.awk" "$src" >"$T/bonnie.csv"
# The bundled example is exactly this conversion.
cmp "$T/bonnie.csv" "$PERFWATCH_TOP/etc/examples/bonnie-linux-vs-sco.csv" ||
	fail "etc/examples/bonnie-linux-vs-sco.csv is out of date"

# show with no store yet says so, and makes none.
if pw show 2>"$T/err"; then
	fail "show with no store succeeded"
fi
expect_match "$(cat "$T/err")" "no such database"
[ ! -e "$PERFWATCH_DB" ] || fail "show made $PERFWATCH_DB"

out=$(pw import "$T/bonnie.csv")
expect_match "$out" "imported 25 runs, 300 samples (12 new metrics)"

n=$(pw history --limit 0 --csv | tail -n +2 | cut -d, -f1 | sort -u | wc -l)
[ "$n" -eq 25 ] || fail "history lists $n runs, not 25"
for run in redhat-6.2-ext2-1 sco-5.05-htfs-9 sco-5.05-eafs-3; do
	m=$(pw show --csv "$run" | tail -n +2 | wc -l)
	[ "$m" -eq 12 ] || fail "$run has $m metrics, not 12"
done

out=$(pw show redhat-6.2-ext2-1)
line=$(printf '%s\n' "$out" | grep ' write_kps ') || fail "no write_kps in: $out"
set -- $line
[ "$3" = 19004 ] || fail "block write median is $3, not 19004: $line"
[ "$8" = K/sec ] || fail "unit is $8: $line"

# Without a run, show prints this host's newest; these runs are of
# another machine, which it names, asking for a run.
rc=0; pw show >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "show of no run of this host: exit $rc"
expect_match "$(cat "$T/err")" "which holds runs of host compaq-ml350: name a run"
rc=0; pw show --latest --json >"$T/out" 2>/dev/null || rc=$?
[ "$rc" -eq 65 ] && [ ! -s "$T/out" ] || fail "show --latest: exit $rc"
if pw show --latest redhat-6.2-ext2-1 2>"$T/err"; then
	fail "show --latest RUN succeeded"
fi
expect_match "$(cat "$T/err")" "usage: perfwatch show"

# JSON has the same number.
pw show --json redhat-6.2-ext2-1 | python3 -c '
import json, sys
d = json.load(sys.stdin)
m = [x for x in d["metrics"] if x["metric"] == "write_kps"][0]
assert m["median"] == 19004 and m["unit"] == "K/sec", m
assert d["run"] == "redhat-6.2-ext2-1" and len(d["metrics"]) == 12
# An imported run that gave no length has none: null, as in runs --json.
assert d["duration"] is None, d
'

# Importing the same file again is refused and changes nothing.
before=$(pw export)
if pw import "$T/bonnie.csv" 2>"$T/err"; then
	fail "second import succeeded"
fi
expect_match "$(cat "$T/err")" 'bonnie.csv:2:1: run "redhat-6.2-ext2-1" is in the store already'
[ "$(pw export)" = "$before" ] || fail "refused import changed the store"

# export -> import -> export is byte-identical, in both formats.
pw export >"$T/e1.csv"
pw export --format jsonl >"$T/e1.jsonl"
PERFWATCH_DB="$T/second.db" pw import "$T/e1.csv" >/dev/null
PERFWATCH_DB="$T/second.db" pw export >"$T/e2.csv"
cmp "$T/e1.csv" "$T/e2.csv" || fail "CSV round trip differs"
PERFWATCH_DB="$T/third.db" pw import - <"$T/e1.jsonl" >/dev/null
PERFWATCH_DB="$T/third.db" pw export --format jsonl >"$T/e2.jsonl"
cmp "$T/e1.jsonl" "$T/e2.jsonl" || fail "JSON Lines round trip differs"
pass
