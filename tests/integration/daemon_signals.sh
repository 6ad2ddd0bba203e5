#!/bin/sh
# Signals.  SIGHUP with a broken file: the daemon logs the errors with
# file:line, keeps running on the configuration it had, and its runs still
# work; SIGHUP with a good file applies it.  SIGTERM during a run: the run
# is aborted (kept, marked "aborted"), its workload is gone, the daemon
# exits 0 within 10 s and the database passes PRAGMA integrity_check.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile slow
good="
[schedule]
interval = 1h
jitter = 0
[triggers]
packages = no
kernel = no"
write_conf "$good"
start_daemon
next1=$(status_field 'd["next_run"]')

# A broken file: a bad value and an unknown section.
cp "$CONF" "$T/good.conf"
write_conf "$good
[nonsense]
key = 1"
sed -i 's/^interval = 1h$/interval = banana/' "$CONF"
bad_line=$(grep -n '^interval = banana$' "$CONF" | cut -d: -f1)
kill -HUP "$DPID"
wait_until 10 "the reload refused" grep -q "not reloaded" "$LOG" ||
	fail "no message about the refused reload"
grep -q "$CONF:$bad_line: interval: " "$LOG" ||
	fail "the error does not name $CONF:$bad_line"
grep -q "unknown section\|nonsense" "$LOG" || fail "the second error is missing"
kill -0 "$DPID" || fail "perfwatchd died on a broken reload"
[ "$(status_field 'd["next_run"]')" = "$next1" ] ||
	fail "the schedule changed after a refused reload"
# Its runs read the configuration it kept, not the broken file (which
# perfwatch itself refuses: ask through the socket).
request '{"cmd":"trigger","workloads":["tiny"]}' | grep -q '"ok":true' ||
	fail "trigger refused"
wait_until 20 "a run with the kept configuration" runs_at_least 1 \
    "status = 'complete'" || fail "no run after the refused reload"
grep -q "interval = 1h" "$T/state/run.conf" || fail "run.conf was replaced"

# A good file with a change: applied.
cp "$T/good.conf" "$CONF"
sed -i 's/^interval = 1h$/interval = 3h/' "$CONF"
kill -HUP "$DPID"
wait_until 10 "the reload" grep -q "reloaded $CONF" "$LOG" ||
	fail "the good file was not reloaded"
next2=$(status_field 'd["next_run"]')
[ "$next2" != "$next1" ] || fail "the new interval was not applied"
grep -q "interval = 3h" "$T/state/run.conf" || fail "run.conf is stale"

# A key only a restart applies: a reload that changes it says so, and one
# that puts it back to the value in use says nothing more.
sed -i "s#^socket = .*#socket = $T/other.sock#" "$CONF"
kill -HUP "$DPID"
wait_until 10 "the socket warning" grep -q \
    "\[perfwatch\] socket changed: restart perfwatchd" "$LOG" ||
	fail "no warning for a changed socket"
sed -i "s#^socket = .*#socket = $SOCK#" "$CONF"
reloads=$(grep -c "reloaded $CONF" "$LOG")
kill -HUP "$DPID"
wait_until 10 "the second reload" sh -c \
    "[ \$(grep -c 'reloaded $CONF' '$LOG') -gt $reloads ]" ||
	fail "the file was not reloaded"
[ "$(grep -c "socket changed: restart" "$LOG")" -eq 1 ] ||
	fail "the socket in use was said to have changed: $(grep restart "$LOG")"

# SIGTERM during a run.
pwc trigger --workload slow >/dev/null
wait_until 15 "the slow workload running" sh -c \
    "$PERFWATCH -c $CONF status --json | grep -q '\"workload\": \"slow\"'" ||
	fail "the slow workload did not start"
label=$(status_field 'd["work"]["run"]')
child=$(status_field 'd["work"]["pid"]')
kill -0 "$child" || fail "no run process $child"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
[ "$DSTOP_TIME" -le 10 ] || fail "perfwatchd took $DSTOP_TIME s to stop"
! kill -0 "$child" 2>/dev/null || fail "the run process $child is still there"
st=$(sql "SELECT status FROM runs WHERE label = '$label'")
[ "$st" = aborted ] || fail "run $label is $st, not aborted"
[ "$(sql "SELECT ended IS NOT NULL FROM runs WHERE label = '$label'")" = 1 ] ||
	fail "the aborted run has no end time"
[ "$(sql "PRAGMA integrity_check")" = ok ] || fail "integrity_check failed"
grep -q "stopping the run in progress" "$LOG" || fail "no stop message"
pass
