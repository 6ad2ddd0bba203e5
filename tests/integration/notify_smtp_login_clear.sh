#!/bin/sh
# A sink with credentials and starttls = optional, and a server that
# offers no STARTTLS (as one looks when someone on the way strips it
# from the EHLO answer): the password is not sent in clear, nothing is
# sent, and the answer says why; the row would wait.  Before, libcurl
# went on without TLS and logged in with the password in clear, which
# the server noted.  The same with the user and password in smtp_url
# itself, which used to go in clear under optional.  Without credentials,
# optional still sends in clear, and starttls = none with credentials
# logs in as it is told.  A login (credentials, or a user in smtp_url)
# and a server that offers no AUTH send nothing: the mail went out
# without logging in.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

p_auth=$(free_port)
start_smtp "$T/auth" "$p_auth" --auth pw:s3cret
p_open=$(free_port)
start_smtp "$T/open" "$p_open"
printf 'pw:s3cret\n' >"$T/cred"
chmod 600 "$T/cred"
: >"$T/sinks.conf"
for s in "login optional $p_auth yes" "plain optional $p_open no" \
    "told none $p_auth yes"; do
	set -- $s
	{
		printf '[sink "%s"]\ntype = email\nto = ops@example.org\n' "$1"
		printf 'from = perfwatch@example.org\nstarttls = %s\n' "$2"
		printf 'smtp_url = smtp://127.0.0.1:%s\n' "$3"
		[ "$4" = no ] || printf 'credentials = %s\n' "$T/cred"
	} >>"$T/sinks.conf"
done

rc=0
pwt -c "$T/sinks.conf" notify test login --json >"$T/login.json" \
    2>"$T/login.err" || rc=$?
[ "$rc" -eq 1 ] || fail "notify test login: exit $rc: $(cat "$T/login.err")"
[ ! -e "$T/auth/auth.log" ] ||
	fail "logged in without TLS: $(cat "$T/auth/auth.log")"
[ "$(count_files "$T"/auth/msg-*.eml)" -eq 0 ] || fail "mail sent"
"$PY" - "$T/login.json" "$p_auth" <<'EOPY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r) == 1 and r[0]["outcome"] == "retry", r
assert r[0]["answer"] == ("smtp://127.0.0.1:%s: the server offers no "
    "STARTTLS, and [sink \"login\"] does not send its credentials in "
    "clear (starttls = none would)" % sys.argv[2]), r
EOPY
printf '[sink "inurl"]\ntype = email\nto = ops@example.org\n' >>"$T/sinks.conf"
printf 'from = perfwatch@example.org\nstarttls = optional\n' >>"$T/sinks.conf"
printf 'smtp_url = smtp://pw:s3cret@127.0.0.1:%s\n' "$p_auth" >>"$T/sinks.conf"
rc=0
pwt -c "$T/sinks.conf" notify test inurl --json >"$T/inurl.json" \
    2>"$T/inurl.err" || rc=$?
[ "$rc" -eq 1 ] || fail "notify test inurl: exit $rc: $(cat "$T/inurl.err")"
[ ! -e "$T/auth/auth.log" ] ||
	fail "logged in without TLS from the URL: $(cat "$T/auth/auth.log")"
[ "$(count_files "$T"/auth/msg-*.eml)" -eq 0 ] || fail "inurl: mail sent"
"$PY" - "$T/inurl.json" <<'EOPY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r) == 1 and r[0]["outcome"] == "retry", r
assert "the server offers no STARTTLS, and [sink \"inurl\"] does not send " \
    "its credentials in clear (starttls = none would)" in r[0]["answer"], r
assert "s3cret" not in r[0]["answer"], r
EOPY

# A login and a server that offers no AUTH: libcurl went on without
# logging in, and the mail went out as from anybody, "delivered".  It is
# held now, before its first byte, and the row waits.
{
	printf '[sink "noauth"]\ntype = email\nto = ops@example.org\n'
	printf 'from = perfwatch@example.org\nstarttls = none\n'
	printf 'smtp_url = smtp://127.0.0.1:%s\n' "$p_open"
	printf 'credentials = %s\n' "$T/cred"
	printf '[sink "noauthurl"]\ntype = email\nto = ops@example.org\n'
	printf 'from = perfwatch@example.org\nstarttls = none\n'
	printf 'smtp_url = smtp://pw:s3cret@127.0.0.1:%s\n' "$p_open"
} >>"$T/sinks.conf"
for s in "noauth credentials" "noauthurl a user in smtp_url"; do
	set -- $s
	name=$1
	shift
	rc=0
	pwt -c "$T/sinks.conf" notify test "$name" --json >"$T/$name.json" \
	    2>"$T/$name.err" || rc=$?
	[ "$rc" -eq 1 ] ||
		fail "notify test $name: exit $rc: $(cat "$T/$name.json" "$T/$name.err")"
	[ "$(count_files "$T"/open/msg-*.eml)" -eq 0 ] ||
		fail "$name: mail sent without logging in"
	"$PY" - "$T/$name.json" "$p_open" "$name" "$*" <<'EOPY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r) == 1 and r[0]["outcome"] == "retry", r
want = ("the server offers no AUTH, and [sink \"%s\"] has a login (%s): "
    "not sent without it" % (sys.argv[3], sys.argv[4]))
assert r[0]["answer"].endswith(want), (r, want)
assert "127.0.0.1:%s" % sys.argv[2] in r[0]["answer"], r
assert "s3cret" not in r[0]["answer"], r
EOPY
done

pwt -c "$T/sinks.conf" notify test plain >"$T/plain.out" 2>&1 ||
	fail "notify test plain: $(cat "$T/plain.out")"
[ "$(count_files "$T"/open/msg-*.eml)" -eq 1 ] || fail "plain: not sent"
pwt -c "$T/sinks.conf" notify test told >"$T/told.out" 2>&1 ||
	fail "notify test told: $(cat "$T/told.out")"
[ "$(count_files "$T"/auth/msg-*.eml)" -eq 1 ] || fail "told: not sent"
expect_eq "$(cat "$T/auth/auth.log")" "PLAIN pw s3cret"
pass
