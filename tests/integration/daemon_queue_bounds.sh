#!/bin/sh
# What perfwatchd's queue holds, as perfwatchd(8) and perfwatch(1) say:
# while it is paused, 64 different triggers wait and a 65th is refused
# ("the queue is full", exit 1), the same one again is no new one; a
# trigger of more than 64 globs, or of one longer than 256 bytes, is
# refused, and so is one of globs whose request is longer than the
# daemon reads; and the battery they make once resumed has their details
# joined, cut to 1000 bytes ending in "...".  The manuals said none of
# these bounds.
set -eu
. "$(dirname "$0")/daemon.subr"
top=${PERFWATCH_TOP:?}

write_profile
write_conf_manual
start_daemon
pwc pause >/dev/null || fail "pause"

# tiny, tiny*, tiny** ...: 64 globs of tiny, each a reason of its own.
g=tiny
i=0
while [ "$i" -lt 64 ]; do
	pwc trigger --workload "$g" >"$T/out" 2>&1 ||
		fail "trigger $((i + 1)) ($g): $(cat "$T/out")"
	g="$g*"
	i=$((i + 1))
done
rc=0
pwc trigger --workload "$g" >"$T/out" 2>&1 || rc=$?
expect_eq "$rc" 1
expect_eq "$(cat "$T/out")" "perfwatch: perfwatchd: the queue is full"
pwc trigger --workload tiny >"$T/out" 2>&1 ||
	fail "a reason queued already is refused: $(cat "$T/out")"

# One glob of 257 bytes, then 65 globs of tiny.
long=tiny$(printf '%253s' '' | tr ' ' '*')
expect_eq "${#long}" 257
rc=0
pwc trigger --workload "$long" >"$T/out" 2>&1 || rc=$?
expect_eq "$rc" 1
expect_match "$(cat "$T/out")" "expected a name or glob of 1 to 256 bytes"
set --
i=0
while [ "$i" -lt 65 ]; do
	set -- "$@" --workload tiny
	i=$((i + 1))
done
rc=0
pwc trigger "$@" >"$T/out" 2>&1 || rc=$?
expect_eq "$rc" 1
expect_match "$(cat "$T/out")" "workloads: at most 64"
# 17 globs of 248 bytes each, within both bounds, but a request longer
# than perfwatchd reads: refused before it is sent, in words of the
# globs (it was "perfwatchd: request longer than 4096 bytes", exit 1).
long=tiny$(printf '%244s' '' | tr ' ' '*')
set --
i=0
while [ "$i" -lt 17 ]; do
	set -- "$@" --workload "$long"
	i=$((i + 1))
done
rc=0
pwc trigger "$@" >"$T/out" 2>&1 || rc=$?
expect_eq "$rc" 64
expect_match "$(cat "$T/out")" "perfwatch trigger: --workload: 17 globs come to a request of"
expect_match "$(cat "$T/out")" "longer than perfwatchd reads (4096): give fewer or shorter ones"

# Resumed, the 64 are one battery, its detail cut to 1000 bytes.
pwc resume >/dev/null || fail "resume"
wait_until 60 "the battery" runs_at_least 1 "status = 'complete'" ||
	fail "no battery ran"
expect_eq "$(count_runs "trigger = 'manual'")" 1
detail=$(sql "SELECT trigger_detail FROM runs")
expect_eq "${#detail}" 1000
case $detail in
"manual: workloads tiny; manual: workloads tiny*; "*...) ;;
*) fail "the battery's detail: $detail" ;;
esac
stop_daemon

# The manuals give these bounds.
tr '\n' ' ' <"$top/man/perfwatchd.8" >"$T/man8"
for words in 'its detail joins them all (cut to 1000 bytes' \
    'Up to 64 different reasons wait so' \
    '(at most 64 names or globs, each of 1 to 256 bytes)'; do
	grep -qF -- "$words" "$T/man8" || fail "perfwatchd(8) lacks: $words"
done
words='more than 64 globs or one longer than 256 bytes, and a battery when 64 different ones wait already'
tr '\n' ' ' <"$top/man/perfwatch.1" | grep -qF -- "$words" ||
	fail "perfwatch(1) lacks: $words"
pass
