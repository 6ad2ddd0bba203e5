#!/bin/sh
# A new kernel's run, asked for once boot_settle has passed while a
# battery started after the daemon found the kernel was running: that
# battery measures the kernel, and the kernel run is dropped when it has
# completed (whole, on a quiet machine), with a line in the log.  It was
# judged once, when boot_settle passed, and ran the battery again.
#
# The kernel cannot be changed here, so the last run's snapshot is made
# to say an older one (as daemon_kernel.sh does).
set -eu
. "$(dirname "$0")/daemon.subr"

# Each battery waits at gate until it is let through (a token).
write_profile gate
mkdir -p "$T/state"
touch "$T/token"
write_conf_manual
pwc -D "$DB" run --no-check --label first >"$T/first.out" 2>&1 ||
	fail "perfwatch run: $(cat "$T/first.out")"
sql "UPDATE snapshots SET fields = json_set(fields,
    '\$.fields.\"kernel.release\"', '1.2.3-old')
    WHERE id = (SELECT snapshot FROM runs WHERE label = 'first')"
# The kernel run is asked for 12 s from now: time enough for the daemon
# to start and its manual battery to reach its gate first on a loaded
# machine (under ASan, beside other tests).
up=$(awk '{ print int($1) }' /proc/uptime)
write_conf "
[schedule]
cron = none
[triggers]
packages = no
kernel = yes
boot_settle = $((up + 12))s"


start_daemon
pwc trigger >/dev/null 2>&1 || fail "trigger refused"
wait_until 30 "the manual battery at its gate" at_gate manual ||
	fail "the manual battery did not start"
wait_until 30 "the kernel run queued" \
    grep -q "queued a battery: kernel: kernel 1.2.3-old" "$LOG" ||
	fail "the kernel run was not asked for"
# The order this test is about: the manual battery started first.
grep "battery started\|queued a battery: kernel" "$LOG" | head -n 1 |
    grep -q "battery started (manual)" ||
	fail "boot_settle passed before the manual battery started"
touch "$T/token"
wait_until 30 "the manual run complete" runs_at_least 1 \
    "trigger = 'manual' AND status = 'complete'" ||
	fail "the manual run did not complete"
label=$(sql "SELECT label FROM runs WHERE trigger = 'manual'")
wait_until 30 "the kernel run dropped" grep -q "kernel change (kernel \
1.2.3-old → $(uname -r)) measured by run $label; not run again" "$LOG" ||
	fail "the kernel run was not dropped"
[ "$(status_field 'len(d["pending"])')" = 0 ] ||
	fail "still queued: $(request '{"cmd":"status"}')"
[ "$(status_field 'd["work"]')" = None ] ||
	fail "a battery runs: $(request '{"cmd":"status"}')"
[ "$(count_runs 1)" -eq 2 ] || fail "$(count_runs 1) runs, expected 2"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
