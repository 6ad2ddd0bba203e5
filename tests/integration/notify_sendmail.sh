#!/bin/sh
# The sendmail path: a program in place of sendmail(8) keeps what it was
# given.  It is run as "sendmail -t -oi" with the whole message on its
# standard input; a temporary failure (EX_TEMPFAIL) is retried, and the
# retry hands over the very same message (same Message-ID, same Date).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

mkdir -p "$T/sm"
export PW_SENDMAIL_DIR="$T/sm"
cat >"$T/sinks.conf" <<EOF2
[detect]
baseline_runs = 30
[sink "local"]
type = email
to = Ops <ops@example.org>, dev@example.org
from = perfwatch@example.org
sendmail = yes
sendmail_path = $HERE/fake-sendmail
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"

PW_SENDMAIL_EXIT=75 pwt -c "$conf" notify flush >"$T/f1.out" 2>&1 ||
	fail "flush 1: $(cat "$T/f1.out")"
expect_match "$(cat "$T/f1.out")" "retrying 1"
expect_match "$(cat "$T/f1.out")" "fake-sendmail exited with 75: fake-sendmail: told to exit 75"
[ -f "$T/sm/1.msg" ] || fail "sendmail was not run"

pwt -c "$conf" notify flush --force >"$T/f2.out" 2>&1 ||
	fail "flush 2: $(cat "$T/f2.out")"
expect_match "$(cat "$T/f2.out")" "delivered 1, retrying 0, failed 0"
[ "$(count_files "$T"/sm/*.msg)" -eq 2 ] || fail "not two calls"
[ "$(cat "$T/sm/2.args")" = "-t
-oi" ] || fail "sendmail arguments: $(cat "$T/sm/2.args")"
# The retry sent exactly the message of the first attempt.
cmp "$T/sm/1.msg" "$T/sm/2.msg" || fail "the retry's message differs"

"$PY" - "$T/sm/2.msg" <<'EOPY'
import email, email.policy, re, sys
raw = open(sys.argv[1], "rb").read()
# For sendmail: lines end in LF, the message is 7-bit.
assert b"\r" not in raw and max(raw) < 0x80
m = email.message_from_bytes(raw, policy=email.policy.default)
assert re.fullmatch(r"\[perfwatch\] box: sys\.pipe throughput -22\.\d% "
                    r"\(confirmed\)", str(m["Subject"])), m["Subject"]
assert [a.addr_spec for a in m["To"].addresses] == \
    ["ops@example.org", "dev@example.org"], m["To"]
assert m["From"].addresses[0].addr_spec == "perfwatch@example.org"
assert m["Date"] is not None and m["Message-ID"].startswith(
    "<perfwatch-alert-1-confirmed-")
body = m.get_content()
assert "sys.pipe throughput regressed by 22." in body, body
assert re.search(r"\n\s+1000(\.\d+)? ± \d\.\d% +776(\.\d+)? +-22\.\d%", body), body
# Imported runs have no machine snapshot, and the message says so.
assert "Machine diff: none, run r30 has no machine snapshot" in body, body
EOPY
pass
