#!/bin/sh
# Run every libFuzzer target of BUILD/fuzz/ for SECONDS each:
#
#	sh tests/fuzz/run.sh BUILD SECONDS
#
# Each target keeps its corpus in BUILD/fuzz-corpus/<target>/ (so later runs
# start where earlier ones stopped) and reads the seeds of
# tests/fuzz/corpus/<target>/.  A crash, leak, timeout or exit leaves its
# input in BUILD/fuzz-artifacts/<target>/.  One line is printed per target;
# the exit status is non-zero if any target failed or none was found.
#
# SECONDS 0 fuzzes nothing: each target runs every seed of
# tests/fuzz/corpus/<target>/ once, the same inputs every time.  That is
# what CI does, so that the targets build and the inputs that once found
# a defect (kept among the seeds) keep passing.
set -u

usage() {
	echo "usage: sh tests/fuzz/run.sh BUILD SECONDS" >&2
	exit 64
}
[ $# -eq 2 ] || usage
build=$1
seconds=$2
case $seconds in
''|*[!0-9]*) usage ;;
esac

found=0
failed=0
for bin in "$build"/fuzz/fuzz_*; do
	[ -f "$bin" ] && [ -x "$bin" ] || continue
	name=$(basename "$bin")
	found=$((found + 1))
	corpus="$build/fuzz-corpus/$name"
	artifacts="$build/fuzz-artifacts/$name"
	seeds="tests/fuzz/corpus/$name"
	log="$build/fuzz-artifacts/$name.log"
	mkdir -p "$corpus" "$artifacts"
	if [ "$seconds" -eq 0 ]; then
		set -- "$seeds"/*
		if [ ! -f "$1" ]; then
			printf '%-24s FAILED: no seeds in %s/\n' "$name" "$seeds"
			failed=$((failed + 1))
		elif "$bin" -timeout=10 -rss_limit_mb=2048 \
		    -artifact_prefix="$artifacts/" "$@" >"$log" 2>&1; then
			printf '%-24s ok: %d seeds\n' "$name" "$#"
		else
			rc=$?
			printf '%-24s FAILED (exit %d) on a seed\n' "$name" "$rc"
			grep -v '^#[0-9]' "$log" | tail -n 40 | sed 's/^/    | /'
			failed=$((failed + 1))
		fi
		continue
	fi
	set -- "$corpus"
	[ -d "$seeds" ] && set -- "$corpus" "$seeds"
	if "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	    -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" \
	    >"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		cov=$(sed -n 's/.*DONE *cov: \([0-9]*\) *ft: \([0-9]*\).*/\1 edges, \2 features/p' \
		    "$log" | tail -n 1)
		files=$(find "$corpus" -type f | wc -l)
		printf '%-24s ok: %s runs in %ss, %s, corpus %s files\n' \
		    "$name" "${runs:-?}" "$seconds" "${cov:-coverage ?}" \
		    "$((files + 0))"
	else
		rc=$?
		printf '%-24s FAILED (exit %d); input kept in %s/\n' \
		    "$name" "$rc" "$artifacts"
		grep -v '^#[0-9]' "$log" | tail -n 40 | sed 's/^/    | /'
		failed=$((failed + 1))
	fi
done

if [ "$found" -eq 0 ]; then
	echo "no fuzz targets in $build/fuzz/" >&2
	exit 1
fi
echo "$found fuzz targets, $failed failed"
[ "$failed" -eq 0 ]
