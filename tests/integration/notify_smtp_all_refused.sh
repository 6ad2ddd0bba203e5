#!/bin/sh
# A server that refuses every recipient of a message alike, all for good
# (550) or all for now (450, greylisting), has its refusal of each one
# kept in the row's answer and the log, not only that of the last
# recipient, which libcurl reports: a failed row named one address and
# hid that the others were refused too.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port=$(free_port)
start_smtp "$T/smtp" "$port" --refuse gone1@example.org \
    --refuse gone2@example.org --greylist later1@example.org:9 \
    --greylist later2@example.org:9
cat >"$T/sinks.conf" <<EOF2
[detect]
baseline_runs = 30
[sink "gone"]
type = email
to = gone1@example.org, gone2@example.org
from = perfwatch@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
min_state = confirmed
[sink "later"]
type = email
to = later1@example.org, later2@example.org
from = perfwatch@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
min_state = confirmed
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"

pwt -c "$conf" notify flush >"$T/f1.out" 2>"$T/f1.err" ||
	fail "flush: $(cat "$T/f1.out" "$T/f1.err")"
expect_match "$(cat "$T/f1.out")" "delivered 2, retrying 1, failed 1"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 0 ] || fail "a message was kept"
expect_match "$(cat "$T/f1.err")" "(alert 1, sink gone) failed: 550 5.1.1 <gone1@example.org>: Recipient address rejected: User unknown in local recipient table; 550 5.1.1 <gone2@example.org>:"

pwt -c "$conf" notify pending --all --json >"$T/all.json"
"$PY" - "$T/all.json" <<'EOPY'
import json, sys
rows = {r["sink"]: r for r in json.load(open(sys.argv[1]))
        if r["sink"] != "log"}
g, l = rows["gone"], rows["later"]
refused = ("550 5.1.1 <%s>: Recipient address rejected: User unknown in "
           "local recipient table")
assert g["status"] == "failed", g
assert g["last_error"] == "; ".join(refused % a for a in
                                    ("gone1@example.org",
                                     "gone2@example.org")), g
grey = "450 4.2.0 <%s>: Recipient address rejected: Greylisted, try again later"
assert l["status"] == "pending" and l["attempts"] == 1, l
assert l["last_error"] == "; ".join(grey % a for a in
                                    ("later1@example.org",
                                     "later2@example.org")), l
# Both are still the row's: neither was refused for good.
assert l["recipients"] == ["later1@example.org", "later2@example.org"], l
EOPY
pass
