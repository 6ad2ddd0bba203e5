#!/bin/sh
# A permanent refusal (550 at RCPT) marks that row failed at once with
# the server's own text, logs it, and delivery goes on with the next rows;
# a failed row is never tried again.  A refusal of one recipient among
# several keeps the message from none of the others.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port=$(free_port)
start_smtp "$T/smtp" "$port" --refuse nobody@example.org
cat >"$T/sinks.conf" <<EOF2
[detect]
baseline_runs = 30
[sink "first"]
type = email
to = nobody@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
[sink "second"]
type = email
to = ops@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"

pwt -c "$conf" notify flush >"$T/f1.out" 2>"$T/f1.err" ||
	fail "flush: $(cat "$T/f1.out" "$T/f1.err")"
expect_match "$(cat "$T/f1.out")" "delivered 3, retrying 0, failed 1"
expect_match "$(cat "$T/f1.err")" "(alert 1, sink first) failed: 550 5.1.1 <nobody@example.org>: Recipient address rejected"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 1 ] || fail "not one message"
grep -q '"rcpt_tos": \["ops@example.org"\]' "$T/smtp/msg-1.json" ||
	fail "second sink's message went elsewhere: $(cat "$T/smtp/msg-1.json")"

pwt -c "$conf" notify pending --all --json >"$T/all.json"
"$PY" - "$T/all.json" <<'EOPY'
import json, sys
rows = {r["sink"]: r for r in json.load(open(sys.argv[1]))
        if r["state"] == "confirmed"}
f, s = rows["first"], rows["second"]
assert f["status"] == "failed" and f["attempts"] == 1, f
assert f["last_error"] == ("550 5.1.1 <nobody@example.org>: Recipient "
                           "address rejected: User unknown in local "
                           "recipient table"), f
assert f["failed_at"] is not None and f["next_attempt"] is None, f
assert s["status"] == "delivered" and s["delivered_at"] is not None, s
EOPY

# Failed is final: a forced flush leaves it alone.
pwt -c "$conf" notify flush --force >"$T/f2.out" 2>&1 || fail "flush 2"
expect_match "$(cat "$T/f2.out")" "delivered 0, retrying 0, failed 0"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 1 ] || fail "sent again"

# One refused address among several does not keep the message from the
# others: it goes to them, and the refusal is said beside the delivery.
cat >>"$T/sinks.conf" <<EOF2
[sink "team"]
type = email
to = nobody@example.org, ops2@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
EOF2
pwt -c "$conf" notify test team >"$T/t.out" 2>"$T/t.err" ||
	fail "notify test team: $(cat "$T/t.out" "$T/t.err")"
expect_match "$(cat "$T/t.out" "$T/t.err")" "refused: 550 5.1.1 <nobody@example.org>"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 2 ] || fail "not sent to the others"
grep -q '"rcpt_tos": \["ops2@example.org"\]' "$T/smtp/msg-2.json" ||
	fail "went to: $(cat "$T/smtp/msg-2.json")"
pass
