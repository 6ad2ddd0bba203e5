#!/bin/sh
# Alerts queued by a perfwatch command beside the daemon (a check or an
# ack typed by hand) go out at once: the command asks perfwatchd to
# flush ({"cmd":"notify"}), where they waited for its next battery's
# flush (a day, or for ever with cron = none).  While a battery runs,
# the daemon holds them for the flush after it.
set -eu
. "$(dirname "$0")/daemon.subr"
. "$(dirname "$0")/notify.subr"
trap 'daemon_cleanup; notify_cleanup' EXIT

cat >"$T/profile.conf" <<EOF
[workload "held"]
command = touch $T/held; while [ ! -e $T/go ]; do sleep 0.1; done
measure = time
iterations = 1
timeout = 60
EOF
write_conf_manual "rerun_suspected = no
[detect]
baseline_runs = 30"
mkdir -p "$T/state"
history_csv box sys.pipe throughput 30 2 1700000000 >"$T/h.csv"
pwt -c "$CONF" -D "$DB" import "$T/h.csv" >/dev/null || fail "import"
pending() {
	sql "SELECT count(*) FROM outbox WHERE delivered_at IS NULL
	    AND failed_at IS NULL"
}
flushes() {
	grep -c "notify: [0-9]* delivered" "$LOG" || true
}
none_pending() {
	[ "$(pending)" -eq 0 ]
}
flushed_since() {
	[ "$(flushes)" -gt "$1" ]
}
# Without a daemon, a check says nothing more than its verdicts (the
# socket is not there), and its row waits.
pwt -c "$CONF" -D "$DB" check r31 >"$T/check.out" 2>"$T/check.err" && rc=0 ||
	rc=$?
[ "$rc" -eq 1 ] || fail "check r31: exit $rc: $(cat "$T/check.err")"
[ ! -s "$T/check.err" ] || fail "check r31 said: $(cat "$T/check.err")"
[ "$(pending)" -eq 1 ] || fail "$(pending) rows pending, expected 1"
start_daemon
# Its flush at start sends it.
wait_until 15 "the first flush" grep -q "notify: 1 delivered" "$LOG" ||
	fail "no flush at start"
grep -q "perfwatchd: notify: alert #1 on box: sys.pipe throughput -2[0-9.]*% suspected" "$LOG" ||
	fail "the suspected alert's line is not in the daemon's log"

# A check by hand confirms it: the row goes out now.
before=$(flushes)
pwt -c "$CONF" -D "$DB" check r32 >"$T/check.out" 2>&1 && rc=0 || rc=$?
[ "$rc" -eq 1 ] || fail "check r32: exit $rc: $(cat "$T/check.out")"
wait_until 15 "the confirmation delivered" none_pending ||
	fail "the check's row waits: $(pending) pending"
# The daemon logs the flush's lines and report as it reads them, which
# may be after the store says delivered.
wait_until 15 "the flush's report" flushed_since "$before" ||
	fail "no flush after the check"
grep -q "perfwatchd: notify: alert #1 on box: sys.pipe throughput -2[0-9.]*% confirmed" "$LOG" ||
	fail "the confirmed alert's line is not in the daemon's log"

# An ack by hand: the same.
before=$(flushes)
pwt -c "$CONF" -D "$DB" alerts ack 1 >"$T/ack.out" 2>&1 ||
	fail "ack: $(cat "$T/ack.out")"
expect_eq "$(cat "$T/ack.out")" "alert #1 acknowledged"
wait_until 15 "the ack delivered" none_pending ||
	fail "the ack's row waits: $(pending) pending"
wait_until 15 "the flush's report" flushed_since "$before" ||
	fail "no flush after the ack"
grep -q "perfwatchd: notify: alert #1 on box: .*acknowledged" "$LOG" ||
	fail "the acknowledgement's line is not in the daemon's log"

# While a battery runs, the request is taken and the rows wait for the
# flush after it.
request '{"cmd":"trigger"}' | grep -q '"ok":true' || fail "trigger refused"
wait_until 30 "the battery" test -e "$T/held" || fail "no battery"
before=$(flushes)
expect_eq "$(request '{"cmd":"notify"}')" \
    '{"ok":true,"flush":"after the battery"}'
sleep 1
[ "$(flushes)" -eq "$before" ] || fail "a flush while the battery ran"
touch "$T/go"
wait_until 30 "the flush after the battery" flushed_since "$before" ||
	fail "no flush after the battery"
# Idle, it flushes at once.
before=$(flushes)
expect_eq "$(request '{"cmd":"notify"}')" '{"ok":true,"flush":"now"}'
wait_until 15 "the flush asked for" flushed_since "$before" ||
	fail "no flush when asked"

stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
