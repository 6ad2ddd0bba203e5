#!/bin/sh
# CFLAGS reach the link as well as the compiler, as a package build and
# the GNU coding standards expect: a flag whose objects need something
# at the link (--coverage, its libgcov) built objects that did not
# link.  A unit test (common and cmocka only: a short build) is built
# with CFLAGS=--coverage, linked, run, and leaves its coverage counts.
set -eu
. "$(dirname "$0")/lib.sh"
use_gmake
command -v cc >/dev/null 2>&1 || skip "no cc"

rc=0
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$gmake" -C "$top" \
    --no-print-directory BUILD="$T/build" CFLAGS=--coverage \
    "$T/build/tests/test_cron" >"$T/out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "make CFLAGS=--coverage: exit $rc: $(grep -m 3 \
    -e 'undefined reference' -e 'Error' "$T/out")"
(cd "$T" && "$T/build/tests/test_cron" >"$T/run.out" 2>&1) ||
	fail "test_cron built with --coverage: $(tail -n 3 "$T/run.out")"
[ -n "$(find "$T/build" -name 'cron.gcda')" ] ||
	fail "no cron.gcda: the objects were not built with CFLAGS"
pass
