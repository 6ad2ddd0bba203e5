#!/bin/sh
# An import that made the store and was then refused removes what it
# made, so that a mistyped -D leaves nothing behind.  But another
# process may have opened the new file meanwhile: an import (or a run)
# waiting for the write lock.  The refused import took the file from the
# directory all the same, the other one then committed its runs into
# the removed file and said so (exit 0), and they were gone.  Now a store
# another process has open is kept, and what it wrote is there; one that
# nobody else has open is still removed.
set -eu
. "$(dirname "$0")/lib.sh"

good() {
	echo "run,time,workload,metric,value,unit,better"
	echo "b1,1720000000,sys.pipe,lps,10,lps,higher"
	echo "b2,1720000100,sys.pipe,lps,11,lps,higher"
}

# refused: a file whose third line is refused, two seconds after its
# first rows (the store made and written meanwhile).
refused() {
	printf 'run,time,workload,metric,value,unit,better\n'
	printf 'a1,1719990000,sys.pipe,lps,1,lps,higher\n'
	sleep 2
	printf 'a2,1719990100,sys.pipe,lps,xx,lps,higher\n'
}

good >"$T/good.csv"
db="$T/race.db"
refused | pw -D "$db" import --format csv - >"$T/a.out" 2>&1 &
a=$!
# The refused import makes the file at once; the other one opens it and
# waits for the write lock.
n=0
while [ ! -e "$db" ]; do
	n=$((n + 1))
	[ "$n" -lt 100 ] || fail "the first import made no store"
	sleep 0.05
done
rc=0
pw -D "$db" import "$T/good.csv" >"$T/b.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "the second import exited $rc: $(cat "$T/b.out")"
rc=0
wait "$a" || rc=$?
[ "$rc" -eq 65 ] || fail "the refused import exited $rc: $(cat "$T/a.out")"
expect_match "$(cat "$T/a.out")" "nothing was imported"
[ -e "$db" ] || fail "the store the second import wrote to was removed"
expect_eq "$(pw -D "$db" runs --csv | cut -d, -f1 | tail -n +2 | sort |
    tr '\n' ' ')" "b1 b2 "

# Alone, a refused import still leaves nothing behind.
rc=0
refused | pw -D "$T/alone.db" import --format csv - >"$T/c.out" 2>&1 || rc=$?
[ "$rc" -eq 65 ] || fail "the lone refused import exited $rc"
for f in "$T/alone.db" "$T/alone.db-wal" "$T/alone.db-shm"; do
	[ ! -e "$f" ] || fail "$f left behind by a refused import"
done
pass
