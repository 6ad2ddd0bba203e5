#!/bin/sh
# A watched repository without a build: each commit queues a battery of
# its workloads.  Commits that come while one waits (paused, or behind a
# run) are one battery of the newest, as builds are: each was a reason
# of its own, and past the queue's 64 the newest, the one that matters,
# was dropped ("64 reasons already queued; this one is dropped"), the
# run then recording an older commit than the tree held.
set -eu
. "$(dirname "$0")/daemon.subr"

git_repo
write_profile
write_conf_manual "git_poll = 1h

[git \"demo\"]
path = $repo
branch = main
workloads = tiny"
start_daemon
wait_until 15 "the first look at the repository" \
    grep -q "git demo: watching refs/heads/main" "$LOG" ||
	fail "the repository was not read"
pwc pause >/dev/null 2>&1 || fail "pause refused"

# Three commits, each seen (a reload reads the branch at once).
for i in 2 3 4; do
	echo "$i" >"$repo/version.txt"
	g commit -q -a -m "commit $i"
	seen=$(grep -c "git demo: " "$LOG" || true)
	kill -HUP "$DPID"
	wait_until 15 "commit $i seen" sh -c \
	    "[ \$(grep -c 'git demo: ' '$LOG') -gt $seen ]" ||
		fail "commit $i was not seen"
done
newest=$(g rev-parse HEAD)
wait_until 15 "the newest commit queued" \
    grep -q "queued battery (git): demo now at $(printf %.12s "$newest")" \
    "$LOG" || fail "the newest commit did not take the queued one's place"
[ "$(status_field 'len(d["pending"])')" = 1 ] ||
	fail "queue: $(status_field 'd["pending"]')"

pwc resume >/dev/null 2>&1 || fail "resume refused"
wait_git_run 1 "$newest" "three commits while paused"
[ "$(count_runs "trigger = 'git'")" -eq 1 ] ||
	fail "$(count_runs "trigger = 'git'") git runs, not one"
[ "$(sql "SELECT git_commits FROM runs WHERE trigger = 'git'")" = \
    "{\"demo\":\"$newest\"}" ] || fail "the run recorded another commit"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
