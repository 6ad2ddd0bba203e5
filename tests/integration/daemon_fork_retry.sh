#!/bin/sh
# A battery or build whose process cannot be started (fork fails: here
# the service user's process limit, set to none on the running daemon)
# is not lost: it stays queued, the log and status say when the queue is
# tried again, a second failure waits twice as long, and once a process
# can be made it runs, under the trigger and detail that asked for it.
# Both used to be dropped with a warning: a package upgrade's battery, or
# a watched tree's build and so its commit's battery, never ran.
set -eu
. "$(dirname "$0")/daemon.subr"

need_nobody
command -v prlimit >/dev/null 2>&1 || skip "no prlimit"

# nobody must reach the test directory, the profile and the binaries.
chmod 755 "$T"
write_profile
# A watched tree of nobody's, whose build says it ran.
git_repo
chown -R nobody "$repo"
mkdir "$T/out"
chown nobody "$T/out"
DUSER=nobody DGROUP=$(id -gn nobody) DALLOW_ROOT=no write_conf_manual "
git_poll = 1h

[git \"src\"]
path = $repo
build = echo built >>$T/out/builds.log
workloads = tiny"
rmdir "$T/work"
chmod 644 "$CONF" "$T/profile.conf"

notify_listen
NOTIFY_SOCKET="$T/notify.sock" start_daemon
wait_until 15 "the first look at the tree" grep -q "git src: watching" \
    "$LOG" || fail "the tree was not read"

# nproc N: the daemon's soft limit of processes (nobody, it has no root's
# exemption).  prlimit runs as nobody too: the daemon's user may set its
# limits without CAP_SYS_RESOURCE, which root may lack (in a container),
# and raise the soft one again, up to the hard one.
hard=$(awk '/^Max processes/ { print $4 }' "/proc/$DPID/limits")
[ -n "$hard" ] || fail "no process limit in /proc/$DPID/limits"
nproc() {
	$NOBODY prlimit --pid "$DPID" --nproc="$1": ||
		fail "prlimit could not set the limit to $1"
}

# A commit whose build cannot start: kept, and built once it can.
nproc 0
echo 2 >"$repo/version.txt"
g -c safe.directory='*' commit -q -a -m second
kill -HUP "$DPID"
wait_until 15 "the failed build" grep -q \
    "build src could not start; trying again in 10 s" "$LOG" ||
	fail "no retry said after the build's failed start"
[ "$(status_field 'd["builds"][0]["name"]')" = src ] ||
	fail "the build was not kept: $(request '{"cmd":"status"}')"
nproc "$hard"
wait_until 30 "the git battery" runs_at_least 1 \
    "trigger = 'git' AND status = 'complete'" || fail "no git run"
expect_eq "$(cat "$T/out/builds.log")" built
expect_match "$(sql "SELECT git_commits FROM runs WHERE trigger = 'git'")" \
    "\"src\":\"$(g -c safe.directory='*' rev-parse HEAD)\""

# A battery that cannot start: the wait starts again at 10 s.
nproc 0

request '{"cmd":"trigger","workloads":["tiny"]}' | grep -q '"ok":true' ||
	fail "trigger refused"
wait_until 10 "the first failed start" grep -q \
    "the battery (manual) could not start; trying again in 10 s" "$LOG" ||
	fail "no retry said after the failed start"
grep -q "run: fork: Resource temporarily unavailable" "$LOG" ||
	fail "the fork's error was not logged"

# Still queued, and the status says when it is tried again.
expect_retry "workloads tiny" "could not start a child"
pwc status >"$T/status.out" 2>&1 || fail "status: $(cat "$T/status.out")"
expect_match "$(cat "$T/status.out")" "retrying:  at "
expect_match "$(cat "$T/status.out")" "queued:    manual: workloads tiny"
expect_match "$(cat "$T/status.out")" \
    "problem:   the battery (manual) could not start; trying again in 10 s"

# The retry fails too, and the next wait is twice as long.
wait_until 20 "the second failed start" grep -q \
    "the battery (manual) could not start; trying again in 20 s" "$LOG" ||
	fail "no second retry after 10 s"
[ "$(count_runs "trigger = 'manual'")" -eq 0 ] ||
	fail "a run was recorded without a process"

# Processes can be made again: the next try runs it, as asked.
nproc "$hard"
wait_until 40 "the battery after the retry" runs_at_least 1 \
    "trigger = 'manual' AND status = 'complete'" ||
	fail "the kept battery never ran"
expect_eq "$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'manual'")" \
    "workloads tiny"
expect_eq "$(sql "SELECT group_concat(DISTINCT m.workload) FROM samples s
    JOIN metrics m ON m.id = s.metric JOIN runs r ON r.id = s.run
    WHERE r.trigger = 'manual'")" "tiny"
[ "$(status_field 'len(d["pending"])')" = 0 ] || fail "still queued"
[ "$(status_field 'd["retry_at"]')" = None ] || fail "a retry still armed"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
