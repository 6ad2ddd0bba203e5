#!/bin/sh
# The daemon knows its profile: perfwatchd -n refuses a [git] section
# whose workloads match no workload of it (every battery of that
# repository would select nothing, fail with 64 and count its commit as
# measured), and names the workloads there are; perfwatch trigger refuses
# a glob that matches nothing (exit 1, the daemon's reason) and queues
# nothing.  The start refuses what -n refuses of the profile (78), and a
# SIGHUP that would bring a profile that cannot be had, or [git] globs
# that match nothing, is not applied: the configuration in use is kept,
# and the log says why.
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
expect_eq "$out" "$CONF:$line: [git \"demo\"] workloads: \"tinny\" (did you mean tiny?) matches no workload of the profile (its workloads: tiny other)"
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

# SIGHUP: a profile that is not there is not reloaded; the one in use is
# kept (a trigger still matches against it, and its runs still read it).
cp "$CONF" "$T/good.conf"
sed -i "s#^profile = .*#profile = $T/nosuch.conf#" "$CONF"
kill -HUP "$DPID"
wait_until 10 "the reload refused" grep -q "not reloaded" "$LOG" ||
	fail "a reload with a missing profile was applied"
pline=$(grep -n '^profile = ' "$CONF" | cut -d: -f1)
expect_match "$(cat "$LOG")" "$CONF:$pline: [perfwatch] profile \"$T/nosuch.conf\":"
grep -q "^profile = $T/profile.conf\$" "$T/state/run.conf" ||
	fail "run.conf has another profile: $(grep ^profile "$T/state/run.conf")"
out=$(pwc trigger --workload tiny) ||
	fail "trigger tiny after the refused reload: $out"
wait_until 15 "the run of tiny" runs_at_least 2 "status = 'complete'" ||
	fail "the battery of tiny after the refused reload did not complete"
# [git] globs that match nothing: refused too.
cp "$T/good.conf" "$CONF"
printf '[git "demo"]\npath = %s\nbranch = main\nworkloads = tinny\n' \
    "$T/repo" >>"$CONF"
refused=$(grep -c "not reloaded" "$LOG")
kill -HUP "$DPID"
wait_until 10 "the second reload refused" sh -c \
    "[ \$(grep -c 'not reloaded' '$LOG') -gt $refused ]" ||
	fail "a reload with [git] workloads = tinny was applied"
expect_match "$(cat "$LOG")" "[git \"demo\"] workloads: \"tinny\" (did you mean tiny?) matches no workload of the profile"
grep -q '^\[git' "$T/state/run.conf" && fail "run.conf took the [git] section"
stop_daemon

# The start: the same refusal, exit 78.
rc=0
timeout 20 "$PERFWATCHD" -d -f "$CONF" >"$T/start.out" 2>&1 || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd started with workloads = tinny: exit $rc"
expect_match "$(cat "$T/start.out")" "[git \"demo\"] workloads: \"tinny\" (did you mean tiny?) matches no workload of the profile"

pass
