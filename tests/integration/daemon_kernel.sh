#!/bin/sh
# The kernel trigger: when the last run of this host was measured on
# another kernel than the running one, perfwatchd asks for a run once the
# machine has been up for boot_settle; its detail names both kernels.
# With the same kernel, or with kernel = no, nothing runs.
#
# The kernel cannot be changed here, so the last run's snapshot is made
# to say an older one.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
conf_with() {	# kernel trigger on or off
	write_conf "
[schedule]
cron = none
[triggers]
packages = no
kernel = $1
boot_settle = 0"
}
conf_with yes
mkdir -p "$T/state"
pwc -D "$DB" run --no-check --label first >"$T/first.out" 2>&1 ||
	fail "perfwatch run: $(cat "$T/first.out")"
now=$(uname -r)
[ "$(sql "SELECT json_extract(s.fields, '\$.fields.\"kernel.release\"')
    FROM runs r JOIN snapshots s ON s.id = r.snapshot
    WHERE r.label = 'first'")" = "$now" ] ||
	fail "the snapshot does not hold kernel.release $now"

# Same kernel: no run.
start_daemon
sleep 2
[ "$(count_runs "1")" -eq 1 ] || fail "a run although the kernel is the same"
stop_daemon TERM

# An older kernel in the last run's snapshot: one run, trigger kernel.
sql "UPDATE snapshots SET fields = json_set(fields,
    '\$.fields.\"kernel.release\"', '1.2.3-old')
    WHERE id = (SELECT snapshot FROM runs WHERE label = 'first')"
conf_with no
start_daemon
sleep 2
[ "$(count_runs "1")" -eq 1 ] || fail "a kernel run although kernel = no"
stop_daemon TERM
conf_with yes
start_daemon
wait_until 20 "the kernel run" runs_at_least 1 \
    "trigger = 'kernel' AND status = 'complete'" || fail "no kernel run"
detail=$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'kernel'")
[ "$detail" = "kernel 1.2.3-old → $now" ] || fail "kernel run detail: $detail"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# A start that finds a run missed while it was down and a new kernel
# (boot_settle passed): one battery for both, not one after the other.
sql "UPDATE snapshots SET fields = json_set(fields,
    '\$.fields.\"kernel.release\"', '1.2.3-old')"
sql "INSERT OR REPLACE INTO settings (key, value)
    VALUES ('schedule:last', '$(($(date +%s) - 7200))')"
write_conf "
[schedule]
interval = 1h
jitter = 0
[triggers]
packages = no
kernel = yes
boot_settle = 0"
nbefore=$(count_runs "1")
start_daemon
wait_until 20 "the battery of the start" runs_at_least $((nbefore + 1)) \
    "status = 'complete'" ||
	fail "no run at the start"
# A second battery would follow the first at once: give it the time.
sleep 3
[ "$(count_runs "1")" -eq $((nbefore + 1)) ] ||
	fail "$(($(count_runs "1") - nbefore)) runs at the start, expected 1"
detail=$(sql "SELECT trigger_detail FROM runs ORDER BY id DESC LIMIT 1")
expect_match "$detail" "schedule: catch-up of the run due "
expect_match "$detail" "kernel: kernel 1.2.3-old → $now"
[ "$(sql "SELECT trigger FROM runs ORDER BY id DESC LIMIT 1")" = schedule ] ||
	fail "the run's trigger is not the first reason's"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# The same release built again (a kernel rebuilt from another commit
# without a new version, a distribution's rebuild): only uname -v says
# so, and that is a new kernel too.  (A new hash, as another machine's
# snapshot would have: the run takes a snapshot row of its own.)
write_conf "
[schedule]
cron = none
[triggers]
packages = no
kernel = yes
boot_settle = 0"
sql "UPDATE snapshots SET fields = json_set(fields,
    '\$.fields.\"kernel.release\"', '$now',
    '\$.fields.\"kernel.version\"', '#0 SMP  an older build'),
    hash = 'older-' || hash"
nbefore=$(count_runs "1")
start_daemon
wait_until 20 "the run of the kernel built again" runs_at_least \
    $((nbefore + 1)) "status = 'complete'" ||
	fail "no kernel run for the same release built again"
detail=$(sql "SELECT trigger_detail FROM runs ORDER BY id DESC LIMIT 1")
[ "$detail" = "kernel $now (#0 SMP an older build) → $now ($(uname -v))" ] ||
	fail "the run of the kernel built again: detail $detail"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
# That run measured the running build: the next start runs nothing.
start_daemon
sleep 2
[ "$(count_runs "1")" -eq $((nbefore + 1)) ] ||
	fail "a kernel run although the last run measured this build"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
