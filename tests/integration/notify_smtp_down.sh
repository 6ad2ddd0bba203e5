#!/bin/sh
# The SMTP server is down when the alert is made: the flush records the
# failure and when to retry; the server comes up, the next flush delivers,
# and the message arrives exactly once, however often one flushes after.
# A sink that requires STARTTLS sends nothing to a server that does not
# offer it, and says why.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port=$(free_port)
cat >"$T/sinks.conf" <<EOF2
[detect]
baseline_runs = 30
[sink "ops"]
type = email
to = ops@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
[sink "strict"]
type = email
to = sec@example.org
smtp_url = smtp://127.0.0.1:$port
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"

# Down: both rows wait, with the reason and the time of the next try.
before=$(date +%s)
pwt -c "$conf" notify flush --json >"$T/f1.json" 2>"$T/f1.err" ||
	fail "flush 1: $(cat "$T/f1.err")"
"$PY" - "$T/f1.json" "$before" <<'EOPY'
import datetime, json, sys
d = json.load(open(sys.argv[1]))
before = int(sys.argv[2])
rows = {r["sink"]: r for r in d["rows"]}
assert d["delivered"] == 2 and d["retrying"] == 2 and d["failed"] == 0, d
assert rows["log"]["outcome"] == "delivered", rows
for s in ("ops", "strict"):
    r = rows[s]
    assert r["outcome"] == "retry" and r["attempts"] == 1, r
    assert "127.0.0.1" in r["answer"] and "onnect" in r["answer"], r
# The first retry is a minute later, in RFC 3339 as every time of
# --json; no epoch seconds beside it.
assert "next_due_epoch" not in d, d
due = datetime.datetime.strptime(d["next_due"], "%Y-%m-%dT%H:%M:%SZ")
due = due.replace(tzinfo=datetime.timezone.utc).timestamp()
assert before + 60 <= due <= before + 60 + 30, d
EOPY

start_smtp "$T/smtp" "$port"
# Not due yet: nothing is sent.
pwt -c "$conf" notify flush >"$T/f2.out" 2>&1 || fail "flush 2"
expect_match "$(cat "$T/f2.out")" "delivered 0, retrying 0, failed 0"
expect_match "$(cat "$T/f2.out")" "next retry due"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 0 ] || fail "sent before due"

# Retry now: ops is delivered; strict refuses a server without STARTTLS.
pwt -c "$conf" notify flush --force >"$T/f3.out" 2>&1 ||
	fail "flush 3: $(cat "$T/f3.out")"
expect_match "$(cat "$T/f3.out")" "delivered 1, retrying 1, failed 0"
expect_match "$(cat "$T/f3.out")" "offers no STARTTLS and [sink \"strict\"] starttls is required"
for i in 1 2 3; do
	pwt -c "$conf" notify flush --force >"$T/f4.out" 2>&1 ||
		fail "flush 4: $(cat "$T/f4.out")"
	expect_match "$(cat "$T/f4.out")" "delivered 0"
done
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 1 ] ||
	fail "$(count_files "$T"/smtp/msg-*.eml) messages, not exactly one"
"$PY" - "$T/smtp/msg-1.eml" "$T/smtp/msg-1.json" <<'EOPY'
import email, email.policy, json, re, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read(),
                             policy=email.policy.default)
env = json.load(open(sys.argv[2]))
assert env["rcpt_tos"] == ["ops@example.org"], env
assert re.fullmatch(r"\[perfwatch\] box: sys\.pipe throughput -22\.\d% "
                    r"\(confirmed\)", str(m["Subject"])), m["Subject"]
EOPY

# What is left: strict's row, pending, with its last answer.
pwt -c "$conf" notify pending --json >"$T/p.json"
"$PY" - "$T/p.json" <<'EOPY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r["sink"] for r in rows] == ["strict"], rows
assert rows[0]["attempts"] == 5 and "STARTTLS" in rows[0]["last_error"], rows
EOPY
pass
