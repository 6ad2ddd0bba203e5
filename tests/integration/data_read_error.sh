#!/bin/sh
# An import whose input cannot be read (an I/O error, a descriptor not
# open for reading) exits 66, as perfwatch(1) says of an input that
# cannot be read, with the system's reason: it exited 65, a data error
# blamed on the file, with "read error" and no reason.  The store is
# left as it was, whatever the format.
set -eu
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null || fail "sqlite3 is not installed"
printf 'run,time,workload,metric,value,unit,better\nr1,1700000000,w,m,1.5,s,lower\n' \
    >"$T/good.csv"
pw import "$T/good.csv" >/dev/null
sqlite3 "$PERFWATCH_DB" .dump >"$T/before.sql"

# expect_read_error WHAT ARGS...: exit 66, WHAT said with its reason.
expect_read_error() {
	what=$1
	shift
	rc=0
	pw import "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 66 ] || fail "import $*: exit $rc: $(cat "$T/err")"
	grep -q "^perfwatch: $what: " "$T/err" ||
		fail "import $*: no reason for $what: $(cat "$T/err")"
	grep -q "read error$" "$T/err" &&
		fail "import $*: no reason: $(cat "$T/err")"
	expect_match "$(cat "$T/err")" "nothing was imported"
	[ ! -s "$T/out" ] || fail "import $*: printed $(cat "$T/out")"
	sqlite3 "$PERFWATCH_DB" .dump >"$T/after.sql"
	cmp -s "$T/before.sql" "$T/after.sql" ||
		fail "import $*: the store changed"
}

# Standard input open for writing only: every read fails (EBADF).
for fmt in csv jsonl; do
	expect_read_error '<stdin>' --format "$fmt" - 0>>"$T/wo"
done
expect_read_error '<stdin>' - 0>>"$T/wo"
expect_match "$(cat "$T/err")" "Bad file descriptor"

# A file that opens and then fails to read (EIO), on Linux.
if [ -r /proc/self/mem ]; then
	expect_read_error /proc/self/mem --format csv /proc/self/mem
	expect_match "$(cat "$T/err")" "Input/output error"
fi

# A file that reads is still taken.
printf 'run,time,workload,metric,value,unit,better\nr2,1700003600,w,m,1.6,s,lower\n' |
    pw import - >/dev/null || fail "import of a good file"
pass
