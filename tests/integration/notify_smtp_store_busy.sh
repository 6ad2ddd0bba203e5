#!/bin/sh
# The SMTP server takes the message, and before its answer (250)
# reaches the flush another process takes the store's write lock and
# holds it past SQLite's busy timeout (5 s): the flush keeps trying to
# record the delivery, saying so, until the lock is let go, so the row
# is marked delivered and the next flush does not send it again.
#
# The order is made, not timed: the lock holder (python's sqlite3, in
# the background) waits for the message's file, takes the lock and
# says so with a file, which the server waits for before it answers.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port=$(free_port)
mkdir -p "$T/lock"
start_smtp "$T/smtp" "$port" --await-file "$T/lock/locked"
cat >"$T/sinks.conf" <<EOF2
[detect]
baseline_runs = 30
[sink "ops"]
type = email
to = ops@example.org
from = perfwatch@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
timeout = 40s
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"

timeout 90 "$PY" - "$PERFWATCH_DB" "$T/smtp/msg-1.eml" "$T/lock" \
    <<'EOPY' >>"$T/lock/log" 2>&1 &
import os, sqlite3, sys, time
db, msg, d = sys.argv[1:4]
for _ in range(600):
	if os.path.exists(msg):
		break
	time.sleep(0.1)
else:
	sys.exit("no message came")
c = sqlite3.connect(db, timeout=30, isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
open(os.path.join(d, "locked"), "w").close()
time.sleep(8)
c.execute("COMMIT")
c.close()
open(os.path.join(d, "released"), "w").close()
EOPY
SERVERS="$SERVERS $!"

rc=0
pwt -c "$conf" notify flush --json >"$T/f1.json" 2>"$T/f1.err" || rc=$?
[ -e "$T/lock/locked" ] || fail "the store was not locked: $(cat "$T/lock/log")"
[ -e "$T/lock/released" ] || fail "the flush ended before the lock did"
[ "$rc" -eq 0 ] || fail "flush 1: exit $rc: $(cat "$T/f1.err")"
"$PY" - "$T/f1.json" <<'EOPY'
import json, sys
d = json.load(open(sys.argv[1]))
ops = [r for r in d["rows"] if r["sink"] == "ops"]
assert len(ops) == 1 and ops[0]["outcome"] == "delivered", d
assert ops[0]["answer"].startswith("250 2.0.0 Ok: queued as PW0001"), d
assert d["failed"] == 0 and d["retrying"] == 0, d
EOPY
expect_match "$(cat "$T/f1.err")" "sink ops): delivered, but not yet recorded"
pwt -c "$conf" notify flush --force >"$T/f2.out" 2>&1 ||
	fail "flush 2: $(cat "$T/f2.out")"
expect_match "$(cat "$T/f2.out")" "delivered 0, retrying 0, failed 0"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 1 ] ||
	fail "sent $(count_files "$T"/smtp/msg-*.eml) times, not once"
pwt -c "$conf" notify pending --all --json >"$T/p.json"
"$PY" - "$T/p.json" <<'EOPY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 3 and all(r["status"] == "delivered" for r in rows), rows
EOPY
pass
