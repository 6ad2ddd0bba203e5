#!/bin/sh
# A webhook url whose path and query hold the receiver's token (as a
# chat's incoming webhook or an automation's hook has it), to a port
# where nothing listens: the answer names the server alone, and the
# token is in neither the flush's output, its log lines, notify pending
# nor the outbox.  Before, the whole url was in the answer, and so in
# syslog and the database at every retry.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port=$(free_port)
printf '[detect]\nbaseline_runs = 30\n' >"$T/sinks.conf"
printf '[sink "chat"]\ntype = webhook\nurl = %s\n' \
    "http://127.0.0.1:$port/hooks/T0K3N-in-path?key=qu3ry-t0ken#fr4g" \
    >>"$T/sinks.conf"
conf="$T/sinks.conf"
confirmed_regression "$conf"

pwt -c "$conf" notify flush >"$T/f.out" 2>&1 ||
	fail "flush: $(cat "$T/f.out")"
expect_match "$(cat "$T/f.out")" "retrying 1, failed 0"
expect_match "$(cat "$T/f.out")" "sink chat): attempt 1 failed, next at \
+60s: http://127.0.0.1:$port: "
pwt -c "$conf" notify pending --all --json >"$T/p.json" 2>&1 ||
	fail "pending: $(cat "$T/p.json")"
sqlite3 "$PERFWATCH_DB" "SELECT last_error FROM outbox" >"$T/db" ||
	fail "sqlite3"
grep -q "^http://127.0.0.1:$port: " "$T/db" ||
	fail "not the answer recorded: $(cat "$T/db")"
for f in f.out p.json db; do
	! grep -E -q 'T0K3N|qu3ry|fr4g' "$T/$f" ||
		fail "the token in $f: $(cat "$T/$f")"
done
pass
