#!/bin/sh
# perfwatchd -n checks each workload of the battery as its runs will
# read it: the profile's section and the configuration's together.  A
# command of the configuration's own without a command anywhere, or a
# duration of the profile that a timeout of the configuration leaves no
# room for, made every battery stop at its start (exit 78) while -n said
# "configuration OK" and the daemon started.  -n and the start now refuse
# them with the run's own words; a section that enabled = no turns off is
# not run, and so not checked.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile

# check_as_run: perfwatchd -n exits 78 with what a run of the
# configuration says on its stderr (less its "perfwatch: "), and the
# daemon refuses to start with it too.
check_as_run() {
	rc=0
	want=$(pw -c "$CONF" run --no-check 2>&1) || rc=$?
	[ "$rc" -eq 78 ] || fail "the run: exit $rc: $want"
	want=${want#perfwatch: }
	rc=0
	out=$("$PERFWATCHD" -n -f "$CONF" 2>&1) || rc=$?
	[ "$rc" -eq 78 ] || fail "perfwatchd -n: exit $rc: $out"
	expect_eq "$out" "$want"
	rc=0
	timeout 20 "$PERFWATCHD" -d -f "$CONF" >"$LOG" 2>&1 || rc=$?
	[ "$rc" -eq 78 ] || fail "perfwatchd started: exit $rc"
	expect_match "$(cat "$LOG")" "$want"
}

# A command section of the configuration's own, its command forgotten.
write_conf_manual '
[workload "app.startup"]
measure = time'
line=$(grep -n '^\[workload "app.startup"\]' "$CONF" | cut -d: -f1)
check_as_run
expect_eq "$out" "$CONF:$line: [workload \"app.startup\"]: no command given, and it is not a workload of the battery"

# So is one named "command", which names no workload of the battery:
# perfwatchd took it for the tuning of one and checked nothing.
write_conf_manual '
[workload "command"]
measure = time'
line=$(grep -n '^\[workload "command"\]' "$CONF" | cut -d: -f1)
check_as_run
expect_eq "$out" "$CONF:$line: [workload \"command\"]: no command given, and it is not a workload of the battery"
write_conf_manual '
[workload "app.startup"]
measure = time'

# Turned off, it is not run: nothing to refuse.
printf 'enabled = no\n' >>"$CONF"
out=$("$PERFWATCHD" -n -f "$CONF" 2>&1) || fail "perfwatchd -n, off: $out"
expect_eq "$out" "$CONF: configuration OK"

# The profile's section without a command, given one by the
# configuration: the run takes it, and so does -n.
printf '\n[workload "mine"]\nmeasure = time\niterations = 1\n' \
    >>"$T/profile.conf"
write_conf_manual '
[workload "mine"]
command = true'
out=$("$PERFWATCHD" -n -f "$CONF" 2>&1) || fail "perfwatchd -n, mine: $out"
expect_eq "$out" "$CONF: configuration OK"
# Without it, at the profile's section.
write_conf_manual
line=$(grep -n '^\[workload "mine"\]' "$T/profile.conf" | cut -d: -f1)
check_as_run
expect_eq "$out" "$T/profile.conf:$line: [workload \"mine\"]: no command given, and it is not a workload of the battery"

# Each file alone is right; together every iteration would time out.
write_profile
printf '\n[workload "sys.pipe"]\nduration = 20s\niterations = 1\n' \
    >>"$T/profile.conf"
write_conf_manual '
[workload "sys.pipe"]
timeout = 15s'
line=$(grep -n '^\[workload "sys.pipe"\]' "$CONF" | cut -d: -f1)
check_as_run
expect_match "$out" "$CONF:$line: [workload \"sys.pipe\"]: duration 20 s is not shorter than timeout 15 s"
pass
