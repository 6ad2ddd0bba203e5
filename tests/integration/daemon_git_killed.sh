#!/bin/sh
# A commit whose battery was killed (the OOM killer, a stray kill -9) has
# not been measured: the store does not keep it as the repository's
# last commit dealt with, and the next start measures it.  It was kept,
# and never measured.
set -eu
. "$(dirname "$0")/daemon.subr"

git_repo
SLOW=60 write_profile slow
write_conf_manual "git_poll = 1h

[git \"demo\"]
path = $repo
branch = main
workloads = slow"
start_daemon
wait_until 15 "the first look at the repository" \
    grep -q "git demo: watching refs/heads/main" "$LOG" ||
	fail "the repository was not read"
first=$(g rev-parse HEAD)
wait_until 15 "the first commit kept" sh -c \
    "[ \"\$(sqlite3 -cmd '.timeout 5000' '$DB' \"SELECT value FROM settings WHERE key = 'git:demo'\")\" = '$first' ]" ||
	fail "the first commit was not kept: $(git_kept)"

echo 2 >"$repo/version.txt"
g commit -q -a -m "commit 2"
second=$(g rev-parse HEAD)
kill -HUP "$DPID"
wait_until 15 "the battery of commit 2" \
    grep -q "battery started (git: $(printf %.12s "$second")" "$LOG" ||
	fail "commit 2's battery did not start"
wait_until 15 "the slow workload running" sh -c \
    "$PERFWATCH -c $CONF status --json | grep -q '\"workload\": \"slow\"'" ||
	fail "the slow workload did not start"
child=$(status_field 'd["work"]["pid"]')
kill -KILL "-$child"
wait_until 15 "the killed battery seen" \
    grep -q "ended without a report, killed by signal 9" "$LOG" ||
	fail "the daemon did not see its battery killed"
[ "$(git_kept)" = "$first" ] ||
	fail "the killed battery's commit is kept as measured: $(git_kept)"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# The next start measures commit 2 (at once: the workload no longer
# sleeps).
SLOW=0 write_profile slow
start_daemon
wait_git_run 1 "$second" "a restart"
wait_until 15 "commit 2 kept" sh -c \
    "[ \"\$(sqlite3 -cmd '.timeout 5000' '$DB' \"SELECT value FROM settings WHERE key = 'git:demo'\")\" = '$second' ]" ||
	fail "commit 2 was not kept once measured: $(git_kept)"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
