#!/bin/sh
# A workload that did not complete in a complete run (here it failed in
# its second iteration, after measuring half its level in the first) has
# no measure in that run, and what this store's check and changes read
# leaves its samples out.  export wrote them with nothing to say so, and
# import took them for good ones: the broken benchmark's half level
# counted in the baselines of the store they went to.  Its status goes
# with them now (workload_status), both ways, and comes back the same.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
# app.x measures 100 a run; while $T/broken exists, 50 in its first
# iteration, then fails.
cat >"$T/x.sh" <<EOF
#!/bin/sh
if [ -e $T/broken ]; then
	if [ -e $T/broken.1 ]; then
		echo "error: the benchmark broke" >&2
		exit 3
	fi
	touch $T/broken.1
	echo "ops 50 u higher"
	exit 0
fi
echo "ops 100 u higher"
EOF
chmod +x "$T/x.sh"
cat >"$T/p.profile" <<EOF
[workload "app.x"]
command = $T/x.sh
iterations = 3
[workload "app.y"]
command = echo t 5 s lower
iterations = 1
EOF

run() {
	pw -c "$T/pw.conf" run --no-check --profile "$T/p.profile" \
	    --label "$1" >"$T/run.out" 2>&1 ||
		fail "run $1: exit $?: $(cat "$T/run.out")"
}

for l in a1 a2 a3 a4; do
	run "$l"
done
touch "$T/broken"
run bad
rm -f "$T/broken"
run a5

# failed_in DB: the run/workload/status rows of DB's workloads that did
# not complete.
failed_in() {
	sqlite3 "$1" "SELECT r.label || '/' || w.workload || '/' || w.status
	    FROM run_workloads w JOIN runs r ON r.id = w.run
	    WHERE w.status <> 'complete' ORDER BY r.label, w.workload"
}
# app_x DB: what check of a5 in DB says of app.x's baseline.
app_x() {
	PERFWATCH_DB="$1" pw check --json a5 | python3 -c '
import json, sys
for v in json.load(sys.stdin)["verdicts"]:
    if v["workload"] == "app.x":
        print(v["baseline_runs"], v["baseline_level"], v["noise"])'
}
src=$PERFWATCH_DB
expect_eq "$(failed_in "$src")" "bad/app.x/failed"
[ "$(sqlite3 "$src" "SELECT count(*) FROM samples s
    JOIN runs r ON r.id = s.run JOIN metrics m ON m.id = s.metric
    WHERE r.label = 'bad' AND m.workload = 'app.x'")" = 1 ] ||
	fail "bad does not hold the one iteration app.x measured"

pw export >"$T/out.csv"
pw export --json >"$T/out.jsonl"
# Imported, the failed workload counts nowhere, as in the store it came
# from: the baseline of a5 is the four good runs, level 100, no noise
# (with bad's 50 in it, five runs and a noise of about 22).
want=$(app_x "$src")
expect_eq "$want" "4 100.0 0.0"
for fmt in csv jsonl; do
	dst="$T/dst-$fmt.db"
	PERFWATCH_DB="$dst" pw import "$T/out.$fmt" >/dev/null
	expect_eq "$(app_x "$dst")" "$want"
	expect_eq "$(failed_in "$dst")" "bad/app.x/failed"
	# What it is shown as: failed, its times and error unknown.
	expect_eq "$(PERFWATCH_DB="$dst" pw show --json bad | python3 -c '
import json, sys
print(json.load(sys.stdin)["workloads"])')" \
	    "[{'workload': 'app.x', 'status': 'failed', 'wall': 0.0, 'cpu': 0.0, 'error': None}]"
	# export -> import -> export gives the same bytes, in both formats.
	PERFWATCH_DB="$dst" pw export | cmp -s - "$T/out.csv" ||
		fail "$fmt: the export of the import differs"
	PERFWATCH_DB="$dst" pw export --json | cmp -s - "$T/out.jsonl" ||
		fail "$fmt: the JSON Lines export of the import differs"
done

# What the export says: the failed workload's sample has its status;
# app.y of the same run, and every workload of the other runs, completed:
# empty, and no key in JSON Lines.
expect_eq "$(head -n 1 "$T/out.csv")" \
    "run,time,workload,metric,value,unit,better,host,iteration,status,trigger,busy,duration,workload_status"
expect_eq "$(grep '^bad,' "$T/out.csv" | cut -d, -f3,5,14 | tr '\n' ' ')" \
    "app.x,50,failed app.y,5, "
expect_eq "$(awk -F, 'NR > 1 && $14 != ""' "$T/out.csv" | wc -l)" 1
expect_eq "$(grep -c '"workload_status":' "$T/out.jsonl")" 1
expect_match "$(grep '"run":"bad"' "$T/out.jsonl" | grep '"workload":"app.x"')" \
    ',"workload_status":"failed"}'

# An export without the column (an older perfwatch's) imports as before,
# every workload complete; --replace of the run takes its run_workloads
# rows with it, and puts back those the file gives.
dst="$T/dst-csv.db"
{ echo "run,time,workload,metric,value,unit,better,host,iteration,status,trigger,busy,duration"
  grep '^bad,' "$T/out.csv" | cut -d, -f1-13; } >"$T/old.csv"
PERFWATCH_DB="$dst" pw import --replace "$T/old.csv" >/dev/null
expect_eq "$(failed_in "$dst")" ""
{ head -n 1 "$T/out.csv"; grep '^bad,' "$T/out.csv"; } >"$T/bad-again.csv"
PERFWATCH_DB="$dst" pw import --replace "$T/bad-again.csv" >/dev/null
expect_eq "$(failed_in "$dst")" "bad/app.x/failed"

# A status the runner does not record, and two for one workload of a run,
# are refused at row:column with the store untouched.  "complete" is one,
# the same as empty.
dst="$T/dst-jsonl.db"
before=$(sqlite3 "$dst" .dump)
for bad in 'x,1,w,m,1,s,lower,,,,,done|x,2,w,m,1,s,lower,,,,,|2:12|workload_status: "done" is not complete, failed, timeout, aborted or skipped' \
    'x,1,w,m,1,s,lower,,,,,failed|x,1,w,n,2,s,lower,,,,,timeout|3:12|workload_status: "timeout", where workload "w" of run "x" has "failed" in an earlier row (a workload has one status in a run)' \
    'x,1,w,m,1,s,lower,,,,,skipped|x,1,w,m,2,s,lower,,,,,|3:12|workload_status: "", where workload "w" of run "x" has "skipped" in an earlier row (a workload has one status in a run)' \
    'x,1,w,m,1,s,lower,,,,,|x,1,w,m,2,s,lower,,,,,aborted|3:12|workload_status: "aborted", where workload "w" of run "x" has "complete" in an earlier row (a workload has one status in a run)'; do
	r1=${bad%%|*}; rest=${bad#*|}; r2=${rest%%|*}; rest=${rest#*|}
	pos=${rest%%|*}; msg=${rest#*|}
	printf '%s\n' 'run,time,workload,metric,value,unit,better,status,trigger,busy,duration,workload_status' \
	    "$r1" "$r2" >"$T/bad.csv"
	rc=0
	PERFWATCH_DB="$dst" pw import "$T/bad.csv" 2>"$T/err" || rc=$?
	expect_eq "$rc" 65
	expect_eq "$(head -n 1 "$T/err")" "perfwatch: $T/bad.csv:$pos: $msg"
done
# JSON Lines: at the key's byte column.
printf '%s\n' '{"run":"x","time":1,"workload":"w","metric":"m","value":1,"unit":"s","better":"lower","workload_status":"Failed"}' \
    >"$T/bad.jsonl"
rc=0
PERFWATCH_DB="$dst" pw import "$T/bad.jsonl" 2>"$T/err" || rc=$?
expect_eq "$rc" 65
expect_eq "$(head -n 1 "$T/err")" "perfwatch: $T/bad.jsonl:1:87: workload_status: \"Failed\" is not complete, failed, timeout, aborted or skipped"
[ "$(sqlite3 "$dst" .dump)" = "$before" ] ||
	fail "a refused import changed the store"
# complete and empty agree: no row for that workload.
printf '%s\n' 'run,time,workload,metric,value,unit,better,workload_status' \
    'x,1,w,m,1,s,lower,complete' 'x,1,w,m,2,s,lower,' >"$T/ok.csv"
PERFWATCH_DB="$dst" pw import "$T/ok.csv" >/dev/null
expect_eq "$(failed_in "$dst")" "bad/app.x/failed"
expect_eq "$(sqlite3 "$dst" "SELECT count(*) FROM run_workloads w
    JOIN runs r ON r.id = w.run WHERE r.label = 'x'")" 0
pass
