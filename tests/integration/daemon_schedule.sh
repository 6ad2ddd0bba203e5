#!/bin/sh
# perfwatchd's schedule: an interval fires and the run is recorded with
# trigger "schedule"; systemd hears READY=1, STATUS= and STOPPING=1 on
# NOTIFY_SOCKET; a second daemon on the same state directory is refused;
# and after downtime a missed run is caught up once at start.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf "
[schedule]
interval = 2s
jitter = 0
catch_up = yes
[triggers]
packages = no
kernel = no"

notify_listen
NOTIFY_SOCKET="$T/notify.sock" start_daemon
wait_until 30 "two scheduled runs" runs_at_least 2 \
    "trigger = 'schedule' AND status = 'complete'" ||
	fail "the interval schedule did not record two runs"
detail=$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'schedule'
    ORDER BY id LIMIT 1")
expect_match "$detail" "every 2s"
# Each run measured the profile's workloads.
[ "$(sql "SELECT count(*) FROM run_workloads w JOIN runs r ON r.id = w.run
    WHERE r.trigger = 'schedule' AND w.workload = 'tiny'")" -ge 2 ] ||
	fail "no samples of tiny in the scheduled runs"
# Runs read the daemon's copy of the configuration.
grep -q "interval = 2s" "$T/state/run.conf" || fail "run.conf lacks the interval"

# One daemon per state directory.
if "$PERFWATCHD" -d -f "$CONF" >"$T/second.log" 2>&1; then
	fail "a second perfwatchd started on the same state directory"
fi
grep -q "another perfwatchd (pid $DPID) uses $T/state" "$T/second.log" ||
	fail "second daemon: $(cat "$T/second.log")"
# Without -d, as rc.d starts it: the log is syslog, and the reason it
# stopped is said on the terminal too (it went to syslog alone).
rc=0
env -u NOTIFY_SOCKET "$PERFWATCHD" -f "$CONF" >"$T/third.log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "a second perfwatchd without -d exited $rc"
grep -q "^perfwatchd: another perfwatchd (pid $DPID) uses $T/state" \
    "$T/third.log" || fail "second daemon without -d: $(cat "$T/third.log")"
test -S "$SOCK" || fail "the second daemon removed the first one's socket"

stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
test ! -e "$SOCK" || fail "the socket was left behind"
wait "$NPID" || true
grep -q "READY=1" "$T/notify.out" || fail "no READY=1: $(cat "$T/notify.out")"
grep -q "STATUS=idle; next run" "$T/notify.out" ||
	fail "no idle STATUS: $(cat "$T/notify.out")"
grep -q "STATUS=schedule battery" "$T/notify.out" ||
	fail "no battery STATUS: $(cat "$T/notify.out")"
grep -q "STOPPING=1" "$T/notify.out" || fail "no STOPPING=1"

# Downtime: the last fire accounted for was two hours ago, the period is
# one hour, so runs were missed; one catch-up run, not two.
write_conf "
[schedule]
interval = 1h
jitter = 0
catch_up = yes
[triggers]
packages = no
kernel = no"
before=$(count_runs "trigger = 'schedule'")
sql "UPDATE settings SET value = CAST(strftime('%s', 'now') AS INTEGER) - 7200
    WHERE key = 'schedule:last'"
start_daemon
wait_until 20 "the catch-up run" runs_at_least $((before + 1)) \
    "trigger = 'schedule' AND status = 'complete'" ||
	fail "no catch-up run"
sleep 1
[ "$(count_runs "trigger = 'schedule'")" -eq $((before + 1)) ] ||
	fail "more than one catch-up run"
detail=$(sql "SELECT trigger_detail FROM runs ORDER BY id DESC LIMIT 1")
expect_match "$detail" "catch-up of the run due"
# The next run is an hour after the catch-up, not at once.
next=$(status_field 'd["next_run"]')
now=$(date -u +%s)
next_s=$(date -u -d "$next" +%s)
[ $((next_s - now)) -gt 3000 ] || fail "next run $next is too soon"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
