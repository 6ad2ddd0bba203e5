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

# The measuring lock.  While a run measures (a workload of 8 s) another
# run skips, is marked busy, or waits for it to finish, by the policy.
# These runs lift every other limit, so that only the lock makes them
# busy, whatever else the machine does (a build, the tests beside this).
printf '[workload "slow"]\ncommand = sleep 8\nmeasure = time\niterations = 1\n' \
    >"$T/slow.conf"
lockconf() {	# name policy [extra line]
	printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n%s\n' "$T/work" \
	    "$(echo "$QUIET_ANY_LOAD" | sed "s/^policy = .*/policy = $2/")" \
	    "${3:-}" >"$T/$1.conf"
}
lockconf lockskip skip "lock = $PERFWATCH_LOCK"
lockconf lockmark annotate
lockconf longwait wait "max_wait = 60s"
pw -c "$T/lockmark.conf" run --no-check --profile "$T/slow.conf" \
    --label holder >"$T/holder.out" 2>&1 &
holder=$!
i=0
until [ "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM runs WHERE
    label = 'holder'" 2>/dev/null)" = 1 ]; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || fail "holder: no run after 10 s: $(cat "$T/holder.out")"
	sleep 0.1
done
# skip, with the lock named by [quiet] lock rather than $PERFWATCH_LOCK.
rc=0
PERFWATCH_LOCK= pw -c "$T/lockskip.conf" run --no-check \
    --profile "$T/profile.conf" --label lockskip >"$T/lockskip.out" 2>&1 ||
	rc=$?
[ "$rc" -eq 75 ] || fail "lock skip: exit $rc: $(cat "$T/lockskip.out")"
expect_match "$(cat "$T/lockskip.out")" "machine busy: another perfwatch run is measuring; skipping the run"
if pw show lockskip >/dev/null 2>&1; then
	fail "lock skip: a run was recorded"
fi
pw -c "$T/lockmark.conf" run --no-check --profile "$T/profile.conf" \
    --label lockmarked >"$T/lockmarked.out" 2>&1 ||
	fail "lock annotate: $(cat "$T/lockmarked.out")"
python3 -c '
import json, sys
q = json.loads(sys.argv[1])
assert q["busy"] is True and q["why"] == "another perfwatch run was measuring", q
' "$(sqlite3 "$PERFWATCH_DB" "SELECT quiet FROM runs WHERE label =
    'lockmarked'")" || fail "lock annotate: not marked"
pw -c "$T/longwait.conf" run --no-check --profile "$T/profile.conf" \
    --label lockwaited >"$T/lockwaited.out" 2>&1 ||
	fail "lock wait: $(cat "$T/lockwaited.out")"
wait "$holder" || fail "holder: $(cat "$T/holder.out")"
expect_match "$(cat "$T/lockwaited.out")" "another perfwatch run is measuring this machine (it holds $PERFWATCH_LOCK); waiting up to 1m for it"
expect_match "$(cat "$T/lockwaited.out")" "the other run finished after"
# It measured after the holder ended, and is not marked: it waited.
[ "$(sqlite3 "$PERFWATCH_DB" "SELECT (SELECT started FROM runs WHERE
    label = 'lockwaited') >= (SELECT ended FROM runs WHERE
    label = 'holder')")" = 1 ] || fail "lock wait: measured beside the holder"
python3 -c '
import json, sys
q = json.loads(sys.argv[1])
assert q["busy"] is False and q["waited"] >= 1, q
' "$(sqlite3 "$PERFWATCH_DB" "SELECT quiet FROM runs WHERE label =
    'lockwaited'")" || fail "lock wait: marked busy"
# show says which runs were measured on a busy machine, and why.
expect_match "$(pw show lockmarked | sed -n 2p)" "measured on a busy machine: another perfwatch run was measuring"
if pw show holder | grep -q "busy machine"; then
	fail "show: the holder, measured on a quiet machine, is marked"
fi
pw show --json lockmarked | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["quiet"]["busy"] is True and d["quiet"]["policy"] == "annotate", d
'
[ "$(stat -c %a "$PERFWATCH_LOCK")" = 444 ] ||
	fail "the lock file is mode $(stat -c %a "$PERFWATCH_LOCK"), not 444"

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
# show --json gives the look's keys in perfwatch(1)'s order, as every
# other object: it gave them as stored, sorted ("busy", "policy", ...).
pw show --json annotated | python3 -c '
import json, sys
q = json.load(sys.stdin)["quiet"]
assert list(q) == ["policy", "busy", "why", "waited", "seen"], list(q)
assert list(q["seen"]) == ["interval", "load1", "load5", "load15", "ncpu",
    "runnable", "cpu_busy", "swap_in", "swap_out", "mem_total_kb",
    "mem_available_kb", "throttle_count", "throttle_events"], list(q["seen"])
assert q["seen"]["cpu_busy"] > 0.25, q
' || fail "show --json annotated: the quiet keys' order"

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
