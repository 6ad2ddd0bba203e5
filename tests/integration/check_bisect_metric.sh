#!/bin/sh
# git bisect run with check --bisect on the metric being bisected: a run
# measures pipe and spawn (lps and forks), spawn's lps got 20% slower at c3 (another change,
# already known) and pipe 12% slower at c6.  check --bisect called every
# commit from c3 on bad, and git bisect named c3; with --workload pipe
# (or --metric and a glob) it decides on pipe alone and names c6.  A
# selection that names nothing (a typo) stops the bisection at its first
# commit (128) rather than skip or misjudge every commit, as does one
# whose workload the commit's run did not measure at all.
set -eu
. "$(dirname "$0")/lib.sh"

command -v git >/dev/null || fail "git is not installed"

mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
# Each workload prints what the commit checked out in $T/repo holds.
cat >"$T/p.profile" <<EOF
[workload "pipe"]
command = cat $T/repo/pipe
iterations = 3
[workload "spawn"]
command = cat $T/repo/spawn
iterations = 3
EOF
git init -q -b main "$T/repo"
(
	cd "$T/repo"
	git config user.email test@example.org
	git config user.name test
	git config commit.gpgsign false
	for i in 1 2 3 4 5 6 7 8; do
		if [ "$i" -ge 6 ]; then p=880; else p=1000; fi
		if [ "$i" -ge 3 ]; then s=400; else s=500; fi
		echo "lps $p lps higher" >pipe
		printf 'lps %s lps higher\nforks 50 forks/s higher\n' "$s" \
		    >spawn
		echo "$i" >counter
		git add pipe spawn counter
		git commit -qm "c$i"
	done
)
run() {
	pw -c "$T/pw.conf" run --no-check --trigger bisect \
	    --profile "$T/p.profile" --label "$1" >"$T/$1.out" 2>&1 ||
		fail "run $1: exit $?: $(cat "$T/$1.out")"
}
git -C "$T/repo" checkout -q main~7
run good1
run good2
run good3
pw -c "$T/pw.conf" baseline set good good1 good2 good3 >/dev/null

# bisect_run WANT-FIRST-BAD|stop CHECK-ARGS...: git bisect run over
# c1..c8, each step building (nothing), measuring and checking the
# commit; the first bad commit named, or with "stop", a bisection
# stopped at its first step.
bisect_run() {
	want=$1
	shift
	rm -f "$T/steps"
	{
		echo '#!/bin/sh'
		echo "echo x >>'$T/steps'"
		echo "'$PERFWATCH' -c '$T/pw.conf' run --no-check --trigger bisect \\"
		echo "    --profile '$T/p.profile' >/dev/null 2>&1 || exit 125"
		printf "exec '%s' -c '%s' check --bisect --baseline good" \
		    "$PERFWATCH" "$T/pw.conf"
		for a in "$@"; do
			printf " '%s'" "$a"
		done
		echo
	} >"$T/step.sh"
	rc=0
	(cd "$T/repo" && git checkout -q main &&
	    git bisect start main main~7 >/dev/null &&
	    git bisect run sh "$T/step.sh") >"$T/gb.out" 2>&1 || rc=$?
	git -C "$T/repo" bisect reset >/dev/null 2>&1
	if [ "$want" = stop ]; then
		[ "$rc" -ne 0 ] ||
			fail "git bisect run $* went on: $(cat "$T/gb.out")"
		expect_eq "$(wc -l <"$T/steps" | tr -d ' ')" 1
	else
		[ "$rc" -eq 0 ] ||
			fail "git bisect run $*: exit $rc: $(cat "$T/gb.out")"
		expect_match "$(cat "$T/gb.out")" \
		    "$(git -C "$T/repo" rev-parse "$want") is the first bad commit"
	fi
}

# Every metric: spawn's older regression is taken for the bisected one.
bisect_run main~5
# The pipe workload's metrics alone, however named.
bisect_run main~2 --workload pipe
bisect_run main~2 --workload 'pi*' --metric lps
bisect_run main~5 --workload spawn
# A typo stops the bisection, and says why, also beside a name that is
# right.
bisect_run stop --workload pipes
expect_match "$(cat "$T/gb.out")" \
    'perfwatch: --workload pipes: no metric in'
expect_match "$(cat "$T/gb.out")" \
    'perfwatch.db matches it (did you mean pipe?); its workloads are pipe, spawn'
bisect_run stop --workload pipe --workload spwan
expect_match "$(cat "$T/gb.out")" 'perfwatch: --workload spwan: no metric in'
bisect_run stop --metric lsp
expect_match "$(cat "$T/gb.out")" 'perfwatch: --metric lsp: no metric in'
expect_match "$(cat "$T/gb.out")" 'its metrics are lps, forks'
# Names that each match, but no metric together.
bisect_run stop --workload pipe --metric forks
expect_match "$(cat "$T/gb.out")" \
    'perfwatch: --workload pipe --metric forks: no metric in'

# A workload the commit's run did not measure at all (a profile without
# it): every commit's run would lack it, so it stops too.
cat >"$T/spawn.profile" <<EOF
[workload "spawn"]
command = cat $T/repo/spawn
iterations = 3
EOF
pw -c "$T/pw.conf" run --no-check --trigger bisect \
    --profile "$T/spawn.profile" --label spawn-only >/dev/null 2>&1 ||
	fail "run spawn-only"
rc=0
pw -c "$T/pw.conf" check --bisect --baseline good --workload pipe \
    >"$T/out" 2>"$T/err" || rc=$?
expect_eq "$rc" 128
expect_match "$(cat "$T/err")" \
    "perfwatch: run spawn-only did not run workload pipe, which --workload pipe selects"
# Without --bisect: a clear error (65), nothing judged.
rc=0
pw -c "$T/pw.conf" check --baseline good --workload pipe spawn-only \
    >"$T/out" 2>"$T/err" || rc=$?
expect_eq "$rc" 65
expect_eq "$(cat "$T/out")" ""
rc=0
pw -c "$T/pw.conf" check --metric lsp spawn-only >"$T/out" 2>"$T/err" ||
	rc=$?
expect_eq "$rc" 65
expect_match "$(cat "$T/err")" 'perfwatch: --metric lsp: no metric in'

# check_bisect WANT [SELECTION...]: check --bisect of the newest run.
check_bisect() {
	want=$1
	shift
	rc=0
	pw -c "$T/pw.conf" check --bisect --baseline good "$@" >"$T/out" \
	    2>"$T/err" || rc=$?
	[ "$rc" -eq "$want" ] ||
		fail "check --bisect $*: exit $rc, not $want: $(cat "$T/out" "$T/err")"
}
# At c1, spawn fails (its file gone): every metric cannot tell, as one
# may be the bisected; pipe alone is good.
git -C "$T/repo" checkout -q main~7
rm "$T/repo/spawn"
run spawn-failed
check_bisect 125
expect_match "$(cat "$T/err")" "workload spawn did not complete (failed): cannot tell"
check_bisect 0 --workload pipe
check_bisect 125 --metric forks
# pipe's metric renamed at this commit: its workload ran and measured
# no lps, so this commit cannot tell (125), not a typo to stop for.
git -C "$T/repo" checkout -q -- .
echo "ops 1000 ops higher" >"$T/repo/pipe"
run renamed
check_bisect 125 --workload pipe --metric lps
expect_match "$(cat "$T/err")" \
    "run renamed measured no metric that --workload pipe --metric lps selects: cannot tell"
# Without --bisect: an empty table, and why.
pw -c "$T/pw.conf" check --baseline good --workload pipe --metric lps \
    >"$T/out" || fail "check renamed: exit $?"
expect_match "$(cat "$T/out")" \
    "the run measured no metric that --workload pipe --metric lps selects"
git -C "$T/repo" checkout -q -- .
pass
