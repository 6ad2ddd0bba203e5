#!/bin/sh
# bench/noise says a disk figure it cannot compare with its peer's (the
# peer printed it in too few runs: bonnie++'s "+++++") is impossible to
# compare rather than passed, but its exit status left such figures
# out: with every figure uncompared and nothing else missed it exited
# 0, as if every disk metric had been shown no noisier than its peer.
# They count as misses now.  A stand-in bonnie++ prints "+++++" for
# every figure, beside a real disk.bonnie of 1 MiB.
set -eu
. "$(dirname "$0")/lib.sh"

bench="$(dirname "$PERFWATCH")/../bench/noise"
[ -x "$bench" ] || skip "no $bench (make build-all)"

mkdir "$T/bin" "$T/scratch"
# bonnie++ 2.00a's CSV data line, with the seeks and seekers it was
# asked for (-s SIZE:CHUNK:SEEKS:SEEKERS) and no figure at all.
cat >"$T/bin/bonnie++" <<'EOS'
#!/bin/sh
while [ $# -gt 0 ]; do
	case "$1" in -s) spec=$2; shift ;; esac
	shift
done
seeks=$(echo "$spec" | cut -d: -f3)
seekers=$(echo "$spec" | cut -d: -f4)
printf '%s' "1.98,2.00a,perfwatch,1,1700000000,1M,8192,$seeks,$seekers,," \
    ",+++++,+++,+++++,+++,,,+++++,+++,+++++,+++,,,,,,,,,,,,,,,,,,,,,,,,"
echo
EOS
chmod +x "$T/bin/bonnie++"
cat >"$T/tiny.conf" <<EOS
[workload "disk.bonnie"]
size = 1M
seeks = 100
char_size = 1M
iterations = 2
warmup = 0
settle = 0
EOS

rc=0
PATH="$T/bin:$PATH" "$bench" -n 2 -E -w 0 -d "$T/scratch" -P "$PERFWATCH" \
    -p "$T/tiny.conf" >"$T/out" 2>"$T/err" || rc=$?
[ "$(grep -c '^run [12]: .*peers done' "$T/out")" -eq 2 ] ||
	fail "noise did not measure two runs: $(cat "$T/err")"
# disk.bonnie's eight figures with a peer: none compared, none noisier.
expect_match "$(cat "$T/out")" "noisier than their peer: 0 ("
expect_match "$(cat "$T/out")" \
    "disk metrics that cannot be compared (no figure printed in enough runs): 8"
expect_eq "$(grep -c 'no peer figure (+++++): cannot compare$' "$T/out")" 8
expect_eq "$rc" 1
pass
