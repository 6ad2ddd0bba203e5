#!/bin/sh
# A server that takes a message for one recipient and says "later" (450,
# greylisting) to another: the row is delivered to the first, and a row
# for the second alone retries after the backoff, with the same message
# byte for byte (Message-ID included), until that one takes it.  A
# recipient refused for good (550) beside one that takes it is logged and
# not tried again; when every recipient refuses, some for good and some
# for now, the row is retried for the latter only.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port=$(free_port)
start_smtp "$T/smtp" "$port" --greylist bob@example.org:1 \
    --greylist dave@example.org:1 --refuse gone@example.org
cat >"$T/sinks.conf" <<EOF2
[detect]
baseline_runs = 30
[sink "team"]
type = email
to = Alice <alice@example.org>, bob@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
[sink "mixed"]
type = email
to = carol@example.org, gone@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
[sink "nobody"]
type = email
to = gone@example.org, dave@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"

before=$(date +%s)
pwt -c "$conf" notify flush --json >"$T/f1.json" 2>"$T/f1.err" ||
	fail "flush 1: $(cat "$T/f1.err")"
ids=$("$PY" - "$T/f1.json" "$before" <<'EOPY'
import datetime, json, sys
d = json.load(open(sys.argv[1]))
before = int(sys.argv[2])
# The two log rows, team to alice, mixed to carol; then team's row for
# bob and nobody's row, narrowed to dave.
assert d["delivered"] == 4 and d["retrying"] == 2 and d["failed"] == 0, d
team = [r for r in d["rows"] if r["sink"] == "team"]
assert [r["outcome"] for r in team] == ["delivered", "retry"], team
assert team[1]["id"] != team[0]["id"] and team[1]["attempts"] == 1, team
assert team[1]["answer"].startswith("450 4.2.0 <bob@example.org>"), team
assert "refused: 450 4.2.0 <bob@example.org>" in team[0]["answer"], team
nobody = [r for r in d["rows"] if r["sink"] == "nobody"]
assert len(nobody) == 1 and nobody[0]["outcome"] == "retry", nobody
assert "550 5.1.1 <gone@example.org>" in nobody[0]["answer"], nobody
assert "450 4.2.0 <dave@example.org>" in nobody[0]["answer"], nobody
assert "next_due_epoch" not in d, d
due = datetime.datetime.strptime(d["next_due"], "%Y-%m-%dT%H:%M:%SZ")
due = due.replace(tzinfo=datetime.timezone.utc).timestamp()
assert before + 60 <= due <= before + 60 + 30, d
print(team[0]["id"], team[1]["id"])
EOPY
) || fail "flush 1's report"
set -- $ids
first=$1 rest=$2
expect_match "$(cat "$T/f1.err")" "row $rest tries again at +60s for those that said later: 450 4.2.0 <bob@example.org>"
expect_match "$(cat "$T/f1.err")" "[sink \"mixed\"]: the message went to the other recipients; refused: 550 5.1.1 <gone@example.org>"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 2 ] || fail "not two messages"

# What waits, and for whom.
pwt -c "$conf" notify pending --json >"$T/p1.json"
"$PY" - "$T/p1.json" "$first" "$rest" <<'EOPY'
import json, sys
rows = {r["sink"]: r for r in json.load(open(sys.argv[1]))}
first, rest = int(sys.argv[2]), int(sys.argv[3])
assert sorted(rows) == ["nobody", "team"], rows
t = rows["team"]
assert t["recipients"] == ["bob@example.org"], t
assert t["split_from"] == first and t["id"] == rest, t
assert t["status"] == "pending" and t["attempts"] == 1, t
assert t["last_error"].startswith("450 4.2.0 <bob@example.org>"), t
n = rows["nobody"]
assert n["recipients"] == ["dave@example.org"] and n["split_from"] is None, n
EOPY
pwt -c "$conf" notify pending >"$T/p1.out"
expect_match "$(grep ' team ' "$T/p1.out")" "bob@example.org"
if grep ' team ' "$T/p1.out" | grep -q alice; then
	fail "alice still listed: $(cat "$T/p1.out")"
fi

# Not due yet: nothing is sent.
pwt -c "$conf" notify flush >"$T/f2.out" 2>&1 || fail "flush 2"
expect_match "$(cat "$T/f2.out")" "delivered 0, retrying 0, failed 0"

# Due (forced): bob and dave have it now, and nobody else again.
pwt -c "$conf" notify flush --force >"$T/f3.out" 2>&1 ||
	fail "flush 3: $(cat "$T/f3.out")"
expect_match "$(cat "$T/f3.out")" "delivered 2, retrying 0, failed 0"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 4 ] ||
	fail "$(count_files "$T"/smtp/msg-*.eml) messages, not four"
"$PY" - "$T/smtp" "$first" <<'EOPY'
import email, email.policy, json, os, sys
d = sys.argv[1]
row = int(sys.argv[2])
msgs = {}
for n in range(1, 5):
    env = json.load(open(os.path.join(d, "msg-%d.json" % n)))
    raw = open(os.path.join(d, "msg-%d.eml" % n), "rb").read()
    msgs[tuple(env["rcpt_tos"])] = raw
assert sorted(msgs) == [("alice@example.org",), ("bob@example.org",),
                        ("carol@example.org",), ("dave@example.org",)], \
    sorted(msgs)
# Bob's is alice's message, byte for byte: the same To, Date,
# Message-ID and body naming the same outbox row.
first, retry = msgs[("alice@example.org",)], msgs[("bob@example.org",)]
assert first == retry, (first, retry)
m = email.message_from_bytes(retry, policy=email.policy.default)
assert "bob@example.org" in m["To"] and "alice@example.org" in m["To"], m["To"]
assert m["Message-ID"].startswith("<perfwatch-alert-"), m["Message-ID"]
assert b"outbox row %d\r\n" % row in retry, retry
# Whom the server was asked for, in all: gone once per sink, alice and
# carol once, bob and dave twice (450, then 250).
log = [l.split() for l in open(os.path.join(d, "rcpt.log"))]
def codes(a):
    return [c for x, c in log if x == a]
assert codes("alice@example.org") == ["250"], log
assert codes("carol@example.org") == ["250"], log
assert codes("gone@example.org") == ["550", "550"], log
assert codes("bob@example.org") == ["450", "250"], log
assert codes("dave@example.org") == ["450", "250"], log
EOPY

# Delivered is final: nothing is pending, and a forced flush sends none.
pwt -c "$conf" notify flush --force >"$T/f4.out" 2>&1 || fail "flush 4"
expect_match "$(cat "$T/f4.out")" "delivered 0, retrying 0, failed 0"
[ "$(pwt -c "$conf" notify pending)" = "nothing pending" ] ||
	fail "rows still pending"
pwt -c "$conf" notify pending --all --json >"$T/all.json"
"$PY" - "$T/all.json" "$first" "$rest" <<'EOPY'
import json, sys
rows = {r["id"]: r for r in json.load(open(sys.argv[1]))}
first, rest = int(sys.argv[2]), int(sys.argv[3])
assert rows[first]["status"] == "delivered", rows
assert rows[first]["split_from"] is None, rows
assert rows[first]["recipients"] == ["alice@example.org",
                                     "bob@example.org"], rows
assert rows[rest]["status"] == "delivered", rows
assert rows[rest]["recipients"] == ["bob@example.org"], rows
EOPY
pass
