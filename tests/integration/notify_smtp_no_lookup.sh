#!/bin/sh
# This machine's fully qualified name is looked up only for a sink that
# needs it: email without from (the default sender), or over SMTP with
# no greeting in its smtp_url (EHLO).  An SMTP sink with from set and
# its greeting in the URL, a webhook and the log sink need none: with a
# resolver that never answers (slow_resolver in notify.subr), the DNS
# server is not asked, nothing waits for it and no line speaks of it,
# and the server is greeted with the URL's name.  Linux only, as
# slow_resolver is.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

slow_resolver

port=$(free_port)
start_smtp "$T/smtp" "$port"
hport=$(free_port)
start_webhook "$T/hook" "$hport"
# A long timeout: a look-up made after all would show as a wait too.
cat >"$T/sinks.conf" <<EOF2
[sink "mail"]
type = email
to = ops@example.org
from = Perf <perf@example.org>
smtp_url = smtp://127.0.0.1:$port/client.example.org
starttls = none
timeout = 20s
[sink "hook"]
type = webhook
url = http://127.0.0.1:$hport/perfwatch
timeout = 20s
EOF2

rc=0
slow_resolver_run pwslow "$PERFWATCH" -c "$T/sinks.conf" notify test --json \
    >"$T/t.json" 2>"$T/t.err" || rc=$?
[ "$rc" -eq 0 ] || fail "notify test: exit $rc: $(cat "$T/t.json" "$T/t.err")"
[ ! -e "$T/dns/asked" ] ||
	fail "the DNS server was asked: $(cat "$T/t.err")"
n=$(grep -c 'resolver\|fully qualified' "$T/t.err" || true)
[ "$n" -eq 0 ] || fail "$n lines about the name: $(cat "$T/t.err")"
"$PY" - "$T/t.json" "$T/smtp" <<'EOPY'
import glob, json, sys
r = json.load(open(sys.argv[1]))
assert sorted((x["sink"], x["outcome"]) for x in r) == [
    ("hook", "delivered"), ("log", "delivered"), ("mail", "delivered")], r
envs = [json.load(open(j)) for j in glob.glob(sys.argv[2] + "/msg-*.json")]
assert [(e["helo"], e["mail_from"]) for e in envs] == [
    ("client.example.org", "perf@example.org")], envs
EOPY
[ "$(count_files "$T"/hook/*.json)" -ge 1 ] || fail "no webhook request"
pass
