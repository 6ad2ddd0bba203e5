#!/bin/sh
# Every run of a bisection records in its detail the repository's path,
# the build command, the --workload globs and --profile, and a run
# refuses a detail that is not UTF-8 (JSON carries nothing else).  A
# build command or a repository path in Latin-1 was found only at the
# first run, after a checkout and a build: the bisection stopped with
# that run's usage error, "--detail: not valid UTF-8", an option never
# given, and "the run at ... exited 64; stopping".  It is refused at the
# start now, by name (64), before a database is made or the tree moved.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

make_repo "lat 100 ms lower" "lat 100 ms lower" "lat 130 ms lower"
latin1=$(printf 'caf\351')
# refused WHAT ARGS...: bisect ARGS exits 64 saying WHAT, having made no
# database and moved nothing.
refused() {
	what=$1
	shift
	rc=0
	"$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 64 ] || fail "$what: exit $rc: $(cat "$T/err")"
	expect_match "$(cat "$T/err")" "$what"
	if grep -q "exited 64; stopping\|--detail" "$T/err"; then
		fail "$what: found at the first run: $(cat "$T/err")"
	fi
	[ ! -e "$PERFWATCH_DB" ] || fail "$what: a database was made"
	if grep -q "^bisect: building" "$T/err"; then
		fail "$what: a commit was built: $(cat "$T/err")"
	fi
}

BUILD="cp value built # $latin1" refused \
    "perfwatch: --build: not valid UTF-8" bisect main~2..main
refused "perfwatch: --workload: not valid UTF-8" \
    bisect --workload "toy$latin1" main~2..main
refused "perfwatch: --profile: not valid UTF-8" \
    bisect --profile "$latin1" main~2..main

git clone -q "$T/repo" "$T/$latin1"
refused "the repository's path is not valid UTF-8" \
    sh -c 'cd "$1" && "$PERFWATCH" -c "$2" bisect --build "$3" \
    --workload toy main~2..main' sh "$T/$latin1" "$T/pw.conf" "$BUILD"
expect_eq "$(git -C "$T/$latin1" symbolic-ref HEAD)" refs/heads/main

# The same bisection of a UTF-8 path and command goes.
BUILD="$BUILD # café" bisect main~2..main >"$T/out" 2>"$T/err" ||
	fail "UTF-8 build command: exit $?: $(cat "$T/err")"
grep -q "^first bad commit: $(rev main) c3 (+30.0%)$" "$T/out" ||
	fail "UTF-8 build command: $(cat "$T/out")"
pass
