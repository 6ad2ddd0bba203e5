#!/bin/sh
# A large import killed with SIGKILL (the OOM killer, a reboot of the
# container) leaves its write-ahead log beside the store, as long as the
# rows it had written: none of them count, but while perfwatchd keeps
# the store open nothing removed the file (SQLite does that only when
# the last connection closes), and no later commit shrank it either.
# So did a large import that finished.  The next perfwatch to open the
# store read-write now cuts a log larger than 4 MiB down, losing none
# of what was committed, and an import cuts its own when it ends.
set -eu
. "$(dirname "$0")/daemon.subr"

# wal_size: the size in bytes of the store's -wal, 0 when there is none.
wal_size() {
	if [ -e "$DB-wal" ]; then
		wc -c <"$DB-wal" | tr -d ' '
	else
		echo 0
	fi
}

# big_history PREFIX: 4000 runs of 40 metrics, 5 iterations each (800000
# rows), the runs named PREFIX-NNNNN.
big_history() {
	awk -v p="$1" 'BEGIN {
		print "run,time,workload,metric,value,unit,better,host,iteration"
		for (r = 1; r <= 4000; r++)
			for (m = 1; m <= 40; m++)
				for (i = 1; i <= 5; i++)
					printf "%s-%05d,%d,wl.%d,m%02d,%.4f,s,lower,box,%d\n",
					    p, r, 1700000000 + r * 60, m % 8, m,
					    100 + (r * m * i) % 97 / 10, i
	}'
}

write_profile
write_conf_manual
export PERFWATCH_DB="$DB"
mkdir -p "$T/state"
step_history 4 9 9 3 | pw import - >/dev/null
start_daemon
before=$(pw export)

# Killed once its log is past 8 MiB, long before its end.
big_history k >"$T/big.csv"
"$PERFWATCH" import "$T/big.csv" >/dev/null 2>"$T/err" &
importer=$!
n=0
while [ "$(wal_size)" -le 8388608 ]; do
	n=$((n + 1))
	if [ "$n" -gt 600 ] || ! kill -0 "$importer" 2>/dev/null; then
		kill "$importer" 2>/dev/null || true
		fail "the import's log never passed 8 MiB: $(cat "$T/err")"
	fi
	sleep 0.05
done
kill -KILL "$importer"
rc=0
wait "$importer" || rc=$?
[ "$rc" -eq 137 ] || fail "the import exited $rc, not killed"
[ "$(wal_size)" -gt 8388608 ] || fail "the log is gone already"

# The next command to open the store (this one only reads) cuts it.
pw runs >/dev/null 2>"$T/err" || fail "runs: $(cat "$T/err")"
size=$(wal_size)
[ "$size" -le 4194304 ] || fail "the log is still $size bytes"
expect_eq "$(pw export)" "$before"
expect_eq "$(sqlite3 "$DB" "PRAGMA integrity_check")" ok

# A large import that ends leaves no large log behind it either.
big_history f | pw import - >/dev/null 2>"$T/err" ||
	fail "import: $(cat "$T/err")"
size=$(wal_size)
[ "$size" -le 4194304 ] || fail "the import left a log of $size bytes"
expect_eq "$(sqlite3 "$DB" "SELECT count(*) FROM samples")" \
    "$((4 * 5 + 800000))"
expect_eq "$(sqlite3 "$DB" "PRAGMA integrity_check")" ok

# perfwatchd, which had the store open all along, is well.
expect_eq "$(status_field 'd["last_error"]')" None
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
