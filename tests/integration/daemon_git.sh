#!/bin/sh
# The git trigger: a commit on the watched branch of a real repository
# starts the build in the repository, then a run of the workloads the
# [git] section lists, with trigger "git", the commit id as its detail
# and in the run's git_commits.  A build that fails starts no run.  A
# commit still waiting for its build when the daemon stops is measured
# after a restart.  Every other battery records the commit whose build
# the tree holds: the first one found, then the last one built (not one
# whose build failed).
set -eu
. "$(dirname "$0")/daemon.subr"

git_repo

write_profile
write_conf_git "build = test ! -e fail && cp version.txt $T/built.txt"
start_daemon
wait_until 15 "the first look at the repository" \
    grep -q "git demo: watching refs/heads/main" "$LOG" ||
	fail "the repository was not read"
# The commit the daemon found at start is not measured.
[ "$(count_runs "1")" -eq 0 ] || fail "a run before any new commit"
first=$(g rev-parse HEAD)

# manual_commits: a battery asked for by hand, and the git_commits it
# recorded.
manual_commits() {
	nman=$(($(count_runs "trigger = 'manual'") + 1))
	request '{"cmd":"trigger"}' | grep -q '"ok":true' || fail "trigger refused"
	wait_until 30 "the manual run" runs_at_least "$nman" \
	    "trigger = 'manual' AND status = 'complete'" ||
		fail "the asked-for run did not complete"
	sql "SELECT git_commits FROM runs WHERE trigger = 'manual'
	    ORDER BY id DESC LIMIT 1"
}
commits=$(manual_commits)
[ "$commits" = "{\"demo\":\"$first\"}" ] ||
	fail "a manual run before any new commit recorded $commits"

echo 2 >"$repo/version.txt"
g commit -q -a -m "second"
head=$(g rev-parse HEAD)
wait_git_run 1 "$head" "the commit"
[ "$(cat "$T/built.txt")" = 2 ] || fail "the build did not see the commit"
commits=$(sql "SELECT git_commits FROM runs WHERE trigger = 'git'")
[ "$commits" = "{\"demo\":\"$head\"}" ] || fail "git_commits: $commits"
# Only the workloads of the [git] section were run.
wl=$(sql "SELECT group_concat(w.workload) FROM run_workloads w
    JOIN runs r ON r.id = w.run WHERE r.trigger = 'git'")
[ "$wl" = tiny ] || fail "the git run measured: $wl"
grep -q "build demo at ${head%"${head#????????????}"}.*done" "$LOG" ||
	fail "no build line in the log"

# A commit whose build fails: logged, no run.
touch "$repo/fail"
g add fail
g commit -q -m "breaks the build"
bad=$(g rev-parse HEAD)
wait_until 30 "the failed build" grep -q "build demo at $(printf %.12s "$bad") failed" "$LOG" ||
	fail "the failing build was not reported"
# Another failure in a row replaces the last error (and under
# check-asan, the daemon's exit status says that nothing leaked).
echo 3 >"$repo/version.txt"
g commit -q -a -m "still broken"
bad=$(g rev-parse HEAD)
wait_until 30 "the second failed build" grep -q "build demo at $(printf %.12s "$bad") failed" "$LOG" ||
	fail "the second failing build was not reported"
sleep 1
[ "$(count_runs "trigger = 'git'")" -eq 1 ] || fail "a run after a failed build"
status_field 'd["last_error"]' | grep -q "build demo at $(printf %.12s "$bad") failed" ||
	fail "status does not tell the last failed build"
# The tree still holds the build of the last good commit.
commits=$(manual_commits)
[ "$commits" = "{\"demo\":\"$head\"}" ] ||
	fail "a manual run after failed builds recorded $commits, not $head"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
[ "$(git_kept)" = "$bad" ] ||
	fail "the last commit seen was not kept"

# After a restart too: the store keeps the commit built apart from the
# last one dealt with (a failed build's), which a restart took for the
# build the tree holds.
start_daemon
commits=$(manual_commits)
[ "$commits" = "{\"demo\":\"$head\"}" ] ||
	fail "a manual run after a restart recorded $commits, not $head"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# A commit whose build is still queued when the daemon stops is not
# dealt with: after a restart it is built and measured.  (Paused, the
# build waits; a reload reads the branch at once.  Paused is kept.)
start_daemon
request '{"cmd":"pause"}' | grep -q '"paused":true' || fail "pause refused"
g rm -q fail
g commit -q -m "mends the build"
mended=$(g rev-parse HEAD)
kill -HUP "$DPID"
wait_until 15 "the queued build" grep -q "queued a build of demo at $(printf %.12s "$mended")" "$LOG" ||
	fail "the mending commit was not seen"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
[ "$(git_kept)" = "$bad" ] ||
	fail "a commit neither built nor measured was kept as dealt with"
start_daemon
request '{"cmd":"resume"}' | grep -q '"paused":false' || fail "resume refused"
wait_git_run 2 "$mended" "the restart"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
[ "$(git_kept)" = "$mended" ] ||
	fail "the measured commit was not kept"

# Commits that arrive together are one: the newest is built and
# measured.  A branch forced back to an older commit is measured too.
# (A reload reads the branch at once.)
start_daemon
for v in 4 5 6; do
	echo "$v" >"$repo/version.txt"
	g commit -q -a -m "version $v"
done
newest=$(g rev-parse HEAD)
kill -HUP "$DPID"
wait_git_run 3 "$newest" "three commits"
[ "$(cat "$T/built.txt")" = 6 ] || fail "the build did not see the newest commit"
g reset -q --hard HEAD~2
back=$(g rev-parse HEAD)
kill -HUP "$DPID"
wait_git_run 4 "$back" "the rewind"
[ "$(cat "$T/built.txt")" = 4 ] || fail "the build did not see $back"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
[ "$(count_runs "trigger = 'git'")" -eq 4 ] ||
	fail "$(count_runs "trigger = 'git'") git runs, expected 4"
pass
