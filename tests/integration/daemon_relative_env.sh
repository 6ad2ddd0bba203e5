#!/bin/sh
# PERFWATCH, PERFWATCH_PROFILE_DIR and PERFWATCH_LOCK given as relative
# paths name files from the directory perfwatchd is started in, although
# the daemon and its runs then work in /: a triggered battery finds the
# first two and locks the third, and so does a reload, which reads the
# profile again.
set -eu
. "$(dirname "$0")/daemon.subr"

mkdir -p "$T/bin" "$T/profs" "$T/pw-relative-lock"
ln -s "$PERFWATCH" "$T/bin/perfwatch"
cat >"$T/profs/mine.conf" <<EOF2
[workload "tiny"]
command = true
measure = time
iterations = 1
EOF2
write_conf_manual
sed 's#^profile = .*#profile = mine#' "$CONF" >"$CONF.new"
mv "$CONF.new" "$CONF"
cd "$T"
PERFWATCH_PROFILE_DIR=profs PERFWATCH=bin/perfwatch \
    PERFWATCH_LOCK=pw-relative-lock/measure.lock start_daemon
grep -q "runs with $T/bin/perfwatch" "$LOG" ||
	fail "the binary the runs get: $(grep 'runs with' "$LOG")"
kill -HUP "$DPID"
wait_until 15 "the reload" grep -q "reloaded" "$LOG" || fail "not reloaded"
out=$(pwc trigger) || fail "trigger refused: $out"
expect_match "$out" "queued a battery"
wait_until 30 "the battery" runs_at_least 1 \
    "trigger = 'manual' AND status = 'complete'" ||
	fail "the battery did not complete"
# The run made the lock where it was named (from /, it would have looked
# for a directory /pw-relative-lock, and measured without a lock).
[ -f "$T/pw-relative-lock/measure.lock" ] ||
	fail "the run did not lock $T/pw-relative-lock/measure.lock"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
