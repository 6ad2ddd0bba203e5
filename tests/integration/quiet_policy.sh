#!/bin/sh
# The quiet-machine check before a run, under CPU hogs started by the
# test: `skip` records no run and exits 75, `annotate` measures and marks
# the run busy with the reason, `wait` waits max_wait, then measures and
# marks it.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work"
printf '[workload "tiny"]\ncommand = true\nmeasure = time\niterations = 1\n' \
    >"$T/profile.conf"
conf() {	# policy [extra line]
	printf '[perfwatch]\nwork_dir = %s\n[quiet]\npolicy = %s\nmax_cpu_busy = 25\n%s\n' \
	    "$T/work" "$1" "${2:-}" >"$T/$1.conf"
}
conf skip
conf annotate
conf wait "max_wait = 2s"

# One busy loop per CPU, stopped however the test ends.
hogs=""
n=$(getconf _NPROCESSORS_ONLN)
i=0
while [ "$i" -lt "$n" ]; do
	sh -c 'while :; do :; done' &
	hogs="$hogs $!"
	i=$((i + 1))
done
trap 'kill $hogs 2>/dev/null; rm -rf "$T"' EXIT INT TERM
sleep 1

rc=0
pw -c "$T/skip.conf" run --no-check --profile "$T/profile.conf" \
    --label skipped >"$T/skip.out" 2>&1 || rc=$?
[ "$rc" -eq 75 ] || fail "skip: exit $rc, not 75: $(cat "$T/skip.out")"
grep -q "machine busy: cpu busy" "$T/skip.out" ||
	fail "skip: no reason given: $(cat "$T/skip.out")"
grep -q "skipping the run" "$T/skip.out" || fail "skip: $(cat "$T/skip.out")"
if pw show skipped >/dev/null 2>&1; then
	fail "skip: a run was recorded"
fi

pw -c "$T/annotate.conf" run --no-check --profile "$T/profile.conf" \
    --label annotated >"$T/annotate.out" 2>&1 ||
	fail "annotate: $(cat "$T/annotate.out")"
sqlite3 "$PERFWATCH_DB" "SELECT quiet FROM runs WHERE label = 'annotated'" \
    >"$T/annotate.quiet"
python3 -c '
import json, sys
q = json.load(open(sys.argv[1]))
assert q["policy"] == "annotate" and q["busy"] is True, q
assert "cpu busy" in q["why"], q
assert q["seen"]["cpu_busy"] > 0.25, q
' "$T/annotate.quiet" || fail "annotate: $(cat "$T/annotate.quiet")"

start=$(date +%s)
pw -c "$T/wait.conf" run --no-check --profile "$T/profile.conf" \
    --label waited >"$T/wait.out" 2>&1 || fail "wait: $(cat "$T/wait.out")"
end=$(date +%s)
[ $((end - start)) -ge 2 ] || fail "wait: did not wait ($((end - start)) s)"
grep -q "waiting up to 2s" "$T/wait.out" || fail "wait: $(cat "$T/wait.out")"
sqlite3 "$PERFWATCH_DB" "SELECT quiet FROM runs WHERE label = 'waited'" \
    >"$T/wait.quiet"
python3 -c '
import json, sys
q = json.load(open(sys.argv[1]))
assert q["policy"] == "wait" and q["busy"] is True, q
assert q["waited"] >= 1.5, q
' "$T/wait.quiet" || fail "wait: $(cat "$T/wait.quiet")"
# Each limit is a key: with the load and CPU limits lifted, the runnable
# tasks of the hogs still make the machine busy (max_runnable's default,
# half a task per CPU), and with every limit lifted it is quiet.
lax() {	# name [extra lines]
	printf '[perfwatch]\nwork_dir = %s\n[quiet]\npolicy = skip\nmax_load = 1024\nmax_cpu_busy = 100\n%s\n' \
	    "$T/work" "${2:-}" >"$T/$1.conf"
}
lax runnable
rc=0
pw -c "$T/runnable.conf" run --no-check --profile "$T/profile.conf" \
    --label runnable >"$T/runnable.out" 2>&1 || rc=$?
[ "$rc" -eq 75 ] || fail "runnable: exit $rc: $(cat "$T/runnable.out")"
grep -q "machine busy: [0-9]* runnable tasks > " "$T/runnable.out" ||
	fail "runnable: $(cat "$T/runnable.out")"
lax lax "max_runnable = 1024
max_swap_pages = 1000000000
min_mem_available = 0
max_throttle_events = 1000000000"
pw -c "$T/lax.conf" run --no-check --profile "$T/profile.conf" \
    --label lax >"$T/lax.out" 2>&1 || fail "lax: $(cat "$T/lax.out")"
if grep -q "machine busy" "$T/lax.out"; then
	fail "lax: $(cat "$T/lax.out")"
fi
pass
