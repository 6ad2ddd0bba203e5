#!/bin/sh
# Confirming suspected regressions: when a run's JSON report lists alerts
# in state "suspected", perfwatchd re-runs just those workloads at once
# (trigger "rerun"), and never re-runs a rerun.  With rerun_suspected = no
# it does not, nor for a suspicion that cannot be confirmed yet.  A
# report without "alerts" asks for nothing (every other daemon test counts
# its runs exactly).  A battery measured on a busy
# machine is logged as such.
#
# The report's alerts come from the judgement of the run (detect/); to
# have a suspected alert on demand, perfwatch is wrapped here: the real
# binary runs and records the run, and the wrapper adds to its report the
# alerts listed in $T/alerts.json.
set -eu
. "$(dirname "$0")/daemon.subr"

cat >"$T/perfwatch-alerts" <<EOF
#!/bin/sh
case " \$* " in
*" run "*) ;;
*) exec "$PERFWATCH" "\$@" ;;
esac
rc=0
"$PERFWATCH" "\$@" >"$T/report.json" || rc=\$?
python3 -c '
import json, sys
report = json.load(open(sys.argv[1]))
report["alerts"] = json.load(open(sys.argv[2]))
json.dump(report, sys.stdout, indent=2)
' "$T/report.json" "$T/alerts.json"
exit \$rc
EOF
chmod 755 "$T/perfwatch-alerts"
cat >"$T/alerts.json" <<EOF
[{"id": 1, "workload": "tiny", "metric": "wall", "state": "suspected"},
 {"id": 2, "workload": "other", "metric": "wall", "state": "confirmed"},
 {"id": 3, "workload": "tiny", "metric": "user", "state": "suspected"}]
EOF

write_profile
write_conf_manual "rerun_suspected = yes"
PERFWATCH="$T/perfwatch-alerts" start_daemon
request '{"cmd":"trigger"}' | grep -q '"ok":true' || fail "trigger refused"
wait_until 20 "the rerun" runs_at_least 1 \
    "trigger = 'rerun' AND status = 'complete'" || fail "no rerun"
first=$(sql "SELECT label FROM runs WHERE trigger = 'manual'")
detail=$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'rerun'")
[ "$detail" = "suspected in run $first: tiny" ] || fail "rerun detail: $detail"
wl=$(sql "SELECT group_concat(w.workload) FROM run_workloads w
    JOIN runs r ON r.id = w.run WHERE r.trigger = 'rerun'")
[ "$wl" = tiny ] || fail "the rerun measured: $wl"
# The rerun's report has suspected alerts too: no rerun of the rerun.
sleep 3
[ "$(count_runs "1")" -eq 2 ] || fail "$(count_runs "1") runs, expected 2"
# No one is told before the rerun has confirmed or cleared: the outbox is
# flushed after the rerun, not between the two runs.
between=$(awk -v first="run $first: complete (manual)" '
    index($0, first) { on = 1; next }
    on && index($0, "(rerun)") && index($0, ": complete") { exit }
    on && index($0, "notify: ") { n++ }
    END { print n + 0 }' "$LOG")
[ "$between" -eq 0 ] || fail "a flush before the rerun: $(cat "$LOG")"
wait_until 10 "the flush after the rerun" sh -c \
    "sed -n '/(rerun), /,\$p' '$LOG' | grep -q 'notify: '" ||
	fail "no flush after the rerun: $(cat "$LOG")"
stop_daemon TERM

# no_rerun N WHY: a daemon on the wrapped perfwatch, asked for one
# battery, makes the Nth manual run and no rerun after it (fail: WHY).
no_rerun() {
	PERFWATCH="$T/perfwatch-alerts" start_daemon
	request '{"cmd":"trigger"}' | grep -q '"ok":true' ||
		fail "trigger refused"
	wait_until 20 "manual run $1" runs_at_least "$1" \
	    "trigger = 'manual' AND status = 'complete'" || fail "no manual run"
	sleep 3
	[ "$(count_runs "trigger = 'rerun'")" -eq 1 ] || fail "$2"
	stop_daemon TERM
	[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
}

# rerun_suspected = no: the same report asks for nothing.
write_conf_manual "rerun_suspected = no"
no_rerun 2 "a rerun although rerun_suspected = no"

# A suspicion that the history is too young to confirm ("can_confirm"
# false: detect/alert.c keeps it open for as long as its runs stay off)
# asks for no rerun, which would only measure it again each night.
cat >"$T/alerts.json" <<EOF
[{"id": 1, "workload": "tiny", "metric": "wall", "state": "suspected",
  "can_confirm": false}]
EOF
write_conf_manual "rerun_suspected = yes"
no_rerun 3 "a rerun of a suspicion that cannot be confirmed"

# A battery measured beside another run (it holds the measuring lock;
# policy annotate) is marked busy: the daemon says that its verdicts move
# nothing, and nothing is rerun for it.
write_conf_manual "rerun_suspected = yes"
start_daemon
flock -o "$PERFWATCH_LOCK" sleep 20 &
holder=$!
sleep 0.5
request '{"cmd":"trigger"}' | grep -q '"ok":true' || fail "trigger refused"
wait_until 20 "the busy run" runs_at_least 4 \
    "trigger = 'manual' AND status = 'complete'" || fail "no busy run"
pkill -P "$holder" sleep 2>/dev/null || true
wait "$holder" 2>/dev/null || true
busy=$(sql "SELECT label FROM runs WHERE trigger = 'manual'
    ORDER BY id DESC LIMIT 1")
wait_until 10 "the busy line" grep -q "run $busy was measured on a busy machine (another perfwatch run was measuring): its verdicts move no alert and no baseline" "$LOG" ||
	fail "no busy line for $busy"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
[ "$(count_runs "trigger = 'rerun'")" -eq 1 ] || fail "a busy run was rerun"
pass
