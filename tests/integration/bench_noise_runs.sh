#!/bin/sh
# bench/noise stops its runs at the first that fails, a run of ours or
# of a peer, and reports over the runs made before it.  It exited 0 all
# the same whenever two or more had been made and their verdicts held:
# "-n 3" with the third run failed printed "CV of the run medians over
# 2 runs" and passed, as if the three asked for had been measured.  It
# says "only 2 of 3 runs" now and exits 1.  Stand-ins wrap the real
# perfwatch and fio and fail on a later call, as a crashed run would.
set -eu
. "$(dirname "$0")/lib.sh"

bench="$(dirname "$PERFWATCH")/../bench/noise"
[ -x "$bench" ] || fail "no $bench (make build-all builds it)"
fio=$(command -v fio) || skip "no fio"

tiny_stream_profile "$T/tiny.conf"
mkdir "$T/bin" "$T/scratch"

# perfwatch whose third "run" fails; its other commands (export) pass.
cat >"$T/pw" <<EOS
#!/bin/sh
for a in "\$@"; do
	if [ "\$a" = run ]; then
		echo x >>"$T/pw.runs"
		if [ "\$(wc -l <"$T/pw.runs")" -ge 3 ]; then
			echo "perfwatch: the third run fails" >&2
			exit 3
		fi
	fi
done
exec "$PERFWATCH" "\$@"
EOS
chmod +x "$T/pw"

# check NAME: noise's output NAME.out says it made two of three runs and
# judged those, and it exited 1.
check() {
	out=$(cat "$T/$1.out")
	[ "$(grep -c '^run [12]: .*peers done' "$T/$1.out")" -eq 2 ] ||
		fail "$1: noise did not measure two runs: $(cat "$T/$1.err")"
	expect_match "$out" "CV of the run medians over only 2 of 3 runs"
	expect_match "$out" "only 2 of 3 runs: the verdicts above are of those"
	expect_eq "$2" 1
}

rc=0
PATH="$T/bin:$PATH" "$bench" -n 3 -E -w 0 -d "$T/scratch" -P "$T/pw" \
    -p "$T/tiny.conf" >"$T/ours.out" 2>"$T/ours.err" || rc=$?
expect_match "$(cat "$T/ours.err")" "the third run fails"
check ours "$rc"

# fio whose fifth call, the first of the third run's two, fails.
cat >"$T/bin/fio" <<EOS
#!/bin/sh
echo x >>"$T/fio.calls"
if [ "\$(wc -l <"$T/fio.calls")" -ge 5 ]; then
	echo "fio: the fifth call fails" >&2
	exit 1
fi
exec "$fio" "\$@"
EOS
chmod +x "$T/bin/fio"
rc=0
PATH="$T/bin:$PATH" "$bench" -n 3 -E -w 0 -d "$T/scratch" -P "$PERFWATCH" \
    -p "$T/tiny.conf" >"$T/peer.out" 2>"$T/peer.err" || rc=$?
expect_match "$(cat "$T/peer.err")" "noise: run 3 peers: fio failed"
check peer "$rc"
expect_eq "$(ls "$T/scratch")" ""
pass
