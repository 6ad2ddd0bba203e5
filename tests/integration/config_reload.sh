#!/bin/sh
# A reload (SIGHUP) of a file that changes several things and has one
# error, on its last line, after every change: nothing of it is applied.
# The schedule, the dashboard (off), the log level and the copy the
# runs read (state_dir/run.conf, byte for byte) stay as they were, and
# the error is logged with its file:line.  The same file without the
# bad line is then applied whole.  daemon_signals has a reload refused
# for an unknown section; this one is refused for a byte that is not
# UTF-8 in a comment, which the keys before it must not outrun.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
port=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
base="
[schedule]
interval = 1h
jitter = 0
[triggers]
packages = no
kernel = no"
write_conf "$base"
start_daemon
next1=$(status_field 'd["next_run"]')
cp "$T/state/run.conf" "$T/run.conf.before"

# Three changes, then the error.
write_conf "$base"
sed -i 's/^interval = 1h$/interval = 3h/' "$CONF"
sed -i 's/^log_level = debug$/log_level = error/' "$CONF"
awk -v l="http = 127.0.0.1:$port" '/^\[quiet\]$/ { print l } { print }' \
    "$CONF" >"$T/conf.new" && mv "$T/conf.new" "$CONF"
printf 'derni\350re = ligne\n' >>"$CONF"
grep -q "^http = 127.0.0.1:$port\$" "$CONF" || fail "no http line in $CONF"
bad_line=$(wc -l <"$CONF")
kill -HUP "$DPID"
wait_until 10 "the reload refused" grep -q "not reloaded" "$LOG" ||
	fail "no message about the refused reload"
said="$CONF:$bad_line: expected UTF-8 text, found an invalid byte (0xe8)"
expect_match "$(cat "$LOG")" "$said at byte 6 of the line"
kill -0 "$DPID" || fail "perfwatchd died on a refused reload"

# Nothing of the file was taken.
[ "$(status_field 'd["next_run"]')" = "$next1" ] ||
	fail "the schedule changed on a refused reload"
cmp -s "$T/state/run.conf" "$T/run.conf.before" ||
	fail "run.conf changed on a refused reload:" \
	    "$(diff "$T/run.conf.before" "$T/state/run.conf")"
if python3 -c 'import socket, sys
socket.create_connection(("127.0.0.1", int(sys.argv[1])), 2)' "$port" \
    2>/dev/null; then
	fail "the dashboard of the refused file listens on $port"
fi
# Still logging at debug: a run is told of, not only errors.
lines=$(wc -l <"$LOG")
request '{"cmd":"trigger","workloads":["tiny"]}' | grep -q '"ok":true' ||
	fail "trigger refused"
wait_until 20 "a run" runs_at_least 1 "status = 'complete'" ||
	fail "no run after the refused reload"
wait_until 10 "the run in the log" sh -c \
    "[ \$(wc -l <'$LOG') -gt $lines ]" ||
	fail "nothing logged after the refused reload: the log level changed"

# Without the bad line: every change taken (quietly: log_level = error
# leaves out "reloaded").
sed -i '$d' "$CONF"
lines=$(wc -l <"$LOG")
kill -HUP "$DPID"
next_moved() {
	[ "$(status_field 'd["next_run"]')" != "$next1" ]
}
wait_until 10 "the new interval" next_moved ||
	fail "the new interval was not applied"
grep -q "^interval = 3h\$" "$T/state/run.conf" || fail "run.conf is stale"
grep -q "^http = 127.0.0.1:$port\$" "$T/state/run.conf" ||
	fail "run.conf has no dashboard"
wait_until 10 "the dashboard" python3 -c 'import socket, sys
socket.create_connection(("127.0.0.1", int(sys.argv[1])), 2)' "$port" ||
	fail "the dashboard of the good file does not listen on $port"
[ "$(wc -l <"$LOG")" -eq "$lines" ] ||
	fail "log_level = error still logs: $(tail -n +$((lines + 1)) "$LOG")"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
