#!/bin/sh
# The daemon's notifier.  A flush that ends without a report (here:
# another flush holds the lock, so it exits 75) is tried again later, not
# left until the next battery.  In the foreground with log_level = info,
# the built-in log sink's lines reach the daemon's log: the rows it marks
# delivered are really seen.
set -eu
. "$(dirname "$0")/daemon.subr"
. "$(dirname "$0")/notify.subr"
trap 'daemon_cleanup; notify_cleanup' EXIT

command -v flock >/dev/null 2>&1 || fail "flock(1) is not installed"
write_profile
cat >"$CONF" <<EOF
[perfwatch]
state_dir = $T/state
work_dir = $T/work
socket = $SOCK
profile = $T/profile.conf
user = root
group = root
allow_root = yes
log_level = info
[quiet]
$QUIET_ANY_LOAD
[schedule]
cron = none
[triggers]
packages = no
kernel = no
rerun_suspected = no
[detect]
baseline_runs = 30
EOF
mkdir -p "$T/state"
# Two changes of one alert (suspected, confirmed) for the log sink.
history_csv box sys.pipe throughput 30 2 1700000000 >"$T/h.csv"
pwt -c "$CONF" -D "$DB" import "$T/h.csv" >/dev/null || fail "import"
for r in r31 r32; do
	pwt -c "$CONF" -D "$DB" check "$r" >/dev/null 2>&1 || true
done
pending() {
	sql "SELECT count(*) FROM outbox WHERE delivered_at IS NULL
	    AND failed_at IS NULL"
}
[ "$(pending)" -eq 2 ] || fail "$(pending) rows pending, expected 2"

# A flush by hand holds the lock while the daemon starts.
# (It also lets go when the test's directory goes, should the test fail.)
flock "$DB.notify" sh -c "while [ -d '$T' ] && [ ! -e '$T/release' ]; do
	sleep 0.1
done" &
LOCKER=$!
SERVERS="$SERVERS $LOCKER"
wait_until 10 "the lock taken" sh -c "! flock -n '$DB.notify' true" ||
	fail "the lock was not taken"
start_daemon
wait_until 15 "the failed flush" grep -q "notify flush: no report" "$LOG" ||
	fail "the daemon's first flush did not fail"
wait_until 5 "a retry planned" grep -q "notify: the next flush in 60 s" "$LOG" ||
	fail "no retry after a flush without a report"
[ "$(pending)" -eq 2 ] || fail "rows delivered under another flush's lock"
touch "$T/release"
wait "$LOCKER" || true

# The next flush (after a battery here) delivers them, and the log says so.
request '{"cmd":"trigger"}' | grep -q '"ok":true' || fail "trigger refused"
wait_until 30 "the rows delivered" sh -c "[ \$(timeout 10 sqlite3 \
    -cmd '.timeout 5000' '$DB' 'SELECT count(*) FROM outbox WHERE
    delivered_at IS NULL AND failed_at IS NULL') -eq 0 ]" ||
	fail "the rows were not delivered"
wait_until 5 "the flush's report" grep -q "notify: 2 delivered" "$LOG" ||
	fail "no report of the delivery"
grep -q "perfwatchd: notify: alert #1 on box: sys.pipe throughput -2[0-9.]*% suspected" "$LOG" ||
	fail "the suspected alert's log line is not in the daemon's log"
grep -q "perfwatchd: notify: alert #1 on box: sys.pipe throughput -2[0-9.]*% confirmed (was suspected)" "$LOG" ||
	fail "the confirmed alert's log line is not in the daemon's log"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
