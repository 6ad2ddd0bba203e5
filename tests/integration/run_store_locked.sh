#!/bin/sh
# A run that has measured and finds the store locked by another process
# (a long import holds the write lock for its whole file) waits for the
# lock, saying so, and stores what it measured: it waited SQLite's 5 s
# busy timeout, then lost the iteration ("not stored: database is
# locked"), could not record how its workload ended nor its end, and
# exited 70 with the run left "running".
set -eu
. "$(dirname "$0")/lib.sh"

mkdir "$T/work"
printf '[perfwatch]\nwork_dir = %s/work\n[quiet]\n%s\n' "$T" \
    "$QUIET_ANY_LOAD" >"$T/run.conf"
# The workload says it is measuring, then waits to be let go.
cat >"$T/gate.profile" <<EOS
[workload "gate"]
command = sh -c 'touch $T/measuring; while [ ! -e $T/go ]; do sleep 0.05; done'
measure = time
iterations = 1
EOS
pw -c "$T/run.conf" runs >/dev/null 2>&1 || :

rc=0
pw -c "$T/run.conf" run --no-check --profile "$T/gate.profile" \
    --label gated >"$T/out" 2>"$T/err" &
runner=$!
wait_file -e "$T/measuring" "$runner" "the gated run"
# The run is in the store and measuring: take the lock for longer than
# SQLite's busy timeout, then let the workload end.
hold_store_lock "$PERFWATCH_DB" "$T/locked" 8 &
locker=$!
wait_file -e "$T/locked" "$locker" "the locking process"
touch "$T/go"
wait "$runner" || rc=$?
wait "$locker" || fail "the locking process failed"
[ "$rc" -eq 0 ] || fail "the run exited $rc: $(cat "$T/err")"
case "$(cat "$T/err")" in
*"database is locked"*) fail "the run said: $(cat "$T/err")" ;;
esac
expect_match "$(cat "$T/err")" \
    "$PERFWATCH_DB: another process holds it locked; waiting up to 600 s"
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT status FROM runs
    WHERE label = 'gated'")" complete
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT status FROM run_workloads
    WHERE workload = 'gate'")" complete
[ "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM samples")" -gt 0 ] ||
	fail "no sample stored"
pass
