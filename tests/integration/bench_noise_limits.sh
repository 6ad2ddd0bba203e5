#!/bin/sh
# bench/noise keeps a run's iterations of a figure in arrays of 64
# (NZ_ITER_MAX).  A profile with more iterations ran, and the bench took
# the first 64 of ours and ran the peers 64 times, without a word.  It
# refuses such a profile now, before anything runs.  A stand-in for
# perfwatch records whether it was run.
set -eu
. "$(dirname "$0")/lib.sh"

bench="$(dirname "$PERFWATCH")/../bench/noise"
[ -x "$bench" ] || fail "no $bench (make build-all builds it)"

cat >"$T/big.conf" <<EOS2
[workload "sys.syscall"]
duration = 1s
iterations = 65
warmup = 0
EOS2
printf '#!/bin/sh\necho ran >>"%s/pw.ran"\nexit 3\n' "$T" >"$T/pw"
chmod +x "$T/pw"
mkdir "$T/scratch"

rc=0
"$bench" -n 2 -d "$T/scratch" -P "$T/pw" -p "$T/big.conf" \
    >"$T/out" 2>"$T/err" || rc=$?
expect_eq "$rc" 2
expect_match "$(cat "$T/err")" "noise: $T/big.conf: [workload \"sys.syscall\"] \
iterations = 65: the bench keeps at most 64 iterations a run"
[ ! -e "$T/pw.ran" ] || fail "perfwatch ran"
expect_eq "$(ls "$T/scratch")" ""
pass
