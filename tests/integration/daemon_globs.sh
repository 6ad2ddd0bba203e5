#!/bin/sh
# The daemon knows its profile: perfwatchd -n refuses a [git] section
# whose workloads match no workload of it (every battery of that
# repository would select nothing, fail with 64 and count its commit as
# measured), and names the workloads there are.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
git_conf() {
	write_conf_manual "
[git \"demo\"]
path = $T/repo
branch = main
workloads = $1"
}

# perfwatchd -n: a typo in [git] workloads, at its line; a glob that
# matches passes.
git_conf "tiny, tinny"
rc=0
out=$("$PERFWATCHD" -n -f "$CONF" 2>&1) || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd -n, workloads = tinny: exit $rc: $out"
line=$(grep -n '^workloads = ' "$CONF" | cut -d: -f1)
expect_eq "$out" "$CONF:$line: [git \"demo\"] workloads: \"tinny\" matches no workload of the profile (its workloads: tiny other)"
git_conf "ti*, oth?r"
out=$("$PERFWATCHD" -n -f "$CONF" 2>&1) || fail "perfwatchd -n, ti*: $out"
expect_eq "$out" "$CONF: configuration OK"
# A workload that enabled = no turns off is not one to match; the
# configuration's own command workloads are.
git_conf "other, mine"
printf '[workload "other"]\nenabled = no\n' >>"$CONF"
rc=0
out=$("$PERFWATCHD" -n -f "$CONF" 2>&1) || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd -n, a disabled workload: exit $rc: $out"
expect_match "$out" "workloads: \"other\", \"mine\" match no workload of the profile (its workloads: tiny)"
printf '[workload "mine"]\ncommand = true\nmeasure = time\n' >>"$CONF"
rc=0
out=$("$PERFWATCHD" -n -f "$CONF" 2>&1) || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd -n, other disabled: exit $rc: $out"
expect_match "$out" "workloads: \"other\" matches no workload of the profile (its workloads: tiny mine)"

pass
