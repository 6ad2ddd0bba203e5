#!/bin/sh
# perfwatchd keeps none of the descriptors it was started with beyond
# 0-2.  The test shell opens two without close-on-exec (a file read and
# a file written, at 7 and 9) and starts the daemon: once it is ready,
# none of its descriptors in /proc/PID/fd names either file, and a run
# it starts still works.  Before, the daemon held both for its whole
# life, and every child it forked held them too.  And started with its
# standard input and output closed (perfwatchd -d <&- >&-), it puts
# /dev/null on them rather than letting its lock or store take those
# numbers (before: 0 the lock file, 1 the store).
set -eu
. "$(dirname "$0")/daemon.subr"

if [ ! -d /proc/self/fd ] || [ "$(uname -s)" != Linux ]; then
	skip "reads the daemon's descriptors in /proc/PID/fd (Linux)"
fi

write_profile
write_conf_manual
: >"$T/inherited-read"
: >"$T/inherited-write"
exec 7<"$T/inherited-read" 9>"$T/inherited-write"
start_daemon
# The shell's own copies are not the daemon's concern.
exec 7<&- 9>&-

[ -d "/proc/$DPID/fd" ] || fail "no /proc/$DPID/fd"
held=
for fd in /proc/"$DPID"/fd/*; do
	target=$(readlink "$fd" 2>/dev/null) || continue
	case $target in
	"$T"/inherited-*)
		held="$held ${fd##*/} -> $target"
		;;
	esac
done
[ -z "$held" ] || fail "perfwatchd kept inherited descriptors:$held"

# The daemon still works: a run it starts ends complete.
request '{"cmd":"trigger","workloads":["tiny"]}' | grep -q '"ok":true' ||
	fail "the trigger was refused"
wait_until 30 "the run to complete" runs_at_least 1 "status = 'complete'" ||
	fail "the run did not complete"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

ready_before=$(grep -c "ready:" "$LOG" 2>/dev/null || true)
"$PERFWATCHD" -d -f "$CONF" <&- >&- 2>>"$LOG" &
DPID=$!
wait_until 15 "perfwatchd ready" sh -c \
    "[ \$(grep -c 'ready:' '$LOG') -gt ${ready_before:-0} ]" ||
	fail "perfwatchd (0 and 1 closed) did not get ready"
for fd in 0 1; do
	target=$(readlink "/proc/$DPID/fd/$fd" 2>/dev/null) ||
		fail "perfwatchd has no descriptor $fd"
	[ "$target" = /dev/null ] ||
		fail "perfwatchd's descriptor $fd is $target, not /dev/null"
done
request '{"cmd":"status"}' | grep -q '"ok":true' ||
	fail "status refused with 0 and 1 closed at start"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd (0 and 1 closed) exited $DSTATUS"
pass
