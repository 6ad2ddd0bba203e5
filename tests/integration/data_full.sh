#!/bin/sh
# An import that the database cannot take, as on a full disk (here a file
# size limit, which any user can set): refused whole with the database's
# name, the reason and the row reached, exit 74, not a data error (65)
# blamed on a row of the file; the database is left as it was and takes
# the same file once there is room.  A bad row is still 65.  A database
# that cannot be opened for want of room says so.
set -eu
. "$(dirname "$0")/lib.sh"

# history FILE RUNS PREFIX: a CSV of RUNS runs PREFIX0000 ..., 20 metrics
# of 5 iterations each.
history() {
	awk -v runs="$2" -v prefix="$3" 'BEGIN {
		print "run,time,workload,metric,value,unit,better,host,iteration"
		for (r = 0; r < runs; r++)
			for (m = 0; m < 20; m++)
				for (i = 1; i <= 5; i++)
					printf "%s%04d,%d,wl,m%d,%d.%03d,s,lower,box,%d\n",
					    prefix, r, 1700000000 + r * 3600, m, r + i,
					    (r * 7 + m * 13 + i) % 1000, i
	}' >"$1"
}

history "$T/small.csv" 1 s
pw import "$T/small.csv" >/dev/null
history "$T/big.csv" 400 r
size=$(wc -c <"$PERFWATCH_DB")

# ulimit -f counts 512-byte blocks; SIGXFSZ ignored, a write past the
# limit fails with EFBIG, as one on a full disk fails with ENOSPC.
rc=0
sh -c 'trap "" XFSZ; ulimit -f 1024; exec "$@"' sh \
    "$PERFWATCH" import "$T/big.csv" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 74 ] || fail "import past the limit: exit $rc: $(cat "$T/err")"
# SQLite meets the limit at a row or at the commit, as its cache fills.
grep -q "^perfwatch: $PERFWATCH_DB: disk I/O error.* (importing $T/big.csv, \
\(row [0-9]*\|at its commit\))\$" "$T/err" ||
	fail "import past the limit: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "perfwatch: nothing was imported"
# Said once: a failed COMMIT was logged bare before the message.
[ "$(wc -l <"$T/err")" -eq 2 ] ||
	fail "import past the limit said: $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "import past the limit printed: $(cat "$T/out")"
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM runs")" 1
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM samples")" 100
expect_eq "$(sqlite3 "$PERFWATCH_DB" "PRAGMA integrity_check")" ok
[ "$(wc -c <"$PERFWATCH_DB")" -eq "$size" ] || fail "the database grew"

# With room, the same file goes in whole.
pw import --json "$T/big.csv" >"$T/big.json" || fail "import --json"
json_as_printed "$T/big.json" || fail "import --json: $(cat "$T/big.json")"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d == {"runs": 400, "new_metric_count": 0, "samples": 40000}, d
' "$T/big.json" || fail "import --json: $(cat "$T/big.json")"

# A bad row is the file's fault: 65 and file:row:column.
printf 'run,time,workload,metric,value,unit,better\nz,1,wl,m0,1,s,up\n' \
    >"$T/bad.csv"
rc=0
pw import "$T/bad.csv" 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "bad row: exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "$T/bad.csv:2:7: better"

# Opening a good database whose shared-memory file cannot grow (a full
# disk): the reason, not "not a readable SQLite database".
cp "$PERFWATCH_DB" "$T/ro.db"
rm -f "$T/ro.db-shm" "$T/ro.db-wal"
rc=0
sh -c 'trap "" XFSZ; ulimit -f 1; exec "$@"' sh "$PERFWATCH" -D "$T/ro.db" \
    runs 2>"$T/err" || rc=$?
[ "$rc" -eq 73 ] || fail "open with no room: exit $rc: $(cat "$T/err")"
expect_eq "$(cat "$T/err")" \
    "perfwatch: $T/ro.db: cannot read it: disk I/O error: File too large"
# A run the database cannot take, at each point it may meet the limit
# (the run's row, a sample, the run's end): never a data error (65),
# and where the run's row itself is refused, 74 with the database named.
# The -shm file is there already, so that the open does not meet it.
cp "$PERFWATCH_DB" "$T/run.db"
mkdir "$T/work"
printf '[workload "tiny"]\ncommand = true\nmeasure = time\niterations = 1\n' \
    >"$T/tiny.conf"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\npolicy = annotate\n' \
    "$T/work" >"$T/run.conf"
pw -c "$T/run.conf" -D "$T/run.db" runs >/dev/null
adding=0
lim=64
while [ "$lim" -le 160 ]; do
	rc=0
	sh -c 'trap "" XFSZ; ulimit -f "$1"; shift; exec "$@"' sh "$lim" \
	    "$PERFWATCH" -c "$T/run.conf" -D "$T/run.db" run --no-check \
	    --profile "$T/tiny.conf" --label "l$lim" >/dev/null 2>"$T/err" ||
		rc=$?
	case $rc in
	0|70|73) ;;
	74)	expect_match "$(cat "$T/err")" \
		    "perfwatch: $T/run.db: adding run l$lim: disk I/O error"
		adding=$((adding + 1)) ;;
	*)	fail "a run under ulimit -f $lim exited $rc: $(cat "$T/err")" ;;
	esac
	lim=$((lim + 4))
done
[ "$adding" -gt 0 ] || fail "no limit tried met the run's row"
expect_eq "$(sqlite3 "$T/run.db" "PRAGMA integrity_check")" ok

# A database path that is a directory: the system's reason too.
mkdir "$T/dir.db"
rc=0
pw -D "$T/dir.db" runs 2>"$T/err" || rc=$?
[ "$rc" -eq 73 ] || fail "a directory as database: exit $rc"
expect_eq "$(cat "$T/err")" "perfwatch: $T/dir.db: cannot open database: \
unable to open database file: Is a directory"
pass
