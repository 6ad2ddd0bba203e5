#!/bin/sh
# Output that cannot be written is an error: every command that prints,
# with standard output on a full device (/dev/full), exits non-zero and
# says so on standard error, never 0 with its output lost.  --help, -V
# and perfwatchd -n exited 0 (perfwatchd -n: 1, silently); check --bisect
# exits 128, which stops a bisection, where 74 would mark the commit bad.
set -eu
. "$(dirname "$0")/daemon.subr"

[ -c /dev/full ] || skip "no /dev/full"

# full WANT-STATUS COMMAND...: COMMAND > /dev/full exits WANT-STATUS and
# names standard output on standard error.
full() {
	want=$1
	shift
	rc=0
	"$@" >/dev/full 2>"$T/err" || rc=$?
	[ "$rc" -eq "$want" ] ||
		fail "$* > /dev/full: exit $rc, not $want: $(cat "$T/err")"
	expect_match "$(cat "$T/err")" "standard output: "
	expect_match "$(cat "$T/err")" "No space left on device"
}

step_history 8 6 8 3 >"$T/hist.csv"
pw import "$T/hist.csv" >/dev/null
pw baseline set good r-01 r-02 r-03 >/dev/null

# With another process reading the store, the store's close, after the
# failed write, left errno EAGAIN, and a full disk read "Resource
# temporarily unavailable".
python3 - "$PERFWATCH_DB" "$T/reading" <<'EOF' &
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN")
db.execute("SELECT count(*) FROM samples").fetchone()
open(sys.argv[2], "w").close()
time.sleep(8)
EOF
reader=$!
i=0
until [ -e "$T/reading" ]; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || fail "the reader did not start"
	sleep 0.1
done
full 74 pw runs --json
full 74 pw history --json
kill "$reader" 2>/dev/null || :
wait "$reader" 2>/dev/null || :

full 74 pw -V
full 74 pw --version
full 74 pw -h
full 74 pw --help
full 74 pw runs --help
full 74 pw notify flush --help
for out in "" --json --csv; do
	full 74 pw runs $out
	full 74 pw show $out r-01
	full 74 pw history $out
	full 74 pw compare $out r-01 r-02
	full 74 pw changes $out
	full 74 pw alerts $out --all
	full 74 pw baseline list $out
	full 74 pw baseline show $out good
	full 74 pw env show $out
	full 74 pw check $out --baseline good r-04
done
full 74 pw export
full 74 pw notify pending
full 74 pw bisect --list-git
# A check that found a regression still says so (1), and says that its
# report was lost.
full 1 pw check --baseline good r-07
# Under git bisect run: stop (128), whether the commit was good or bad.
full 128 pw check --bisect --baseline good r-04
full 128 pw check --bisect --baseline good r-07

# perfwatchd: -n's report, the version and the help.
write_profile
write_conf_manual
"$PERFWATCHD" -n -f "$CONF" >/dev/null || fail "perfwatchd -n: exit $?"
full 74 "$PERFWATCHD" -n -f "$CONF"
full 74 "$PERFWATCHD" -n -v -f "$CONF"
full 74 "$PERFWATCHD" -V
full 74 "$PERFWATCHD" -h
pass
