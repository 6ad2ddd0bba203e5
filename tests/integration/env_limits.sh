#!/bin/sh
# A run pinned to one CPU (taskset -c N, as a cpuset or a container's
# --cpuset-cpus would have it) is not the same machine as one that may
# use them all: `env diff` between the two says cpu.affinity was added,
# with 1, and nothing else changed; between two unpinned runs, nothing.
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
