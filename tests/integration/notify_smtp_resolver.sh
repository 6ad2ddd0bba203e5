#!/bin/sh
# A resolver that never answers holds the look-up of this machine's
# fully qualified name (for the default sender and the EHLO greeting) no
# longer than the sink's timeout, not for the resolver's own (30 s a
# try here): the message goes out from perfwatch@ the short name, with
# a log line that says the resolver was too slow and one that says to
# set from.  The look-up is made once per process, so a second sink
# does not wait again.  Linux only, and only where this user may give a
# shell a host name, /etc/hosts and /etc/resolv.conf of its own
# (unshare -u -m); the DNS server (slow_resolver in notify.subr) reads
# the questions and answers none, so the outcome does not depend on how
# fast the machine is.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

slow_resolver

port=$(free_port)
start_smtp "$T/smtp" "$port"
cat >"$T/sinks.conf" <<EOF2
[sink "a"]
type = email
to = ops@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
timeout = 2s
[sink "b"]
type = email
to = dev@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
timeout = 2s
EOF2

rc=0
slow_resolver_run pwslow "$PERFWATCH" -c "$T/sinks.conf" notify test --json \
    >"$T/t.json" 2>"$T/t.err" || rc=$?
[ "$rc" -eq 0 ] || fail "notify test: exit $rc: $(cat "$T/t.json" "$T/t.err")"
[ -s "$T/dns/asked" ] || fail "the resolver did not ask the DNS server"
"$PY" - "$T/t.json" "$T/smtp" <<'EOPY'
import email, email.policy, glob, json, sys
r = json.load(open(sys.argv[1]))
assert [x["outcome"] for x in r] == ["delivered"] * 3, r
seen = {}
for j in glob.glob(sys.argv[2] + "/msg-*.json"):
    env = json.load(open(j))
    m = email.message_from_bytes(open(j[:-5] + ".eml", "rb").read(),
                                 policy=email.policy.default)
    seen[env["rcpt_tos"][0]] = (m["From"].addresses[0].addr_spec,
                                env["mail_from"], env["helo"])
want = ("perfwatch@pwslow", "perfwatch@pwslow", "pwslow")
assert seen == {"ops@example.org": want, "dev@example.org": want}, seen
EOPY
n=$(grep -c 'the resolver gave no name' "$T/t.err" || true)
[ "$n" -eq 1 ] || fail "$n lines about the resolver, not 1: $(cat "$T/t.err")"
expect_match "$(cat "$T/t.err")" "[sink \"a\"]: the resolver gave no name \
for this machine (pwslow) within the timeout, 2 s: it goes by that short name"
expect_match "$(cat "$T/t.err")" "[sink \"a\"]: no fully qualified name \
found for this machine (pwslow): the sender is perfwatch@pwslow"
pass
