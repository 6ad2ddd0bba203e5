#!/bin/sh
# An alert opened anew after import --replace of its runs is a new
# delivery: its alert number, outbox row, event id and delivery id are
# not those of the alert the replace deleted.  The numbers were handed
# out again (an INTEGER PRIMARY KEY gives the highest one again once its
# row is gone), so the second alert had the first one's delivery id, and
# a receiver that drops a delivery it has taken, as perfwatch(1) tells
# it to, answered "duplicate" and never saw it.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

printf 'k3y-for-perfwatch\n' >"$T/secret"
chmod 600 "$T/secret"
port=$(free_port)
start_webhook "$T/hook" "$port" --verify "$T/secret"
printf '[detect]\nbaseline_runs = 30\n' >"$T/sinks.conf"
cat >>"$T/sinks.conf" <<EOF2
[sink "hook"]
type = webhook
url = http://127.0.0.1:$port/perfwatch
secret_file = $T/secret
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"
pwt -c "$conf" notify flush >"$T/f1.out" 2>&1 ||
	fail "flush 1: $(cat "$T/f1.out")"
expect_match "$(cat "$T/f1.out")" "retrying 0, failed 0"
expect_match "$(cat "$T/f1.out")" "hook  delivered         1  -             HTTP 200: thanks"
first=$(pwt -c "$conf" alerts --all --json) || fail "alerts 1"

# The two bad runs again, measured a little lower: the old alert goes
# with them, and checking them opens a new one.
awk -F, 'NR == 1 || $1 == "r31" || $1 == "r32" {
	if (NR > 1) $5 = sprintf("%.2f", $5 * 0.99)
	print
}' OFS=, "$T/h.csv" >"$T/again.csv"
pwt -c "$conf" import --replace "$T/again.csv" >/dev/null ||
	fail "import --replace"
confirm "$conf" r31 r32
second=$(pwt -c "$conf" alerts --all --json) || fail "alerts 2"
pwt -c "$conf" notify flush >"$T/f2.out" 2>&1 ||
	fail "flush 2: $(cat "$T/f2.out")"
expect_match "$(cat "$T/f2.out")" "retrying 0, failed 0"

[ "$(count_files "$T"/hook/req-*.json)" -eq 2 ] || fail "not two requests"
"$PY" - "$T/hook" "$first" "$second" <<'EOPY'
import json, sys
d = sys.argv[1]
a1, a2 = json.loads(sys.argv[2]), json.loads(sys.argv[3])
assert len(a1) == 1 and len(a2) == 1, (a1, a2)
assert a1[0]["id"] != a2[0]["id"], ("the alert's number again", a1, a2)
reqs = [json.load(open("%s/req-%d.json" % (d, i))) for i in (1, 2)]
verdicts = [r.get("verdict") for r in reqs]
assert verdicts == ["ok", "ok"], verdicts
ids = [r["headers"]["X-Perfwatch-Delivery"] for r in reqs]
assert ids[0] != ids[1], ("one delivery id for two alerts", ids)
events = [json.load(open("%s/req-%d.body" % (d, i)))["event"] for i in (1, 2)]
assert events[0] != events[1], ("one event id for two alerts", events)
EOPY
pass
