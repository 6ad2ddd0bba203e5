#!/bin/sh
# A store that is read-only to its reader, in rollback-journal mode (a
# copy made with VACUUM INTO, SQLite's own way to back a live database
# up): the read commands read it, the ones that write refuse with a
# clear message, and the file is not touched.  The switch to WAL that
# every open made is a write, and every read command failed with
# "attempt to write a readonly database".
set -eu
. "$(dirname "$0")/lib.sh"
need_nobody

step_history 4 9 9 3 | pw import - >/dev/null
# Two runs of a test of the system index, whose reference run show pins
# the first time it is shown, where the store can be written.
printf 'run,time,workload,metric,value,unit,better,host\n' >"$T/ix.csv"
for r in 1 2; do
	for v in 1001 1002 1003; do
		echo "ix-$r,170000000$r,sys.pipe,lps,$v,lps,higher,box"
	done
done >>"$T/ix.csv"
pw import "$T/ix.csv" >/dev/null
mkdir "$T/ro"
sqlite3 "$PERFWATCH_DB" "VACUUM INTO '$T/ro/copy.db'"
expect_eq "$(sqlite3 "$T/ro/copy.db" "PRAGMA journal_mode")" delete
chmod 755 "$T" "$T/ro"
chmod 644 "$T/ro/copy.db"
sum=$(cksum <"$T/ro/copy.db")
pw export >"$T/want.csv"

as_nobody -D "$T/ro/copy.db" runs --csv >"$T/runs" 2>"$T/err" ||
	fail "runs: $(cat "$T/err")"
expect_match "$(cat "$T/runs")" "r-04,box,"
as_nobody -D "$T/ro/copy.db" show box:r-02 >"$T/show" 2>"$T/err" ||
	fail "show: $(cat "$T/err")"
expect_match "$(cat "$T/show")" "run r-02 on box"
# Not pinned here, and not a word of a write it could not make: the
# reference is the first run all the same.
for csv in "" --csv; do
	# shellcheck disable=SC2086 # no word when empty
	as_nobody -D "$T/ro/copy.db" show $csv box:ix-2 >"$T/show" \
	    2>"$T/err" || fail "show $csv ix-2: $(cat "$T/err")"
	[ ! -s "$T/err" ] || fail "show $csv ix-2 said: $(cat "$T/err")"
done
as_nobody -D "$T/ro/copy.db" show box:ix-2 >"$T/show" 2>"$T/err"
expect_match "$(cat "$T/show")" "System Benchmarks (reference run ix-1)"
as_nobody -D "$T/ro/copy.db" export >"$T/got.csv" 2>"$T/err" ||
	fail "export: $(cat "$T/err")"
cmp -s "$T/want.csv" "$T/got.csv" || fail "the export differs"

step_history 5 9 9 3 | sed 's/^r-/s-/' >"$T/more.csv"
chmod 644 "$T/more.csv"
for args in "import $T/more.csv" "check box:r-04"; do
	rc=0
	# shellcheck disable=SC2086 # the words are split on purpose
	as_nobody -D "$T/ro/copy.db" $args >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" -eq 73 ] || fail "$args: exit $rc: $(cat "$T/err")"
	expect_eq "$(cat "$T/err")" "perfwatch: $T/ro/copy.db: read-only to \
this user, and perfwatch ${args%% *} writes to it: run it as the \
database's owner"
done

[ "$(cksum <"$T/ro/copy.db")" = "$sum" ] || fail "the copy was changed"
[ "$(ls "$T/ro")" = copy.db ] || fail "left beside it: $(ls "$T/ro")"
expect_eq "$(sqlite3 "$T/ro/copy.db" "PRAGMA journal_mode")" delete

# One of an older schema cannot be read as it is: said so, untouched.
sqlite3 "$PERFWATCH_DB" "VACUUM INTO '$T/ro/old.db'"
known=$(sqlite3 "$PERFWATCH_DB" "PRAGMA user_version")
sqlite3 "$T/ro/old.db" "PRAGMA user_version = 5"
chmod 644 "$T/ro/old.db"
sum=$(cksum <"$T/ro/old.db")
rc=0
as_nobody -D "$T/ro/old.db" runs >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 73 ] || fail "old runs: exit $rc: $(cat "$T/err")"
expect_eq "$(cat "$T/err")" "perfwatch: $T/ro/old.db: read-only to this \
user, and its schema version 5 is older than $known: open it once as \
its owner to migrate it"
[ "$(cksum <"$T/ro/old.db")" = "$sum" ] || fail "the old copy was changed"
pass
