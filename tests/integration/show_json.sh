#!/bin/sh
# The keys of run --json, show --json, runs --json and history --json
# are named in their commands' entries of perfwatch(1) (show's may be in
# the runs entry, whose document it extends; run's in check's, whose
# document it holds), or among the keys that DESCRIPTION gives for every
# command.  show's metrics and its quiet look, history's figures, runs'
# trigger_detail and run's document were named nowhere.
set -eu
. "$(dirname "$0")/lib.sh"
top=${PERFWATCH_TOP:?}

cat >"$T/perfwatch.conf" <<EOF
[quiet]
$QUIET_ANY_LOAD
EOF
cat >"$T/profile.conf" <<'EOF'
[workload "tiny"]
command = true
measure = time
iterations = 2
EOF
pw -c "$T/perfwatch.conf" run --profile "$T/profile.conf" --label r1 \
    --detail 'by hand' --no-check >/dev/null || fail "run"

# entry CMD: the text of perfwatch(1)'s entry for CMD.
entry() {
	awk -v c="$1" '/^\.It Ic / { on = $3 == c; next } /^\.Sh / { on = 0 }
	    on' "$top/man/perfwatch.1"
}
# ... and the keys DESCRIPTION gives for every command's output (run,
# id, workload, metric, unit, better ...), from its list to its end.
awk '/^\.Bl -tag -width change_pct/ { on = 1 } on; on && /^\.El/ { exit }' \
    "$top/man/perfwatch.1" >"$T/common"
[ -s "$T/common" ] || fail "perfwatch(1) has no list of the common keys"
entry show | cat - "$T/common" >"$T/show.entry"
entry runs | cat - "$T/common" >"$T/runs.entry"
entry history | cat - "$T/common" >"$T/history.entry"

# run --json: its own entry, and check's for the check inside it.
pw -c "$T/perfwatch.conf" run --profile "$T/profile.conf" --label r2 \
    --json >"$T/run.json" || fail "run --json"
json_keys "$T/run.json" >"$T/run.keys"
for k in workloads metrics check verdicts; do
	grep -qx "$k" "$T/run.keys" || fail "run --json has no $k"
done
entry check >"$T/check.entry"
entry run | cat - "$T/common" >"$T/run.entry"
while read -r k; do
	cat "$T/run.entry" "$T/check.entry" | grep -qiw -- "$k" ||
		fail "perfwatch(1) run does not name the --json key $k"
done <"$T/run.keys"

pw show --json r1 >"$T/show.json" || fail "show --json"
json_keys "$T/show.json" >"$T/show.keys"
for k in seen cpu_busy throttle_events values stddev; do
	grep -qx "$k" "$T/show.keys" || fail "show --json has no $k"
done
while read -r k; do
	cat "$T/show.entry" "$T/runs.entry" | grep -qiw -- "$k" ||
		fail "perfwatch(1) show does not name the --json key $k"
done <"$T/show.keys"

pw runs --json >"$T/runs.json" || fail "runs --json"
json_keys "$T/runs.json" >"$T/runs.keys"
grep -qx trigger_detail "$T/runs.keys" || fail "runs --json: no detail"
while read -r k; do
	grep -qiw -- "$k" "$T/runs.entry" ||
		fail "perfwatch(1) runs does not name the --json key $k"
done <"$T/runs.keys"

pw history --json --metric wall >"$T/history.json" || fail "history --json"
json_keys "$T/history.json" >"$T/history.keys"
while read -r k; do
	grep -qiw -- "$k" "$T/history.entry" ||
		fail "perfwatch(1) history does not name the --json key $k"
done <"$T/history.keys"
pass
