#!/bin/sh
# bench/noise printed both peers whatever the profile ran: with neither
# disk.bonnie nor disk.stream, "quiet before each as the profile gives
# its workload ()", "bonnie++'s file evicted at each open", and after
# each run "ours:  bonnie write nan ..." and "peers: bonnie++ write nan
# ... fio nan MiB/s (nan: +++++)"; with disk.stream alone, bonnie++'s
# figures as nan beside fio's.  It speaks of the peers the profile runs
# now, and of none when it runs none.
set -eu
. "$(dirname "$0")/lib.sh"

bench="$(dirname "$PERFWATCH")/../bench/noise"
[ -x "$bench" ] || fail "no $bench (make build-all builds it)"
command -v fio >/dev/null 2>&1 || skip "no fio"
mkdir "$T/scratch"

# none PATTERN FILE: no line of FILE holds PATTERN (fixed).
none() {
	! grep -F -e "$1" "$2" >/dev/null || fail "\"$1\" in: $(cat "$2")"
}

cat >"$T/sys.conf" <<EOS2
[workload "sys.syscall"]
duration = 1s
iterations = 2
warmup = 0
EOS2
rc=0
"$bench" -n 2 -d "$T/scratch" -P "$PERFWATCH" -p "$T/sys.conf" \
    >"$T/sys.out" 2>"$T/sys.err" || rc=$?
# 1: its CV may be 3% or more at this size; but both runs made.
[ "$rc" -le 1 ] || fail "noise exited $rc: $(cat "$T/sys.err")"
[ "$(grep -c '^run [12]: .*quick profile' "$T/sys.out")" -eq 2 ] ||
	fail "noise did not make two runs: $(cat "$T/sys.err")"
expect_match "$(head -n 1 "$T/sys.out")" \
    "; no peers (the profile has neither disk.bonnie nor disk.stream)"
for p in bonnie++ fio nan "()" evicted "  ours:" "  peers:" "peers done"; do
	none "$p" "$T/sys.out"
done

tiny_stream_profile "$T/stream.conf"
rc=0
"$bench" -n 2 -d "$T/scratch" -P "$PERFWATCH" -p "$T/stream.conf" \
    >"$T/stream.out" 2>"$T/stream.err" || rc=$?
[ "$rc" -le 1 ] || fail "noise exited $rc: $(cat "$T/stream.err")"
[ "$(grep -c '^run [12]: .*peers done' "$T/stream.out")" -eq 2 ] ||
	fail "noise did not make two runs: $(cat "$T/stream.err")"
expect_match "$(head -n 1 "$T/stream.out")" \
    "as much quiet before each as the profile gives its workload (fio 0 s)"
[ "$(grep -c '^  ours:  stream [0-9.]* MiB/s$' "$T/stream.out")" -eq 2 ] ||
	fail "no line of ours per run: $(cat "$T/stream.out")"
[ "$(grep -c '^  peers: fio [0-9.]* MiB/s$' "$T/stream.out")" -eq 2 ] ||
	fail "no line of fio per run: $(cat "$T/stream.out")"
none bonnie "$T/stream.out"
none "+++++" "$T/stream.out"
pass
