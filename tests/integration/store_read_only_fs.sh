#!/bin/sh
# A store on a file system mounted read-only (a snapshot, a backup
# mounted to be looked at): the commands that read it read it, the ones
# that write say where it is, and nothing is changed.  Its -shm file
# cannot be made there, and every command failed, calling it "not a
# readable SQLite database: unable to open database file".  Needs root,
# for a read-only bind mount.
set -eu
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root"

step_history 4 9 9 3 | pw import - >/dev/null
mkdir "$T/src" "$T/ro"
cp "$PERFWATCH_DB" "$T/src/pw.db"
expect_eq "$(sqlite3 "$T/src/pw.db" "PRAGMA journal_mode")" wal
mount --bind "$T/src" "$T/ro" 2>/dev/null || skip "cannot bind mount"
trap 'umount "$T/ro" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
mount -o remount,bind,ro "$T/ro" || fail "cannot remount read-only"
sum=$(cksum <"$T/src/pw.db")
pw export >"$T/want.csv"

pw -D "$T/ro/pw.db" runs --csv >"$T/runs" 2>"$T/err" ||
	fail "runs: $(cat "$T/err")"
expect_match "$(cat "$T/runs")" "r-04,box,"
pw -D "$T/ro/pw.db" export >"$T/got.csv" 2>"$T/err" ||
	fail "export: $(cat "$T/err")"
cmp -s "$T/want.csv" "$T/got.csv" || fail "the export differs"

step_history 5 9 9 3 | sed 's/^r-/s-/' >"$T/more.csv"
rc=0
pw -D "$T/ro/pw.db" import "$T/more.csv" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 73 ] || fail "import: exit $rc: $(cat "$T/err")"
expect_eq "$(cat "$T/err")" "perfwatch: $T/ro/pw.db: on a read-only file \
system, and perfwatch import writes to it"

# A log with rows in it, and no -shm to read it through: said so.
python3 - "$T/src/pw.db" <<'EOPY'
import os, sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA wal_autocheckpoint = 0")
con.execute("INSERT INTO settings VALUES ('test', 'x')")
os._exit(0)
EOPY
rm "$T/src/pw.db-shm"
rc=0
pw -D "$T/ro/pw.db" runs >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 73 ] || fail "runs with a log: exit $rc: $(cat "$T/err")"
expect_eq "$(cat "$T/err")" "perfwatch: $T/ro/pw.db: on a read-only file \
system, with rows in its write-ahead log or journal beside it, which can \
be read only where files can be made: copy the database and the files \
beside it to a writable place"
[ "$(cksum <"$T/src/pw.db")" = "$sum" ] || fail "the database was changed"

# A rollback journal left by a transaction cut short is not passed over
# (read as immutable, the file would be read half-written).
rm "$T/src/pw.db-wal"
printf 'not empty' >"$T/src/pw.db-journal"
rc=0
pw -D "$T/ro/pw.db" runs >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 73 ] || fail "runs with a journal: exit $rc: $(cat "$T/err")"
pass
