#!/bin/sh
# db.oltp's default sweep follows the CPUs the run may use: pinned to one
# CPU (taskset -c N) it sweeps 1 and 2 threads, twice that one CPU, where
# the same profile unpinned sweeps up to twice the online CPUs.  Before,
# the pinned run swept as far as the unpinned one, its upper thread
# counts taking turns on the one CPU.
set -eu
. "$(dirname "$0")/lib.sh"

command -v taskset >/dev/null 2>&1 || skip "no taskset"
online=$(getconf _NPROCESSORS_ONLN)
allowed=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')
[ "$online" -ge 2 ] || skip "one CPU online"
[ "$allowed" -eq "$online" ] || skip "the tests run pinned to $allowed CPUs"
cpu=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')

mkdir -p "$T/work"
cat >"$T/profile.conf" <<EOF
[workload "db.oltp"]
table_size = 100
duration = 1s
iterations = 1
warmup = 0
EOF
cat >"$T/perfwatch.conf" <<EOF
[perfwatch]
work_dir = $T/work
[quiet]
$QUIET_ANY_LOAD
EOF
# sweep LABEL [PREFIX ...]: run the profile, print its thread counts.
sweep() {
	label=$1
	shift
	"$@" "$PERFWATCH" -c "$T/perfwatch.conf" run --no-check \
	    --profile "$T/profile.conf" --label "$label" >"$T/$label.out" 2>&1 ||
		fail "run $label: $(cat "$T/$label.out")"
	pw show "$label" >"$T/$label.show" 2>&1 ||
		fail "show $label: $(cat "$T/$label.show")"
	sed -n '/^db.oltp: /,/^$/p' "$T/$label.show" |
	    awk '$1 ~ /^[0-9]+$/ { print $1 }' | tr '\n' ' '
}
want=""
t=1
while :; do
	want="$want$t "
	[ "$t" -ge $((2 * online)) ] && break
	t=$((t * 2))
done
got=$(sweep all)
[ "$got" = "$want" ] || fail "unpinned sweep \"$got\", want \"$want\""
got=$(sweep pinned taskset -c "$cpu")
[ "$got" = "1 2 " ] ||
	fail "pinned sweep \"$got\", want \"1 2 \": $(cat "$T/pinned.show")"

pass
