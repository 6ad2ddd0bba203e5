#!/bin/sh
# Under [quiet] policy = wait, the load counters that could not be read
# during the wait (here /proc/loadavg made empty, in a mount namespace of
# the test's own, once the run waits) left a machine known busy recorded
# as quiet (busy no): the wait's -1 was no "busy".  The run now fails as
# when the first look cannot read them (70), and records nothing quiet.
set -eu
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root (a mount namespace)"
unshare -m true 2>/dev/null || skip "no mount namespace"
mkdir -p "$T/work"
# Busy for good: more memory available than there is.
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' "$T/work" \
    "$(printf '%s\n' "$QUIET_ANY_LOAD" | sed 's/^policy = .*/policy = wait/;
    s/^min_mem_available = .*/min_mem_available = 100/')
max_wait = 20s" >"$T/pw.conf"
printf '[workload "x"]\ncommand = echo t 1 s\niterations = 1\n' \
    >"$T/p.profile"

rc=0
unshare -m sh -c '
	"$1" -c "$2/pw.conf" run --no-check --profile "$2/p.profile" \
	    --label w 2>"$2/err" &
	pid=$!
	n=0
	until grep -q "waiting up to" "$2/err" 2>/dev/null; do
		n=$((n + 1))
		[ "$n" -lt 100 ] || break
		sleep 0.1
	done
	mount --bind /dev/null /proc/loadavg
	wait "$pid"' sh "$PERFWATCH" "$T" || rc=$?
grep -q "waiting up to" "$T/err" || fail "the run did not wait: $(cat "$T/err")"
[ "$rc" -eq 70 ] || fail "exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "quiet: cannot read the load counters"
[ "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM runs WHERE status =
    'complete'")" -eq 0 ] || fail "a run was recorded: $(pw runs)"
pass
