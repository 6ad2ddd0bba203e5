#!/bin/sh
# Run every unit test binary and every integration script; print one
# "N passed, N failed" line at the end and exit non-zero on any failure.
set -u
BUILD=${BUILD:-build}
top=$(pwd)
export PERFWATCH="$top/$BUILD/bin/perfwatch"
export PERFWATCHD="$top/$BUILD/bin/perfwatchd"
export PERFWATCH_TOP="$top"
export PERFWATCH_SHARED="${PERFWATCH_SHARED:-$top/../shared}"
# The tests never read the user's configuration or state.
unset PERFWATCH_DB XDG_STATE_HOME
passed=0
failed=0
failures=""
log=$(mktemp -d "${TMPDIR:-/tmp}/perfwatch-tests.XXXXXX")
mkdir -p "$log/unit" "$log/integration"

run_one() {
	name=$1
	shift
	printf '%-40s ' "$name"
	if "$@" >"$log/$name.out" 2>&1; then
		echo ok
		passed=$((passed + 1))
	else
		echo "FAILED (exit $?)"
		sed 's/^/    | /' "$log/$name.out" | tail -40
		failed=$((failed + 1))
		failures="$failures $name"
	fi
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	run_one "unit/$(basename "$t")" "$t"
done
for t in tests/integration/*.sh; do
	case "$t" in */lib.sh) continue ;; esac
	[ -f "$t" ] || continue
	run_one "integration/$(basename "$t" .sh)" sh "$t"
done
rm -rf "$log"
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
