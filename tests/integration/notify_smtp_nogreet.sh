#!/bin/sh
# An SMTP server that takes the TCP connection and never greets (no
# 220): the flush gives up on it after the sink's timeout (3 s here),
# says that the server connected and did not greet (libcurl's own words
# were "Operation timed out after 3001 milliseconds with 0 bytes
# received"), and the row stays pending for its retry with that answer;
# the log sink's rows are delivered all the same.  When the server
# greets again, the retry delivers the message, once.
#
# The server (a few lines of python on loopback, below) reads what the
# client sends and notes when it closed; the whole command's time is
# checked only against a loose bound (the 30 s connect timeout is what
# a wait for the greeting would otherwise meet, or libcurl's own
# five-minute default for a reply).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

cat >"$T/mute.py" <<'EOPY'
import json, threading, time
n = [0]
def serve(c, k):
    t0 = time.monotonic()
    got = b""
    while True:
        b = c.recv(4096)
        if not b:
            break
        got += b
    with open(os.path.join(out, "conn-%d.json" % k), "w") as j:
        json.dump({"sent": got.decode("ascii", "replace"),
                   "closed": time.monotonic() - t0}, j)
while True:
    c, _ = s.accept()
    n[0] += 1
    threading.Thread(target=serve, args=(c, n[0]), daemon=True).start()
EOPY

port=$(free_port)
start_raw "$T/mute" "$port" "$T/mute.py"
mute=$LAST_PID

cat >"$T/sinks.conf" <<EOF2
[detect]
baseline_runs = 30
[sink "ops"]
type = email
to = ops@example.org
from = perfwatch@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none
timeout = 3s
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"

"$PY" - "$PERFWATCH" "$conf" "$T/f1.json" <<'EOPY' ||
import subprocess, sys, time
pw, conf, out = sys.argv[1:4]
t0 = time.monotonic()
p = subprocess.run([pw, "-c", conf, "notify", "flush", "--json"],
                   capture_output=True, text=True, timeout=60)
took = time.monotonic() - t0
assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
open(out, "w").write(p.stdout)
assert took < 20, "a 3 s timeout took %.2f s" % took
EOPY
	fail "flush 1"
"$PY" - "$T/f1.json" "$T/mute" "$port" <<'EOPY'
import glob, json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["rows"] if r["sink"] == "ops"]
assert len(rows) == 1, d
r = rows[0]
assert r["outcome"] == "retry" and r["attempts"] == 1, r
assert r["answer"].endswith("127.0.0.1:%s: connected, but the server sent "
                            "no greeting (220) within the timeout, 3 s"
                            % sys.argv[3]), r
assert d["retrying"] == 1 and d["failed"] == 0, d
conns = [json.load(open(f)) for f in glob.glob(sys.argv[2] + "/conn-*.json")]
# The client said nothing before the greeting, and hung up.
assert len(conns) == 1 and conns[0]["sent"] == "", conns
EOPY
pwt -c "$conf" notify pending --json >"$T/p1.json"
"$PY" - "$T/p1.json" <<'EOPY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r["sink"] for r in rows] == ["ops"], rows
assert rows[0]["status"] == "pending" and rows[0]["attempts"] == 1, rows
assert "no greeting (220)" in rows[0]["last_error"], rows
EOPY

# A server that greets on the same port: the retry delivers, once.
stop_server "$mute"
start_smtp "$T/smtp" "$port"
pwt -c "$conf" notify flush --force >"$T/f2.out" 2>&1 ||
	fail "flush 2: $(cat "$T/f2.out")"
expect_match "$(cat "$T/f2.out")" "delivered 1, retrying 0, failed 0"
pwt -c "$conf" notify flush --force >"$T/f3.out" 2>&1 ||
	fail "flush 3: $(cat "$T/f3.out")"
expect_match "$(cat "$T/f3.out")" "delivered 0, retrying 0, failed 0"
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 1 ] ||
	fail "$(count_files "$T"/smtp/msg-*.eml) messages, not one"
pass
