#!/bin/sh
# A run under "ionice -c2 -n4" at nice 0 asks for the I/O priority the
# kernel gives a process that set none (best-effort at (nice + 20) / 5),
# so its snapshot is that of a run without ionice: env diff between the
# two says nothing changed.  It used to record proc.ioprio be/4 and show
# the field added.  The same holds at nice 5 with level 5, where only
# proc.nice is added; another level (be/3) is still a change.
set -eu
. "$(dirname "$0")/lib.sh"

command -v ionice >/dev/null 2>&1 || skip "no ionice"
[ "$(nice)" -eq 0 ] || skip "the tests run at nice $(nice)"
case $(ionice -p $$) in
none:*) ;;
*) skip "the tests run in I/O class $(ionice -p $$)" ;;
esac
[ "$(python3 -c 'import os; print(os.sched_getscheduler(0))')" -eq 0 ] ||
	skip "the tests run under another scheduling policy"

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
# fields A B: the field changes env diff --json finds from run A to B,
# one "key change old new" a line.
fields() {
	pw env diff --json "$1" "$2" | python3 -c '
import json, sys
d = json.load(sys.stdin)["changes"]
assert d["packages"] == [], d
for f in d["fields"]:
    print(f["key"], f["change"], f["old"], f["new"])
'
}

run plain
run be4 ionice -c 2 -n 4
run be3 ionice -c 2 -n 3
run nice5 nice -n 5 ionice -c 2 -n 5

expect_eq "$(fields plain be4)" ""
pw env show be4 >"$T/be4.env"
if grep -q '^proc\.' "$T/be4.env"; then
	fail "proc.* under ionice -c2 -n4: $(grep '^proc\.' "$T/be4.env")"
fi
expect_eq "$(fields plain be3)" "proc.ioprio added None be/3"
expect_eq "$(fields plain nice5)" "proc.nice added None 5"
pass
