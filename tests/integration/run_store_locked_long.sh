#!/bin/sh
# A run that has measured and finds the store locked for longer than it
# waits (PERFWATCH_TEST_STORE_WAIT_MS shortens the ten minutes): a lock
# held is a temporary failure, so it exits 75, not 70 ("software
# error"), says the store is busy and to run it again, keeps what it
# stored before, and leaves its row "running" for the next run's sweep
# to mark aborted.  Then a run whose own row meets the lock says so as
# the snapshot does: the store locked, try again.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir "$T/work"
printf '[perfwatch]\nwork_dir = %s/work\n[quiet]\n%s\n' "$T" \
    "$QUIET_ANY_LOAD" >"$T/run.conf"
# Two iterations: the first is stored, the second waits to be let go.
cat >"$T/gate.profile" <<EOS
[workload "gate"]
command = sh -c 'if [ -e $T/first ]; then touch $T/measuring; while [ ! -e $T/go ]; do sleep 0.05; done; else touch $T/first; fi'
measure = time
iterations = 2
EOS
locker=
trap '[ -z "$locker" ] || kill "$locker" 2>/dev/null; rm -rf "$T"' EXIT
pw -c "$T/run.conf" runs >/dev/null 2>&1 || :

rc=0
PERFWATCH_TEST_STORE_WAIT_MS=6000 pw -c "$T/run.conf" run --no-check \
    --profile "$T/gate.profile" --label gated >"$T/out" 2>"$T/err" &
runner=$!
wait_file -e "$T/measuring" "$runner" "the gated run"
hold_store_lock "$PERFWATCH_DB" "$T/locked" 120 &
locker=$!
wait_file -e "$T/locked" "$locker" "the locking process"
touch "$T/go"
wait "$runner" || rc=$?
[ "$rc" -eq 75 ] || fail "the run exited $rc, not 75: $(cat "$T/err")"
expect_match "$(cat "$T/err")" \
    "$PERFWATCH_DB: another process holds it locked; waiting up to 6 s"
expect_match "$(cat "$T/err")" \
    "perfwatch: $PERFWATCH_DB: finishing run 1: database is locked"
expect_match "$(cat "$T/err")" "perfwatch: run gated could not be recorded as failed (another process holds the store locked); the samples stored are kept, and the next run marks it aborted; try again"

# The lock still held: a run's own row cannot be written either.
rc=0
pw -c "$T/run.conf" run --no-check --profile "$T/gate.profile" \
    --label second >"$T/out2" 2>"$T/err2" || rc=$?
[ "$rc" -eq 75 ] || fail "the second run exited $rc, not 75: $(cat "$T/err2")"
expect_match "$(cat "$T/err2")" \
    "perfwatch: $PERFWATCH_DB: adding run second: database is locked (another process holds the store locked); try again"
kill "$locker"
wait "$locker" 2>/dev/null || :
locker=

# The first iteration is kept, the row left running with no end.
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT status || '|' ||
    (ended IS NULL) FROM runs WHERE label = 'gated'")" "running|1"
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT group_concat(DISTINCT s.iteration) FROM samples s
    JOIN runs r ON r.id = s.run WHERE r.label = 'gated'")" 1
# The next run's sweep marks it aborted.
pw -c "$T/run.conf" run --no-check --profile "$T/gate.profile" \
    --label third >/dev/null 2>"$T/err3" ||
	fail "the next run failed: $(cat "$T/err3")"
expect_match "$(cat "$T/err3")" \
    "1 run left running by a process that is gone: marked aborted"
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT status FROM runs
    WHERE label = 'gated'")" aborted
pass
