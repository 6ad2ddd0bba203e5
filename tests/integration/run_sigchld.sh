#!/bin/sh
# perfwatch run started by a process that ignores SIGCHLD (an ignored
# signal stays ignored across exec): the kernel then reaped each
# workload itself, wait4() found no child, and every workload failed as
# "killed by signal 9" with no CPU time, the run failed (70).  The run
# now takes the default action back, and measures as ever.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
cat >"$T/p.profile" <<'EOPROF'
[workload "out"]
command = echo x 1.5 s
iterations = 2
[workload "timed"]
command = sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done'
measure = time
iterations = 1
EOPROF

# The parent: SIGCHLD ignored, SIGPIPE back to its default (python
# ignores it, and that too would pass through the exec).
rc=0
python3 -c 'import os, signal, sys
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$PERFWATCH" -c "$T/pw.conf" run \
    --no-check --profile "$T/p.profile" --label ign >"$T/out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "ignored SIGCHLD: exit $rc: $(cat "$T/out")"
case "$(cat "$T/out")" in
*"killed by signal"*|*wait4*) fail "ignored SIGCHLD: $(cat "$T/out")" ;;
esac
sql() {
	sqlite3 "$PERFWATCH_DB" "$1"
}
expect_eq "$(sql "SELECT w.workload || '=' || w.status FROM run_workloads w
    JOIN runs r ON r.id = w.run WHERE r.label = 'ign' ORDER BY w.workload" |
    tr '\n' ' ')" "out=complete timed=complete "
expect_eq "$(sql "SELECT status FROM runs WHERE label = 'ign'")" complete
expect_eq "$(sql "SELECT s.iteration || '=' || s.value FROM samples s
    JOIN runs r ON r.id = s.run JOIN metrics m ON m.id = s.metric
    WHERE r.label = 'ign' AND m.workload = 'out' ORDER BY s.iteration" |
    tr '\n' ' ')" "1=1.5 2=1.5 "
# The CPU time comes from wait4(): the loop's is not 0.
[ "$(sql "SELECT sum(s.value) > 0 FROM samples s JOIN runs r ON r.id = s.run
    JOIN metrics m ON m.id = s.metric WHERE r.label = 'ign' AND
    m.workload = 'timed' AND m.metric IN ('user', 'sys')")" = 1 ] ||
	fail "timed: no CPU time: $(pw show ign)"

pass
