#!/bin/sh
# The [quiet] policy under perfwatchd: a battery that finds the machine
# busy under policy = skip (here another run's measuring lock, held by
# the test) is skipped, no run is recorded, and `perfwatch status` says
# why it was busy, as the run said it, not only that it was.
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

# Another run measures: it holds the measuring lock until the test ends.
touch "$PERFWATCH_LOCK"
flock "$PERFWATCH_LOCK" sleep 60 &
HOLDER=$!
trap 'kill "$HOLDER" 2>/dev/null || true; daemon_cleanup' EXIT
wait_until 10 "the lock held" sh -c \
    "! flock -n '$PERFWATCH_LOCK' true" || fail "the test could not hold the lock"

pwc trigger >/dev/null || fail "trigger refused"
wait_until 30 "the skipped battery" grep -q "skipped: the machine was busy" \
    "$LOG" || fail "the battery was not skipped"
[ "$(count_runs "1")" -eq 0 ] || fail "a skipped battery recorded a run"
st=$(pwc status)
printf '%s\n' "$st" >"$T/status.out"
expect_match "$st" "problem:   perfwatch: machine busy: another perfwatch run is measuring; skipping the run"
[ "$(status_field 'd["last_error"]')" = \
    "perfwatch: machine busy: another perfwatch run is measuring; skipping the run" ] ||
	fail "last_error: $(status_field 'd["last_error"]')"

kill "$HOLDER" 2>/dev/null || true
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
