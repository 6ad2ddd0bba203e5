#!/bin/sh
# The daemon knows its profile: perfwatchd -n refuses a [git] section
# whose workloads match no workload of it (every battery of that
# repository would select nothing, fail with 64 and count its commit as
# measured), and names the workloads there are; perfwatch trigger refuses
# a glob that matches nothing (exit 1, the daemon's reason) and queues
# nothing.
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

# trigger: a glob that matches nothing is refused and nothing queued; one
# that matches is queued and run.
write_conf_manual
start_daemon
rc=0
out=$(pwc trigger --workload tiny --workload nosuch 2>&1) || rc=$?
[ "$rc" -eq 1 ] || fail "trigger --workload nosuch: exit $rc: $out"
expect_eq "$out" "perfwatch: perfwatchd: workloads: \"nosuch\" matches no workload of the profile (its workloads: tiny other)"
[ "$(status_field 'len(d["pending"])')" = 0 ] || fail "nosuch was queued"
[ "$(status_field 'd["state"]')" = idle ] || fail "nosuch started a battery"
out=$(pwc trigger --workload 'ot*') || fail "trigger ot*: $out"
expect_eq "$out" "queued a battery of ot*"
wait_until 15 "the run of other" runs_at_least 1 "status = 'complete'" ||
	fail "the battery of ot* did not complete"
wl=$(sql "SELECT group_concat(workload) FROM run_workloads")
[ "$wl" = other ] || fail "the battery of ot* measured $wl"
[ "$(count_runs 1)" = 1 ] || fail "$(count_runs 1) runs, not 1"
stop_daemon

pass
