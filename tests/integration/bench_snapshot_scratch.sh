#!/bin/sh
# bench/snapshot makes a scratch directory in /tmp for its store (and
# the status file of -s).  Only the end of a run that went well removed
# it: a failed step (here a work directory not there) exited through
# fatal() and left it.  The removal is registered at exit now, so every
# way out takes the directory with it.  Its name is read from strace, as
# it is made (mkdtemp in /tmp, whatever TMPDIR says).
set -eu
. "$(dirname "$0")/lib.sh"

bench="$(dirname "$PERFWATCH")/../bench/snapshot"
[ -x "$bench" ] || skip "no $bench (make build-all)"
command -v strace >/dev/null 2>&1 || skip "no strace"
strace -qq -o /dev/null true 2>/dev/null || skip "strace may not trace here"
# LeakSanitizer stops a traced process (an ASan build's).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

# run ARG...: run the bench under strace; $rc its exit status, $scratch
# the directory it made.
run() {
	rc=0
	strace -qq -e trace=mkdir -o "$T/trace" "$bench" "$@" \
	    >"$T/out" 2>"$T/err" || rc=$?
	scratch=$(sed -n 's/^mkdir("\(.*perfwatch-bench-snapshot\.[^"]*\)".*= 0$/\1/p' \
	    "$T/trace")
	[ -n "$scratch" ] || fail "no scratch directory made: $(cat "$T/trace")"
}

run -n 2 -w "$T/nonexistent"
[ ! -e "$scratch" ] || { rm -rf "$scratch"; fail "left $scratch"; }
expect_eq "$rc" 1
expect_match "$(cat "$T/err")" "$T/nonexistent"

# A run that goes well, with a status file of its own to remove too.
[ -r /var/lib/dpkg/status ] || { pass; exit 0; }
run -n 1 -s 20
[ ! -e "$scratch" ] || { rm -rf "$scratch"; fail "left $scratch"; }
expect_eq "$rc" 0
expect_match "$(cat "$T/out")" "synthesized: 20 packages in $scratch/status"
pass
