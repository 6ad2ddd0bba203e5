#!/bin/sh
# Stopping during a build stops the whole build, not just its shell: the
# build's process group gets SIGTERM, and what is left of the group when
# the shell has exited (here a child that ignores SIGTERM) is killed.
# Nothing the build started outlives perfwatchd.
set -eu
. "$(dirname "$0")/daemon.subr"

# Whether process $1 is gone (a zombie nobody has reaped counts).
gone() {
	! kill -0 "$1" 2>/dev/null ||
	    [ "$(ps -o stat= -p "$1" 2>/dev/null | cut -c1)" = Z ]
}
child=
cleanup() {
	if [ -n "$child" ] && ! gone "$child"; then
		kill -KILL "$child" 2>/dev/null || true
	fi
	daemon_cleanup
}
trap cleanup EXIT

git_repo
write_profile
write_conf_manual "git_poll = 1h

[git \"demo\"]
path = $repo
build = (trap '' TERM; exec sleep 60) & echo \$! >$T/child.pid; wait
workloads = tiny"
start_daemon
wait_until 15 "the first look" grep -q "git demo: watching" "$LOG" ||
	fail "the repository was not read"
echo 2 >"$repo/version.txt"
g commit -q -a -m second
kill -HUP "$DPID"	# reads the branch at once
wait_until 15 "the build" test -s "$T/child.pid" || fail "the build did not start"
child=$(cat "$T/child.pid")
kill -0 "$child" || fail "the build's child is not running"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
wait_until 5 "the build's child gone" gone "$child" ||
	fail "the build's child $child outlived perfwatchd"
grep -q "build demo: killed what was left of its process group" "$LOG" ||
	fail "the leftover was not reported"
pass
