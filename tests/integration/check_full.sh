#!/bin/sh
# A full disk ("database or disk is full") is output that cannot be
# written, 74 as perfwatch(1) lists it, for check as for import: check
# exited 70, the status of a damaged database.  The disk is a tmpfs of
# 1 MB filled to the last block; a reader holds the database open, so
# that its -shm and -wal are there already (empty) and only the write
# of the verdicts meets the full disk.
set -eu
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "mounting a tmpfs needs root"
mkdir "$T/full"
mount -t tmpfs -o size=1m tmpfs "$T/full" 2>"$T/mount.err" ||
	skip "cannot mount a tmpfs: $(cat "$T/mount.err")"
HOLDER=
full_cleanup() {
	[ -z "$HOLDER" ] || kill "$HOLDER" 2>/dev/null || true
	[ -z "$HOLDER" ] || wait "$HOLDER" 2>/dev/null || true
	umount "$T/full" 2>/dev/null || true
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap full_cleanup EXIT
trap 'exit 1' INT TERM
export PERFWATCH_DB="$T/full/perfwatch.db"

# 12 runs of this host, 5 samples each, 20% slower from r10.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better"
	for (r = 1; r <= 12; r++)
		for (i = 1; i <= 5; i++)
			printf "r%02d,%d,w,m,%.1f,s,lower\n", r,
			    1700000000 + r * 3600,
			    (r >= 10 ? 120 : 100) + ((i * 7 + r * 3) % 5) * 0.3
}' >"$T/step.csv"
pw import "$T/step.csv" >/dev/null || fail "import"
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM verdicts")" 0

# The reader: its connection keeps the -shm; the log is emptied.
mkfifo "$T/hold"
sqlite3 -cmd "PRAGMA wal_checkpoint(TRUNCATE);" "$PERFWATCH_DB" \
    <"$T/hold" >"$T/holder.out" 2>&1 &
HOLDER=$!
exec 3>"$T/hold"
n=0
until [ -s "$T/holder.out" ]; do
	n=$((n + 1))
	[ "$n" -le 100 ] || fail "the reader did not open the database"
	sleep 0.1
done
expect_eq "$(cat "$T/holder.out")" "0|0|0"
dd if=/dev/zero of="$T/full/filler" bs=4k 2>/dev/null || true
[ "$(df -P "$T/full" | awk 'NR == 2 { print $4 }')" -eq 0 ] ||
	fail "the tmpfs is not full: $(df -P "$T/full")"

rc=0
pw check r10 >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 74 ] || fail "check on a full disk: exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "$PERFWATCH_DB"
expect_match "$(cat "$T/err")" "database or disk is full"
sed '1!s/^r/s/' "$T/step.csv" >"$T/more.csv"
rc=0
pw import "$T/more.csv" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 74 ] || fail "import on a full disk: exit $rc: $(cat "$T/err")"

# With room again the same check goes through.
rm "$T/full/filler"
rc=0
pw check r10 >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "check with room: exit $rc: $(cat "$T/err")"
[ "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM verdicts")" -gt 0 ] ||
	fail "no verdicts written with room: $(cat "$T/err")"
exec 3>&-
wait "$HOLDER" || true
HOLDER=
pass
