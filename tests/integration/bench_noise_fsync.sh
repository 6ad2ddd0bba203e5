#!/bin/sh
# bench/noise gives fio --fsync=N, N of its 1 MiB writes: fsync_every in
# whole MiB (peers.h, peer_fio_run).  A profile whose disk.stream fsyncs
# more often than every MiB (fsync_every = 512K) would make it --fsync=0,
# no fsync but the last, beside a disk.stream that fsyncs.  The bench
# reads the profile's keys with wl_params_set(), which refuses such a
# value, so it stops with the reason before anything runs, as
# bench/fidelity refuses -f under 1 MiB.
set -eu
. "$(dirname "$0")/lib.sh"

bench="$(dirname "$PERFWATCH")/../bench/noise"
[ -x "$bench" ] || fail "no $bench (make build-all builds it)"

cat >"$T/tiny.conf" <<EOS2
[workload "disk.stream"]
size = 1M
fsync_every = 512K
iterations = 2
warmup = 0
settle = 0
EOS2
mkdir "$T/bin" "$T/scratch"
# A stand-in fio that would say it ran.
printf '#!/bin/sh\necho ran >>"%s/fio.ran"\n' "$T" >"$T/bin/fio"
chmod +x "$T/bin/fio"

rc=0
PATH="$T/bin:$PATH" "$bench" -n 2 -E -d "$T/scratch" -P "$PERFWATCH" \
    -p "$T/tiny.conf" >"$T/out" 2>"$T/err" || rc=$?
expect_eq "$rc" 2
expect_match "$(cat "$T/err")" \
    "fsync_every: expected 0 (one fsync at the end) or a size of at least 1M"
expect_match "$(cat "$T/err")" "noise: cannot read profile $T/tiny.conf"
case "$(cat "$T/out")" in
*"run 1"*) fail "a run of ours came first: $(cat "$T/out")" ;;
esac
[ ! -e "$T/fio.ran" ] || fail "fio ran"
expect_eq "$(ls "$T/scratch")" ""
pass
