#!/bin/sh
# A host name and a metric name with CR/LF in them (imported, so they are
# in the store as written) produce no extra header, neither over SMTP nor
# through "sendmail -t", which would believe an injected Bcc; the subject
# reads back as the names with blanks for the line breaks, and a
# non-ASCII name survives as RFC 2047 encoded words.  The log line stays
# one line.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port=$(free_port)
start_smtp "$T/smtp" "$port"
mkdir -p "$T/sm"
export PW_SENDMAIL_DIR="$T/sm"
cat >"$T/sinks.conf" <<EOF2
[detect]
baseline_runs = 30
[sink "smtp"]
type = email
to = ops@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
[sink "local"]
type = email
to = ops@example.org
sendmail = yes
sendmail_path = $HERE/fake-sendmail
EOF2
conf="$T/sinks.conf"
host=$(printf 'evil\r\nBcc: victim@example.org')
metric=$(printf 'thr\r\nX-Injected: yes\r\n\r\nd\303\251bit')
history_csv "$host" sys.pipe "$metric" 30 2 1700000000 >"$T/h.csv"
pwt -c "$conf" import "$T/h.csv" >/dev/null || fail "import"
confirm "$conf" r31 r32

pwt -c "$conf" notify flush >"$T/f.out" 2>"$T/f.err" ||
	fail "flush: $(cat "$T/f.out" "$T/f.err")"
expect_match "$(cat "$T/f.out")" "delivered 4, retrying 0, failed 0"
# Every line of the log is a whole log line.
if grep -v '^perfwatch: ' "$T/f.err" >/dev/null; then
	fail "a log line was split: $(cat "$T/f.err")"
fi
[ "$(grep -c 'evil  Bcc: victim@example.org' "$T/f.err")" -eq 2 ] ||
	fail "log lines: $(cat "$T/f.err")"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 1 ] || fail "SMTP: not one"
[ "$(count_files "$T"/sm/*.msg)" -eq 1 ] || fail "sendmail: not one"

"$PY" - "$T/smtp/msg-1.eml" "$T/smtp/msg-1.json" "$T/sm/1.msg" <<'EOPY'
import email, email.policy, json, re, sys
want = ["Date", "From", "To", "Subject", "Message-ID", "In-Reply-To",
        "References", "MIME-Version", "Content-Type",
        "Content-Transfer-Encoding", "Auto-Submitted", "X-Perfwatch-Event",
        "X-Perfwatch-Alert", "X-Perfwatch-State"]
env = json.load(open(sys.argv[2]))
assert env["rcpt_tos"] == ["ops@example.org"], env
for path in (sys.argv[1], sys.argv[3]):
    raw = open(path, "rb").read()
    head = raw.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]
    names = [l.split(b":", 1)[0].decode() for l in head.split(b"\n")
             if not l.startswith((b" ", b"\t"))]
    assert names == want, (path, names)
    m = email.message_from_bytes(raw, policy=email.policy.default)
    assert list(m.keys()) == want, m.keys()
    assert m["Bcc"] is None and m["X-Injected"] is None
    assert [a.addr_spec for a in m["To"].addresses] == ["ops@example.org"]
    subject = str(m["Subject"])
    assert re.fullmatch(r"\[perfwatch\] evil Bcc: victim@example\.org: "
                        r"sys\.pipe thr X-Injected: yes débit -22\.\d% "
                        r"\(confirmed\)", subject), subject
    assert b"=?UTF-8?B?" in head, head
    body = m.get_content().replace("\r\n", "\n")
    assert "\nX-Injected: yes\n" not in body and "\nBcc:" not in body
    assert "perfwatch on evil  Bcc: victim@example.org: sys.pipe thr  " \
        "X-Injected: yes    débit regressed by 22." in body, body
    # The commands quote the names for the shell.
    assert "--metric 'thr  X-Injected: yes    débit'" in body, body
EOPY
pass
