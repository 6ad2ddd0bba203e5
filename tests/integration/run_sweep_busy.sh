#!/bin/sh
# A run that starts while another process holds the store's write lock
# past the busy timeout (a long import) and gets it just after: its
# sweep of runs left running by dead processes could not write, and it
# then dropped the run lock, said "database is locked; a perfwatchd
# started during this run would take it for a dead one" and measured
# unguarded.  It now keeps the lock (the next sweep marks what this one
# could not) and says nothing of it.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir "$T/work"
printf '[perfwatch]\nwork_dir = %s/work\n[quiet]\n%s\n' "$T" \
    "$QUIET_ANY_LOAD" >"$T/run.conf"
cat >"$T/gate.profile" <<EOS
[workload "gate"]
command = sh -c 'touch $T/measuring; while [ ! -e $T/go ]; do sleep 0.05; done'
measure = time
iterations = 1
EOS
# A first run, so that the store knows this host: recording it is a
# write of its own, which the lock would refuse.
printf '[workload "t"]\ncommand = true\nmeasure = time\niterations = 1\n' \
    >"$T/t.profile"
pw -c "$T/run.conf" run --no-check --profile "$T/t.profile" >/dev/null ||
	fail "the first run failed"

# The write lock, held until $T/release appears.
python3 - "$PERFWATCH_DB" "$T/locked" "$T/release" <<'EOPY' &
import os, sqlite3, sys, time
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("BEGIN IMMEDIATE")
open(sys.argv[2], "w").close()
while not os.path.exists(sys.argv[3]):
    time.sleep(0.05)
con.execute("ROLLBACK")
EOPY
locker=$!
wait_file -e "$T/locked" "$locker" "the locking process"

rc=0
pw -c "$T/run.conf" run --no-check --profile "$T/gate.profile" \
    --label gated >"$T/out" 2>"$T/err" &
runner=$!
# Past its sweep, the run holds DB.run shared: another may take it
# shared, not exclusively.  Bounded: the run gives up on the store in
# seconds and exits.
i=0
until ! flock -n -x "$PERFWATCH_DB.run" true &&
    flock -n -s "$PERFWATCH_DB.run" true; do
	if ! kill -0 "$runner" 2>/dev/null; then
		touch "$T/release"
		wait "$runner" || rc=$?
		fail "the run never held the run lock shared (exit $rc): \
$(cat "$T/err")"
	fi
	i=$((i + 1))
	[ "$i" -lt 600 ] || { kill "$runner"; touch "$T/release"; fail "no lock"; }
	sleep 0.1
done
touch "$T/release"
wait "$locker" || fail "the locking process failed"
wait_file -e "$T/measuring" "$runner" "the gated run"
# While it measures, nobody may sweep it away.
if flock -n -x "$PERFWATCH_DB.run" true; then
	touch "$T/go"
	fail "the run lock is free while the run measures"
fi
touch "$T/go"
wait "$runner" || rc=$?
[ "$rc" -eq 0 ] || fail "the run exited $rc: $(cat "$T/err")"
case "$(cat "$T/err")" in
*"database is locked"*) fail "the run said: $(cat "$T/err")" ;;
esac
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT status FROM runs
    WHERE label = 'gated'")" complete
pass
