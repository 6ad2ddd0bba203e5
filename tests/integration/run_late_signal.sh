#!/bin/sh
# A signal that comes once every workload has run, while perfwatch run
# records how each ended and that the run is over: perfwatch died there
# at the signal's default action, leaving the run "running" with no end
# for the next run's sweep to mark aborted.  It now records the run as
# it ended (complete: everything was measured), says it was stopped
# before it was judged, and exits 128 + the signal.  The window is made
# wide by a process that holds the store's write lock for 3 s (under the
# 5 s busy timeout) from the last workload's end: the last workload
# fails, so it stores nothing and the lock is first met in that window.
# The test starts that process when the last workload has started, and
# the workload ends once the lock is held (the runner kills a process a
# workload leaves behind, so it cannot be the workload's).
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
# The workloads' environment is clean: the paths are in the commands.
cat >"$T/late.profile" <<EOPROF
[workload "first"]
command = echo a 1 s
iterations = 1
[workload "last"]
command = touch $T/last; while [ ! -e $T/locked ]; do sleep 0.05; done; exit 1
iterations = 1
timeout = 30
EOPROF
"$PERFWATCH" -c "$T/pw.conf" run --profile "$T/late.profile" \
    --label late >"$T/late.out" 2>&1 &
pid=$!
wait_file -e "$T/last" "$pid" "the last workload"
hold_store_lock "$PERFWATCH_DB" "$T/locked" 3 &
locker=$!
wait_file -e "$T/locked" "$locker" "the locker"
sleep 0.5
kill -TERM "$pid" || fail "late: gone before the signal: $(cat "$T/late.out")"
rc=0
wait "$pid" || rc=$?
wait "$locker" || fail "the locker failed"
[ "$rc" -eq $((128 + 15)) ] || fail "late: exit $rc: $(cat "$T/late.out")"
status=$(sqlite3 "$PERFWATCH_DB" \
    "SELECT status FROM runs WHERE label = 'late'")
[ "$status" = complete ] ||
	fail "late: the run is $status: $(cat "$T/late.out")"
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT w.workload || '|' || w.status
    FROM run_workloads w JOIN runs r ON r.id = w.run
    WHERE r.label = 'late' ORDER BY w.workload" | tr '\n' ' ')" \
    "first|complete last|failed "
grep -qxF "perfwatch: run late recorded as complete; stopped by signal 15 before it was judged (perfwatch check late judges it)" \
    "$T/late.out" || fail "late: $(cat "$T/late.out")"
pass
