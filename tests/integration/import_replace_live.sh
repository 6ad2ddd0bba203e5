#!/bin/sh
# import --replace of a run that a live `perfwatch run` is recording is
# refused (75, the store untouched): it deleted the run, the run imported
# in its place took its number (runs.id is reused), and the live run then
# wrote its later samples and its end into the imported one, a complete
# run of some years.  A run left running by a process that is gone (the
# run lock free) is replaced as any other.
set -eu
. "$(dirname "$0")/daemon.subr"

export PERFWATCH_DB="$DB"
mkdir -p "$T/state"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
# A workload that waits, in its first iteration, for the file $T/go.
cat >"$T/wait.conf" <<EOF
[workload "slow"]
command = sh -c 'touch $T/started; while [ ! -e $T/go ]; do sleep 0.1; done'
measure = time
iterations = 2
timeout = 5m
EOF
printf 'run,time,workload,metric,value,unit,better\n' >"$T/in.csv"
printf 'live,1700000000,imp,x,1,s,lower\n' >>"$T/in.csv"
sed 's/^live,/dead,/' "$T/in.csv" >"$T/dead.csv"

# start_run LABEL: a run in the background ($RUNNER), in its workload.
start_run() {
	rm -f "$T/started" "$T/go"
	"$PERFWATCH" -c "$T/pw.conf" run --no-check --profile "$T/wait.conf" \
	    --label "$1" >"$T/$1.out" 2>&1 &
	RUNNER=$!
	wait_until 30 "run $1 in its workload" test -e "$T/started" ||
		{ kill "$RUNNER"; fail "$1 did not start: $(cat "$T/$1.out")"; }
}

# run_row LABEL: the run's trigger and status, and its metrics' samples.
run_row() {
	sql "SELECT r.trigger, r.status, (SELECT group_concat(name, ' ')
	    FROM (SELECT m.workload || '/' || m.metric || '=' || count(*)
	    AS name FROM samples s JOIN metrics m ON m.id = s.metric
	    WHERE s.run = r.id GROUP BY s.metric ORDER BY name))
	    FROM runs r WHERE label = '$1'"
}

start_run live
[ "$(run_row live)" = "manual|running|" ] || fail "live: $(run_row live)"
before=$(sql .dump)
rc=0
pw import --replace "$T/in.csv" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 75 ] || { touch "$T/go"; fail "exit $rc: $(cat "$T/err")"; }
expect_eq "$(cat "$T/err")" "perfwatch: $T/in.csv:2:1: run \"live\" is \
running, and a perfwatch run is recording into $DB: not replaced while it \
may be that run's (import again once it has ended)
perfwatch: nothing was imported"
[ ! -s "$T/out" ] || fail "printed: $(cat "$T/out")"
expect_eq "$(sql .dump)" "$before"

# The live run ends as its own, with nothing imported in it.
touch "$T/go"
wait "$RUNNER" || fail "live: $(cat "$T/live.out")"
expect_eq "$(run_row live)" \
    "manual|complete|slow/sys=2 slow/user=2 slow/wall=2"
expect_eq "$(sql "SELECT count(*) FROM runs")" 1

# Now that nothing records it, --replace replaces it.
pw import --replace "$T/in.csv" >/dev/null 2>"$T/err" ||
	fail "replacing the ended run: $(cat "$T/err")"
expect_eq "$(run_row live)" "import|complete|imp/x=1"

# A run whose recorder was killed stays running; it is replaced.
start_run dead
kill -KILL "$RUNNER"
wait "$RUNNER" 2>/dev/null || true
touch "$T/go"
wait_until 10 "the killed run's lock to be free" \
    flock -n -x "$DB.run" true || fail "the killed run's lock is held"
[ "$(run_row dead)" = "manual|running|" ] || fail "dead: $(run_row dead)"
pw import --replace "$T/dead.csv" >/dev/null 2>"$T/err" ||
	fail "replacing the dead run: $(cat "$T/err")"
expect_eq "$(run_row dead)" "import|complete|imp/x=1"
expect_eq "$(sql "SELECT count(*) FROM runs")" 2
expect_eq "$(sql "PRAGMA integrity_check")" ok
pass
