#!/bin/sh
# bench/fidelity judges each figure by the median of its ratios ours /
# theirs.  bonnie++ prints "+++++" rather than a figure for a phase
# under half a second (read as NAN), and such a figure came out
# "OUTSIDE 0.85-1.15" and was counted among the ratios outside, though
# nothing had been compared.  It is said to be impossible to compare now,
# and counted apart, as bench/noise does; and, as there, a figure not
# compared is no figure passed: the bench exits 1 (it exited 0 whatever
# the verdicts said; bench_fidelity_exit.sh has those outside the
# range).  Stand-ins for bonnie++ and fio
# print figures as the real ones do (bonnie++ "+++++" for the block
# read), beside a real disk.bonnie and disk.stream of 1 MiB.
set -eu
. "$(dirname "$0")/lib.sh"

bench="$(dirname "$PERFWATCH")/../bench/fidelity"
[ -x "$bench" ] || fail "no $bench (make build-all builds it)"

mkdir "$T/bin" "$T/scratch"
# bonnie++ 2.00a's CSV data line: 7 seeks, 8 seekers, 11-14 the block
# write and rewrite, 17-18 the block read, 19-20 the seeks.
cat >"$T/bin/bonnie++" <<'EOF'
#!/bin/sh
printf '%s' '1.98,2.00a,perfwatch,1,1700000000,1M,8192,10,1,,,' \
    '90000,50,60000,40,,,+++++,+++,500.0,80,,,,,,,,,,,,,,,,,,,,,,,,'
echo
EOF
cat >"$T/bin/fio" <<'EOF'
#!/bin/sh
printf '%s' '{"jobs": [{"write": {"bw_bytes": 104857600}, ' \
    '"usr_cpu": 1.0, "sys_cpu": 2.0}]}'
echo
EOF
chmod +x "$T/bin/bonnie++" "$T/bin/fio"

rc=0
PATH="$T/bin:$PATH" "$bench" -E -n 1 -s 1M -c 1M -k 10 -p 1 -w 0 \
    -d "$T/scratch" >"$T/out" 2>"$T/err" || rc=$?
out=$(cat "$T/out")
expect_match "$out" "1 repetitions in"
expect_eq "$rc" 1
expect_match "$out" \
    "bonnie block read: cannot compare (bonnie++ printed no figure)"
case "$out" in
*"bonnie block read: OUTSIDE"*) fail "the block read judged: $out" ;;
esac
# The count of ratios outside is of the figures judged outside alone.
outside=$(grep -c ': OUTSIDE ' "$T/out" || true)
expect_match "$out" "$outside of 5 ratios outside 0.85-1.15 (0 of them \
explained by a difference in definition); 1 cannot be compared"
pass
