#!/bin/sh
# An import stopped by SIGINT, SIGTERM or SIGHUP imports nothing, says
# so and exits 128 plus the signal's number; one that was making the
# store leaves neither it nor the directories made for it, as a refused
# import does not.  Killed at the signal's default action, it left the
# store it was making (empty: every "runs" then said "no runs", not "no
# such database") and its directories.
set -eu
. "$(dirname "$0")/lib.sh"

step_history 3 9 9 3 >"$T/h.csv"
mkfifo "$T/in"

# stop_import SIGNAL DB: an import into DB from $T/in, given a header
# and a row, then SIGNAL once it has DB open (its -shm is there, which
# the last connection to close removes); its exit status in $rc and its
# stderr in $T/err.
stop_import() {
	[ ! -e "$2-shm" ] || fail "$2-shm is there before the import"
	from_terminal "$PERFWATCH" -D "$2" import - <"$T/in" >"$T/out" \
	    2>"$T/err" &
	importer=$!
	exec 3>"$T/in"
	head -2 "$T/h.csv" >&3
	wait_file -e "$2-shm" "$importer" "the import"
	kill "-$1" "$importer"
	rc=0
	wait "$importer" || rc=$?
	exec 3>&-
}

# Into a store it makes, in directories it makes.
stop_import INT "$T/new/sub/pw.db"
[ "$rc" -eq 130 ] || fail "SIGINT: exit $rc: $(cat "$T/err")"
# Stopped in its wait for the next row, or (a slower machine, ASan) once
# it had read the row given: "stopped" or "stopped at row 2".
case "$(cat "$T/err")" in
"perfwatch: <stdin>: stopped by signal 2
perfwatch: nothing was imported" | \
"perfwatch: <stdin>: stopped at row 2 by signal 2
perfwatch: nothing was imported") ;;
*)	fail "SIGINT: $(cat "$T/err")" ;;
esac
[ ! -e "$T/new" ] || fail "left behind: $(find "$T/new")"

# Into a store that has runs: untouched.
pw import "$T/h.csv" >/dev/null
before=$(pw export)
step_history 3 9 9 3 | sed 's/^r-/s-/' >"$T/h.csv"
for sig in TERM:143 HUP:129; do
	stop_import "${sig%:*}" "$PERFWATCH_DB"
	[ "$rc" -eq "${sig#*:}" ] || fail "SIG$sig: exit $rc: $(cat "$T/err")"
	expect_match "$(cat "$T/err")" "perfwatch: nothing was imported"
	expect_eq "$(pw export)" "$before"
done
expect_eq "$(sqlite3 "$PERFWATCH_DB" "PRAGMA integrity_check")" ok
pass
