#!/bin/sh
# perfwatchd's schedule after the wall clock is set back (date -s, an NTP
# step): the next battery is not held back by the step.  The clock of a
# real machine is not the test's to set, so the daemon (and its runs)
# see it through libfaketime, whose offset the test changes while the
# daemon runs; the monotonic clock, by which the daemon's timer sleeps
# and which sees the step, is left as it is.  An interval schedule moves
# its times back with the clock; a cron schedule set back by more than a
# quarter of an hour is armed again from the time the clock now reads.
# A battery that a step falls in says how long it took, not the step.
set -eu
. "$(dirname "$0")/daemon.subr"

# perfwatchd through libfaketime (daemon.subr).
faketime_daemon

# clock_offset SECONDS: the daemon's clock is the real one plus SECONDS.
clock_offset() {
	printf '%+d\n' "$1" >"$T/faketime.new"
	mv -f "$T/faketime.new" "$T/faketime"
}

# went_back N: the daemon has said N times that the clock went back.
went_back() {
	[ "$(grep -c "schedule: the clock went back" "$LOG")" -ge "$1" ]
}

write_profile

# An interval of 10 s: a run, then the clock goes back a day.
write_conf "
[schedule]
interval = 10s
jitter = 0
catch_up = no
[triggers]
packages = no
kernel = no"
clock_offset 0
start_daemon
wait_until 30 "the first scheduled run" runs_at_least 1 \
    "trigger = 'schedule' AND status = 'complete'" ||
	fail "the interval schedule did not run"
clock_offset -86400
# Not a day later: within the next period or so.
wait_until 30 "a run after the step" runs_at_least 2 \
    "trigger = 'schedule' AND status = 'complete'" ||
	fail "no scheduled run after the clock went back"
went_back 1 || fail "the step back was not said"
grep -q "schedule: the clock went back 864[0-9][0-9]s" "$LOG" ||
	fail "the step said: $(grep "went back" "$LOG")"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# cron, every minute: the daemon starts when its clock reads ten seconds
# before a minute, so that its timer wakes soon; before that the clock
# goes back a day less fifty seconds, so that the wake-up reads ten
# seconds before a minute of the day before.
write_conf "
[schedule]
cron = * * * * *
jitter = 0
catch_up = no
[triggers]
packages = no
kernel = no"
before=$(count_runs "trigger = 'schedule'")
off=$(( (50 - $(date +%s) % 60 + 60) % 60 ))
clock_offset "$off"
start_daemon
clock_offset $((off - 86400 + 50))
wait_until 90 "a cron run after the step" runs_at_least $((before + 1)) \
    "trigger = 'schedule' AND status = 'complete'" ||
	fail "no cron run after the clock went back"
went_back 2 || fail "the step back was not said by the cron schedule"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# A step during a battery: its log line gives the time it took, not the
# step (it said "-86398 s").  The clock goes back a day while the battery
# runs its slow workload (a wrapper of perfwatch cannot be the battery's
# child here: a shell with the sanitizer's runtime and libfaketime both
# preloaded hangs).
SLOW=3 write_profile slow
write_conf "
[schedule]
interval = 10s
jitter = 0
catch_up = no
[triggers]
packages = no
kernel = no"
before=$(count_runs "status = 'complete'")
seen=$(wc -l <"$LOG")
start_daemon
wait_until 30 "the battery on slow" sh -c \
    "$PERFWATCH -c $CONF status --json | grep -q '\"workload\": \"slow\"'" ||
	fail "the battery did not reach slow"
clock_offset $((off - 2 * 86400 + 50))
wait_until 30 "a battery across the step" runs_at_least $((before + 1)) \
    "status = 'complete'" ||
	fail "no battery across the step"
# ended_line: the log line of its end.
ended_line() {
	tail -n +$((seen + 1)) "$LOG" | grep "complete (schedule), [0-9-]* s" |
	    head -n 1
}
wait_until 10 "its log line" sh -c "[ -n \"\$(tail -n +$((seen + 1)) '$LOG' |
    grep 'complete (schedule), [0-9-]* s')\" ]" ||
	fail "no log line of the battery's end"
took=$(ended_line)
secs=${took##*, }
secs=${secs% s}
# At least the slow workload's three seconds; under two minutes.
[ "$secs" -ge 3 ] && [ "$secs" -lt 120 ] ||
	fail "the battery across the step: $took"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
