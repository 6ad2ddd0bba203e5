#!/bin/sh
# Packages upgraded while perfwatchd was down, and a commit in a watched
# tree whose battery is one workload: the tree's battery runs at start,
# on the new packages, and the package run still comes once the database
# has settled, with the whole battery.  The tree's run counted as one
# that "measured these packages", and the other workloads were never
# measured on them; a restart then took them as measured too.  And a
# workload added to the battery while it was down does not keep the
# packages from being compared with the last run of the others.
set -eu
. "$(dirname "$0")/daemon.subr"

git_repo
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.0-1; } | dpkg_write
write_profile
write_conf_packages 2s "git_poll = 1h

[git \"demo\"]
path = $repo
branch = main
workloads = tiny"
start_daemon
wait_packages 2
wait_until 15 "the first look at the repository" \
    grep -q "git demo: watching refs/heads/main" "$LOG" ||
	fail "the repository was not read"
# A whole battery on the old packages, the one to compare with.
pwc trigger >/dev/null 2>&1 || fail "trigger refused"
wait_until 30 "the whole battery" runs_at_least 1 \
    "trigger = 'manual' AND status = 'complete'" ||
	fail "the triggered battery did not complete"
stop_daemon TERM

{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.1-1; } | dpkg_write
echo 2 >"$repo/version.txt"
g commit -q -a -m "commit 2"
start_daemon
wait_git_run 1 "$(g rev-parse HEAD)" "the start"
[ "$(sql "SELECT group_concat(workload) FROM run_workloads WHERE run =
    (SELECT id FROM runs WHERE trigger = 'git')")" = tiny ] ||
	fail "the git battery was not of tiny alone"
wait_package_run 1 "the git battery of tiny alone was taken for the package run"
expect_match "$(package_detail)" "libfoo1 1.0-1"
[ "$(sql "SELECT group_concat(workload, ',') FROM (SELECT workload FROM
    run_workloads WHERE run = (SELECT id FROM runs WHERE trigger =
    'package') ORDER BY workload)")" = "other,tiny" ] ||
	fail "the package run was not of the whole battery"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# An upgrade while it is down that adds a workload to the battery (a
# perfwatch upgrade restarts it): no run has measured that one, and the
# packages are compared with the last run of the others.  No run then
# "measured" the battery, and the upgrade was compared with nothing.
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.2-1; } | dpkg_write
printf '\n[workload "third"]\ncommand = true\nmeasure = time\niterations = 1\n' \
    >>"$T/profile.conf"
start_daemon
wait_package_run 2 "an upgrade beside a workload added was not measured"
expect_match "$(package_detail)" "libfoo1 1.1-1"
expect_match "$(package_detail)" "1.2-1"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
