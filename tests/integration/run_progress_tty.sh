#!/bin/sh
# The progress lines perfwatch run prints when stderr is a terminal end
# with "[N/N] done" for a run that went to its end, and without it for
# one that a signal stopped: a SIGTERM at step 2 of 3 printed "[3/3]
# done" after the abort.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
printf '[workload "quick"]\ncommand = echo q 1 s\niterations = 2\n' \
    >"$T/quick.profile"
cat >"$T/stopped.profile" <<EOF
[workload "stopped"]
command = if [ -e $T/flag ]; then touch $T/started; sleep 30; fi; touch $T/flag; echo s 1 s
iterations = 3
timeout = 60
EOF

# on_tty OUT STARTED CMD...: run CMD with its stderr on a pseudo-terminal
# (stdout to OUT.stdout), what it writes there into OUT with its line
# ends as written; with STARTED not "-", SIGTERM it once the file
# STARTED is there (waiting 30 s at most).  Exits with CMD's status.
on_tty() {
	python3 - "$@" <<'EOF'
import os, pty, select, signal, subprocess, sys, time
out, started, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
master, slave = pty.openpty()
with open(out + ".stdout", "w") as so:
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=so,
        stderr=slave)
os.close(slave)
text, sent, deadline = b"", started == "-", time.monotonic() + 30
while True:
    if not sent and os.path.exists(started):
        p.send_signal(signal.SIGTERM)
        sent = True
    if not sent and time.monotonic() > deadline:
        p.kill()
        sent = True
    r, _, _ = select.select([master], [], [], 0.1)
    if r:
        try:
            b = os.read(master, 4096)
        except OSError:
            b = b""
        if not b:
            break
        text += b
open(out, "wb").write(text.replace(b"\r\n", b"\n"))
rc = p.wait()
sys.exit(rc if rc >= 0 else 128 - rc)
EOF
}

# To its end: every step's line, then done.
rc=0
on_tty "$T/quick.tty" - "$PERFWATCH" -c "$T/pw.conf" run --no-check \
    --profile "$T/quick.profile" || rc=$?
[ "$rc" -eq 0 ] || fail "quick: exit $rc: $(cat "$T/quick.tty")"
grep -q '^\[1/2\] quick iteration 1/2, ' "$T/quick.tty" ||
	fail "quick: no line for step 1: $(cat "$T/quick.tty")"
grep -qx '\[2/2\] done' "$T/quick.tty" ||
	fail "quick: no done line: $(cat "$T/quick.tty")"

# Stopped by SIGTERM in step 2: its line, and no done.
rc=0
on_tty "$T/stopped.tty" "$T/started" "$PERFWATCH" -c "$T/pw.conf" run \
    --no-check --profile "$T/stopped.profile" || rc=$?
[ "$rc" -eq $((128 + 15)) ] ||
	fail "stopped: exit $rc: $(cat "$T/stopped.tty")"
grep -q '^\[2/3\] stopped iteration 2/3, ' "$T/stopped.tty" ||
	fail "stopped: no line for step 2: $(cat "$T/stopped.tty")"
expect_match "$(cat "$T/stopped.tty")" "aborted by signal 15"
if grep -q 'done' "$T/stopped.tty"; then
	fail "stopped: a done line after the abort: $(cat "$T/stopped.tty")"
fi
pass
