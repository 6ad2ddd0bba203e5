#!/bin/sh
# A workload that did not complete in a run (here it failed in its second
# iteration, after measuring half its level in the first) has no measure
# in that run: check judges none of its metrics, and changes must not
# read the iteration it left as the run's level either.  It did, and
# reported a one-run spike of -50% where the benchmark had broken; a
# rolling baseline took that run's half level in as well.
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
echo "ops \$((99 + \$\$ % 3)) u higher"
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

i=1
while [ "$i" -le 12 ]; do
	run "a$i"
	i=$((i + 1))
done
touch "$T/broken"
run bad
rm -f "$T/broken"
while [ "$i" -le 20 ]; do
	run "a$i"
	i=$((i + 1))
done
[ "$(sqlite3 "$PERFWATCH_DB" "SELECT w.status FROM run_workloads w
    JOIN runs r ON r.id = w.run WHERE r.label = 'bad' AND
    w.workload = 'app.x'")" = failed ] || fail "app.x did not fail in bad"
[ "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM samples s
    JOIN runs r ON r.id = s.run JOIN metrics m ON m.id = s.metric
    WHERE r.label = 'bad' AND m.workload = 'app.x'")" = 1 ] ||
	fail "bad does not hold the one iteration app.x measured"

pw changes --window 7 --json >"$T/changes.json" ||
	fail "changes: exit $?"
[ "$(python3 -c 'import json, sys
print(len(json.load(open(sys.argv[1]))))' "$T/changes.json")" = 0 ] ||
	fail "changes read the failed workload's iteration: $(cat "$T/changes.json")"
# history still lists what the run stored, as show does.
pw history --metric ops --limit 30 >"$T/history.out" ||
	fail "history: exit $?"
grep -q '^bad .* 50 ' "$T/history.out" ||
	fail "history lost the run's stored sample: $(cat "$T/history.out")"
pass
