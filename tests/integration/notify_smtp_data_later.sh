#!/bin/sh
# A server that refuses one recipient for good (550 at RCPT), takes the
# others or says "later" (450) to one, then puts the message off after
# DATA (451): the row was retried for every recipient as it was, the one
# refused for good asked again and its refusal not said.  It is now
# retried for the others only, the refusal said in the row's answer and
# the log, and delivered to them on the next attempt.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port=$(free_port)
start_smtp "$T/smtp" "$port" --refuse gone@example.org \
    --greylist bob@example.org:1 --defer-data 1
cat >"$T/sinks.conf" <<EOF2
[detect]
baseline_runs = 30
[sink "mixed"]
type = email
to = carol@example.org, gone@example.org, bob@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"

pwt -c "$conf" notify flush --json >"$T/f1.json" 2>"$T/f1.err" ||
	fail "flush 1: $(cat "$T/f1.err")"
"$PY" - "$T/f1.json" <<'EOPY' || fail "flush 1's report: $(cat "$T/f1.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["delivered"] == 2 and d["retrying"] == 1 and d["failed"] == 0, d
row = [r for r in d["rows"] if r["sink"] == "mixed"]
assert len(row) == 1 and row[0]["outcome"] == "retry", row
a = row[0]["answer"]
assert a.startswith("451 4.3.0 Error: queue file write error"), a
assert "; refused for good, not tried again: 550 5.1.1 <gone@example.org>" in a, a
EOPY
expect_match "$(cat "$T/f1.err")" "[sink \"mixed\"]: refused for good, not tried again: 550 5.1.1 <gone@example.org>"
expect_match "$(cat "$T/f1.err")" "tried again only for carol@example.org, bob@example.org"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 0 ] || fail "a message was kept"
pwt -c "$conf" notify pending --json >"$T/p1.json"
"$PY" - "$T/p1.json" <<'EOPY' || fail "pending: $(cat "$T/p1.json")"
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 1, rows
assert rows[0]["recipients"] == ["carol@example.org", "bob@example.org"], rows
assert rows[0]["split_from"] is None and rows[0]["attempts"] == 1, rows
EOPY

pwt -c "$conf" notify flush --force >"$T/f2.out" 2>&1 ||
	fail "flush 2: $(cat "$T/f2.out")"
expect_match "$(cat "$T/f2.out")" "delivered 1, retrying 0, failed 0"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 1 ] || fail "not one message"
"$PY" - "$T/smtp" <<'EOPY' || fail "the second attempt"
import json, os, sys
d = sys.argv[1]
env = json.load(open(os.path.join(d, "msg-1.json")))
assert env["rcpt_tos"] == ["carol@example.org", "bob@example.org"], env
log = [l.split() for l in open(os.path.join(d, "rcpt.log"))]
def codes(a):
    return [c for x, c in log if x == a]
assert codes("gone@example.org") == ["550"], log
assert codes("carol@example.org") == ["250", "250"], log
assert codes("bob@example.org") == ["450", "250"], log
EOPY
[ "$(pwt -c "$conf" notify pending)" = "nothing pending" ] ||
	fail "rows still pending"
pass
