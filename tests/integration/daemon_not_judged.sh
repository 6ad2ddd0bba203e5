#!/bin/sh
# A battery whose workload failed where the run before had measured it:
# perfwatchd warns that those metrics were not judged (check's
# "not_judged"), one line naming the run, the workload, how it ended and
# the metrics; a battery whose workloads all complete warns of nothing.
set -eu
. "$(dirname "$0")/daemon.subr"

# "mine" prints two metrics while $T/ok exists, and fails otherwise.
cat >"$T/profile.conf" <<EOF
[workload "mine"]
command = test -e $T/ok && echo lat 1.5 ms lower && echo thr 2000 ops higher
iterations = 1

[workload "tiny"]
command = true
measure = time
iterations = 1
EOF
write_conf_manual
touch "$T/ok"
start_daemon
request '{"cmd":"trigger"}' | grep -q '"ok":true' || fail "trigger refused"
wait_until 30 "the first run" runs_at_least 1 "status = 'complete'" ||
	fail "no first run"
wait_until 10 "the first run's end" grep -q ": complete (manual)" "$LOG" ||
	fail "the first run's end not logged"
if grep -q "not judged" "$LOG"; then
	fail "a warning for a run that measured everything"
fi

rm "$T/ok"
request '{"cmd":"trigger"}' | grep -q '"ok":true' || fail "trigger refused"
wait_until 30 "the second run" runs_at_least 2 "status = 'complete'" ||
	fail "no second run"
second=$(sql "SELECT label FROM runs ORDER BY id DESC LIMIT 1")
wait_until 10 "the warning" grep -q "not judged" "$LOG" ||
	fail "no warning of the metrics not judged"
line=$(grep "not judged" "$LOG")
case $line in
*"run $second: mine failed: "*"; not judged: lat, thr") ;;
*) fail "the warning: $line" ;;
esac
[ "$(grep -c "not judged" "$LOG")" -eq 1 ] || fail "more than one warning"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
echo "ok: perfwatchd warns of metrics a run could not judge"
