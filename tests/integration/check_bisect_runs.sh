#!/bin/sh
# check --bisect of a run named that did not complete cannot tell (125),
# as check --bisect without a run cannot when the newest run failed or
# was aborted: its figures are a part of the commit's, if any.  Named,
# an aborted run was judged and called good (0).
set -eu
. "$(dirname "$0")/lib.sh"

# r1 .. r4 at 100, r5 20% slower; r6 aborted and r7 failed, both slower.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,iteration,status"
	for (r = 1; r <= 7; r++)
		for (i = 1; i <= 3; i++)
			printf "r%d,%d,w,m,%.2f,s,lower,%d,%s\n", r, 1700000000 + r,
			    (r >= 5 ? 120 : 100) + 0.1 * i, i,
			    r == 6 ? "aborted" : r == 7 ? "failed" : "complete"
}' | pw import - >/dev/null
pw baseline set good r1 r2 r3 >/dev/null
pw baseline use good >/dev/null

while IFS='|' read -r want args msg; do
	rc=0
	# shellcheck disable=SC2086 # the words are split on purpose
	pw check $args >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" -eq "$want" ] || fail "check $args: exit $rc: $(cat "$T/err")"
	[ -z "$msg" ] || expect_match "$(cat "$T/err")" "$msg"
done <<'CASES'
0|--bisect r4|
1|--bisect r5|
125|--bisect r6|run r6 is aborted: cannot tell
125|--bisect r7|run r7 is failed: cannot tell
125|--bisect --baseline good r6|run r6 is aborted: cannot tell
125|--bisect|the newest run, r7, is failed: cannot tell
1|r6|
CASES

# A run killed (SIGKILL, as the OOM killer would) is left running: it is
# still the commit's own, and r5, another commit's run that is slower,
# must not be judged in its place (it was, and called the commit bad).
mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
cat >"$T/hand.conf" <<EOF
[workload "w"]
command = sh -c 'touch $T/started; exec sleep 60'
measure = time
iterations = 1
timeout = 5m
EOF
# Not through pw(): $! would be the subshell that runs the function.
"$PERFWATCH" -c "$T/pw.conf" run --no-check --trigger bisect \
    --profile "$T/hand.conf" --label killed >"$T/killed.out" 2>&1 &
HAND=$!
i=0
while [ ! -e "$T/started" ]; do
	i=$((i + 1))
	[ "$i" -le 200 ] || fail "the run did not start: $(cat "$T/killed.out")"
	sleep 0.1
done
kill -KILL "$HAND"
wait "$HAND" 2>/dev/null || true
# Its guard takes the workload with it; wait until the run's lock is free.
i=0
until flock -n -x "$PERFWATCH_DB.run" true; do
	i=$((i + 1))
	[ "$i" -le 100 ] || fail "the killed run's lock is still held"
	sleep 0.1
done
pw runs --csv --status running | grep -q '^killed,' ||
	fail "the killed run is not left running: $(pw runs --csv)"
rc=0
pw check --bisect >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 125 ] ||
	fail "check --bisect after a killed run: exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "the newest run, killed, is running: cannot tell"
pass
