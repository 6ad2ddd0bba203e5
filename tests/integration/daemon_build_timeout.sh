#!/bin/sh
# A watched tree's build that runs over its build_timeout is killed with
# its whole process group and counts as a failed build: its commit is
# dealt with and not measured, the log says why, and what was queued
# behind it goes on.  Without the limit a build that hung held back
# every later battery for as long as the daemon ran.
set -eu
. "$(dirname "$0")/daemon.subr"

git_repo
write_profile
write_conf_git "build = sleep 300 & echo \$! >$T/bg.pid; wait
build_timeout = 2s"
start_daemon
wait_until 15 "the first look at the repository" \
    grep -q "git demo: watching refs/heads/main" "$LOG" ||
	fail "the repository was not read"
echo 2 >"$repo/version.txt"
g commit -q -a -m second
second=$(g rev-parse HEAD)
wait_until 15 "the build" test -s "$T/bg.pid" || fail "no build started"
# A manual battery, queued behind the build.
request '{"cmd":"trigger"}' | grep -q '"ok":true' || fail "trigger refused"
wait_until 20 "the build killed" grep -q \
    "build demo at ${second%"${second#????????????}"} still running after [0-9]* s (build_timeout); killing it" \
    "$LOG" || fail "the build was not stopped"
grep -q "build demo at [0-9a-f]* failed (signal 9: over its build_timeout); no run" \
    "$LOG" || fail "the build's end was not said"
# Its whole group went: the build's background sleep too.
bg=$(cat "$T/bg.pid")
wait_until 10 "the build's background process gone" \
    sh -c "! kill -0 $bg 2>/dev/null" || fail "the build's sleep outlived it"
# What was queued behind it ran; the commit is dealt with, not measured.
wait_until 30 "the manual run" runs_at_least 1 \
    "trigger = 'manual' AND status = 'complete'" ||
	fail "the battery queued behind the build did not run"
[ "$(count_runs "trigger = 'git'")" -eq 0 ] || fail "a git run of a failed build"
expect_eq "$(git_kept)" "$second"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
