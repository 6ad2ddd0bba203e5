#!/bin/sh
# Baselines at their edges, through the real binary: the smallest
# rolling baseline (baseline_runs = 3) still confirms a step; `baseline
# use rolling` wins over [detect] baseline; a pinned baseline takes
# complete runs only, each once; runs of trigger bisect stay out of a
# rolling baseline; check --bisect stops the bisection on a usage error.
set -eu
. "$(dirname "$0")/lib.sh"

# 24 runs; r-21 and r-22 are 15% slower.
step_history 24 21 22 11 >"$T/hist.csv"
pw import "$T/hist.csv" >/dev/null

# baseline_runs = 3: its noise window (6 x 3 = 18) is raised to the 20
# runs a confirmation needs, so the step is confirmed at its second run.
printf '[detect]\nbaseline_runs = 3\n' >"$T/b3.conf"
for r in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20; do
	pw -c "$T/b3.conf" check "r-$r" >"$T/out" ||
		fail "r-$r: exit $?: $(cat "$T/out")"
done
rc=0; pw -c "$T/b3.conf" check r-21 >"$T/out" || rc=$?
[ "$rc" -eq 1 ] || fail "r-21 exited $rc: $(cat "$T/out")"
expect_match "$(cat "$T/out")" "alert #1 sys.pipe time: new -> suspected"
rc=0; pw -c "$T/b3.conf" check r-22 >"$T/out" || rc=$?
[ "$rc" -eq 1 ] || fail "r-22 exited $rc: $(cat "$T/out")"
expect_match "$(cat "$T/out")" \
    "alert #1 sys.pipe time: suspected -> confirmed"

# A pinned baseline named by the configuration, then "use rolling".
out=$(pw baseline set --json good r-01 r-02 r-02 'r-0[1-3]')
pw baseline list --json | python3 -c '
import json, sys
b = json.load(sys.stdin)["baselines"]
assert [(x["name"], x["runs"]) for x in b] == [("good", 3)], b
'
printf '[detect]\nbaseline = good\n' >"$T/pin.conf"
pw -c "$T/pin.conf" check --json r-24 | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["baseline"] == "good", d["baseline"]
assert d["verdicts"][0]["baseline_runs"] == 3, d["verdicts"][0]
'
out=$(pw -c "$T/pin.conf" baseline use rolling)
expect_match "$out" "checks now judge against baseline rolling"
expect_match "$(pw -c "$T/pin.conf" baseline list)" "in use: rolling"
pw -c "$T/pin.conf" check --json r-24 | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["baseline"] == "rolling", d["baseline"]
'
rc=0; pw -c "$T/pin.conf" baseline delete good 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "deleting the configured baseline exited $rc"
expect_match "$(cat "$T/err")" "named by [detect] baseline"
pw baseline show good >/dev/null || fail "the configured baseline is gone"

# compare counts a run once however often a group names it.
pw compare --json 'a=r-01,r-01,r-0[1-1]' 'b=r-05,r-05' | python3 -c '
import json, sys
d = json.load(sys.stdin)
runs = [len(g["runs"]) for g in d["groups"]]
assert runs == [1, 1], runs
'

# A real aborted run: a command workload stopped by SIGTERM.
mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' "$T/work" \
    "$QUIET_ANY_LOAD" >"$T/run.conf"
printf '[workload "slow"]\ncommand = touch %s/started; sleep 30\ntimeout = 60\niterations = 1\n' \
    "$T" >"$T/slow.conf"
"$PERFWATCH" -c "$T/run.conf" run --no-check --profile "$T/slow.conf" --label r-ab \
    >/dev/null 2>&1 &
pid=$!
wait_file -e "$T/started" "$pid" "the slow run"
kill -TERM "$pid"
wait "$pid" || true
expect_match "$(pw show --json r-ab)" "aborted"
rc=0; pw baseline set bad r-ab 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "a baseline took an aborted run: exit $rc"
expect_match "$(cat "$T/err")" "complete runs only"
out=$(pw baseline set some 'r-*' 2>"$T/err")
expect_match "$out" "baseline some: 24 runs"
expect_match "$(cat "$T/err")" "left out 1 run that did not complete"

# A baseline from before that rule: its aborted run is not counted.
python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("insert into baseline_runs (baseline, run) select b.id, r.id "
    "from baselines b, runs r where b.name = ? and r.label = ?",
    ("good", "r-ab"))
db.commit()' "$PERFWATCH_DB"
expect_match "$(pw baseline show --json good)" "r-ab"
pw check --json --baseline good r-24 | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["verdicts"][0]["baseline_runs"] == 3, d["verdicts"][0]
'

# Runs of trigger bisect measure other commits: a rolling baseline
# leaves them out (4 manual runs at 100, 2 bisect runs at 200, then one).
printf '[workload "cat"]\ncommand = cat %s/value\niterations = 1\n' "$T" \
    >"$T/cat.conf"
run() {	# label value [trigger]
	echo "m $2 s lower" >"$T/value"
	pw -c "$T/run.conf" run --no-check --profile "$T/cat.conf" \
	    --label "$1" --trigger "${3:-manual}" >/dev/null 2>&1 ||
		fail "run $1: exit $?"
}
run c-1 100; run c-2 101; run c-3 99; run c-4 100
run c-b1 200 bisect; run c-b2 201 bisect
run c-5 100
pw check --json c-5 | python3 -c '
import json, sys
v = json.load(sys.stdin)["verdicts"][0]
assert v["baseline_runs"] == 4, v
assert v["verdict"] == "unchanged", v
'

# check --bisect judges the newest run, the commit's own: a bad one is
# bad (1); once a newer run failed (the next commit's workload did not
# run), that commit cannot be told (125), not judged by the run before.
run c-b3 200 bisect
rc=0; pw check --bisect >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "check --bisect of a bad run exited $rc, not 1"
rm "$T/value"
rc=0
pw -c "$T/run.conf" run --no-check --profile "$T/cat.conf" --label c-b4 \
    --trigger bisect >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 70 ] || fail "a run whose workload failed exited $rc, not 70"
rc=0; pw check --bisect >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 125 ] || fail "check --bisect after a failed run exited $rc"
expect_match "$(cat "$T/err")" "the newest run, c-b4, is failed: cannot tell"

# check --bisect: a usage error stops the bisection (128), never "bad".
for args in "--bisect r-01 r-02" "--bisect --latest r-01" "--nope --bisect"
do
	rc=0; pw check $args >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq 128 ] || fail "check $args exited $rc, not 128"
done
rc=0; pw check r-01 r-02 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 64 ] || fail "check's usage error without --bisect exited $rc"
# A blank baseline name is no name.
rc=0; pw baseline set ' ' r-01 >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 64 ] || fail "baseline set of a blank name exited $rc"
expect_match "$(cat "$T/err")" "valid UTF-8 and not blank"
# So do a bad configuration (78 would mark every commit bad) and a store
# with no run at all (a wrong -D, not a commit that cannot be told).
printf '[perfwatch]\nbogus = 1\n' >"$T/bad.conf"
rc=0; pw -c "$T/bad.conf" check --bisect >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 128 ] || fail "check --bisect with a bad config exited $rc"
rc=0; pw -c "$T/bad.conf" check >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 78 ] || fail "check with a bad config exited $rc, not 78"
rc=0; pw -D "$T/none/x.db" check --bisect 2>"$T/err" >/dev/null || rc=$?
[ "$rc" -eq 128 ] || fail "check --bisect with no store exited $rc"
expect_match "$(cat "$T/err")" "$T/none/x.db: no such database"
# A store that is there but empty (its first run was skipped).
empty_store "$T/empty.db"
rc=0; pw -D "$T/empty.db" check --bisect 2>"$T/err" >/dev/null || rc=$?
[ "$rc" -eq 128 ] || fail "check --bisect on an empty store exited $rc"
expect_match "$(cat "$T/err")" "no run at all in $T/empty.db"

# baseline show gives the level and spread a check against the baseline
# judges by: the Hodges-Lehmann location of the runs' levels (108.4 for
# runs at 100.9, 100.9 and 130.9) and their noise, where it printed the
# median of the run medians (100.9) beside check's 108.4.
export PERFWATCH_DB="$T/show.db"
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,iteration"
	for (r = 1; r <= 4; r++)
		for (i = 1; i <= 5; i++)
			printf "b%d,%d,w,m,%.1f,s,lower,%d\n", r, 1700000000 + r,
			    (r == 3 ? 130 : r == 4 ? 101 : 100) + 0.3 * i, i
}' | pw import - >/dev/null
pw baseline set rel b1 b2 b3 >/dev/null
expect_eq "$(pw baseline show rel | grep '^w ' | awk '{ print $3, $4, $5 }')" \
    '3 108.4 17.3205'
pw baseline show --json rel >"$T/show.json"
pw check --baseline rel --json b4 >"$T/check.json" || true
python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["metrics"][0]
v = json.load(open(sys.argv[2]))["verdicts"][0]
assert m["level"] == v["baseline_level"], (m, v)
assert m["noise"] == v["noise"], (m, v)
' "$T/show.json" "$T/check.json" || fail "baseline show against check"
# A run of the baseline that did not complete (set before they were
# refused) is left out by check, and by show too, which counted b3 at
# 130 in a level of 108.4 beside check's 100.9 of b1 and b2.
sqlite3 "$PERFWATCH_DB" "UPDATE runs SET status = 'aborted'
    WHERE label = 'b3'"
expect_eq "$(pw baseline show rel | grep '^w ' | awk '{ print $3, $4 }')" \
    '2 100.9'
expect_match "$(pw baseline show rel)" "b3  2023-11-14T22:13:23Z  (aborted: left out"
pw baseline show --json rel >"$T/show.json"
pw check --baseline rel --json b4 >"$T/check.json" || true
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
m, v = s["metrics"][0], json.load(open(sys.argv[2]))["verdicts"][0]
assert [r["status"] for r in s["runs"]] == ["complete", "complete",
    "aborted"], s["runs"]
assert m["runs"] == v["baseline_runs"] == 2, (m, v)
assert m["level"] == v["baseline_level"], (m, v)
assert m["noise"] == v["noise"], (m, v)
' "$T/show.json" "$T/check.json" || fail "show of a baseline with an aborted run"
# A baseline of one run has no between-run noise: null in both (check
# gave the run's own spread under the name).
pw baseline set lone b1 >/dev/null
pw baseline show --json lone >"$T/show.json"
pw check --baseline lone --json b4 >"$T/check.json" || true
python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["metrics"][0]
v = json.load(open(sys.argv[2]))["verdicts"][0]
assert m["runs"] == v["baseline_runs"] == v["noise_runs"] == 1, (m, v)
assert m["level"] == v["baseline_level"], (m, v)
assert m["noise"] is None and v["noise"] is None, (m, v)
assert v["verdict"] == "inconclusive", v
' "$T/show.json" "$T/check.json" || fail "a baseline of one run"
# A baseline is of one host's runs.  Two hosts with the same labels, one
# twice as slow: a baseline of both was taken, and checked either host's
# run against the mean of two machines ("unchanged" at -33% and +33%).
export PERFWATCH_DB="$T/hosts.db"
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,host,iteration"
	for (h = 0; h < 2; h++)
		for (r = 1; r <= 5; r++)
			for (i = 1; i <= 5; i++)
				printf "r-%02d,%d,w,m,%.1f,s,lower,%s,%d\n", r,
				    1700000000 + r * 86400 + h,
				    (h ? 200 : 100) + 0.5 * i,
				    (h ? "boxb" : "boxa"), i
}' | pw import - >/dev/null
rc=0; pw baseline set mix boxa:r-01 boxa:r-02 boxb:r-03 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "a baseline of two hosts' runs: exit $rc"
expect_match "$(cat "$T/err")" "these are of 2 hosts: boxa (r-01, r-02), boxb (r-03)"
rc=0; pw baseline set mix 'r-0*' 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "a glob over two hosts' runs: exit $rc"
expect_match "$(cat "$T/err")" "boxa (r-01, r-02, r-03, r-04 and 1 more), boxb"
expect_match "$(cat "$T/err")" "name a host's runs as host:label"
expect_eq "$(pw baseline list --csv)" "name,runs,created,in_use,host"
out=$(pw baseline set a 'boxa:r-0[1-4]')
expect_eq "$out" "baseline a: 4 runs"
# The list says whose runs each baseline judges.
expect_eq "$(pw baseline list --csv | cut -d, -f1,2,5 | tail -n 1)" "a,4,boxa"
pw baseline list --json | python3 -c '
import json, sys
b = json.load(sys.stdin)["baselines"]
assert [(x["name"], x["host"]) for x in b] == [("a", "boxa")], b
'
# A run of the baseline's host is judged; one of another host is not,
# by --baseline or by the baseline in use, nor under --bisect (128).
pw check --baseline a boxa:r-05 >/dev/null || fail "boxa:r-05 against a"
rc=0; pw check --baseline a boxb:r-05 >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "boxb:r-05 against boxa's baseline: exit $rc"
expect_eq "$(cat "$T/out")" ""
expect_match "$(cat "$T/err")" "run r-05 is of host boxb, and baseline a of boxa (r-01, r-02, r-03, r-04)"
pw baseline use a >/dev/null
rc=0; pw check boxb:r-05 >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "boxb:r-05 against the baseline in use: exit $rc"
rc=0; pw check --bisect boxb:r-05 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 128 ] || fail "check --bisect against another host's: exit $rc"
pw check --baseline rolling boxb:r-05 >/dev/null ||
	fail "boxb:r-05 against its rolling baseline"
[ "$(sqlite3 "$PERFWATCH_DB" 'SELECT count(*) FROM verdicts v
    JOIN runs r ON r.id = v.run JOIN hosts h ON h.id = r.host
    WHERE h.name = '"'boxb'"' AND v.baseline = '"'a'"'')" = 0 ] ||
	fail "a verdict of boxb against boxa's baseline was stored"
# A baseline of two hosts made before they were refused: use and check
# refuse it, naming them.
sqlite3 "$PERFWATCH_DB" "INSERT INTO baselines (name, created)
    VALUES ('old', 1700000000);
    INSERT INTO baseline_runs SELECT b.id, r.id FROM baselines b, runs r
    WHERE b.name = 'old' AND r.label IN ('r-01', 'r-02');"
expect_eq "$(pw baseline list --csv | grep '^old,')" \
    "old,4,2023-11-14T22:13:20Z,no,\"boxa, boxb\""
pw baseline list --json | python3 -c '
import json, sys
b = {x["name"]: x for x in json.load(sys.stdin)["baselines"]}
assert b["old"]["host"] is None, b
'
rc=0; pw baseline use old 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "using a baseline of two hosts: exit $rc"
expect_match "$(cat "$T/err")" "baseline old holds runs of 2 hosts: boxa (r-01, r-02), boxb (r-01, r-02)"
rc=0; pw check --baseline old boxa:r-05 >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "checking against a baseline of two hosts: exit $rc"
expect_match "$(cat "$T/err")" "set it again with those of one"
pass
