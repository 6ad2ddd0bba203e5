#!/bin/sh
# A battery whose run measured but could not be judged (here: [detect]
# baseline names a pinned baseline the store does not have, exit 65)
# left perfwatch status saying "last run: ... complete" with no
# verdicts and no problem, and the daemon's log only the run's own line:
# nothing said that no night was being judged.  The daemon now warns,
# and status gives the reason as its problem until a run is judged.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual '
[detect]
baseline = nosuch'
start_daemon
pwc trigger >/dev/null || fail "trigger"
wait_until 15 "the battery's end" sh -c \
    "grep -q 'run [^ ]*: complete (manual)' '$LOG'" ||
	fail "the battery did not end"
idle() {
	[ "$(status_field 'd["state"]')" = idle ]
}
no_problem() {
	[ "$(status_field 'd["last_error"]')" = None ]
}
wait_until 5 "the daemon idle" idle || fail "the daemon is not idle"
err=$(status_field 'd["last_error"]')
expect_match "$err" 'not judged: no baseline "nosuch", which [detect] baseline names'
expect_match "$(pwc status)" '  problem:   '
expect_match "$(cat "$LOG")" 'was not judged'

# Once the baseline exists, the next battery is judged: no problem.
label=$(sql "SELECT label FROM runs ORDER BY id LIMIT 1")
pwc -D "$DB" baseline set nosuch "$label" >/dev/null
pwc trigger >/dev/null || fail "trigger"
wait_until 15 "the second battery" runs_at_least 2 "status = 'complete'" ||
	fail "the second battery did not complete"
wait_until 10 "the problem gone" no_problem ||
	fail "the problem stayed: $(status_field 'd["last_error"]')"
pass
