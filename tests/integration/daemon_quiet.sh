#!/bin/sh
# The [quiet] policy under perfwatchd: a battery that finds the machine
# busy under policy = skip (here another run's measuring lock, held by
# the test) is skipped, no run is recorded, and `perfwatch status` says
# why it was busy, as the run said it, not only that it was.  Under
# policy = wait, while the run waits for the lock, `perfwatch status`
# says it is waiting for a quiet machine, why, since when and until when
# at the latest; once the lock is free the run goes on and says so no
# more.
set -eu
. "$(dirname "$0")/daemon.subr"

command -v flock >/dev/null 2>&1 || skip "flock(1) is not installed"
write_profile
write_conf_manual
# The [quiet] section ends the file's [perfwatch] part: policy = skip.
sed "s/^policy = annotate\$/policy = skip/" "$CONF" >"$T/conf.new"
mv "$T/conf.new" "$CONF"
grep -qx "policy = skip" "$CONF" || fail "policy = skip not set"
start_daemon

# Another run measures: it holds the measuring lock until the test kills
# it (-o: flock alone holds it, not its sleep).
touch "$PERFWATCH_LOCK"
flock -o "$PERFWATCH_LOCK" sleep 60 &
HOLDER=$!
trap 'kill "$HOLDER" 2>/dev/null || true; daemon_cleanup' EXIT
wait_until 10 "the lock held" sh -c \
    "! flock -n '$PERFWATCH_LOCK' true" || fail "the test could not hold the lock"

pwc trigger >/dev/null || fail "trigger refused"
wait_until 30 "the skipped battery" grep -q "skipped: the machine was busy" \
    "$LOG" || fail "the battery was not skipped"
[ "$(count_runs "1")" -eq 0 ] || fail "a skipped battery recorded a run"
# Skipped is done with: not queued again, as a store that was locked is.
[ "$(status_field 'len(d["pending"])')" = 0 ] ||
	fail "a skipped battery was queued again"
[ "$(status_field 'd["retry_at"]')" = None ] ||
	fail "a skipped battery is to be tried again"
st=$(pwc status)
printf '%s\n' "$st" >"$T/status.out"
expect_match "$st" "problem:   perfwatch: machine busy: another perfwatch run is measuring; skipping the run"
[ "$(status_field 'd["last_error"]')" = \
    "perfwatch: machine busy: another perfwatch run is measuring; skipping the run" ] ||
	fail "last_error: $(status_field 'd["last_error"]')"

stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# policy = wait, up to 5 minutes: the battery waits for the lock, and
# status says so.
sed "s/^policy = skip\$/policy = wait\nmax_wait = 5m/" "$CONF" >"$T/conf.new"
mv "$T/conf.new" "$CONF"
grep -qx "max_wait = 5m" "$CONF" || fail "policy = wait not set"
start_daemon
pwc trigger --workload tiny >/dev/null || fail "trigger refused"
wait_until 30 "the battery waiting" sh -c "$PERFWATCH -c $CONF status --json |
    grep -q '\"waiting\": \"another perfwatch run'" ||
	fail "status never said the battery waits"
st=$(pwc status)
printf '%s\n' "$st" >"$T/status-wait.out"
expect_match "$st" ": running"
expect_match "$st" "  now:       manual battery, since "
expect_match "$st" "  waiting:   for a quiet machine ([quiet] policy = wait) since "
expect_match "$st" "at the latest: another perfwatch run is measuring this machine"
status_field 'd["work"]["waiting_since"] + " " + d["work"]["wait_until"]' \
    >"$T/wait.times"
python3 - "$T/wait.times" <<'EOF2'
import sys, datetime
a, b = open(sys.argv[1]).read().split()
f = lambda s: datetime.datetime.fromisoformat(s.replace("Z", "+00:00"))
assert (f(b) - f(a)).total_seconds() == 300, (a, b)
EOF2
[ "$(count_runs "1")" -eq 0 ] || fail "a run was recorded while waiting"

# The lock is free: the run goes on, and status no longer says it waits.
kill "$HOLDER" 2>/dev/null || true
wait_until 30 "the run after the wait" runs_at_least 1 "status = 'complete'" ||
	fail "the battery did not run once the lock was free"
wait_until 15 "the daemon idle" sh -c "$PERFWATCH -c $CONF status |
    grep -q ': idle'" || fail "not idle after the run"
expect_eq "$(status_field 'd["work"]')" None
case "$(pwc status)" in
*waiting:*) fail "status still says waiting" ;;
esac
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
