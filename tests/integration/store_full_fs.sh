#!/bin/sh
# A store on a full file system: the commands that only read it read
# it.  SQLite could not give the shared-memory (-shm) file of a WAL
# database its size there, and every command failed with "cannot read
# it: disk I/O error: No space left on device".  They now read it with
# an exclusive lock, which needs no -shm: rows committed to its log are
# read too, nobody can write it meanwhile, and while another process
# has it open the command says so instead.  Needs root, for a tmpfs of
# 2 MiB.
set -eu
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root"

mkdir "$T/full"
mount -t tmpfs -o size=2m tmpfs "$T/full" 2>/dev/null ||
	skip "cannot mount a tmpfs"
holder=
trap '[ -z "$holder" ] || kill "$holder" 2>/dev/null || :
umount "$T/full" 2>/dev/null || umount -l "$T/full" 2>/dev/null || :
rm -rf "$T"' EXIT INT TERM
db="$T/full/pw.db"
step_history 12 9 9 3 | pw -D "$db" import - >/dev/null
pw -D "$db" baseline set early r-01 r-02 >/dev/null
# A baseline committed to the log, not yet to the file, by a writer
# that died before it checkpointed.
python3 - "$db" <<'EOPY'
import os, sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA wal_autocheckpoint = 0")
con.execute("INSERT INTO baselines (name, created) VALUES ('late', 0)")
os._exit(0)
EOPY
[ -s "$db-wal" ] || fail "no log left"
rm -f "$db-shm"
pw -D "$db" runs --csv >"$T/runs.want"
pw -D "$db" baseline list >"$T/baselines.want"
pw -D "$db" export >"$T/export.want"
expect_match "$(cat "$T/baselines.want")" late
# The reads above removed the log: leave it as the dead writer did.
python3 - "$db" <<'EOPY'
import os, sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA wal_autocheckpoint = 0")
con.execute("DELETE FROM baselines WHERE name = 'late'")
con.execute("INSERT INTO baselines (name, created) VALUES ('late', 0)")
os._exit(0)
EOPY
rm -f "$db-shm"
dd if=/dev/zero of="$T/full/filler" bs=4096 2>/dev/null || true
[ "$(df -P "$T/full" | awk 'NR == 2 { print $4 }')" -eq 0 ] ||
	fail "the file system is not full"
sum=$(cat "$db" "$db-wal" | cksum)

for cmd in "runs --csv:runs" "baseline list:baselines" "export:export"; do
	rc=0
	pw -D "$db" ${cmd%:*} >"$T/got" 2>"$T/err" || rc=$?
	[ "$rc" -eq 0 ] || fail "${cmd%:*}: exit $rc: $(cat "$T/err")"
	cmp -s "$T/got" "$T/${cmd#*:}.want" ||
		fail "${cmd%:*} read otherwise: $(diff "$T/${cmd#*:}.want" "$T/got")"
	expect_eq "$(cat "$T/err")" "perfwatch: $db: no space left on its file \
system for the -shm file readers share: read with other processes kept out"
done
[ "$(cat "$db" "$db-wal" | cksum)" = "$sum" ] || fail "the store was written"

# A command that writes is refused, saying why (it was "cannot read
# it: disk I/O error"), and writes nothing.
rc=0
pw -D "$db" baseline set more r-03 >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 73 ] || fail "baseline set: exit $rc: $(cat "$T/err")"
expect_eq "$(cat "$T/err")" "perfwatch: $db: no space left on its file \
system for the -shm file that its writers share: make room"
[ "$(cat "$db" "$db-wal" | cksum)" = "$sum" ] || fail "the store was written"

# Another process reading it so (here, one in SQLite's exclusive mode):
# said, and to be tried again, not read under it.
python3 - "$db" "$T/held" <<'EOPY' &
import sqlite3, sys, time
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA locking_mode = EXCLUSIVE")
con.execute("SELECT count(*) FROM runs").fetchone()
open(sys.argv[2], "w").close()
time.sleep(30)
EOPY
holder=$!
wait_file -e "$T/held" "$holder" "the holder"
rc=0
pw -D "$db" runs >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 75 ] || fail "runs beside another reader: exit $rc: $(cat "$T/err")"
expect_eq "$(cat "$T/err")" "perfwatch: $db: busy, locked by another \
process (database is locked); try again"
kill "$holder"
wait "$holder" 2>/dev/null || true
holder=

# Room made, it reads as ever, and nothing was lost.
rm "$T/full/filler"
pw -D "$db" export >"$T/got"
cmp -s "$T/got" "$T/export.want" || fail "the export differs at the end"
expect_eq "$(sqlite3 "$db" "PRAGMA integrity_check")" ok
pass
