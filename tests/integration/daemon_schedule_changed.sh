#!/bin/sh
# The last scheduled fire perfwatchd accounted for (schedule:last) is
# judged, at the next start, by the schedule it was accounted under, not
# by a cron expression written into the file since: a new expression
# whose time fell after the old one's last fire is no run missed, and a
# run the old one missed while the daemon was down is caught up even
# though the new one would not have run then.  The daemon's zone is UTC,
# and the old and new expressions are twelve hours apart from now.
set -eu
. "$(dirname "$0")/daemon.subr"

export TZ=UTC0
far=$(( ($(date -u +%H | sed 's/^0//') + 12) % 24 ))

# conf_cron EXPR: the configuration, scheduled by EXPR, catching up.
conf_cron() {
	write_conf "
[schedule]
cron = $1
jitter = 0
catch_up = yes
[triggers]
packages = no
kernel = no"
}

# last_back SECONDS: the daemon stopped, move schedule:last back by
# SECONDS, keeping what follows the time.
last_back() {
	sql "UPDATE settings SET value = (CAST(value AS INTEGER) - $1) ||
	    substr(value, length(CAST(CAST(value AS INTEGER) AS TEXT)) + 1)
	    WHERE key = 'schedule:last'"
}

# start_logged: start_daemon; $start_log is what it logged up to ready.
start_logged() {
	lines=$(wc -l <"$LOG")
	start_daemon
	start_log=$(tail -n +$((lines + 1)) "$LOG")
}

write_profile
touch "$LOG"
conf_cron "0 $far * * *"
start_daemon
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# Two hours down, and the file now says every minute: the new
# expression had fires in those two hours, the old one none.
last_back 7200
conf_cron "* * * * *"
start_logged
case $start_log in
*"was missed"*) fail "a run was caught up by the new expression: $start_log" ;;
esac
expect_match "$start_log" "schedule: cron * * * * * since the last fire accounted for, under cron 0 $far * * *, which missed none; counted from now"
[ "$(status_field 'd["state"] == "idle" and len(d["pending"]) == 0')" = True ] ||
	fail "a battery was queued at start: $(request '{"cmd":"status"}')"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
[ "$(count_runs "trigger = 'schedule' AND trigger_detail LIKE 'catch-up%'")" -eq 0 ] ||
	fail "a catch-up run was recorded"

# Now the other way: two hours down under "every minute", then the
# file says once a day twelve hours from now.  The old schedule missed
# runs, which are caught up once, by the old schedule's reckoning.
last_back 7200
conf_cron "0 $far * * *"
start_logged
expect_match "$start_log" "(under the schedule then, cron * * * * *) was missed; catching up"
wait_until 30 "the catch-up run" runs_at_least 1 \
    "trigger = 'schedule' AND trigger_detail LIKE 'catch-up%' AND status = 'complete'" ||
	fail "no catch-up run"
detail=$(sql "SELECT trigger_detail FROM runs WHERE trigger_detail LIKE 'catch-up%'")
expect_match "$detail" "(under the schedule then, cron * * * * *), missed while perfwatchd was down"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
