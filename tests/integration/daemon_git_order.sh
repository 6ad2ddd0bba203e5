#!/bin/sh
# A commit B is built while the newer C comes: B's battery runs before
# C's build, on the tree that holds B's build (it ran after C's build,
# which replaced what it measured, and was recorded as B all the same).
# C's build then fails: the store keeps C as dealt with ("git:NAME"),
# and a restart does not build C again.  A branch forced back to B is a
# change: B is built and measured again, and kept.
set -eu
. "$(dirname "$0")/daemon.subr"

git_repo

# The build fails in a tree with "fail" (looked at first: the tree is
# shared, and C brings it while B's build waits), else says so in
# $T/waiting and waits while $T/hold exists.
cat >"$T/build.sh" <<EOF
test ! -e fail || exit 1
touch "$T/waiting"
while [ -e "$T/hold" ]; do sleep 0.1; done
EOF
write_profile
write_conf_manual "git_poll = 1h

[git \"demo\"]
path = $repo
branch = main
build = sh $T/build.sh
workloads = tiny"
start_daemon
wait_until 15 "the first look at the repository" \
    grep -q "git demo: watching refs/heads/main" "$LOG" ||
	fail "the repository was not read"

# short ID: the first 12 hex digits, as the log writes a commit.
short() {
	printf %.12s "$1"
}

# B's build is held; C comes meanwhile and queues its build (a reload
# reads the branch at once).
touch "$T/hold"
echo 2 >"$repo/version.txt"
g commit -q -a -m "second"
b=$(g rev-parse HEAD)
kill -HUP "$DPID"
wait_until 15 "the build of B" test -e "$T/waiting" ||
	fail "the build of $b did not start"
touch "$repo/fail"
g add fail
g commit -q -m "breaks the build"
c=$(g rev-parse HEAD)
kill -HUP "$DPID"
wait_until 15 "C's queued build" \
    grep -q "queued a build of demo at $(short "$c")" "$LOG" ||
	fail "the commit $c was not seen"

# B's build ends: B's battery runs, then C's build (which fails).
rm "$T/hold"
wait_until 30 "C's failed build" \
    grep -q "build demo at $(short "$c") failed" "$LOG" ||
	fail "the build of $c did not fail"
wait_git_run 1 "$b" "the build of B"
battery=$(grep -n "battery started (git: $b)" "$LOG" | cut -d: -f1)
build=$(grep -n "build demo at $(short "$c") started" "$LOG" | cut -d: -f1)
[ -n "$battery" ] && [ -n "$build" ] && [ "$battery" -lt "$build" ] ||
	fail "B's battery (log line ${battery:-none}) did not run before" \
	    "C's build (line ${build:-none})"
# The daemon has dealt with it once it says so.
wait_until 15 "B's battery" grep -q "run .*: complete (git)" "$LOG" ||
	fail "the daemon did not see the run of $b end"
[ "$(git_kept)" = "$c" ] ||
	fail "B's battery, run after C was dealt with, left $(git_kept)" \
	    "kept, not $c"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# After a restart C, dealt with, is not built again.  (The first look
# is taken before the daemon says it is ready.)
start_daemon
[ "$(grep -c "queued a build of demo at $(short "$c")" "$LOG")" -eq 1 ] ||
	fail "the commit $c was queued again after a restart"

# Forced back to B: a change, built, measured and kept again.
g reset -q --hard HEAD~1
kill -HUP "$DPID"
wait_git_run 2 "$b" "the rewind to B"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
[ "$(git_kept)" = "$b" ] ||
	fail "the rewound commit $b was not kept: $(git_kept)"
[ "$(count_runs "trigger = 'git'")" -eq 2 ] ||
	fail "$(count_runs "trigger = 'git'") git runs, expected 2"
pass
