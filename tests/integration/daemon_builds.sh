#!/bin/sh
# Builds run one at a time, never beside each other or a battery.  Three
# watched repositories get a commit while the daemon is paused; a reload
# then takes away the first one's build command, so that its commit goes
# straight to the battery when its turn comes.  On resume the other two
# build one after the other, and then one battery measures all three
# commits.
set -eu
. "$(dirname "$0")/daemon.subr"

command -v git >/dev/null 2>&1 || fail "git is not installed"
g() {
	repo=$1
	shift
	timeout 20 git -C "$T/$repo" -c user.name=Test \
	    -c user.email=test@example.org -c commit.gpgsign=false "$@"
}
for r in a b c; do
	mkdir -p "$T/$r"
	timeout 20 git init -q -b main "$T/$r"
	echo 1 >"$T/$r/v"
	g "$r" add v
	g "$r" commit -q -m first
done

# gits BUILD-LINE-OF-A: the [git] sections; b and c log their builds.
gits() {
	for r in c b; do
		cat <<EOF2

[git "$r"]
path = $T/$r
build = echo start $r >>$T/builds.log; sleep 1; echo end $r >>$T/builds.log
workloads = tiny
EOF2
	done
	cat <<EOF2

[git "a"]
path = $T/a
$1
workloads = tiny
EOF2
}
triggers="
[schedule]
cron = none
[triggers]
packages = no
kernel = no
git_poll = 1h
rerun_suspected = no"
write_profile
write_conf "$triggers$(gits "build = true")"
start_daemon
wait_until 15 "the first look at the repositories" \
    grep -q "git a: watching" "$LOG" || fail "the repositories were not read"
request '{"cmd":"pause"}' | grep -q '"paused":true' || fail "pause refused"
for r in a b c; do
	echo 2 >"$T/$r/v"
	g "$r" commit -q -a -m second
done
# A reload reads the branches at once.
kill -HUP "$DPID"
wait_until 15 "three builds queued" sh -c \
    "[ \$(grep -c 'queued a build' '$LOG') -eq 3 ]" ||
	fail "the builds were not queued"
write_conf "$triggers$(gits "")"
kill -HUP "$DPID"
wait_until 15 "the second reload" sh -c \
    "[ \$(grep -c 'reloaded' '$LOG') -eq 2 ]" || fail "not reloaded"
request '{"cmd":"resume"}' | grep -q '"paused":false' || fail "resume refused"
wait_until 30 "both builds" sh -c \
    "[ \$(grep -c '^end' '$T/builds.log') -eq 2 ]" || fail "the builds did not end"

# Each build ended before the next one started.
awk '
	$1 == "start" { if (cur != "") bad = 1; cur = $2; n++ }
	$1 == "end" { if ($2 != cur) bad = 1; cur = "" }
	END { exit (bad || cur != "" || n != 2) }
' "$T/builds.log" || fail "builds overlapped: $(tr '\n' ' ' <"$T/builds.log")"
wait_until 30 "the git battery" runs_at_least 1 \
    "trigger = 'git' AND status = 'complete'" || fail "no git run"
[ "$(count_runs "trigger = 'git'")" -eq 1 ] || fail "not one git run"
commits=$(sql "SELECT git_commits FROM runs WHERE trigger = 'git'")
for r in a b c; do
	expect_match "$commits" "\"$r\":\"$(g "$r" rev-parse HEAD)\""
done
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
