#!/bin/sh
# A check names the metrics it cannot judge because their workload did
# not complete in the run (failed, timed out, cut short), where the
# host's run before measured them or the run measured them in part: they
# have no verdict, and a table that left them out would read as "nothing
# changed".  A workload that timed out in its second iteration was judged
# by its first alone, as if it had measured, and so was one cut short by
# a signal.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
# The workload "mine" prints two metrics while $T/ok exists, else fails.
cat >"$T/p.profile" <<EOF2
[workload "mine"]
command = test -e $T/ok && echo lat 1.5 ms lower && echo thr 2000 ops higher
iterations = 2
[workload "other"]
command = echo ops 7 ops higher
iterations = 2
[workload "slow"]
command = test -e $T/ok || sleep 30; echo t 1 s
iterations = 1
timeout = 2s
[workload "part"]
command = if test -e $T/ok || test ! -e $T/part.1; then touch $T/part.1; echo p 1 s; else echo \$\$ >$T/part.pid; exec sleep 30; fi
iterations = 2
timeout = 2s
EOF2

# js EXPR FILE: the Python expression over the document d, as compact JSON.
js() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[2]))
print(json.dumps(eval(sys.argv[1]), separators=(",", ":")))' "$1" "$2"
}

# run LABEL: a run of the profile, unjudged; its exit status in $rc.
run() {
	rc=0
	pw -c "$T/pw.conf" run --no-check --profile "$T/p.profile" \
	    --label "$1" >"$T/$1.out" 2>&1 || rc=$?
}

# The first run fails "mine" (and times "part" out) before it ever
# measured: nothing to name.
touch "$T/part.1"
run first
[ "$rc" -eq 0 ] || fail "first: exit $rc: $(cat "$T/first.out")"
pw -c "$T/pw.conf" check first >"$T/c0.out" || fail "check first: exit $?"
if grep -q "not judged" "$T/c0.out"; then
	fail "check first names metrics never measured: $(cat "$T/c0.out")"
fi

touch "$T/ok"
for i in 1 2 3; do
	run "good$i"
	[ "$rc" -eq 0 ] || fail "good$i: exit $rc: $(cat "$T/good$i.out")"
done
pw -c "$T/pw.conf" check good3 >"$T/c1.out" || fail "check good3: exit $?"
if grep -q "not judged" "$T/c1.out"; then
	fail "check good3: $(cat "$T/c1.out")"
fi
pw -c "$T/pw.conf" check --json good3 >"$T/c1.json" ||
	fail "check --json good3: exit $?"
[ "$(js 'd["not_judged"]' "$T/c1.json")" = '[]' ] ||
	fail "check --json good3: not_judged $(js 'd["not_judged"]' "$T/c1.json")"

rm "$T/ok" "$T/part.1"
run bad
[ "$rc" -eq 0 ] || fail "bad: exit $rc: $(cat "$T/bad.out")"
rc=0
pw -c "$T/pw.conf" check bad >"$T/c2.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "check bad: exit $rc: $(cat "$T/c2.out")"
grep -q "^other  *ops " "$T/c2.out" || fail "check bad: no row of other"
grep -q "^not judged, their workload did not complete:$" \
    "$T/c2.out" || fail "check bad: no note: $(cat "$T/c2.out")"
grep -q '^  part p (timeout' "$T/c2.out" ||
	fail "check bad: part, measured in part, not named: $(cat "$T/c2.out")"
grep -q '^  mine lat, thr (failed: ' "$T/c2.out" ||
	fail "check bad: mine not named: $(cat "$T/c2.out")"
grep -q '^  slow t (timeout' "$T/c2.out" ||
	fail "check bad: slow not named: $(cat "$T/c2.out")"
pw -c "$T/pw.conf" check --json bad >"$T/c2.json" ||
	fail "check --json bad: exit $?"
nj=$(js '[[u["workload"], u["status"], u["metrics"]]
    for u in d["not_judged"]]' "$T/c2.json")
[ "$nj" = '[["mine","failed",["lat","thr"]],["part","timeout",["p"]],["slow","timeout",["t"]]]' ] ||
	fail "check --json bad: $nj"
[ "$(js 'type(d["not_judged"][0]["error"]).__name__' "$T/c2.json")" = \
    '"str"' ] || fail "check --json bad: mine's error is not a string"
# The verdicts hold only what was measured: no row for mine or slow.
[ "$(js 'sorted(set(v["workload"] for v in d["verdicts"]))' \
    "$T/c2.json")" = '["other"]' ] ||
	fail "check --json bad: verdicts of other workloads"
# CSV is the table alone, for programs; the note goes to standard
# error (it said nothing: a header alone read as nothing changed).
pw -c "$T/pw.conf" check --csv bad >"$T/c2.csv" 2>"$T/c2.err" ||
	fail "check --csv bad"
if grep -q "not judged" "$T/c2.csv"; then
	fail "check --csv bad: the note in CSV"
fi
expect_eq "$(cat "$T/c2.err")" "perfwatch: not judged, its workload did not complete: mine lat, thr (failed: exited with status 1)
perfwatch: not judged, its workload did not complete: part p (timeout: timed out after 2 s)
perfwatch: not judged, its workload did not complete: slow t (timeout: timed out after 2 s)"

# A later run that measures them again: nothing is named.
touch "$T/ok"
run again
pw -c "$T/pw.conf" check again >"$T/c3.out" || fail "check again: exit $?"
if grep -q "not judged" "$T/c3.out"; then
	fail "check again: $(cat "$T/c3.out")"
fi

# A run killed in its second round (SIGKILL: no outcome written) is
# marked aborted by the next run, with its workloads; a check judges none
# of what it measured.
rm -f "$T/ok" "$T/part.1" "$T/part.pid"
"$PERFWATCH" -c "$T/pw.conf" run --no-check --profile "$T/p.profile" \
    --label killed >"$T/killed.out" 2>&1 &
killed=$!
n=0
while [ ! -s "$T/part.pid" ]; do
	n=$((n + 1))
	[ "$n" -lt 300 ] || fail "the killed run never began part's round 2"
	sleep 0.1
done
kill -KILL "$killed"
wait "$killed" || true
# Its workload's own process group outlives it, with the run's lock.
kill -KILL "$(cat "$T/part.pid")"
touch "$T/ok"
run after
[ "$rc" -eq 0 ] || fail "after: exit $rc: $(cat "$T/after.out")"
pw -c "$T/pw.conf" check --json killed >"$T/c4.json" ||
	fail "check --json killed: exit $?"
[ "$(js 'd["verdicts"]' "$T/c4.json")" = '[]' ] ||
	fail "check killed: verdicts $(js 'd["verdicts"]' "$T/c4.json")"
nj=$(js '[[u["workload"], u["status"]] for u in d["not_judged"]]' \
    "$T/c4.json")
expect_match "$nj" '["part","aborted"]'
expect_match "$(pw -c "$T/pw.conf" runs --csv | grep '^killed,')" \
    "aborted"
echo "ok: check names the metrics of workloads that did not complete"
