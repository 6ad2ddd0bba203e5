#!/bin/sh
# An export to the database itself, or to a file kept beside it (its
# -wal and -shm, its run and notification locks), under any name for it,
# is refused (73) and writes nothing: export -o DB replaced the database
# with CSV and exited 0.
set -eu
. "$(dirname "$0")/lib.sh"

cd "$T"
step_history 3 9 9 3 | pw import - >/dev/null
: >"$PERFWATCH_DB.run"
: >"$PERFWATCH_DB.notify"
ln -s perfwatch.db link.csv
sqlite3 perfwatch.db .dump >before.sql

# refused OUT FILE WHAT: export -o OUT exits 73 naming FILE and WHAT.
refused() {
	rc=0
	pw export -o "$1" >out 2>err || rc=$?
	[ "$rc" -eq 73 ] || fail "-o $1: exit $rc: $(cat err)"
	expect_eq "$(cat err)" "perfwatch: export to $1: that is $2, $3; \
nothing was written"
	[ ! -s out ] || fail "-o $1 printed: $(cat out)"
}

db=$PERFWATCH_DB
refused "$db" "$db" "the database"
refused perfwatch.db "$db" "the database"
refused "$T/./perfwatch.db" "$db" "the database"
refused link.csv "$db" "the database"
# The export's own connection has them there while it runs.
refused "$db-wal" "$db-wal" "the database's write-ahead log"
refused "$db-shm" "$db-shm" "the database's shared memory"
refused "$db.run" "$db.run" "the database's run lock"
refused "$db.notify" "$db.notify" "the database's notification lock"

expect_eq "$(sqlite3 perfwatch.db .dump)" "$(cat before.sql)"
[ -L link.csv ] || fail "link.csv is no longer a link"
[ ! -s "$db.run" ] && [ ! -s "$db.notify" ] || fail "a lock was written"
# Nor is a temporary file left beside any of them.
expect_eq "$(ls -A | tr '\n' ' ')" \
    "before.sql err link.csv out perfwatch.db perfwatch.db.notify perfwatch.db.run "

# Anything else is written as before.
pw export -o h.csv || fail "export -o h.csv"
expect_eq "$(wc -l <h.csv | tr -d ' ')" 16
pass
