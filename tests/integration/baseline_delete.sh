#!/bin/sh
# baseline delete of the baseline in use clears the "in use" setting in
# the same transaction as the delete.  It was cleared in a second step
# whose failure was ignored: the command said "deleted" (0) and checks
# went on judging against a baseline that was gone.  A trigger that
# refuses the settings row's delete stands for the write that fails.
set -eu
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null || fail "sqlite3 is not installed"
step_history 8 7 8 7 | pw import - >/dev/null
pw baseline set keep r-01 r-02 r-03 >/dev/null
pw baseline use keep >/dev/null
sqlite3 "$PERFWATCH_DB" "CREATE TRIGGER refuse BEFORE DELETE ON settings
    BEGIN SELECT RAISE(ABORT, 'settings refuse the delete'); END"

rc=0; pw baseline delete keep >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 70 ] || fail "baseline delete keep: exit $rc: $(cat "$T/out" "$T/err")"
[ ! -s "$T/out" ] || fail "baseline delete keep printed: $(cat "$T/out")"
expect_match "$(cat "$T/err")" "baseline keep: settings refuse the delete"
expect_match "$(cat "$T/err")" "nothing deleted"
# Both as they were: the baseline, and in use.
expect_match "$(pw baseline list --csv)" "keep,3,"
expect_match "$(pw baseline list)" "in use: keep"

sqlite3 "$PERFWATCH_DB" "DROP TRIGGER refuse"
expect_eq "$(pw baseline delete keep)" "baseline keep deleted"
case "$(pw baseline list)" in *keep*) fail "keep is still there or in use" ;; esac
pw check r-08 >/dev/null || [ $? -eq 1 ] || fail "check after the delete"
pass
