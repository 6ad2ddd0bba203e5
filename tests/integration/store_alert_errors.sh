#!/bin/sh
# alerts (and alerts --json) read each alert's metric and runs: one that
# could not be read (a damaged file) was shown as "?" or "-", as if it
# were not there, and the command exited 0.  Now it names the database
# and its error, prints no half list and exits 70; "-" stays for what
# is really absent (an alert with no machine change).  alerts ack on
# such a store said "no alert 1" (the alerts table) or the error with
# 65 (a metric or run): 70 and the store's error now.  A page of a
# table overwritten stands for the disk that fails under it.
set -eu
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null || fail "sqlite3 is not installed"
step_history 8 7 8 7 | pw import - >/dev/null
rc=0; pw check r-07 >/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "check r-07 found no regression: exit $rc"
expect_match "$(pw alerts --csv)" "suspected"
sqlite3 "$PERFWATCH_DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
cp "$PERFWATCH_DB" "$T/good.db"

# expect_store_error ARGS...: exit 70, the store's error, nothing printed.
expect_store_error() {
	rc=0; pw "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 70 ] || fail "$*: exit $rc: $(cat "$T/out") $(cat "$T/err")"
	expect_match "$(cat "$T/err")" \
	    "perfwatch alerts: $PERFWATCH_DB: database disk image is malformed"
	[ ! -s "$T/out" ] || fail "$*: printed: $(cat "$T/out")"
}

# expect_ack_error: alerts ack 1 exits 70 with the store's error.
expect_ack_error() {
	rc=0; pw alerts ack 1 >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 70 ] || fail "alerts ack 1: exit $rc: $(cat "$T/err")"
	expect_match "$(cat "$T/err")" \
	    "perfwatch: $PERFWATCH_DB: alert 1: database disk image is malformed"
	[ ! -s "$T/out" ] || fail "alerts ack 1: printed: $(cat "$T/out")"
}

# Before the damage: the metric, the runs, no machine change ("-").
pw alerts --csv >"$T/out" || fail "alerts before the damage"
expect_match "$(cat "$T/out")" ",sys.pipe,time,"
expect_match "$(cat "$T/out")" ",r-07,r-06,r-07,"
expect_match "$(cat "$T/out")" ",-,box"

for table in metrics runs; do
	cp "$T/good.db" "$PERFWATCH_DB"
	spoil_page "$PERFWATCH_DB" "$table"
	expect_store_error alerts
	expect_store_error alerts --csv
	expect_store_error alerts --json
	expect_ack_error
done

# alerts ack on a store whose alerts cannot be read: the store's error,
# not "no alert 1"; alerts names the database, as for the runs.
cp "$T/good.db" "$PERFWATCH_DB"
rc=0; pw alerts ack 99 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "alerts ack 99: exit $rc"
expect_match "$(cat "$T/err")" "perfwatch: no alert 99"
spoil_page "$PERFWATCH_DB" alerts
expect_ack_error
expect_store_error alerts
expect_store_error alerts --all --json
pass
