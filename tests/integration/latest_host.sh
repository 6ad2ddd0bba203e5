#!/bin/sh
# check, check --latest, check --bisect and show without a run take the
# newest run of this host, the one perfwatch records its own runs under,
# not the newest of any host: a store holds other machines' runs too
# (import), and check judged the newest of those.  A store with no run of
# this host says so, names the hosts it has runs of, and asks for a run.
set -eu
. "$(dirname "$0")/lib.sh"

# other RUNS FIRST: runs o-FIRST.. of host boxo, newer than any of ours.
other() {
	awk -v n="$1" -v first="$2" -v host="$3" 'BEGIN {
		print "run,time,workload,metric,value,unit,better,host,iteration"
		for (r = first; r < first + n; r++)
			for (i = 1; i <= 3; i++)
				printf "o-%d,%d,w,m,%.2f,s,lower,%s,%d\n", r,
				    1800000000 + r, 200 + 0.1 * i, host, i
	}'
}
other 5 1 boxo | pw import - >/dev/null

for args in show "show --latest" check "check --latest"; do
	rc=0
	# shellcheck disable=SC2086 # the words are split on purpose
	pw $args >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 65 ] || fail "$args with no run of this host: exit $rc"
	expect_match "$(cat "$T/err")" "no run of this host ($(hostname)) in $PERFWATCH_DB, which holds runs of host boxo: name a run, as HOST:LABEL"
	[ ! -s "$T/out" ] || fail "$args printed: $(cat "$T/out")"
done
rc=0; pw check --bisect >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 128 ] || fail "check --bisect with no run of this host: exit $rc"
expect_match "$(cat "$T/err")" "holds runs of host boxo"
other 1 9 boxp | pw import - >/dev/null
rc=0; pw show 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "show: exit $rc"
expect_match "$(cat "$T/err")" "holds runs of hosts boxo, boxp:"
# Named, another host's run is judged as before.
pw check o-5 >"$T/out" || fail "check o-5: exit $?"
expect_match "$(cat "$T/out")" "run o-5"

# This host's runs (an import without a host column is this machine's),
# all older than boxo's; the newest of them aborted.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,iteration,status"
	for (r = 1; r <= 5; r++)
		for (i = 1; i <= 3; i++)
			printf "l-%d,%d,w,m,%.2f,s,lower,%d,%s\n", r,
			    1700000000 + r, (r == 4 ? 130 : 100) + 0.1 * i, i,
			    r == 5 ? "aborted" : "complete"
}' | pw import - >/dev/null
expect_match "$(pw show | head -n 1)" "run l-5 on $(hostname),"
expect_match "$(pw show --latest | head -n 1)" "run l-5 on $(hostname),"
# check judges this host's newest complete run, l-4, 30% slower.
rc=0; pw check >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "check: exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/out")" "run l-4"
rc=0; pw check --latest >"$T/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "check --latest: exit $rc"
expect_match "$(cat "$T/out")" "run l-4"
# check --bisect: the newest run of this host is the commit's: aborted.
rc=0; pw check --bisect >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 125 ] || fail "check --bisect: exit $rc"
expect_match "$(cat "$T/err")" "the newest run, l-5, is aborted"
pass
