#!/bin/sh
# perfwatch changes leaves out a bisection's runs: they measure the
# commits of a bisection, not the host.  Twelve runs of a steady command
# workload with two runs of trigger bisect at half its speed among them:
# no change point; the same two made manual runs: a two-run spike.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
# emit.sh: the level in $T/level, 1% of jitter from a counter.
cat >"$T/emit.sh" <<EOF
n=\$(cat "$T/count" 2>/dev/null || echo 0)
n=\$((n + 1))
echo \$n >"$T/count"
awk -v n=\$n -v l=\$(cat "$T/level") 'BEGIN {
	printf "lat %.3f ms lower\\n", l * (1 + 0.01 * ((n * 7919) % 13 - 6) / 6)
}'
EOF
cat >"$T/profile.conf" <<EOF
[workload "steady"]
command = sh $T/emit.sh
iterations = 3
EOF

for i in $(seq 1 12); do
	if [ "$i" -eq 6 ] || [ "$i" -eq 7 ]; then
		echo 200 >"$T/level"
		trig=bisect
	else
		echo 100 >"$T/level"
		trig=manual
	fi
	pw -c "$T/pw.conf" run --no-check --profile "$T/profile.conf" \
	    --trigger "$trig" --label "r-$(printf %02d "$i")" \
	    >"$T/run.out" 2>&1 || fail "run $i: $(cat "$T/run.out")"
done
out=$(pw changes --workload steady --json)
[ "$out" = "[]" ] || fail "bisect runs counted: $out"

# The control: the same runs, of trigger manual, are a spike.
sqlite3 "$PERFWATCH_DB" "UPDATE runs SET trigger = 'manual'"
pw changes --workload steady --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [(c["run"], c["kind"], c["runs"]) for c in d] == \
    [("r-06", "spike", 2)], d
assert d[0]["change_pct"] > 90, d
'
pass
