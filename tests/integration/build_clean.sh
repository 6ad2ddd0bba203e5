#!/bin/sh
# `make clean all` in one command: the flags stamp (BUILD/flags), written
# while the Makefile is read, is removed by clean before the build
# needs it, and every object was then without a rule ("No rule to make
# target 'build/cli/bisect.o'").  Run on a copy of the Makefile and of
# common/ with one unit test, so that clean removes the copy's build
# only and the build is short.
set -eu
. "$(dirname "$0")/lib.sh"
use_gmake
command -v cc >/dev/null 2>&1 || skip "no cc"

mkdir -p "$T/src/tests/unit"
cp "$top/Makefile" "$T/src/"
cp -R "$top/common" "$top/scripts" "$T/src/"
cp "$top/tests/unit/test_cron.c" "$top/tests/unit/cron_ref.h" \
    "$T/src/tests/unit/"

# BUILD too: tests/run.sh exports its own (build-asan under check-asan).
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD "$gmake" -C "$T/src" \
	    --no-print-directory "$@"
}
# A first build, as a checkout that was built before has.
mk build/tests/test_cron >"$T/out" 2>&1 ||
	fail "make build/tests/test_cron: $(tail -n 3 "$T/out")"
rc=0
mk clean build/tests/test_cron >"$T/out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] ||
	fail "make clean build/tests/test_cron: exit $rc: $(tail -n 1 "$T/out")"
[ -s "$T/src/build/flags" ] || fail "no flags stamp after make clean ..."
(cd "$T" && "$T/src/build/tests/test_cron" >"$T/run.out" 2>&1) ||
	fail "test_cron after make clean: $(tail -n 3 "$T/run.out")"
# And the stamp written again says what it said: nothing is rebuilt.
mk -q build/tests/test_cron || fail "make clean ...: test_cron out of date"
pass
