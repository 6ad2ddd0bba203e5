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
set -u
BUILD=${BUILD:-build}
top=$(pwd)
export PERFWATCH="$top/$BUILD/bin/perfwatch"
export PERFWATCHD="$top/$BUILD/bin/perfwatchd"
export PERFWATCH_TOP="$top"
# The tests never read the user's configuration or state.
unset PERFWATCH_DB XDG_STATE_HOME
passed=0
failed=0
skipped=0
failures=""
start=$(date +%s)
log=$(mktemp -d "${TMPDIR:-/tmp}/perfwatch-tests.XXXXXX")
mkdir -p "$log/unit" "$log/integration"

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

run_one() {
	name=$1
	shift
	printf '%-40s ' "$name"
	rc=0
	t0=$(date +%s)
	"$@" >"$log/$name.out" 2>&1 || rc=$?
	took=$(($(date +%s) - t0))
	printf '%4s s  ' "$took"
	if [ "$rc" -eq 0 ]; then
		echo ok
		passed=$((passed + 1))
	elif [ "$rc" -eq 77 ]; then
		# lib.sh's skip: "skip: NAME: REASON"
		echo "skipped ($(sed -n 's/^skip: [^:]*: //p' \
		    "$log/$name.out" | head -n 1))"
		skipped=$((skipped + 1))
	else
		echo "FAILED (exit $rc)"
		sed 's/^/    | /' "$log/$name.out" | tail -40
		failed=$((failed + 1))
		failures="$failures $name"
	fi
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	name="unit/$(basename "$t")"
	wanted "$name" "$@" || continue
	run_one "$name" "$t"
done
for t in tests/integration/*.sh; do
	case "$t" in */lib.sh) continue ;; esac
	[ -f "$t" ] || continue
	name="integration/$(basename "$t" .sh)"
	wanted "$name" "$@" || continue
	run_one "$name" sh "$t"
done
rm -rf "$log"
all=$(($(date +%s) - start))
if [ $((passed + failed + skipped)) -eq 0 ]; then
	echo "tests/run.sh: no test to run${1:+ matches $*}" >&2
	exit 1
fi
[ -n "$failures" ] && echo "failed:$failures"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped ($all s)"
else
	echo "$passed passed, $failed failed ($all s)"
fi
[ "$failed" -eq 0 ]
