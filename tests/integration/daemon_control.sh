#!/bin/sh
# The control socket: `perfwatch status` answers during a run and says
# what it measures; malformed requests get errors and the connection goes
# on; an oversized request gets an error and is closed; too many clients
# are turned away; trigger queues, pause holds the queue (and survives a
# restart), resume lets it go; a daemon that does not answer is said to.
set -eu
SLOW=6
. "$(dirname "$0")/daemon.subr"

write_profile slow
write_conf_manual
start_daemon
[ "$(status_field 'd["state"]')" = idle ] || fail "not idle at start"
[ "$(status_field 'd["next_run"]')" = None ] || fail "a run is scheduled"
stat -c %a "$SOCK" | grep -qx 660 || fail "socket mode $(stat -c %a "$SOCK")"

out=$(pwc trigger --workload slow)
expect_match "$out" "queued a battery of slow"
wait_until 15 "the slow workload running" sh -c \
    "$PERFWATCH -c $CONF status --json | grep -q '\"workload\": \"slow\"'" ||
	fail "status never showed the slow workload"
st=$(pwc status)
printf '%s\n' "$st" >"$T/status.out"
expect_match "$st" ": running"
expect_match "$st" "manual battery, run "
expect_match "$st" "slow 1/1 (step 1 of 1)"
[ "$(status_field 'd["work"]["trigger"]')" = manual ] || fail "work.trigger"
label=$(status_field 'd["work"]["run"]')
[ "$(sql "SELECT status FROM runs WHERE label = '$label'")" = running ] ||
	fail "run $label is not running in the store"

# Malformed requests, each answered, on one connection that stays open.
request 'not json' '[1,2]' '{"cmd":5}' '{"cmd":"launch"}' \
    '{"cmd":"trigger","workloads":"x"}' '{"cmd":"trigger","workloads":[]}' \
    '{"cmd":"trigger","workloads":[1]}' '{"cmd":"status","cmd":"pause"}' '' \
    '{"cmd":"status"}' >"$T/bad.out"
python3 - "$T/bad.out" <<'EOF'
import json, sys
replies = [json.loads(l) for l in open(sys.argv[1])]
assert len(replies) == 10, replies
for r in replies[:9]:
    assert r["ok"] is False and r["error"], r
assert "not JSON" in replies[0]["error"], replies[0]
assert "expected a JSON object" in replies[1]["error"], replies[1]
assert "expected \"cmd\"" in replies[2]["error"], replies[2]
assert "unknown cmd \"launch\"" in replies[3]["error"], replies[3]
assert "workloads: expected an array" in replies[4]["error"], replies[4]
assert "workloads: empty" in replies[5]["error"], replies[5]
assert "workloads: item 1" in replies[6]["error"], replies[6]
assert "duplicate" in replies[7]["error"], replies[7]
assert "empty request" in replies[8]["error"], replies[8]
assert replies[9]["ok"] is True and replies[9]["state"] == "running", replies[9]
EOF

# Oversized: one error reply, then the daemon closes the connection.
timeout 20 python3 - "$SOCK" <<'EOF'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(sys.argv[1])
try:
    s.sendall(b'{"cmd":"status","pad":"' + b"x" * 20000 + b'"}\n')
except (BrokenPipeError, ConnectionResetError):
    pass
data = b""
while True:
    try:
        chunk = s.recv(65536)
    except ConnectionResetError:
        break
    if not chunk:
        break
    data += chunk
lines = data.decode().splitlines()
assert len(lines) == 1, lines
r = json.loads(lines[0])
assert r["ok"] is False and "longer than 4096 bytes" in r["error"], r
EOF

# The longest request there may be, 4096 bytes, is answered whether its
# line ends in LF or CRLF; a byte more is refused.
timeout 20 python3 - "$SOCK" <<'EOF'
import json, socket, sys
import time
def ask(req, end, split=False, close=False):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(10)
    s.connect(sys.argv[1])
    if split:
        # The CR alone first: the daemon reads it before the LF comes.
        s.sendall(req + end[:1])
        time.sleep(0.3)
        end = end[1:]
    s.sendall(req + end if not split else end)
    if close:
        s.shutdown(socket.SHUT_WR)
    r = json.loads(s.makefile("rb").readline())
    s.close()
    return r
head = b'{"cmd":"status","pad":"'
req = head + b"x" * (4096 - len(head) - 2) + b'"}'
assert len(req) == 4096
for end in (b"\n", b"\r\n"):
    r = ask(req, end)
    assert r["ok"] is True and "state" in r, (end, r)
r = ask(req, b"\r\n", split=True)
assert r["ok"] is True and "state" in r, ("split", r)
r = ask(req, b"\r", close=True)
assert r["ok"] is True and "state" in r, ("CR, then EOF", r)
req = head + b"x" * (4097 - len(head) - 2) + b'"}'
for end in (b"\n", b"\r\n"):
    r = ask(req, end)
    assert r["ok"] is False and "longer than 4096 bytes" in r["error"], \
        (end, r)
EOF

# Too many clients: the 33rd is turned away, the first 32 still work.
timeout 30 python3 - "$SOCK" <<'EOF'
import json, socket, sys
held = []
for i in range(32):
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    s.settimeout(10)
    held.append(s)
# The daemon has accepted them all once one of them gets an answer.
held[31].sendall(b'{"cmd":"status"}\n')
assert json.loads(held[31].makefile().readline())["ok"] is True
extra = socket.socket(socket.AF_UNIX)
extra.connect(sys.argv[1])
extra.settimeout(10)
r = json.loads(extra.makefile().readline())
assert r == {"ok": False, "error": "too many connections"}, r
held[0].sendall(b'{"cmd":"status"}\n')
assert json.loads(held[0].makefile().readline())["ok"] is True
EOF

# Pause during the run: it finishes, the queued trigger waits.
out=$(pwc pause)
# (the work in progress finishes first, if a slow machine has not
# finished it already)
expect_match "$out" "paused"
out=$(pwc trigger --workload tiny)
expect_match "$out" "perfwatchd is paused"
wait_until 20 "the slow run to end" runs_at_least 1 \
    "label = '$label' AND status = 'complete'" ||
	fail "the slow run did not complete"
wait_until 10 "the paused state" sh -c \
    "$PERFWATCH -c $CONF status --json | grep -q '\"state\": \"paused\"'" ||
	fail "not paused after the run"
sleep 1
[ "$(count_runs "1")" -eq 1 ] || fail "a run started while paused"
[ "$(status_field 'len(d["pending"])')" -eq 1 ] || fail "the trigger is not queued"
# A glob that is not UTF-8 cannot go in a JSON request: it is refused,
# not dropped (which queued a battery of the whole profile).
rc=0
pwc trigger --workload "$(printf 'tiny\351')" >"$T/trig.out" 2>&1 || rc=$?
[ "$rc" -eq 64 ] || fail "trigger of a glob not UTF-8: exit $rc: $(cat "$T/trig.out")"
expect_match "$(cat "$T/trig.out")" "--workload: not valid UTF-8"
[ "$(status_field 'len(d["pending"])')" -eq 1 ] ||
	fail "a trigger of a glob not UTF-8 was queued"
# An empty or blank glob is a usage error (64), as for run --workload,
# not a request perfwatchd refuses (1).
for glob in '' ' '; do
	rc=0
	pwc trigger --workload "$glob" >"$T/trig.out" 2>&1 || rc=$?
	[ "$rc" -eq 64 ] ||
		fail "trigger --workload '$glob': exit $rc: $(cat "$T/trig.out")"
	expect_match "$(cat "$T/trig.out")" "--workload: "
done

# Paused survives a restart (the queue does not: it was in memory).
stop_daemon TERM
start_daemon
[ "$(status_field 'd["state"]')" = paused ] || fail "not paused after a restart"
pwc trigger --workload tiny >/dev/null
out=$(pwc resume)
expect_match "$out" "resumed"
wait_until 20 "the tiny run" runs_at_least 1 \
    "trigger = 'manual' AND status = 'complete' AND label <> '$label'" ||
	fail "no run after resume"
wl=$(sql "SELECT group_concat(w.workload) FROM run_workloads w
    JOIN runs r ON r.id = w.run WHERE r.label <> '$label'")
[ "$wl" = tiny ] || fail "the triggered run measured: $wl"
last=$(status_field 'd["last_run"]["status"]')
[ "$last" = complete ] || fail "last_run.status: $last"
# Every count, 0 too, in one order: a key absent when nothing had that
# verdict (or state) failed a script that read it.
expect_eq "$(status_field 'list(d["last_run"]["verdicts"])')" \
    "['regression', 'improvement', 'unchanged', 'inconclusive']"
expect_eq "$(status_field 'd["alerts"]')" \
    "{'open': 0, 'by_state': {'suspected': 0, 'confirmed': 0}}"

# A pause the store cannot take now (another process holds its write
# lock, for longer than the daemon waits in its event loop): the daemon
# pauses at once, says on stderr that it is not saved yet, exit 0, and
# saves it once the lock is let go (daemon_settings_locked.sh follows
# it through a restart).
hold_store_lock "$DB" "$T/locked" 4 &
locker=$!
wait_file -e "$T/locked" "$locker" "the lock holder"
rc=0
pwc pause >"$T/pause.out" 2>"$T/pause.err" || rc=$?
[ "$rc" -eq 0 ] || fail "pause with the database locked: exit $rc"
expect_match "$(cat "$T/pause.out")" "paused"
expect_match "$(cat "$T/pause.err")" "perfwatch: perfwatchd: paused; not saved yet: another process holds the store locked"
[ "$(status_field 'd["state"]')" = paused ] || fail "not paused"
wait "$locker" || fail "the lock holder failed"
wait_until 20 "the pause saved" setting_is daemon:paused yes ||
	fail "the pause was never saved: $(tail -5 "$LOG")"
grep -q "setting daemon:paused saved, after the store's lock had held it back" \
    "$LOG" || fail "the late save not logged"
out=$(pwc resume 2>&1)
expect_eq "$out" "resumed"

# A daemon that does not answer (stopped here): status says so after its
# 10 seconds, in words, and exits 75.
kill -STOP "$DPID"
rc=0
pwc status >"$T/hung.out" 2>&1 || rc=$?
kill -CONT "$DPID"
[ "$rc" -eq 75 ] || fail "status of a daemon that does not answer exited $rc"
grep -qF "$SOCK: perfwatchd did not answer within 10 seconds" "$T/hung.out" ||
	fail "$(cat "$T/hung.out")"
grep -q "may still be carried out" "$T/hung.out" &&
	fail "a status said it may be carried out: $(cat "$T/hung.out")"
# A pause sent to it: it may still be carried out, and is, once the
# daemon reads it (a trigger tried again ran its battery twice).
kill -STOP "$DPID"
rc=0
pwc pause >"$T/hung.out" 2>&1 || rc=$?
kill -CONT "$DPID"
[ "$rc" -eq 75 ] || fail "pause to a daemon that does not answer exited $rc"
expect_match "$(cat "$T/hung.out")" "did not answer within 10 seconds; \
the request was sent, and it may still be carried out: see perfwatch status \
before trying again"
wait_until 10 "the late pause" sh -c \
    "$PERFWATCH -c $CONF status --json | grep -q '\"paused\": true'" ||
	fail "the pause sent was not carried out"
pwc resume >/dev/null || fail "resume"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# No daemon: status says so and exits 75.
rc=0
pwc status >"$T/down.out" 2>&1 || rc=$?
[ "$rc" -eq 75 ] || fail "status without a daemon exited $rc"
grep -q "cannot reach perfwatchd" "$T/down.out" || fail "$(cat "$T/down.out")"
# And what to look at: whether it runs, and with which configuration.
grep -q "(is perfwatchd running? for one started with another configuration: perfwatch -c FILE)" \
    "$T/down.out" || fail "no hint: $(cat "$T/down.out")"
pass
