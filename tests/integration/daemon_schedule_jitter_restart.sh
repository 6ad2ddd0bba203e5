#!/bin/sh
# perfwatchd restarted between a scheduled run's nominal time and its
# start with jitter (a package upgrade restarting it at night): the run
# keeps its start, with catch_up = yes or no, and runs once then.  It was
# not missed: its nominal time came while the daemon ran, its start is
# still to come.  The daemon used to see only a nominal time passed that
# it had not accounted for: with catch_up = no it dropped the night's run
# as missed, with catch_up = yes it started it at once, without its
# jitter.  The daemon's clock is moved by libfaketime, as in
# daemon_clock_back.sh; the monotonic clock, by which its timer sleeps,
# is left as it is.
set -eu
. "$(dirname "$0")/daemon.subr"

# perfwatchd through libfaketime, in UTC (daemon.subr).
faketime_daemon TZ=UTC0

# clock_at EPOCH: the daemon's clock reads EPOCH now.
clock_at() {
	printf '%+d\n' $(($1 - $(date +%s))) >"$T/faketime.new"
	mv -f "$T/faketime.new" "$T/faketime"
}

# schedule CATCH_UP: nightly at 02:30, with a jitter of up to a day
# (less a second: it stays short of the next night's run).
schedule() {
	write_conf "
[schedule]
cron = 30 2 * * *
jitter = 1d
catch_up = $1
[triggers]
packages = no
kernel = no"
}

# next_run: the status' next run, in epoch seconds.
next_run() {
	date -u -d "$(status_field 'd["next_run"]')" +%s
}

# kept N: N restarts have kept the run's start, and said so, and none
# has called it missed or caught it up.
kept() {
	said="the run due 2026-06-10 02:30 waits for its jitter, as armed"
	said="$said before the stop; next run $when"
	[ "$(grep -c "schedule: $said" "$LOG")" -eq "$1" ] ||
		fail "restart $1 did not keep the run's start"
	! grep -q "was missed\|catch-up" "$LOG" ||
		fail "a restart called the run missed"
	[ "$(next_run)" -eq "$fire" ] ||
		fail "next run after restart $1: $(status_field 'd["next_run"]')"
	[ "$(count_runs 1)" -eq 0 ] || fail "a run before its start"
}

nominal=$(date -u -d "2026-06-10 02:30:00" +%s)
write_profile
schedule yes

# Armed at 02:00.  A start drawn within ten minutes of 02:30 (one draw
# in 144) leaves the restarts too little time: armed again.
clock_at $((nominal - 1800))
tries=0
while :; do
	start_daemon
	fire=$(next_run)
	[ "$fire" -ge "$nominal" ] && [ "$fire" -lt $((nominal + 86400)) ] ||
		fail "next run $(status_field 'd["next_run"]') for 02:30"
	[ "$fire" -lt $((nominal + 600)) ] || break
	tries=$((tries + 1))
	[ "$tries" -lt 5 ] || fail "five starts drawn within ten minutes"
	stop_daemon TERM
done
when=$(date -u -d "@$fire" "+%Y-%m-%d %H:%M")

# 02:30 comes while the daemon runs; it restarts at 02:30:05.
clock_at $((nominal + 5))
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
start_daemon
kept 1

# The same with catch_up = no.
stop_daemon TERM
schedule no
start_daemon
kept 2

# A restart 30 s before the start: the battery runs then, once, as the
# night's run.
stop_daemon TERM
clock_at $((fire - 30))
start_daemon
kept 3
wait_until 120 "the night's run" runs_at_least 1 \
    "trigger = 'schedule' AND status = 'complete'" ||
	fail "no run at the start kept"
expect_eq "$(sql "SELECT trigger_detail FROM runs")" \
    "due 2026-06-10 02:30 (cron 30 2 * * *)"
[ "$(sql "SELECT started FROM runs")" -ge "$fire" ] ||
	fail "the run started before $when"
[ "$(next_run)" -ge $((nominal + 86400)) ] ||
	fail "next run after it: $(status_field 'd["next_run"]')"
[ "$(count_runs 1)" -eq 1 ] || fail "$(count_runs 1) runs"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
