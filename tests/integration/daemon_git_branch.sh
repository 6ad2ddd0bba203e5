#!/bin/sh
# A watched tree checked out on another branch: the build builds that
# branch, and its battery was recorded as the watched branch's commit,
# without a word.  After a build the tree's HEAD must be the branch or
# the commit built: else a warning says what the tree holds, nothing is
# measured, the commit is dealt with (as a failed build's is) and the
# tree is taken to hold the other commit's build.  A build command that
# checks the branch out itself is measured as before.
set -eu
. "$(dirname "$0")/daemon.subr"

git_repo
write_profile
# conf_build CMD: watch main of $repo, building with CMD (which writes
# what it built to $T/built.txt).
conf_build() {
	write_conf_manual "git_poll = 1h

[git \"demo\"]
path = $repo
branch = main
build = $1
workloads = tiny"
}
conf_build "cat version.txt >$T/built.txt"
start_daemon
wait_until 15 "the first look at the repository" \
    grep -q "git demo: watching refs/heads/main" "$LOG" ||
	fail "the repository was not read"

# short ID: the first 12 hex digits, as the log writes a commit.
short() {
	printf %.12s "$1"
}

# move_main N: a commit on main with version.txt holding N, made without
# checking main out; $main is its id.
move_main() {
	blob=$(echo "$1" | g hash-object -w --stdin)
	tree=$(printf '100644 blob %s\tversion.txt\n' "$blob" | g mktree)
	main=$(g commit-tree -p refs/heads/main -m "main $1" "$tree")
	g update-ref refs/heads/main "$main"
}

# The tree is on side; main moves (a reload reads the branch at once).
g checkout -q -b side
echo side >"$repo/version.txt"
g commit -q -a -m "side"
side=$(g rev-parse HEAD)
move_main 2
kill -HUP "$DPID"
wait_until 15 "the warning" grep -q "git demo: the tree holds $(short \
    "$side"), not $(short "$main"), the commit of main: not measured; check out main there" \
    "$LOG" || fail "no warning about the tree on another branch"
[ "$(cat "$T/built.txt")" = side ] || fail "the build built $(cat "$T/built.txt")"
[ "$(count_runs "trigger = 'git'")" -eq 0 ] ||
	fail "a battery ran for $main, built from side"
[ "$(status_field 'len(d["pending"])')" = 0 ] ||
	fail "a battery is queued: $(status_field 'd["pending"]')"
[ "$(git_kept)" = "$main" ] || fail "$main was not dealt with: $(git_kept)"
[ "$(status_field 'd["git"][0]["built"]')" = "$side" ] ||
	fail "the tree's build: $(status_field 'd["git"][0]["built"]')"

# The build checks main out itself: HEAD, read after it, is the commit.
conf_build "git checkout -q main && cat version.txt >$T/built.txt"
reloads=$(grep -c "reloaded" "$LOG" || true)
kill -HUP "$DPID"
wait_until 15 "the reload" sh -c \
    "[ \$(grep -c 'reloaded' '$LOG') -gt $reloads ]" || fail "not reloaded"
move_main 3
kill -HUP "$DPID"
wait_git_run 1 "$main" "a build that checks main out"
[ "$(cat "$T/built.txt")" = 3 ] || fail "the build built $(cat "$T/built.txt")"
[ "$(sql "SELECT git_commits FROM runs WHERE trigger = 'git'")" = \
    "{\"demo\":\"$main\"}" ] || fail "the run recorded another commit"

# A build that leaves HEAD unborn: what the tree holds cannot be told.
# Said as that, not as another branch checked out (with the advice to
# check out the branch it was on).
conf_build "git symbolic-ref HEAD refs/heads/none"
reloads=$(grep -c "reloaded" "$LOG" || true)
kill -HUP "$DPID"
wait_until 15 "the reload" sh -c \
    "[ \$(grep -c 'reloaded' '$LOG') -gt $reloads ]" || fail "not reloaded"
move_main 4
kill -HUP "$DPID"
wait_until 15 "the warning" grep -q "git demo: after the build of $(short \
    "$main"), cannot read the tree's HEAD: .*: not measured, as after a failed build$" \
    "$LOG" || fail "no warning of the unreadable HEAD: $(grep "git demo:" "$LOG" |
    tail -n 1)"
# The one such line is the first part's.
[ "$(grep -c "not measured; check out main there" "$LOG")" -eq 1 ] ||
	fail "the unreadable HEAD was said to be another branch"
[ "$(count_runs "trigger = 'git'")" -eq 1 ] ||
	fail "a battery ran for $main, whose build left no HEAD"
[ "$(git_kept)" = "$main" ] || fail "$main was not dealt with: $(git_kept)"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
