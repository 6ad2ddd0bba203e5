#!/bin/sh
# bench/noise runs each peer of the profile's disk workloads after each
# run of ours (bonnie++ beside disk.bonnie, fio beside disk.stream).  A
# peer not in PATH (bonnie++ is in /usr/sbin on Debian, outside a user's
# PATH) was found missing only after the first run of the profile, the
# quick one's two minutes, and said so as "fio failed (status 32512)".
# It is named before anything runs now.
set -eu
. "$(dirname "$0")/lib.sh"

bench="$(dirname "$PERFWATCH")/../bench/noise"
[ -x "$bench" ] || skip "no $bench (make build-all)"

tiny_stream_profile "$T/tiny.conf"
mkdir "$T/bin" "$T/scratch"

rc=0
PATH="$T/bin" "$bench" -n 2 -E -d "$T/scratch" -P "$PERFWATCH" \
    -p "$T/tiny.conf" >"$T/out" 2>"$T/err" || rc=$?
expect_eq "$rc" 2
expect_match "$(cat "$T/err")" "noise: fio, disk.stream's peer, is not in PATH"
# Nothing ran: no run of ours, no scratch directory.
case "$(cat "$T/out")" in
*"run 1"*) fail "a run of ours came first: $(cat "$T/out")" ;;
esac
expect_eq "$(ls "$T/scratch")" ""
pass
