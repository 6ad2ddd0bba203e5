#!/bin/sh
# The last try of a row comes when it is max_age old, even when an
# earlier row of the same flush kept the server waiting until after
# then: the row was due, and within its max_age, when the flush found it.
# Here an email and a webhook row of one alert change are both at their
# last try; the SMTP server holds its answer to the email until the
# clock is past their max_age, and the webhook is then tried (and
# takes it), not failed "not delivered within" without an attempt.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

sport=$(free_port)
wport=$(free_port)
start_smtp "$T/smtp" "$sport" --await-file "$T/go"
start_webhook "$T/hook" "$wport"
cat >"$T/sinks.conf" <<EOF2
[detect]
baseline_runs = 30
[sink "mail"]
type = email
to = ops@example.org
from = perfwatch@example.org
smtp_url = smtp://127.0.0.1:$sport
starttls = none
max_age = 60s
[sink "hook"]
type = webhook
url = http://127.0.0.1:$wport/alert
max_age = 60s
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"

# Both rows queued 55 s ago: their max_age runs out in 5 s, before which
# the flush starts.  The email goes first.
now=$(date +%s)
created=$((now - 55))
last=$((created + 60))
sqlite3 "$PERFWATCH_DB" "UPDATE outbox SET created = $created,
    next_attempt = $created + (sink = 'hook')
    WHERE sink IN ('mail', 'hook')" || fail "sqlite3"

pwt -c "$conf" notify flush --json >"$T/f.json" 2>"$T/f.err" &
flush=$!
wait_file "$T/smtp/msg-1.eml" || fail "the email did not arrive"
# The server answers once the rows are past their max_age.
while [ "$(date +%s)" -le "$last" ]; do
	sleep 0.2
done
: >"$T/go"
wait "$flush" || fail "flush: $(cat "$T/f.json" "$T/f.err")"

[ "$(count_files "$T"/hook/req-*.body)" -eq 1 ] ||
	fail "the webhook's last try was not made: $(cat "$T/f.json" "$T/f.err")"
"$PY" - "$T/f.json" <<'EOPY'
import json, sys
rep = json.load(open(sys.argv[1]))
rows = {r["sink"]: r for r in rep["rows"] if r["sink"] != "log"}
assert rows["mail"]["outcome"] == "delivered", rows
h = rows["hook"]
assert h["outcome"] == "delivered" and not h["expired"], h
assert h["attempts"] == 1 and h["answer"] == "HTTP 200: thanks", h
EOPY
pass
