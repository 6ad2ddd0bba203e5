#!/bin/sh
# A server that answers EHLO with 502 (plain SMTP only): libcurl greets
# it again with HELO and the message is delivered.  The 502 was listed
# beside the delivery as a recipient's refusal ("refused: 502 ..."), and
# logged as "the message went to the other recipients", though every
# recipient took it: only the recipients' own replies are refusals.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port=$(free_port)
start_smtp "$T/smtp" "$port" --refuse-ehlo
cat >"$T/sinks.conf" <<EOF2
[detect]
baseline_runs = 30
[sink "plain"]
type = email
to = ops@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"

pwt -c "$conf" notify flush --json >"$T/f1.json" 2>"$T/f1.err" ||
	fail "flush: $(cat "$T/f1.err")"
"$PY" - "$T/f1.json" <<'EOPY' || fail "flush's report: $(cat "$T/f1.json")"
import json, sys
d = json.load(open(sys.argv[1]))
row = [r for r in d["rows"] if r["sink"] == "plain"]
assert len(row) == 1 and row[0]["outcome"] == "delivered", row
a = row[0]["answer"]
assert a.startswith("250 2.0.0 Ok: queued as PW0001"), a
assert "refused" not in a and "502" not in a, a
EOPY
if grep -q "refused" "$T/f1.err"; then
	fail "a refusal was logged: $(cat "$T/f1.err")"
fi
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 1 ] || fail "not one message"
"$PY" - "$T/smtp" <<'EOPY' || fail "the greeting"
import json, os, sys
env = json.load(open(os.path.join(sys.argv[1], "msg-1.json")))
assert env["rcpt_tos"] == ["ops@example.org"], env
assert env["helo"], env
EOPY
pass
