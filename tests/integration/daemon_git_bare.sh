#!/bin/sh
# A [git] section whose path is a bare repository and that has a build:
# the build would run in the repository itself, which has no working
# tree, so perfwatchd says so once when it first reads it (and not again
# on a reload).  Without a build a bare repository is only read, and
# nothing is said.
set -eu
. "$(dirname "$0")/daemon.subr"

command -v git >/dev/null 2>&1 || fail "git is not installed"
repo="$T/repo"
mkdir -p "$repo"
timeout 20 git init -q -b main "$repo"
echo 1 >"$repo/version.txt"
timeout 20 git -C "$repo" add version.txt
timeout 20 git -C "$repo" -c user.name=Test -c user.email=test@example.org \
    -c commit.gpgsign=false commit -q -m first
timeout 20 git clone -q --bare "$repo" "$T/bare.git"

write_profile
write_conf_manual "git_poll = 10s

[git \"built\"]
path = $T/bare.git
branch = main
build = cp version.txt $T/built.txt
workloads = tiny

[git \"read\"]
path = $T/bare.git
branch = main"
start_daemon
wait_until 15 "the first look" grep -q "git built: watching refs/heads/main" \
    "$LOG" || fail "the bare repository was not read"
grep -q "git built: $T/bare.git is a bare repository: its build runs there, without a working tree to build" \
    "$LOG" || fail "no word about the build of a bare repository"
grep -q "git read: .*bare repository" "$LOG" &&
	fail "a bare repository without a build was warned about"
kill -HUP "$DPID"
wait_until 15 "the reload" grep -q "reloaded" "$LOG" || fail "not reloaded"
[ "$(grep -c "is a bare repository" "$LOG")" -eq 1 ] ||
	fail "the bare repository was warned about again on the reload"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
