#!/bin/sh
# A confirmed regression reaches a real SMTP server (aiosmtpd on
# loopback) as one email: its subject, the table of the metric, the
# machine diff between the last good and the first bad run, the chart of
# the last runs and the commands to look further.  The login comes from
# a credentials file, which is refused while others may read it; a wrong
# password leaves the row waiting for a fixed file.  A second flush sends
# nothing.  A display name may quote a comma.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port=$(free_port)
start_smtp "$T/smtp" "$port" --auth pw:s3cret
printf 'pw:s3cret\n' >"$T/cred"
chmod 644 "$T/cred"
cat >"$T/sinks.conf" <<EOF2
[sink "ops"]
type = email
to = Ops Team <ops@example.org>, "Doe, Jo" <jo@example.org>
from = perfwatch@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
credentials = $T/cred
EOF2
measured_regression

# Others may read the credentials: nothing is sent, the row waits.
pwt -c "$T/bad.conf" notify flush >"$T/flush1.out" 2>"$T/flush1.err" ||
	fail "flush 1: $(cat "$T/flush1.out" "$T/flush1.err")"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 0 ] ||
	fail "mail sent with a credentials file others may read"
expect_match "$(cat "$T/flush1.out")" "retrying 1"
expect_match "$(cat "$T/flush1.out")" \
    "refusing a secret that others may read (mode 0644)"
# The log sink told of both changes, on stderr in the foreground.
expect_match "$(cat "$T/flush1.err")" "app.pipe throughput -22."
expect_match "$(cat "$T/flush1.err")" "% confirmed (was suspected); last good good, first bad bad1; machine: libc6 2.36-9 → 2.36-10"
pwt -c "$T/bad.conf" notify pending --json >"$T/pending1.json"
"$PY" - "$T/pending1.json" <<'EOPY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 1, rows
r = rows[0]
assert r["sink"] == "ops" and r["state"] == "confirmed", r
assert r["status"] == "pending" and r["attempts"] == 1, r
assert "others may read" in r["last_error"], r
EOPY

# A wrong password: the server's 535 refuses the login, which a fixed
# credentials file mends, so the row waits for that, not failed at once.
printf 'pw:wrong\n' >"$T/cred"
chmod 600 "$T/cred"
pwt -c "$T/bad.conf" notify flush --force >"$T/flushpw.out" 2>&1 ||
	fail "flush with a wrong password: $(cat "$T/flushpw.out")"
expect_match "$(cat "$T/flushpw.out")" "delivered 0, retrying 1, failed 0"
expect_match "$(cat "$T/flushpw.out")" "535"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 0 ] ||
	fail "mail sent with a wrong password"
pwt -c "$T/bad.conf" notify pending --json >"$T/pendingpw.json"
"$PY" - "$T/pendingpw.json" <<'EOPY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 1, rows
r = rows[0]
assert r["status"] == "pending" and r["attempts"] == 2, r
assert "535" in r["last_error"], r
EOPY

printf 'pw:s3cret\n' >"$T/cred"
pwt -c "$T/bad.conf" notify flush --force >"$T/flush2.out" 2>&1 ||
	fail "flush 2: $(cat "$T/flush2.out")"
expect_match "$(cat "$T/flush2.out")" "delivered 1, retrying 0, failed 0"
expect_match "$(cat "$T/flush2.out")" "250 2.0.0 Ok: queued as PW0001"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 1 ] || fail "not one message"

"$PY" - "$T/smtp/msg-1.eml" "$T/smtp/msg-1.json" "$(uname -n)" <<'EOPY'
import email, email.policy, json, re, sys
raw = open(sys.argv[1], "rb").read()
env = json.load(open(sys.argv[2]))
host = sys.argv[3]
m = email.message_from_bytes(raw, policy=email.policy.default)

assert env["mail_from"] == "perfwatch@example.org", env
assert env["rcpt_tos"] == ["ops@example.org", "jo@example.org"], env
assert env["login"] == "pw", env

subject = str(m["Subject"])
assert re.fullmatch(r"\[perfwatch\] %s: app\.pipe throughput -22\.\d%% "
                    r"\(confirmed\)" % re.escape(host), subject), subject
to = m["To"].addresses
assert len(to) == 2 and to[0].addr_spec == "ops@example.org" and \
    to[0].display_name == "Ops Team", to
# A quoted display name keeps its comma: one address, not two words.
assert to[1].addr_spec == "jo@example.org" and \
    to[1].display_name == "Doe, Jo", to
assert re.fullmatch(r"<perfwatch-alert-\d+-confirmed-[0-9a-f]{16}@[^>]+>",
                    m["Message-ID"]), m["Message-ID"]
assert m["In-Reply-To"].replace("-confirmed-", "-suspected-") == \
    m["In-Reply-To"] and "-suspected-" in m["In-Reply-To"], m["In-Reply-To"]
assert m["Auto-Submitted"] == "auto-generated"
assert m.get_content_type() == "text/plain"
body = m.get_content().replace("\r\n", "\n")
lines = body.split("\n")

# The table: a header, then the metric's row.
hdr = [i for i, l in enumerate(lines)
       if re.fullmatch(r"\s+baseline\s+current\s+change\s+95% CI\s+q\s+"
                       r"metric", l)]
assert len(hdr) == 1, body
row = lines[hdr[0] + 1]
assert re.fullmatch(r"\s+1000(\.\d+)? ± 0\.\d% +776 +-22\.\d% +"
                    r"\[-2\d\.\d, -2\d\.\d\] +\S+ +app\.pipe throughput "
                    r"\(lps\)", row), row

# The machine diff: libc6 with both versions, and nothing else.
i = lines.index("What changed on the machine from good (last good) to "
                "bad1 (first bad):")
diff = [l for l in lines[i + 1:i + 6] if l.strip()]
assert re.fullmatch(r"\s+upgraded\s+libc6\s+2\.36-9 → 2\.36-10", diff[0]), \
    diff
assert "zlib1g" not in body, body

# The chart: high cells, the bar before the first bad run, two low ones.
chart = [l for l in lines if "|" in l and "▁" in l]
assert len(chart) == 1 and re.search(r"█+\|▁▁ ", chart[0]), chart
assert "runs r10 .. bad2" in body, body

for cmd in ("perfwatch compare good bad1", "perfwatch env diff good bad1",
            "perfwatch history --workload app.pipe --metric throughput"):
    assert "  " + cmd + "\n" in body, (cmd, body)
EOPY

# Exactly once: another flush, even a forced one, sends nothing.
pwt -c "$T/bad.conf" notify flush --force >"$T/flush3.out" 2>&1 ||
	fail "flush 3: $(cat "$T/flush3.out")"
expect_match "$(cat "$T/flush3.out")" "delivered 0, retrying 0, failed 0"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 1 ] || fail "sent twice"
[ "$(pwt -c "$T/bad.conf" notify pending)" = "nothing pending" ] ||
	fail "rows still pending"
pass
