#!/bin/sh
# bench/noise and bench/fidelity let the machine settle before each
# peer run as the runner does before each iteration.  They called
# sync(), which writes back every filesystem of the machine and, with a
# hung NFS mount anywhere, never returns.  They now flush the filesystem
# of their scratch directory alone, through the runner's bounded
# wl_flush(): seen here with strace, every flush is a syncfs(2) of a
# directory under the scratch directory, and no process calls sync().
set -eu
. "$(dirname "$0")/lib.sh"

top="$(dirname "$PERFWATCH")/../bench"
[ -x "$top/noise" ] && [ -x "$top/fidelity" ] ||
    skip "no $top/noise or $top/fidelity (make build-all)"
command -v strace >/dev/null 2>&1 || skip "no strace"
strace -qq -o /dev/null true 2>/dev/null || skip "strace may not trace here"
PATH="$PATH:/usr/sbin:/sbin"
command -v fio >/dev/null 2>&1 || skip "no fio"
command -v bonnie++ >/dev/null 2>&1 || skip "no bonnie++"
# LeakSanitizer stops a traced process (an ASan build's): no leak check
# under strace; every other check of the sanitizers stays.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

# check NAME DIR: NAME's trace ($T/NAME.trace) has at least MIN syncfs
# calls, each on a directory under DIR, and no sync().
check() {
	n=0
	while IFS= read -r line; do
		case "$line" in
		*" sync()"*)
			fail "$1 called sync(): $line" ;;
		*" syncfs("*"<$2/"*">)"*)
			n=$((n + 1)) ;;
		*" syncfs("*)
			fail "$1 flushed another directory: $line" ;;
		esac
	done <"$T/$1.trace"
	[ "$n" -ge "$3" ] || fail "$1: $n syncfs calls, expected $3 or more"
}

# noise: one small disk.stream, two runs, each with a fio peer run.
tiny_stream_profile "$T/tiny.conf"
mkdir "$T/scratch" "$T/fid"
scratch=$(cd "$T/scratch" && pwd -P)
fid=$(cd "$T/fid" && pwd -P)
rc=0
strace -f -y -qq -e trace=sync,syncfs -o "$T/noise.trace" \
    "$top/noise" -n 2 -E -d "$scratch" -P "$PERFWATCH" -p "$T/tiny.conf" \
    >"$T/noise.out" 2>"$T/noise.err" || rc=$?
# 1: a figure of ours noisier than its peer's, as it may well be here;
# but both runs measured, ours and the peer's (1 is a failure too).
[ "$rc" -le 1 ] || fail "noise exited $rc: $(cat "$T/noise.err")"
[ "$(grep -c '^run [12]: .*peers done' "$T/noise.out")" -eq 2 ] ||
	fail "noise did not measure two runs: $(cat "$T/noise.err")"
check noise "$scratch" 2

# fidelity: one repetition of small files; four peer and native runs,
# each after a settle.
rc=0
strace -f -y -qq -e trace=sync,syncfs -o "$T/fidelity.trace" \
    "$top/fidelity" -n 1 -E -s 2M -k 20 -p 1 -c 1M -f 1M -w 0 -d "$fid" \
    >"$T/fidelity.out" 2>"$T/fidelity.err" || rc=$?
# 1: a ratio outside 0.85-1.15, or a figure bonnie++ printed as "+++++",
# as files of 2 MiB may well give; but the repetition made (1 is a
# failure too).
[ "$rc" -le 1 ] || fail "fidelity exited $rc: $(cat "$T/fidelity.err")"
grep -q '^load average at end: .*; 1 repetitions in' "$T/fidelity.out" ||
	fail "fidelity did not make its repetition: $(cat "$T/fidelity.err")"
check fidelity "$fid" 4
pass
