#!/bin/sh
# An SMTP server that takes the message and then never answers holds a
# delivery no longer than the sink's timeout: the try is a temporary
# failure, and says so.  One that drops the connection after the
# message, before its answer, leaves the row to try again: the message
# may not have been taken.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port_hang=$(free_port)
start_smtp "$T/hang" "$port_hang" --hang-data 200
port_drop=$(free_port)
start_smtp "$T/drop" "$port_drop" --drop-data
cat >"$T/sinks.conf" <<EOF2
[sink "stuck"]
type = email
to = ops@example.org
smtp_url = smtp://127.0.0.1:$port_hang
starttls = none
timeout = 2s
[sink "dropped"]
type = email
to = ops@example.org
smtp_url = smtp://127.0.0.1:$port_drop
starttls = none
timeout = 2s
EOF2

# The stuck server: the 2 s timeout ends the try (curl waited its own
# two minutes for the answer to the message, whatever the sink said).
before=$(date +%s)
rc=0
pwt -c "$T/sinks.conf" notify test stuck --json >"$T/stuck.json" \
    2>"$T/stuck.err" || rc=$?
took=$(($(date +%s) - before))
[ "$rc" -eq 1 ] || fail "notify test stuck: exit $rc: $(cat "$T/stuck.err")"
[ "$took" -le 10 ] || fail "a 2 s timeout took ${took} s"
"$PY" - "$T/stuck.json" <<'EOPY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r) == 1 and r[0]["outcome"] == "retry", r
assert "timeout" in r[0]["answer"] or "timed out" in r[0]["answer"], r
EOPY

# The dropped connection: a retry, through notify test and a flush.
rc=0
pwt -c "$T/sinks.conf" notify test dropped --json >"$T/dropped.json" \
    2>"$T/dropped.err" || rc=$?
[ "$rc" -eq 1 ] || fail "notify test dropped: exit $rc"
"$PY" - "$T/dropped.json" <<'EOPY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r) == 1 and r[0]["outcome"] == "retry", r
assert r[0]["answer"].startswith("smtp://127.0.0.1:"), r
EOPY
[ "$(count_files "$T"/drop/msg-*.eml)" -eq 0 ] || fail "kept a message"
pass
