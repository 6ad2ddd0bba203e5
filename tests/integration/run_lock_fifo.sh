#!/bin/sh
# The measuring lock is in a directory anyone may write (/run/lock, the
# BSDs' /tmp): a FIFO made at its name held a run's open of it for good,
# and perfwatchd's queue behind it.  A lock that is no regular file is
# said and the run measures without it, as perfwatch.conf(5) says of a
# lock that cannot be had.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
printf '[workload "x"]\ncommand = echo t 1 s\niterations = 1\n' \
    >"$T/p.profile"
mkfifo "$PERFWATCH_LOCK"
rc=0
timeout 30 "$PERFWATCH" -c "$T/pw.conf" run --no-check \
    --profile "$T/p.profile" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -ne 124 ] || fail "the run hung on a FIFO at the lock's name"
[ "$rc" -eq 0 ] || fail "run exited $rc: $(cat "$T/err")"
expect_match "$(cat "$T/err")" \
    "measuring lock $PERFWATCH_LOCK: not a regular file; measuring without it"
expect_match "$(pw runs --csv)" ",complete,"
pass
