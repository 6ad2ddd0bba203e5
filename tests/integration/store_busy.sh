#!/bin/sh
# Another process holds the store's write lock past SQLite's busy timeout
# (5 s): baseline delete, set and use say the store is busy and exit 75
# (EX_TEMPFAIL, try again), as a command does for the other locks it
# meets; baseline delete said there was no such baseline (65).  So do
# check (65 before), alerts ack (65), import (74) and run (70).  The
# baseline is still there once the lock is let go, and deleted then.
# Each says it once: the store's own "database is locked" came first.
set -eu
. "$(dirname "$0")/lib.sh"

step_history 8 7 8 7 | pw import - >/dev/null
pw baseline set keep r-01 r-02 r-03 >/dev/null
rc=0; pw check r-07 >/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "check r-07 found no regression: exit $rc"
step_history 9 99 99 8 | sed 's/^r-/s-/' >"$T/more.csv"
printf '[perfwatch]\nwork_dir = %s/work\n[quiet]\n%s\n' "$T" \
    "$QUIET_ANY_LOAD" >"$T/run.conf"
printf '[workload "t"]\ncommand = true\nmeasure = time\niterations = 1\n' \
    >"$T/t.profile"

hold_store_lock "$PERFWATCH_DB" "$T/locked" 60 &
locker=$!
wait_file -e "$T/locked" "$locker" "the locking process"

# The commands at once, each waiting out the busy timeout on its own
# (one after the other they took 35 s of the suite).
n=0
pids=
while IFS='|' read -r args; do
	n=$((n + 1))
	printf '%s\n' "$args" >"$T/args.$n"
	(
		rc=0
		# shellcheck disable=SC2086 # the words are split on purpose
		pw -c "$T/run.conf" $args >"$T/out.$n" 2>"$T/err.$n" || rc=$?
		echo "$rc" >"$T/rc.$n"
	) &
	pids="$pids $!"
done <<CASES
baseline delete keep
baseline set other r-04 r-05
baseline use keep
check r-08
alerts ack 1
import $T/more.csv
run --no-check --profile $T/t.profile
CASES
for p in $pids; do
	wait "$p"
done
i=1
while [ "$i" -le "$n" ]; do
	args=$(cat "$T/args.$i")
	rc=$(cat "$T/rc.$i")
	[ "$rc" -eq 75 ] || { kill "$locker"; fail "$args: exit $rc, not 75: $(cat "$T/err.$i")"; }
	case "$(cat "$T/err.$i")" in
	*"no baseline"*) kill "$locker"; fail "$args: $(cat "$T/err.$i")" ;;
	esac
	expect_match "$(cat "$T/err.$i")" "try again"
	# Said once: the store's bare error came first, then the same again.
	if grep -qx "perfwatch: $PERFWATCH_DB: database is locked" "$T/err.$i"; then
		kill "$locker"
		fail "$args: said twice: $(cat "$T/err.$i")"
	fi
	[ "$args" != "baseline use keep" ] ||
		expect_match "$(cat "$T/err.$i")" \
		    "$PERFWATCH_DB: busy, locked by another process"
	i=$((i + 1))
done
[ "$n" -eq 7 ] || fail "$n commands, not 7"
kill "$locker"
wait "$locker" 2>/dev/null || :

# Nothing changed, and with the lock gone the same commands work.
expect_match "$(pw baseline list --csv)" "keep,3,"
case "$(pw baseline list --csv)" in *other*) fail "baseline other was set" ;; esac
pw baseline delete keep >"$T/out" || fail "baseline delete after the lock"
expect_match "$(cat "$T/out")" "baseline keep deleted"
case "$(pw runs --csv --limit 100)" in *s-01*) fail "the import was kept" ;; esac
expect_match "$(pw alerts --csv)" "suspected"
[ "$(pw runs --csv --limit 100 | grep -c ,running,)" -eq 0 ] ||
	fail "a run was left running"
pw import "$T/more.csv" >/dev/null || fail "import after the lock"
pw alerts ack 1 >/dev/null || fail "alerts ack after the lock"

# A lock that keeps readers out too (another program's exclusive locking
# mode): a command that only reads cannot open the store, which it
# called "not a readable SQLite database" (73).
python3 - "$PERFWATCH_DB" "$T/xlocked" 30 <<'EOPY' &
import sqlite3, sys, time
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA locking_mode = EXCLUSIVE")
con.execute("BEGIN EXCLUSIVE")
con.execute("COMMIT")
open(sys.argv[2], "w").close()
time.sleep(float(sys.argv[3]))
EOPY
locker=$!
wait_file -e "$T/xlocked" "$locker" "the exclusive locking process"
rc=0; pw runs >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 75 ] || { kill "$locker"; fail "runs under an exclusive lock: exit $rc: $(cat "$T/err")"; }
expect_match "$(cat "$T/err")" "$PERFWATCH_DB: busy, locked by another process (database is locked); try again"
rc=0; pw check --bisect >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 128 ] || { kill "$locker"; fail "check --bisect under an exclusive lock: exit $rc"; }
kill "$locker"
wait "$locker" 2>/dev/null || :
pw runs >/dev/null || fail "runs after the exclusive lock"
rc=0; pw baseline delete keep 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "baseline delete of none: exit $rc"
expect_match "$(cat "$T/err")" 'no baseline "keep"'
pass
