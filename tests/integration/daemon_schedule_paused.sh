#!/bin/sh
# A scheduled run queued while perfwatchd is paused (or busy with another
# battery) survives a restart: it is kept in the store until a battery
# with it has run.  Before, the queue was dropped at the stop and the
# night's run was lost, the fire being accounted for already, so that not
# even catch_up brought it back.
#
# The daemon is paused, its interval fires, and it is stopped; started
# again (now with an hour's interval and catch_up = no, so that nothing
# else asks for a run) it queues the run again, paused still; resumed,
# it runs it.  A third start queues nothing.  Then the run that shutdown
# stops is queued again too: a battery of a slow workload, stopped.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf "
[schedule]
interval = 4s
jitter = 0
catch_up = no
[triggers]
packages = no
kernel = no"

start_daemon
pwc pause >/dev/null || fail "pause refused"
wait_until 30 "the scheduled run queued" sh -c \
    "[ -n \"\$(sqlite3 -cmd '.timeout 5000' '$DB' \"SELECT value FROM settings
    WHERE key = 'schedule:queued'\")\" ]" ||
	fail "no schedule:queued setting while paused"
queued=$(sql "SELECT value FROM settings WHERE key = 'schedule:queued'")
case "$queued" in
"due "*" (every 4s)") ;;
*) fail "schedule:queued is $queued" ;;
esac
[ "$(status_field 'd["pending"][0]["trigger"]')" = schedule ] ||
	fail "the paused daemon has no scheduled run queued"
[ "$(count_runs "1")" -eq 0 ] || fail "a run started while paused"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
setting_is schedule:queued "$queued" ||
	fail "the stop forgot the queued run"

write_conf "
[schedule]
interval = 1h
jitter = 0
catch_up = no
[triggers]
packages = no
kernel = no"
start_daemon
grep -q "schedule: the run $queued was queued when perfwatchd stopped; queued again" \
    "$LOG" || fail "no word of the run queued again"
[ "$(status_field 'd["paused"]')" = True ] || fail "not paused after restart"
[ "$(status_field 'd["pending"][0]["trigger_detail"]')" = \
    "$queued, queued when perfwatchd stopped" ] ||
	fail "queue after restart: $(status_field 'd["pending"]')"
[ "$(count_runs "1")" -eq 0 ] || fail "a run started while paused"
pwc resume >/dev/null || fail "resume refused"
wait_until 30 "the queued run" runs_at_least 1 \
    "trigger = 'schedule' AND status = 'complete'" ||
	fail "the run queued again did not run"
expect_match "$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'schedule'")" \
    "queued when perfwatchd stopped"
wait_until 15 "schedule:queued gone" setting_is schedule:queued "" ||
	fail "schedule:queued kept after its run"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

start_daemon
sleep 2
[ "$(status_field 'len(d["pending"])')" = 0 ] ||
	fail "a run queued at the third start: $(status_field 'd["pending"]')"
[ "$(count_runs "1")" -eq 1 ] || fail "the run was made twice"
stop_daemon TERM

# A scheduled battery that shutdown stops is queued again at the next
# start; one that ran to its end is not.
SLOW=30 write_profile slow
sql "UPDATE settings SET value = CAST(strftime('%s', 'now') AS INTEGER) - 7200
    WHERE key = 'schedule:last'"
write_conf "
[schedule]
interval = 1h
jitter = 0
catch_up = yes
[triggers]
packages = no
kernel = no"
start_daemon
wait_until 20 "the catch-up battery on slow" sh -c \
    "$PERFWATCH -c $CONF status --json | grep -q '\"workload\": \"slow\"'" ||
	fail "the catch-up battery did not reach slow"
caught=$(sql "SELECT value FROM settings WHERE key = 'schedule:queued'")
case "$caught" in
"catch-up of the run due "*) ;;
*) fail "schedule:queued is $caught" ;;
esac
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
[ "$(count_runs "status = 'aborted'")" -eq 1 ] || fail "no aborted run"
setting_is schedule:queued "$caught" ||
	fail "the stopped battery's run was forgotten"
write_profile
start_daemon
wait_until 30 "the stopped run made again" runs_at_least 1 \
    "trigger = 'schedule' AND status = 'complete' AND
    trigger_detail LIKE 'catch-up of the run due %queued when%'" ||
	fail "the stopped scheduled run was not made again"
wait_until 15 "schedule:queued gone" setting_is schedule:queued "" ||
	fail "schedule:queued kept after its run"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# A scheduled battery that ends complete after the stop signal (its
# child had recorded and judged the run when the signal came): its
# report is read, the run is not queued again.  The child is a wrapper
# that outlives its perfwatch by two seconds, deaf to the signal.  The
# daemon read the run's status after freeing the report that held it
# (AddressSanitizer: a heap-use-after-free, in CI's daemon_clock_back).
real=$PERFWATCH
cat >"$T/perfwatch-late" <<EOS
#!/bin/sh
trap '' TERM INT
"$real" "\$@"
rc=\$?
: >"$T/child-done"
sleep 2
exit \$rc
EOS
chmod +x "$T/perfwatch-late"
sql "UPDATE settings SET value = CAST(strftime('%s', 'now') AS INTEGER) - 7200
    WHERE key = 'schedule:last'"
before=$(count_runs "status = 'complete'")
PERFWATCH="$T/perfwatch-late"
seen=$(wc -l <"$LOG")
start_daemon
PERFWATCH=$real
wait_until 30 "the battery's perfwatch ended" test -f "$T/child-done" ||
	fail "the catch-up battery did not run"
[ -n "$(sql "SELECT value FROM settings WHERE key = 'schedule:queued'")" ] ||
	fail "no schedule:queued while the battery's child runs"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
[ "$(count_runs "status = 'complete'")" -eq $((before + 1)) ] ||
	fail "the battery's run is not complete"
tail -n +$((seen + 1)) "$LOG" | grep -q "run [0-9TZ]* (schedule) stopped" &&
	fail "the complete run was said to be stopped"
setting_is schedule:queued "" ||
	fail "the complete run is queued again: $(sql "SELECT value FROM
	    settings WHERE key = 'schedule:queued'")"

# While one of the schedule's runs waits, the next fire is one with it:
# after a restart, paused, the run queued again and the next fire were
# two reasons, and the battery's detail listed both.
write_profile
write_conf "
[schedule]
interval = 4s
jitter = 0
catch_up = no
[triggers]
packages = no
kernel = no"
start_daemon
pwc pause >/dev/null || fail "pause refused"
wait_until 30 "a scheduled run queued, paused" sh -c \
    "[ -n \"\$(sqlite3 -cmd '.timeout 5000' '$DB' \"SELECT value FROM settings
    WHERE key = 'schedule:queued'\")\" ]" ||
	fail "no schedule:queued setting while paused"
stop_daemon TERM
seen=$(wc -l <"$LOG")
start_daemon
# fired_again: the schedule fired after this start (the run queued again
# at the start is not a fire).
fired_again() {
	tail -n +$((seen + 1)) "$LOG" | grep -v "queued when perfwatchd stopped$" |
	    grep -q "queued a battery: schedule: due\|one with the run queued"
}
wait_until 20 "a fire after the start" fired_again ||
	fail "the schedule did not fire after the start"
[ "$(status_field 'len(d["pending"])')" = 1 ] ||
	fail "the schedule's runs queued: $(status_field 'd["pending"]')"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
