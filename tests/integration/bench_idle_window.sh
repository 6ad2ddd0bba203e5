#!/bin/sh
# bench/idle checks that perfwatchd does not wake up while no timer is
# due, which holds only in a window shorter than the daemon's longest
# sleep (15 minutes): -t 900 or more would count the schedule's own
# wake-up against it.  Such a window is refused before the daemon
# starts, and so is one that is not a whole number of seconds ("60s"
# was read as 60, "1e3" as 1).  And it can start the daemon of a build
# tree at all.
set -eu
. "$(dirname "$0")/lib.sh"

bench="$(dirname "$PERFWATCH")/../bench/idle"
[ -x "$bench" ] || fail "no $bench (make build-all builds it)"
for t in 900 3600 0 60s 1e3 ""; do
	rc=0
	"$bench" -t "$t" -d /nonexistent/perfwatchd >"$T/out" 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || fail "-t '$t': exit $rc: $(cat "$T/out")"
	expect_match "$(cat "$T/out")" "idle: -t $t: expected seconds from 1 to 899 (the daemon's longest sleep is 900 s)"
done

# From a build tree, the daemon it starts finds the tree's nightly
# profile (it refused to start before: no profile "nightly" in the
# installed directories).  Its figures are the bench's to judge (an ASan
# build's memory is over the limit): here only that it measured (not 2).
rc=0
"$bench" -t 2 >"$T/out" 2>&1 || rc=$?
[ "$rc" -ne 2 ] || fail "idle could not measure: $(cat "$T/out")"
expect_match "$(cat "$T/out")" "wake-ups    "
pass
