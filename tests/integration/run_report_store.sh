#!/bin/sh
# perfwatch run measured and recorded every workload, then could not read
# the run back for its report (a page of the store the disk spoiled since,
# which the last workload stands for here): it exited 70 without a word,
# the user left to guess whether anything was measured.  It now names the
# store and its error, as every other command does (store_read_errors.sh);
# the run and its samples stay recorded.
set -eu
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null || fail "sqlite3 is not installed"
mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
# The last workload overwrites the root page of the hosts table (which
# no write of the run's end reads) with 0xff bytes, as spoil_page does.
cat >"$T/spoil.py" <<'EOPY'
import sqlite3, sys
db, name = sys.argv[1], sys.argv[2]
con = sqlite3.connect(db, isolation_level=None)
con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
page = con.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
    (name,)).fetchone()[0]
size = con.execute("PRAGMA page_size").fetchone()[0]
con.close()
with open(db, "r+b") as f:
    f.seek((page - 1) * size)
    f.write(b"\xff" * size)
print("x 2 s")
EOPY

for json in "" --json; do
	rm -f "$PERFWATCH_DB" "$PERFWATCH_DB"-*
	cat >"$T/p.profile" <<EOPROF
[workload "a"]
command = echo x 1 s
iterations = 1
[workload "b"]
command = python3 $T/spoil.py $PERFWATCH_DB hosts
iterations = 1
EOPROF
	rc=0
	pw -c "$T/pw.conf" run --no-check $json --profile "$T/p.profile" \
	    --label r >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 70 ] || fail "run $json: exit $rc: $(cat "$T/err")"
	expect_match "$(cat "$T/err")" \
	    "perfwatch run: $PERFWATCH_DB: database disk image is malformed"
	[ ! -s "$T/out" ] || fail "run $json printed: $(cat "$T/out")"
	# What was measured is kept: the run ended, with both samples.
	expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT status FROM runs
	    WHERE label = 'r'")" complete
	expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM samples")" 2
done

# Judging the run (no --no-check) meets a spoiled page of the verdicts: the
# store is named there too, where "judging the run: checking run r: ..."
# named none, nor did perfwatchd's last_error that repeats it.
rm -f "$PERFWATCH_DB" "$PERFWATCH_DB"-*
sed -i "s/ hosts\$/ verdicts/" "$T/p.profile"
rc=0
pw -c "$T/pw.conf" run --profile "$T/p.profile" --label r >"$T/out" \
    2>"$T/err" || rc=$?
[ "$rc" -eq 70 ] || fail "run judged: exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/err")" \
    "judging the run: $PERFWATCH_DB: checking run r: database disk image is malformed"

pass
