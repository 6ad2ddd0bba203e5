#!/bin/sh
# A server whose reply runs on for thousands of continuation lines (here
# a greeting "554-" refusing the client, 2000 lines, some 80 KiB,
# under the 300 KiB libcurl itself takes): the answer keeps
# the reply's first lines, some 2 KiB, marked as cut with " / ...", where
# it used to join every line (each join a copy of all before it) and
# quote the whole.  The refusal is still a refusal: the outcome is
# failed, as for a short 554.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

cat >"$T/long.py" <<'EOPY'
lines = b"".join(b"554-refused, line %d of the long story\r\n" % i
                 for i in range(2000))
while True:
    c, _ = s.accept()
    try:
        c.sendall(lines + b"554 go away\r\n")
        c.recv(4096)
    except OSError:
        pass
    c.close()
EOPY

port=$(free_port)
start_raw "$T/long" "$port" "$T/long.py"

cat >"$T/sinks.conf" <<EOF2
[sink "ops"]
type = email
to = ops@example.org
from = perfwatch@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
timeout = 20
EOF2
rc=0
pwt -c "$T/sinks.conf" notify test ops --json >"$T/out.json" 2>"$T/err" ||
	rc=$?
[ "$rc" -eq 1 ] || fail "notify test: exit $rc: $(cat "$T/err")"
"$PY" - "$T/out.json" <<'EOPY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r) == 1 and r[0]["outcome"] == "failed", r
a = r[0]["answer"]
assert "refused, line 0 of the long story" in a, a[:300]
assert a.endswith(" / ..."), a[-300:]
assert len(a) < 3000, len(a)
assert "line 1999 " not in a, a[-300:]
EOPY
pass
