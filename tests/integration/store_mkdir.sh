#!/bin/sh
# run and import make the database's directory when there is none.  One
# they could not make was said as "perfwatch: /x/y: Not a directory",
# the path alone, which reads as if the database itself were the
# problem, or an input file; it now says that the database's directory
# could not be made, and of which database.
set -eu
. "$(dirname "$0")/lib.sh"

: >"$T/file"
printf 'run,time,workload,metric,value,unit,better\na,2020-01-01T00:00:00Z,w,m,1,s,lower\n' \
    >"$T/h.csv"
rc=0
out=$(pw -D "$T/file/sub/perfwatch.db" import "$T/h.csv" 2>&1) || rc=$?
[ "$rc" -eq 73 ] || fail "import: exit $rc: $out"
expect_eq "$out" "perfwatch: $T/file/sub/perfwatch.db: cannot make its directory $T/file/sub: Not a directory"
[ ! -e "$T/file/sub" ] || fail "something was made"
pass
