#!/bin/sh
# Run every unit test binary and every integration script, each line
# with the seconds the test took (so a slow one shows, and CI's time can
# be budgeted); print one "N passed, N failed" line at the end (", N
# skipped" when a test exits 77, lib.sh's skip: the machine cannot run
# it) with the seconds of the whole, and exit non-zero on any failure.
#
#	sh tests/run.sh [PATTERN...]
#
# With patterns, only the tests whose name (unit/test_stats,
# integration/detect_bonnie ...) matches one of them, as a shell glob.
# No test reads anything outside the checkout: the real data they use is
# in tests/data/reference and etc/examples.
#
# JOBS tests run at once (default: the CPUs online).  Most tests wait on
# a daemon, a peer or a timer more than they compute, and every one has
# its own directory, database, measuring lock and ports, and measures
# under [quiet] keys that let it run beside a build or another test
# (quiet_policy makes its machine busy with its own CPU hogs).  Each
# test's line is printed when it ends; the output of the failed ones
# comes after all of them, in the order of the list.
set -u
BUILD=${BUILD:-build}
top=$(pwd)
export PERFWATCH="$top/$BUILD/bin/perfwatch"
export PERFWATCHD="$top/$BUILD/bin/perfwatchd"
export PERFWATCH_TOP="$top"
# The tests never read the user's configuration or state.
unset PERFWATCH_DB XDG_STATE_HOME

# One test, as xargs starts it: sh tests/run.sh --one NAME.  Its status
# goes to $RUN_LOG/NAME.rc, its output to NAME.out, and its line to
# stdout in one write, so that lines of tests ending together do not mix.
if [ "${1:-}" = --one ]; then
	name=$2
	case $name in
	unit/*) set -- "$BUILD/tests/${name#unit/}" ;;
	integration/*) set -- sh "tests/$name.sh" ;;
	*) echo "tests/run.sh: no such test: $name" >&2; exit 1 ;;
	esac
	rc=0
	t0=$(date +%s)
	# Bounded: a test that hangs fails at TEST_TIMEOUT seconds (the
	# longest takes about two minutes under ASan) instead of holding
	# the suite, and CI, until CI's own limit.  timeout(1) is in
	# coreutils and in FreeBSD's base system.
	timeout -k 10 "${TEST_TIMEOUT:-600}" "$@" >"$RUN_LOG/$name.out" 2>&1 \
	    </dev/null || rc=$?
	took=$(($(date +%s) - t0))
	echo "$rc" >"$RUN_LOG/$name.rc"
	if [ "$rc" -eq 0 ]; then
		what=ok
	elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		what="FAILED (timed out after ${TEST_TIMEOUT:-600} s)"
	elif [ "$rc" -eq 77 ]; then
		# lib.sh's skip: "skip: NAME: REASON"
		what="skipped ($(sed -n 's/^skip: [^:]*: //p' \
		    "$RUN_LOG/$name.out" | head -n 1))"
	else
		what="FAILED (exit $rc)"
	fi
	printf '%-40s %4s s  %s\n' "$name" "$took" "$what"
	exit 0
fi

jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in
'' | *[!0-9]* | 0) echo "tests/run.sh: JOBS must be a number above 0: $jobs" >&2
	exit 2 ;;
esac
start=$(date +%s)
RUN_LOG=$(mktemp -d "${TMPDIR:-/tmp}/perfwatch-tests.XXXXXX")
export RUN_LOG
trap 'rm -rf "$RUN_LOG"' EXIT
trap 'exit 130' INT TERM
mkdir -p "$RUN_LOG/unit" "$RUN_LOG/integration"

wanted() {
	[ $# -eq 1 ] && return 0
	w=$1
	shift
	for pat in "$@"; do
		# shellcheck disable=SC2254
		case $w in $pat) return 0 ;; esac
	done
	return 1
}

# The list, integration scripts first: they are the long ones, and the
# short unit tests then fill the slots at the end.
: >"$RUN_LOG/list"
for t in tests/integration/*.sh; do
	case "$t" in */lib.sh) continue ;; esac
	[ -f "$t" ] || continue
	name="integration/$(basename "$t" .sh)"
	wanted "$name" "$@" || continue
	echo "$name" >>"$RUN_LOG/list"
done
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	name="unit/$(basename "$t")"
	wanted "$name" "$@" || continue
	echo "$name" >>"$RUN_LOG/list"
done
if [ ! -s "$RUN_LOG/list" ]; then
	echo "tests/run.sh: no test to run${1:+ matches $*}" >&2
	exit 1
fi

xargs -n 1 -P "$jobs" sh "$0" --one <"$RUN_LOG/list"

passed=0
failed=0
skipped=0
failures=""
while read -r name; do
	rc=$(cat "$RUN_LOG/$name.rc" 2>/dev/null || echo none)
	case $rc in
	0) passed=$((passed + 1)) ;;
	77) skipped=$((skipped + 1)) ;;
	*)
		failed=$((failed + 1))
		failures="$failures $name"
		echo "$name: FAILED (exit $rc)"
		sed 's/^/    | /' "$RUN_LOG/$name.out" 2>/dev/null | tail -40
		;;
	esac
done <"$RUN_LOG/list"
all=$(($(date +%s) - start))
[ -n "$failures" ] && echo "failed:$failures"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped ($all s)"
else
	echo "$passed passed, $failed failed ($all s)"
fi
[ "$failed" -eq 0 ]
