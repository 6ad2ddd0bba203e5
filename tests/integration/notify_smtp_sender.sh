#!/bin/sh
# The default sender of an email sink without from is perfwatch@ the
# machine's fully qualified name: its hostname when that has a dot, or
# the canonical name the resolver gives for it.  Without one it is the
# short name, and a log line, once however many sinks use it, says to
# set from.  An explicit from wins.  The SMTP greeting (EHLO) names the
# same host, from or not, unless the sink's smtp_url has a path, which
# names it instead.  Where this user may give a shell a
# host name of its own (unshare -u), the test also runs under a
# qualified name and a short one that nothing resolves, whatever the
# machine's own name is, and under a short name that the machine's
# /etc/hosts (the test's own) gives a canonical name with a domain, and
# one whose canonical name is longer than 63 characters.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port=$(free_port)
start_smtp "$T/smtp" "$port"
cat >"$T/sinks.conf" <<EOF2
[sink "a"]
type = email
to = ops@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
[sink "b"]
type = email
to = dev@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
[sink "c"]
type = email
to = boss@example.org
from = Robot <robot@example.net>
smtp_url = smtp://127.0.0.1:$port
starttls = none
[sink "d"]
type = email
to = desk@example.org
from = robot@example.net
smtp_url = smtp://127.0.0.1:$port/helo.example.net
starttls = none
EOF2

# The name the machine's mail should come from, by the rules above
# (python's getaddrinfo asks the same resolver), then 1 when qualified.
expected_host() {
	"$PY" - <<'EOPY'
import re, socket
def qualified(n):
    return (n is not None and re.fullmatch(r"[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+",
            n) is not None and not re.fullmatch(r"[0-9.]+", n) and
            n.lower() != "localhost" and not n.lower().startswith("localhost."))
h = socket.gethostname()
if qualified(h):
    print(h, 1)
else:
    try:
        c = socket.getaddrinfo(h, None, socket.AF_UNSPEC, socket.SOCK_STREAM,
                               0, socket.AI_CANONNAME)[0][3]
    except OSError:
        c = None
    print(c, 1) if qualified(c) else print(h, 0)
EOPY
}

# check TAG HOST QUALIFIED [NAME [HOSTS]]: notify test through every
# sink (with NAME, as a machine of that host name, and HOSTS as its
# /etc/hosts), then the four messages' senders and greetings and the
# log line about from.
check() {
	rm -f "$T"/smtp/msg-*
	if [ $# -eq 5 ]; then
		set -- "$1" "$2" "$3" unshare -u -m sh -c \
		    'mount --bind "$1" /etc/hosts && hostname "$0" &&
		    shift && exec "$@"' "$4" "$5"
	elif [ $# -eq 4 ]; then
		set -- "$1" "$2" "$3" unshare -u sh -c \
		    'hostname "$0" && exec "$@"' "$4"
	else
		set -- "$1" "$2" "$3"
	fi
	tag=$1
	host=$2
	qualified=$3
	shift 3
	timeout 60 "$@" "$PERFWATCH" -c "$T/sinks.conf" notify test \
	    >"$T/$tag.out" 2>"$T/$tag.err" ||
		fail "notify test ($tag): $(cat "$T/$tag.out" "$T/$tag.err")"
	[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 4 ] ||
		fail "$tag: not four messages: $(cat "$T/$tag.out")"
	"$PY" - "$T/smtp" "$host" <<'EOPY'
import email, email.policy, glob, json, sys
d, host = sys.argv[1:3]
seen = {}
for j in glob.glob(d + "/msg-*.json"):
    env = json.load(open(j))
    m = email.message_from_bytes(open(j[:-5] + ".eml", "rb").read(),
                                 policy=email.policy.default)
    f = m["From"].addresses[0].addr_spec
    assert f == env["mail_from"], (f, env)
    seen[env["rcpt_tos"][0]] = (f, env["helo"])
want = {"ops@example.org": ("perfwatch@" + host, host),
        "dev@example.org": ("perfwatch@" + host, host),
        "boss@example.org": ("robot@example.net", host),
        "desk@example.org": ("robot@example.net", "helo.example.net")}
assert seen == want, (seen, want)
EOPY
	n=$(grep -c 'set from in the sink' "$T/$tag.err" || true)
	if [ "$qualified" -eq 1 ]; then
		[ "$n" -eq 0 ] ||
			fail "$tag: a qualified name logged: $(cat "$T/$tag.err")"
	else
		[ "$n" -eq 1 ] || fail "$tag: $n lines about from, not 1: \
$(cat "$T/$tag.err")"
		expect_match "$(cat "$T/$tag.err")" "[sink \"a\"]: no fully \
qualified name found for this machine ($host): the sender is \
perfwatch@$host"
	fi
}

set -- $(expected_host)
check own "$1" "$2"
# Names of our choosing, in a UTS namespace of the test's own: one with
# a domain, and localhost, which /etc/hosts resolves to itself (no DNS).
if unshare -u true 2>/dev/null; then
	check fq pw-box.example.org 1 pw-box.example.org
	check short localhost 0 localhost
fi
# A short name that the machine's /etc/hosts (one of the test's, in a
# mount namespace) gives a canonical name with a domain.
printf '127.0.0.1 localhost\n127.0.1.1 pwbox.example.org pwbox\n' \
    >"$T/hosts"
if unshare -u -m sh -c 'mount --bind "$0" /etc/hosts' "$T/hosts" \
    2>/dev/null; then
	check canon pwbox.example.org 1 pwbox "$T/hosts"
	# A canonical name longer than a DNS label (63), as a cloud
	# machine's often is: the sender's domain is that name whole, as
	# the greeting's is, not cut at 63 characters.
	long=pwbox.eu-central-1.compute.internal.perf-lab.corp.example.org
	long=pwbox.build-farm-07.$long
	printf '127.0.0.1 localhost\n127.0.1.1 %s pwbox\n' "$long" \
	    >"$T/hosts-long"
	check canonlong "$long" 1 pwbox "$T/hosts-long"
fi
pass
