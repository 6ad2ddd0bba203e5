#!/bin/sh
# A command of the user's own may be named "command": perfwatch.conf(5)
# makes a section whose name is not a workload of the battery a command
# of your own, and "command" names no workload, only the kind of a
# user's commands.  The run took the configuration's [workload "command"]
# for the tuning of a battery workload the profile does not run: it was
# left out without a word, no row, while its neighbour ran.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work"
cat >"$T/pw.conf" <<EOC
[perfwatch]
work_dir = $T/work
[quiet]
$QUIET_ANY_LOAD
[workload "command"]
command = echo "v 7 s lower"
iterations = 1
[workload "other"]
command = echo "v 8 s lower"
iterations = 1
EOC
printf '[workload "fast"]\ncommand = echo a 1 s\niterations = 1\n' \
    >"$T/profile.conf"
pw -c "$T/pw.conf" run --no-check --profile "$T/profile.conf" \
    --label named >"$T/out" 2>&1 || fail "run: exit $?: $(cat "$T/out")"
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT group_concat(workload, ' ')
    FROM (SELECT w.workload FROM run_workloads w JOIN runs r ON
    r.id = w.run WHERE r.label = 'named' ORDER BY w.workload)")" \
    "command fast other"
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT s.value FROM samples s
    JOIN metrics m ON m.id = s.metric WHERE m.workload = 'command'")" 7.0

# A profile's command of that name is tuned by the configuration's
# section, as any other command of the profile is: its iterations here.
cat >"$T/pw.conf" <<EOC
[perfwatch]
work_dir = $T/work
[quiet]
$QUIET_ANY_LOAD
[workload "command"]
iterations = 2
EOC
printf '[workload "command"]\ncommand = echo v 7 s\niterations = 1\n' \
    >"$T/profile.conf"
pw -c "$T/pw.conf" run --no-check --profile "$T/profile.conf" \
    --label tuned >"$T/out" 2>&1 || fail "tuned: exit $?: $(cat "$T/out")"
expect_eq "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM samples s
    JOIN runs r ON r.id = s.run WHERE r.label = 'tuned'")" 2
pass
