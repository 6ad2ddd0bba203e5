#!/bin/sh
# Another process takes the store's write lock while a webhook is being
# delivered, and holds it past SQLite's busy timeout (5 s): the flush
# keeps trying to record the delivery until the lock is let go, so the
# row is marked delivered and a later flush does not post it again.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port=$(free_port)
start_webhook "$T/hook" "$port" --lock-db "$PERFWATCH_DB" --lock-for 8
cat >"$T/sinks.conf" <<EOF2
[detect]
baseline_runs = 30
[sink "hook"]
type = webhook
url = http://127.0.0.1:$port/perfwatch
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"

rc=0
pwt -c "$conf" notify flush --json >"$T/f1.json" 2>"$T/f1.err" || rc=$?
[ -e "$T/hook/locked" ] || fail "the receiver did not lock the store"
[ "$rc" -eq 0 ] || fail "flush 1: exit $rc: $(cat "$T/f1.err")"
"$PY" - "$T/f1.json" <<'EOPY'
import json, sys
d = json.load(open(sys.argv[1]))
hook = [r for r in d["rows"] if r["sink"] == "hook"]
assert len(hook) == 1 and hook[0]["outcome"] == "delivered", d
assert d["failed"] == 0 and d["retrying"] == 0, d
EOPY
expect_match "$(cat "$T/f1.err")" "delivered, but not yet recorded"
pwt -c "$conf" notify flush --force >"$T/f2.out" 2>&1 ||
	fail "flush 2: $(cat "$T/f2.out")"
expect_match "$(cat "$T/f2.out")" "delivered 0, retrying 0, failed 0"
[ "$(count_files "$T"/hook/req-*.body)" -eq 1 ] ||
	fail "posted $(count_files "$T"/hook/req-*.body) times, not once"
pwt -c "$conf" notify pending --all --json >"$T/p.json"
"$PY" - "$T/p.json" <<'EOPY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert all(r["status"] == "delivered" for r in rows), rows
EOPY
pass
