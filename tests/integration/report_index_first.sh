#!/bin/sh
# The README's first try, `perfwatch run --workload sys.pipe`, made that
# run of one test the reference of the system index for good: it was
# pinned the first time it was used, and every later Index Score said
# "(partial: 1 of 12)", with nothing saying how to choose another.  The
# first run is now pinned only once it measured every test (not on a
# busy machine, not a bisection's); until then the reference is chosen
# again, and the first run of all twelve takes its place.  A reference
# the user pinned (baseline index) stays, and a partial score whose
# reference lacks tests says how to pin another.
set -eu
. "$(dirname "$0")/lib.sh"

tests="execl fcopy256 fcopy1024 fcopy4096 pipe context1 spawn shell1 shell8
    syscall dhrystone whetstone"
mkdir "$T/work"
cat >"$T/pw.conf" <<EOF
[perfwatch]
work_dir = $T/work
[quiet]
$QUIET_ANY_LOAD
EOF
: >"$T/profile.conf"
for t in $tests; do
	printf '[workload "sys.%s"]\nduration = 1s\niterations = 1\n\n' "$t" \
	    >>"$T/profile.conf"
done
run() {
	pw -c "$T/pw.conf" run --no-check --profile "$T/profile.conf" "$@" \
	    >"$T/run.out" 2>&1 || fail "run $*: $(cat "$T/run.out")"
}
pinned() {
	sqlite3 "$PERFWATCH_DB" "SELECT coalesce((SELECT r.label FROM settings
	    s JOIN runs r ON r.id = s.value WHERE s.key LIKE
	    'index_reference:%'), 'none')"
}

# A first run of sys.pipe alone: its own reference, not pinned.
run --workload sys.pipe --label pipe
out=$(pw show pipe)
expect_match "$out" 'System Benchmarks (reference run pipe)'
expect_match "$out" 'System Benchmarks Index Score                           1000.0'
expect_eq "$(pinned)" none

# Then a run of all twelve: the reference from now on, pinned, and its
# score is of all of them.
run --label full
out=$(pw show full)
expect_match "$out" 'System Benchmarks (reference run full)'
expect_match "$out" 'System Benchmarks Index Score                           1000.0'
case $out in *partial*) fail "a partial score: $out" ;; esac
expect_eq "$(pinned)" full
pw show --json full | python3 -c '
import json, sys
ix = json.load(sys.stdin)["index"]
assert ix["reference_run"] == "full", ix
assert ix["scored"] == 12 and ix["partial"] is False, ix
' || fail "show --json full: $(pw show --json full)"
# The run of one test is partial against it: it lacks the others, which
# another reference does not mend, so nothing says to pin one.
out=$(pw show pipe)
expect_match "$out" 'System Benchmarks (reference run full)'
expect_match "$out" 'System Benchmarks Index Score (partial: 1 of 12)'
case $out in *"no reference"*) fail "a hint for the run's own lack: $out" ;; esac

# Pinned by the user, the run of one test stays the reference, and the
# score of a full run says how to pin another.
pw baseline index pipe >/dev/null || fail "baseline index pipe"
run --label later
out=$(pw show later)
expect_match "$out" 'System Benchmarks (reference run pipe)'
expect_match "$out" 'System Benchmarks Index Score (partial: 1 of 12)'
expect_match "$out" '  11 tests have no reference: perfwatch baseline index RUN pins another'
expect_eq "$(pinned)" pipe
out=$(pw show full)
expect_match "$out" 'System Benchmarks (reference run pipe)'

# On a machine always busy every run is, and the first that measured
# all twelve is the reference where the busy run of one test was (not
# pinned: a quiet one would take its place), then the first quiet run
# of all twelve, pinned.
{ echo 'run,time,workload,metric,value,unit,better,busy'
  for r in busy-pipe:1100000000 busy-full:1100000100 quiet-full:1100000200; do
	for t in $tests; do
		case $r:$t in busy-pipe:*:pipe) ;; busy-pipe:*) continue ;; esac
		case $t in
		fcopy*) m=kbps u=KBps ;;
		shell*) m=lpm u=lpm ;;
		whetstone) m=mwips u=MWIPS ;;
		*) m=lps u=lps ;;
		esac
		case $r in busy*) b='load 7.9 above 2' ;; *) b= ;; esac
		echo "${r%:*},${r#*:},sys.$t,$m,100,$u,higher,$b"
	done
  done; } >"$T/busy.csv"
[ "$(grep -c . "$T/busy.csv")" -eq 26 ] || fail "busy.csv: $(cat "$T/busy.csv")"
export PERFWATCH_DB="$T/busy.db"
head -n 14 "$T/busy.csv" >"$T/busy1.csv"
pw import "$T/busy1.csv" >/dev/null || fail "import busy1.csv"
out=$(pw show busy-full)
expect_match "$out" 'System Benchmarks (reference run busy-full)'
case $out in *partial*) fail "a partial score: $out" ;; esac
expect_eq "$(pinned)" none
{ head -n 1 "$T/busy.csv"; tail -n 12 "$T/busy.csv"; } >"$T/busy2.csv"
pw import "$T/busy2.csv" >/dev/null || fail "import busy2.csv"
out=$(pw show busy-full)
expect_match "$out" 'System Benchmarks (reference run quiet-full)'
expect_eq "$(pinned)" quiet-full
pass
