#!/bin/sh
# The dashboard's alerts over a store whose metrics or runs cannot be
# read (a damaged file): /api/alerts gave each alert with "?" and "-" in
# their place and 200, as if they were not there.  Now it answers 500
# with {"error": ...} naming the store's error, as /api/runs does, and
# the daemon answers the next request.  A metric's page whose alerts
# cannot be read is a 500 too, not a chart without them, and so is a
# host= whose lookup fails (it was 404, no such host).  The root page
# of a table overwritten stands for the disk that fails under it, as in
# store_alert_errors.sh.
set -eu
. "$(dirname "$0")/daemon.subr"
. "$(dirname "$0")/http.subr"

command -v sqlite3 >/dev/null 2>&1 || fail "sqlite3 is not installed"

HTTP_MAX_TIME=10

http_conf
step_history 8 7 8 7 >"$T/hist.csv"
pwc import "$T/hist.csv" >/dev/null || fail "import"
rc=0; pwc check r-07 >/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "check r-07 found no regression: exit $rc"
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
cp "$DB" "$T/good.db"

# Before the damage: the alert with its metric and runs.
start_daemon
[ "$(get /api/alerts)" = 200 ] || fail "/api/alerts: $(cat "$T/body")"
expect_match "$(cat "$T/body")" '"metric": "time"'
expect_match "$(cat "$T/body")" '"first_bad_run": "r-07"'
stop_daemon

for table in metrics runs; do
	cp "$T/good.db" "$DB"
	rm -f "$DB-wal" "$DB-shm"
	spoil_page "$DB" "$table"
	start_daemon
	code=$(get /api/alerts)
	[ "$code" = 500 ] ||
	    fail "$table spoilt: /api/alerts: $code: $(cat "$T/body")"
	python3 - "$T/body" <<'EOPY' || fail "$table: $(cat "$T/body")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d == {"error": "the store could not be read: "
    "database disk image is malformed"}, d
EOPY
	# The page too, and the daemon still answers.
	[ "$(get /)" = 500 ] || fail "$table spoilt: /: $(cat "$T/body")"
	expect_match "$(cat "$T/body")" "database disk image is malformed"
	[ "$(get /api/alerts)" = 500 ] || fail "$table: second request"
	kill -0 "$DPID" || fail "perfwatchd died"
	stop_daemon
	[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
done

# A metric's page whose alerts cannot be read: its chart was drawn
# without the alert's runs shaded, and 200.
cp "$T/good.db" "$DB"
rm -f "$DB-wal" "$DB-shm"
start_daemon
[ "$(get '/metric?name=time')" = 200 ] || fail "/metric: $(cat "$T/body")"
expect_match "$(cat "$T/body")" "alert #1"
stop_daemon
spoil_page "$DB" alerts
start_daemon
code=$(get '/metric?name=time')
[ "$code" = 500 ] || fail "alerts spoilt: /metric: $code"
expect_match "$(cat "$T/body")" "database disk image is malformed"
case "$(cat "$T/body")" in
*"<svg"*) fail "/metric drew a chart: $(cat "$T/body")" ;;
esac
[ "$(get /api/runs)" = 200 ] || fail "alerts spoilt: /api/runs"
stop_daemon
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# A host= looked up in a store that cannot be read was answered 404, "no
# host in the store named box", as if box were not there; it is the
# store's error, 500.  perfwatchd records its own host at start, through
# the same index: the index is spoilt once it serves (the WAL emptied
# first, so that the file's page is the one read), and a write of
# another process (a table made) has it read the file again.
cp "$T/good.db" "$DB"
rm -f "$DB-wal" "$DB-shm"
start_daemon
[ "$(get '/api/history?metric=time&host=nosuch')" = 404 ] ||
	fail "host=nosuch: $(cat "$T/body")"
expect_match "$(cat "$T/body")" "no host in the store named nosuch"
[ "$(get '/api/history?metric=time&host=box')" = 200 ] ||
	fail "host=box: $(cat "$T/body")"
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
spoil_page "$DB" sqlite_autoindex_hosts_1
sqlite3 "$DB" 'CREATE TABLE bump (x)'
for q in '/api/history?metric=time&host=box' '/api/changes?host=box'; do
	code=$(get "$q")
	[ "$code" = 500 ] ||
	    fail "hosts spoilt: $q: $code: $(cat "$T/body")"
	python3 - "$T/body" <<'EOPY' || fail "hosts: $q: $(cat "$T/body")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d == {"error": "the store could not be read: "
    "database disk image is malformed"}, d
EOPY
done
code=$(get '/metric?name=time&host=box')
[ "$code" = 500 ] || fail "hosts spoilt: /metric: $code: $(cat "$T/body")"
expect_match "$(cat "$T/body")" "database disk image is malformed"
kill -0 "$DPID" || fail "perfwatchd died"
stop_daemon
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
