#!/bin/sh
# `perfwatch status` writes the names and messages in perfwatchd's reply
# (a workload, a run, a trigger's detail, a git tree's name, path, ref
# and error, the last error, a refusal) with their control characters
# escaped, as the tables do (\n, \t, \r, \xHH, \u00HH): a newline in one
# forged a line of its own, an escape sequence drove the terminal.
# --json keeps the text as it is.  First a stand-in daemon whose reply
# holds control characters in every string the text prints; then the
# real perfwatchd, with a git tree whose name and path hold an escape
# sequence and a battery queued for a glob that holds a newline.
set -eu
. "$(dirname "$0")/daemon.subr"
export TZ=UTC

# fake_daemon SOCKET REPLY...: answer one request per connection with
# each REPLY (a Python expression) in turn, as JSON on one line.
fake_daemon() {
	sock=$1
	shift
	timeout 60 python3 - "$sock" "$@" <<'EOPY' &
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(1)
for expr in sys.argv[2:]:
    c, _ = s.accept()
    c.makefile("rb").readline()
    c.sendall(json.dumps(eval(expr)).encode() + b"\n")
    c.close()
EOPY
	FPID=$!
	wait_until 10 "the stand-in daemon" test -S "$sock" ||
		fail "no stand-in socket"
}

status='{
 "ok": True, "version": "1.0\x1b[31m", "pid": 42, "state": "running\n",
 "paused": False,
 "work": {"kind": "battery", "trigger": "manual\x1b]0;t\x07",
  "run": "r-1\nperfwatchd: forged", "workload": "wl\x1b[2J",
  "warmup": False, "iteration": 1, "count": 3, "step": 2, "steps": 4,
  "started": "2026-12-06T10:00:00Z", "trigger_detail": "workloads w\x9b31m",
  "waiting": "load \x1b[1m9", "waiting_since": "2026-12-06T10:01:00Z",
  "wait_until": "2026-12-06T11:00:00Z"},
 "builds": [{"name": "repo\x1b[A", "path": "/r", "commit": "0123456789abcdef"}],
 "pending": [{"trigger": "package", "trigger_detail": "dpkg: +evil\x1b[31m 1.0"}],
 "retry_at": "2026-12-06T10:05:00Z", "next_run": "2026-12-06T12:00:00Z",
 "last_run": {"run": "r-0\r", "status": "failed", "trigger": "schedule",
  "verdicts": {"regression\x1b[K": 2}},
 "last_error": "child said \x1b[31mboom\nperfwatchd: all good",
 "alerts": {"open": 1},
 "git": [{"name": "demo\x1b[2J", "path": "/srv/x\ty",
   "ref": "refs/heads/ma\x7fin", "commit": "abcdef0123456789abcd"},
  {"name": "gone", "path": "/p", "ref": "refs/heads/main",
   "error": "cannot open \x27/p\x1b]8;;http://x\x07\x27",
   "failing_since": "2026-12-06T09:00:00Z"}]}'
refused='{"ok": False, "error": "no\x1b[31m\nperfwatch: forged"}'

FSOCK="$T/fake.sock"
printf '[perfwatch]\nsocket = %s\n' "$FSOCK" >"$T/fake.conf"
fake_daemon "$FSOCK" "$status" "$status" "$refused"
timeout 20 "$PERFWATCH" -c "$T/fake.conf" status >"$T/fake.out" ||
	fail "status of the stand-in: $(cat "$T/fake.out")"
cat >"$T/fake.want" <<'EOT'
perfwatchd 1.0\x1b[31m (pid 42): running\n
  now:       manual\x1b]0;t\x07 battery, run r-1\nperfwatchd: forged: wl\x1b[2J 1/3 (step 2 of 4), since 2026-12-06 10:00:00
             (workloads w\u009b31m)
  waiting:   for a quiet machine ([quiet] policy = wait) since 2026-12-06 10:01:00, until 2026-12-06 11:00:00 at the latest: load \x1b[1m9
  queued:    build repo\x1b[A at 0123456789ab
  queued:    package: dpkg: +evil\x1b[31m 1.0
  retrying:  at 2026-12-06 10:05:00 (the last start failed)
  next run:  2026-12-06 12:00:00
  last run:  r-0\r failed (schedule), verdicts: 2 regression\x1b[K
  problem:   child said \x1b[31mboom\nperfwatchd: all good
  alerts:    1 open
  git:       demo\x1b[2J at abcdef012345 (refs/heads/ma\x7fin of /srv/x\ty)
  git:       gone cannot be read (since 2026-12-06 09:00:00): cannot open '/p\x1b]8;;http://x\x07' (refs/heads/main of /p)
EOT
if ! cmp -s "$T/fake.want" "$T/fake.out"; then
	diff "$T/fake.want" "$T/fake.out" | cat -A >&2
	fail "the status text is not the one wanted (diff above)"
fi
# --json: the text as the daemon sent it, for programs.
timeout 20 "$PERFWATCH" -c "$T/fake.conf" status --json |
    python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["last_error"] == "child said \x1b[31mboom\nperfwatchd: all good", d
assert d["work"]["trigger_detail"] == "workloads w\x9b31m", d
' || fail "status --json changed the text"
# A refusal's reason, on standard error, is one line too.
rc=0
timeout 20 "$PERFWATCH" -c "$T/fake.conf" status >"$T/refused.out" \
    2>"$T/refused.err" || rc=$?
[ "$rc" -eq 1 ] || fail "a refused status exited $rc"
expect_eq "$(cat "$T/refused.err")" \
    'perfwatch: perfwatchd: no\x1b[31m\nperfwatch: forged'
wait "$FPID" || fail "the stand-in daemon failed"

# The real daemon: batteries queued while paused for globs that hold a
# newline and an escape sequence (they match "tiny" and "other"; a
# configuration or a profile refuses control characters, a glob sent
# through the socket does not).
esc=$(printf '\033')
write_profile
write_conf_manual
start_daemon
pwc pause >/dev/null || fail "pause"
pwc trigger --workload "t[i
]ny" --workload "o[t${esc}]her" >/dev/null || fail "trigger"
pwc status >"$T/real.out" || fail "status: $(cat "$T/real.out")"
if LC_ALL=C grep -q "$esc" "$T/real.out"; then
	cat -A "$T/real.out" >&2
	fail "status wrote an escape character (above)"
fi
grep -qxF '  queued:    manual: workloads t[i\n]ny, o[t\x1b]her' \
    "$T/real.out" || { cat -A "$T/real.out" >&2; fail "the queued battery"; }
[ "$(grep -c '^  queued: ' "$T/real.out")" -eq 1 ] ||
	fail "not one queued line"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
