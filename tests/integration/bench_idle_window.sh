#!/bin/sh
# bench/idle checks that perfwatchd does not wake up while no timer is
# due, which holds only in a window shorter than the daemon's longest
# sleep (15 minutes): -t 900 or more would count the schedule's own
# wake-up against it.  Such a window is refused before the daemon
# starts, and so is one that is not a whole number of seconds ("60s"
# was read as 60, "1e3" as 1).  And it can start the daemon of a build
# tree at all, with its nightly run twelve hours away.
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
h0=$(date +%H)
rc=0
"$bench" -t 2 >"$T/out" 2>&1 || rc=$?
h1=$(date +%H)
[ "$rc" -ne 2 ] || fail "idle could not measure: $(cat "$T/out")"
expect_match "$(cat "$T/out")" "wake-ups    "
expect_match "$(cat "$T/out")" "timers due in the window: none)"
# Its nightly run is twelve hours off, never in the window: at "30 2" a
# bench started after 02:15 had the run's wake-up in it, which the check
# took for one with no timer due.
cron=$(sed -n 's/.*(nightly cron "30 \([0-9]*\) \* \* \*".*/\1/p' "$T/out")
[ "$cron" = $(((${h0#0} + 12) % 24)) ] || [ "$cron" = $(((${h1#0} + 12) % 24)) ] ||
	fail "the nightly cron's hour $cron, not 12 hours from $h0: $(cat "$T/out")"
pass
