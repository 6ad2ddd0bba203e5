#!/bin/sh
# Each db.oltp thread opens its own SQLite connection, so a sweep to more
# threads than the soft limit of open files (1024 by default, systemd's
# too) failed: "oltp.db: unable to open database file", though threads
# takes up to 4096.  The workload now raises its soft limit as far as the
# hard limit allows, and says so when the hard limit is too low.
set -eu
. "$(dirname "$0")/lib.sh"

[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -ge 364 ] ||
	skip "hard limit of open files $(ulimit -Hn), below 364"
mkdir -p "$T/work"
cat >"$T/profile.conf" <<EOC
[workload "db.oltp"]
table_size = 100
duration = 1s
threads = 300
iterations = 1
EOC
cat >"$T/perfwatch.conf" <<EOC
[perfwatch]
work_dir = $T/work
[quiet]
$QUIET_ANY_LOAD
EOC
# oltp LABEL LIMIT...: run the profile under ulimit LIMIT...; $rc.
oltp() {
	label=$1
	shift
	rc=0
	(ulimit "$@" && exec "$PERFWATCH" -c "$T/perfwatch.conf" run \
	    --no-check --profile "$T/profile.conf" --label "$label") \
	    >"$T/$label.out" 2>&1 || rc=$?
}

# A soft limit of 256 under a higher hard one: raised, and 300 threads run.
oltp soft -Sn 256
[ "$rc" -eq 0 ] || fail "soft: exit $rc: $(cat "$T/soft.out")"
[ "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM samples s JOIN metrics m
    ON m.id = s.metric WHERE m.metric = 'tps_t300'")" = 1 ] ||
	fail "soft: no tps_t300: $(cat "$T/soft.out")"

# A hard limit of 256 too: the workload fails, saying why.
oltp hard -n 256
[ "$rc" -eq 70 ] || fail "hard: exit $rc: $(cat "$T/hard.out")"
expect_match "$(cat "$T/hard.out")" "perfwatch: db.oltp: exited with status \
1: threads 300 need about 364 open files; the limit is 256 (ulimit -Hn)"
pass
