#!/bin/sh
# check --bisect against a baseline with too few runs for a verdict (a
# pinned one of two): every commit's verdict is inconclusive, and it
# exited 125, so git bisect run built and measured every commit of the
# range, skipped each, and ended with only skipped commits left.  It
# stops now (128) and says why, before the second commit is measured.
# So does a baseline with no run at all.  A run whose metrics the
# baseline never measured (a metric renamed at this commit) still cannot
# tell (125), and says so.
set -eu
. "$(dirname "$0")/lib.sh"

command -v git >/dev/null || fail "git is not installed"

mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
# The workload prints what the commit checked out in $T/repo holds.
cat >"$T/p.profile" <<EOF
[workload "toy"]
command = cat $T/repo/value
iterations = 3
EOF
git init -q -b main "$T/repo"
(
	cd "$T/repo"
	git config user.email test@example.org
	git config user.name test
	git config commit.gpgsign false
	for i in 1 2 3 4 5 6 7 8; do
		if [ "$i" -ge 6 ]; then v=80; else v=100; fi
		echo "ops $v ops/s higher" >value
		echo "$i" >counter
		git add value counter
		git commit -qm "c$i"
	done
)
run() {
	pw -c "$T/pw.conf" run --no-check --trigger bisect \
	    --profile "$T/p.profile" --label "$1" >"$T/$1.out" 2>&1 ||
		fail "run $1: exit $?: $(cat "$T/$1.out")"
}
# check_bisect BASELINE WANT [MESSAGE]: check --bisect of the newest run.
check_bisect() {
	rc=0
	pw -c "$T/pw.conf" check --bisect --baseline "$1" >"$T/out" \
	    2>"$T/err" || rc=$?
	[ "$rc" -eq "$2" ] ||
		fail "check --bisect: exit $rc, not $2: $(cat "$T/out" "$T/err")"
	[ -z "${3:-}" ] || expect_match "$(cat "$T/err")" "$3"
}

git -C "$T/repo" checkout -q main~7
run good1
run good2
run good3
pw -c "$T/pw.conf" baseline set two good1 good2 >/dev/null
pw -c "$T/pw.conf" baseline set three good1 good2 good3 >/dev/null
run same
check_bisect two 128 \
    "baseline two has 2 runs with the metric, a verdict needs 3: every commit would be skipped; stopping"
check_bisect three 0
# The rolling baseline has no run at all: every run here is a
# bisection's, which the history leaves out (as measure.sh records them).
# That too stays so at every commit; it said "no run with its metrics:
# cannot tell" (125).
check_bisect rolling 128 \
    "baseline rolling has no runs: every commit would be skipped; stopping"

# Under git bisect run: it stops at the first commit, not after every one.
cat >"$T/step.sh" <<EOF
#!/bin/sh
echo x >>"$T/steps"
"$PERFWATCH" -c "$T/pw.conf" run --no-check --trigger bisect \
    --profile "$T/p.profile" >/dev/null 2>&1 || exit 125
exec "$PERFWATCH" -c "$T/pw.conf" check --bisect --baseline two
EOF
rc=0
(cd "$T/repo" && git checkout -q main && git bisect start main main~7 &&
    git bisect run sh "$T/step.sh") >"$T/gb.out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "git bisect run went on: $(cat "$T/gb.out")"
expect_match "$(cat "$T/gb.out")" "every commit would be skipped"
expect_eq "$(wc -l <"$T/steps" | tr -d ' ')" 1
git -C "$T/repo" bisect reset -q 2>/dev/null || git -C "$T/repo" bisect reset

# The same baseline with the run's metric, judged as before.
(cd "$T/repo" && git bisect start main main~7 &&
    sed -i 's/--baseline two/--baseline three/' "$T/step.sh" &&
    git bisect run sh "$T/step.sh") >"$T/gb.out" 2>&1 ||
	fail "git bisect run: $(cat "$T/gb.out")"
expect_match "$(cat "$T/gb.out")" "$(git -C "$T/repo" rev-parse main~2) is the first bad commit"
git -C "$T/repo" bisect reset >/dev/null 2>&1

# A metric the baseline never measured: this commit cannot tell.
echo "latency 5 ms lower" >"$T/repo/value"
run renamed
check_bisect three 125 \
    "run renamed: baseline three has no run with its metrics: cannot tell"
pass
