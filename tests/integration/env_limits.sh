#!/bin/sh
# A run pinned to one CPU (taskset -c N, as a cpuset or a container's
# --cpuset-cpus would have it) is not the same machine as one that may
# use them all: `env diff` between the two says cpu.affinity was added,
# with 1, and nothing else changed; between two unpinned runs, nothing.
# Nor is a run under nice, chrt and ionice (proc.nice, proc.sched,
# proc.ioprio).
set -eu
. "$(dirname "$0")/lib.sh"

command -v taskset >/dev/null 2>&1 || skip "no taskset"
online=$(getconf _NPROCESSORS_ONLN)
allowed=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')
[ "$online" -ge 2 ] || skip "one CPU online"
[ "$allowed" -eq "$online" ] || skip "the tests run pinned to $allowed CPUs"
cpu=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')

mkdir -p "$T/work" "$T/dpkg"
dpkg_stanza grep 3.8-5 >"$T/dpkg/status"
cat >"$T/profile.conf" <<EOS
[workload "tiny"]
command = true
measure = time
iterations = 1
EOS
cat >"$T/perfwatch.conf" <<EOS
[perfwatch]
work_dir = $T/work
[quiet]
$QUIET_ANY_LOAD
[triggers]
dpkg_admin_dir = $T/dpkg
EOS
run() {
	label=$1
	shift
	"$@" "$PERFWATCH" -c "$T/perfwatch.conf" run --no-check \
	    --profile "$T/profile.conf" --label "$label" >"$T/$label.out" 2>&1 ||
		fail "run $label: $(cat "$T/$label.out")"
}
run all
run all-again
run pinned taskset -c "$cpu"

pw env show pinned >"$T/pinned.env"
grep -q '^cpu\.affinity  *1$' "$T/pinned.env" ||
	fail "no cpu.affinity 1 in the pinned run: $(cat "$T/pinned.env")"
pw env show all >"$T/all.env"
if grep -q '^cpu\.affinity' "$T/all.env"; then
	fail "cpu.affinity in a run that may use every CPU: $(cat "$T/all.env")"
fi

pw env diff --json all pinned | python3 -c '
import json, sys
d = json.load(sys.stdin)["changes"]
assert d["packages"] == [], d
assert d["fields"] == [{"key": "cpu.affinity", "change": "added",
    "old": None, "new": "1"}], d["fields"]
'
pw env diff --json all all-again | python3 -c '
import json, sys
d = json.load(sys.stdin)["changes"]
assert d == {"fields": [], "packages": []}, d
'

# Nor is one run under nice(1), chrt(1) and ionice(1), whose workloads
# inherit all three: proc.nice, proc.sched and proc.ioprio are added,
# and nothing else.  None was in a snapshot, so a run typed under nice
# beside the daemon's looked like the same machine.  The I/O level is
# not the one nice 7 implies, (7 + 20) / 5 = 5, which would be the
# default (env_ioprio_default).
[ "$(nice)" -eq 0 ] || skip "the tests run at nice $(nice)"
command -v chrt >/dev/null 2>&1 || skip "no chrt"
command -v ionice >/dev/null 2>&1 || skip "no ionice"
case $(ionice -p $$) in
none:*) ;;
*) skip "the tests run in I/O class $(ionice -p $$)" ;;
esac
[ "$(python3 -c 'import os; print(os.sched_getscheduler(0))')" -eq 0 ] ||
	skip "the tests run under another scheduling policy"
run niced nice -n 7 ionice -c 2 -n 2 chrt -b 0
pw env diff --json all niced | python3 -c '
import json, sys
d = json.load(sys.stdin)["changes"]
assert d["packages"] == [], d
assert d["fields"] == [
    {"key": "proc.ioprio", "change": "added", "old": None, "new": "be/2"},
    {"key": "proc.nice", "change": "added", "old": None, "new": "7"},
    {"key": "proc.sched", "change": "added", "old": None, "new": "batch"},
], d["fields"]
'
pw env show all >"$T/all.env"
if grep -q '^proc\.' "$T/all.env"; then
	fail "proc.* in a run at the defaults: $(grep '^proc\.' "$T/all.env")"
fi
