#!/bin/sh
# A [git] section may watch a full ref, and a ref may be an annotated tag
# moved to each new build (a "nightly" tag): the commit it names is the
# one measured and recorded, not the tag object's id, which is no commit.
set -eu
. "$(dirname "$0")/daemon.subr"

git_repo
g tag -a -m "nightly" nightly
first=$(g rev-parse HEAD)

write_profile
write_conf_manual "git_poll = 10s

[git \"demo\"]
path = $repo
branch = refs/tags/nightly
workloads = tiny"
start_daemon
wait_until 15 "the first look at the repository" \
    grep -q "git demo: watching refs/tags/nightly" "$LOG" ||
	fail "the repository was not read"
grep -q "git demo: watching refs/tags/nightly of $repo, at ${first%"${first#????????????}"}" \
    "$LOG" || fail "the first look did not find commit $first"

echo 2 >"$repo/version.txt"
g commit -q -a -m "second"
g tag -f -a -m "nightly" nightly >/dev/null
head=$(g rev-parse HEAD)
wait_until 30 "the git run" runs_at_least 1 \
    "trigger = 'git' AND status = 'complete'" ||
	fail "no run after the tag moved"
expect_eq "$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'git'")" \
    "$head"
expect_eq "$(sql "SELECT git_commits FROM runs WHERE trigger = 'git'")" \
    "{\"demo\":\"$head\"}"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
