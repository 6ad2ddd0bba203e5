#!/bin/sh
# check --bisect of a run in which a workload did not complete (it
# failed at this commit) cannot tell (125), though the workloads that
# did complete are unchanged: the metric bisected may be one of those
# not measured.  It said good (0), and git bisect run went on as if that
# metric had not got worse.  A regression among those measured is still
# bad (1).
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
# "mine" measures while $T/ok exists, else fails; "other" prints what
# $T/other holds.
cat >"$T/p.profile" <<EOF2
[workload "mine"]
command = test -e $T/ok && echo lat 1.5 ms lower
iterations = 3
[workload "other"]
command = cat $T/other
iterations = 3
EOF2
run() {
	pw -c "$T/pw.conf" run --no-check --trigger bisect \
	    --profile "$T/p.profile" --label "$1" >"$T/$1.out" 2>&1 ||
		fail "run $1: exit $?: $(cat "$T/$1.out")"
}
# check_bisect WANT [MESSAGE]: check --bisect of the newest run.
check_bisect() {
	rc=0
	pw -c "$T/pw.conf" check --bisect --baseline good >"$T/out" \
	    2>"$T/err" || rc=$?
	[ "$rc" -eq "$1" ] ||
		fail "check --bisect: exit $rc, not $1: $(cat "$T/out" "$T/err")"
	[ -z "${2:-}" ] || expect_match "$(cat "$T/err")" "$2"
}

touch "$T/ok"
echo "ops 7 ops higher" >"$T/other"
for i in 1 2 3 4; do
	run "good$i"
done
pw -c "$T/pw.conf" baseline set good 'good*' >/dev/null
run same
check_bisect 0

rm "$T/ok"
run broken
check_bisect 125 "run broken: workload mine did not complete (failed): cannot tell"
# Again, the run before it broken too: still named, still untold.
run broken2
check_bisect 125 "run broken2: workload mine did not complete (failed)"

# A regression measured is bad whatever was not measured.
echo "ops 3 ops higher" >"$T/other"
run slower
check_bisect 1
pass
