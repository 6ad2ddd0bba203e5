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
pass
