#!/bin/sh
# Naming runs and showing them with the real binary: history of an empty
# store, labels with ':' or a leading '#', the system index reference
# after import --replace, values of 1e15 and more, history --limit of
# each metric and its hosts
# kept apart, export -o of a run that does not exist, export of a run
# named twice, and import --json.
set -eu
. "$(dirname "$0")/lib.sh"

hdr='run,time,workload,metric,value,unit,better'

# No database where one is named: the reading commands say so (73) and
# make nothing, neither the file nor its directory; check --bisect stops
# the bisection (128) rather than judge a commit by it.
for cmd in runs history show 'check --latest' alerts 'baseline list' \
    changes 'export'; do
	rc=0
	# shellcheck disable=SC2086
	pw -D "$T/typo/perfwatch.db" $cmd >"$T/out" 2>"$T/err" || rc=$?
	expect_eq "$rc" 73
	expect_eq "$(cat "$T/err")" "perfwatch: $T/typo/perfwatch.db: no such \
database (perfwatch run or perfwatch import makes one)"
	[ ! -s "$T/out" ] || fail "$cmd wrote: $(cat "$T/out")"
done
rc=0
pw -D "$T/typo/perfwatch.db" check --bisect 2>/dev/null || rc=$?
expect_eq "$rc" 128
[ ! -e "$T/typo" ] || fail "a reading command made $(ls -R "$T/typo")"
# Nor an empty file (made by touch, or a log named by mistake): they
# wrote a schema of 118 KiB into it and said "no runs".
: >"$T/empty.db"
for cmd in runs 'baseline list' 'check --latest'; do
	rc=0
	# shellcheck disable=SC2086
	pw -D "$T/empty.db" $cmd >"$T/out" 2>"$T/err" || rc=$?
	expect_eq "$rc" 73
	expect_eq "$(cat "$T/err")" "perfwatch: $T/empty.db: an empty file, no \
database yet (perfwatch run or perfwatch import makes one)"
	[ ! -s "$T/empty.db" ] || fail "$cmd wrote into an empty file"
done
rm "$T/empty.db"

# An import of no rows is refused (65) and leaves no store behind.  An
# empty store (its first run skipped) lists nothing, as runs does, and
# exits 0; a metric named that is not there is a mistyped name (65).
printf '%s\n' "$hdr" >"$T/none.csv"
rc=0
pw import "$T/none.csv" 2>/dev/null || rc=$?
expect_eq "$rc" 65
[ ! -e "$PERFWATCH_DB" ] || fail "an import of no rows left a store"
empty_store "$PERFWATCH_DB"
expect_eq "$(pw history)" 'no runs'
expect_eq "$(pw history --json)" '[]'
expect_eq "$(pw history --csv | wc -l)" 1
rc=0
pw history --metric nosuch 2>"$T/err" || rc=$?
expect_eq "$rc" 65
expect_match "$(cat "$T/err")" 'no metric matches metric nosuch'

# A label with ':' and one starting with '#' name their runs.
printf '%s\nv1:rc,1700000000,w,m,1,s,lower\n#tag,1700000001,w,m,2,s,lower\n' \
    "$hdr" >"$T/colon.csv"
out=$(pw import --json "$T/colon.csv")
# A count of metrics is no "metrics", which is a list in every --json.
printf '%s\n' "$out" | python3 -c 'import json, sys
d = json.load(sys.stdin)
assert d == {"runs": 2, "new_metric_count": 1, "samples": 2}, d' ||
	fail "import --json printed: $out"
out=$(pw show --csv v1:rc) || fail "show v1:rc exited $?"
expect_match "$out" 'w,m,1,1,1,-,1,s,lower'
out=$(pw show --csv '#tag') || fail "show #tag exited $?"
expect_match "$out" 'w,m,2,2,2,-,1,s,lower'
out=$(pw export --run v1:rc) || fail "export --run v1:rc exited $?"
[ "$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f1,5)" = 'v1:rc,1' ] ||
	fail "export --run v1:rc wrote: $out"
host=$(printf '%s\n' "$out" | tail -n 1 | cut -d, -f8)
out=$(pw show --csv "$host:v1:rc") || fail "show HOST:v1:rc exited $?"
expect_match "$out" 'w,m,1,1,1,-,1,s,lower'

# export -o with a run that is not there writes no file, and says why.
if pw export -o "$T/out.csv" --run v1:rc --run nosuch 2>"$T/err"; then
	fail "export of a missing run succeeded"
fi
expect_match "$(cat "$T/err")" 'no run "nosuch"'
[ ! -e "$T/out.csv" ] || fail "export of a missing run left $(cat "$T/out.csv")"
pw export -o "$T/out.csv" --run '#tag'
[ "$(wc -l <"$T/out.csv")" -eq 2 ] || fail "export -o wrote $(cat "$T/out.csv")"
# A failed export leaves the file that was there as it was, and no
# temporary file beside it; a device is written, never replaced.
cp "$T/out.csv" "$T/kept.csv"
pw export -o "$T/out.csv" --run nosuch 2>/dev/null &&
	fail "export of a missing run succeeded"
cmp -s "$T/out.csv" "$T/kept.csv" ||
	fail "a failed export changed the file: $(cat "$T/out.csv")"
[ "$(ls "$T" | grep -c '^out\.csv')" -eq 1 ] ||
	fail "a failed export left behind: $(ls "$T")"
# Through a symbolic link: the file it points to gets the export.
ln -s out.csv "$T/link.csv"
pw export -o "$T/link.csv" || fail "export -o a link exited $?"
[ -L "$T/link.csv" ] || fail "export -o replaced the link with a file"
pw export | cmp -s - "$T/out.csv" ||
	fail "the export did not reach the file the link points to"
# A file kept private stays so: the export that replaces it has its mode,
# not the umask's.
chmod 600 "$T/out.csv"
(umask 022 && pw export -o "$T/out.csv") || fail "export -o a 0600 file"
mode=$(ls -l "$T/out.csv" | cut -c 1-10)
expect_eq "$mode" "-rw-------"
(umask 077 && rm -f "$T/new.csv" && pw export -o "$T/new.csv") ||
	fail "export -o a new file"
expect_eq "$(ls -l "$T/new.csv" | cut -c 1-10)" "-rw-------"
pw export -o /dev/null || fail "export -o /dev/null exited $?"
[ -c /dev/null ] || fail "export -o /dev/null replaced the device"
if [ -c /dev/full ]; then
	rc=0
	pw export -o /dev/full 2>"$T/err" || rc=$?
	expect_eq "$rc" 74
	expect_eq "$(cat "$T/err")" "perfwatch: /dev/full: writing the export: \
No space left on device"
	[ -c /dev/full ] || fail "a failed export removed /dev/full"
	rc=0
	pw export >/dev/full 2>"$T/err" || rc=$?
	expect_eq "$rc" 74
	expect_eq "$(cat "$T/err")" "perfwatch: standard output: writing the \
export: No space left on device"
fi

# A run named twice, or two ways (label, HOST:label, #id), is exported
# once, in the order first named, and the export imports again.
out=$(pw export --run '#tag' --run v1:rc --run "$host:#tag" --run '#1' \
    --run v1:rc) || fail "export of runs named twice exited $?"
[ "$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f1,5 | tr '\n' ' ')" = \
    '#tag,2 v1:rc,1 ' ] || fail "export of runs named twice wrote: $out"
printf '%s\n' "$out" | PERFWATCH_DB="$T/again.db" pw import - >/dev/null ||
	fail "export of runs named twice did not import again"

# Values of 1e15 and more keep their magnitude in tables.
printf '%s\nbig,1700000002,w,big,1e40,B,higher\nbig,1700000002,w,big,2e40,B,higher\n' \
    "$hdr" | pw import - >/dev/null
line=$(pw show big | grep '^w  *big ') || fail "no row in show big"
set -- $line
[ "$3" = 1.5e+40 ] && [ "$4" = 1e+40 ] && [ "$5" = 2e+40 ] ||
	fail "show big: $line"
line=$(pw history --metric big | grep '^big ') || fail "no row in history"
set -- $line
[ "$5" = 1.5e+40 ] || fail "history big: $line"

# history --limit counts the metric's own runs, not the store's: a metric
# measured less recently than others still shows its newest runs.
printf '%s\na1,10,wa,ma,1,s,lower\na2,20,wa,ma,2,s,lower\na3,30,wa,ma,3,s,lower
b1,40,wb,mb,1,s,lower\nb2,50,wb,mb,2,s,lower\n' "$hdr" |
    PERFWATCH_DB="$T/limit.db" pw import - >/dev/null
out=$(PERFWATCH_DB="$T/limit.db" pw history --csv --metric ma --limit 2)
[ "$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f1 | tr '\n' ' ')" = \
    'a2 a3 ' ] || fail "history --metric ma --limit 2: $out"
out=$(PERFWATCH_DB="$T/limit.db" pw history --csv --limit 1)
[ "$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f1 | tr '\n' ' ')" = \
    'a3 b2 ' ] || fail "history --limit 1: $out"

# history keeps hosts apart: a series for each host, the host in the last
# column and in each JSON series, the limit counted on each host.
printf '%s,host,iteration\nx,100,w,m,1,s,lower,h1,1\nx,200,w,m,2,s,lower,h2,1
y,300,w,m,3,s,lower,h1,1\n' "$hdr" |
    PERFWATCH_DB="$T/hosts.db" pw import - >/dev/null
out=$(PERFWATCH_DB="$T/hosts.db" pw history --csv)
expect_eq "$(printf '%s\n' "$out" | head -1)" \
    'run,time,workload,metric,median,min,max,stddev,samples,unit,busy,host'
[ "$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f1,5,12 | tr '\n' ' ')" = \
    'x,1,h1 y,3,h1 x,2,h2 ' ] || fail "history of two hosts: $out"
out=$(PERFWATCH_DB="$T/hosts.db" pw history --csv --limit 1)
[ "$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f1,12 | tr '\n' ' ')" = \
    'y,h1 x,h2 ' ] || fail "history --limit 1 of two hosts: $out"
out=$(PERFWATCH_DB="$T/hosts.db" pw history --host h2 --csv)
[ "$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f1,12 | tr '\n' ' ')" = \
    'x,h2 ' ] || fail "history --host h2: $out"
table=$(PERFWATCH_DB="$T/hosts.db" pw history)
expect_match "$table" ' host'
PERFWATCH_DB="$T/hosts.db" pw history --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [(s["host"], [r["run"] for r in s["runs"]]) for s in d] == \
    [("h1", ["x", "y"]), ("h2", ["x"])], d
'

# The system index reference follows import --replace of that run.
printf '%s\nA,1800000000,sys.dhrystone,lps,100,lps,higher\n' "$hdr" >"$T/A.csv"
printf '%s\nB,1800100000,sys.dhrystone,lps,150,lps,higher\n' "$hdr" >"$T/B.csv"
pw import "$T/A.csv" >/dev/null
pw import "$T/B.csv" >/dev/null
out=$(pw show B)
expect_match "$out" 'System Benchmarks (reference run A)'
expect_match "$out" 'System Benchmarks Index Score                           1500.0'
pw import --replace "$T/A.csv" >/dev/null
out=$(pw show B)
expect_match "$out" 'System Benchmarks (reference run A)'
expect_match "$out" 'System Benchmarks Index Score                           1500.0'

# A database that is read-only to its reader, in a directory it cannot
# write (a member of perfwatchd's group, perfwatchd not running): SQLite
# cannot create the -shm file that reading a WAL file needs.  The
# message says so and what to do, not "attempt to write a readonly
# database".
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
    setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFWATCH" -V \
    >/dev/null 2>&1; then
	mkdir "$T/ro"
	cp "$PERFWATCH_DB" "$T/ro/pw.db"
	chmod 755 "$T" "$T/ro"
	chmod 644 "$T/ro/pw.db"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFWATCH" \
	    -D "$T/ro/pw.db" runs >/dev/null 2>"$T/err" || rc=$?
	chmod 700 "$T"
	expect_eq "$rc" 73
	expect_match "$(cat "$T/err")" "$T/ro/pw.db: read-only to this user, \
and reading it needs its -shm file"
	[ ! -e "$T/ro/pw.db-shm" ] || fail "a -shm file was created"
	# The file writable, its directory not (a file installed into a
	# directory of root's): the same words blamed the file.
	chmod 755 "$T"
	chmod 666 "$T/ro/pw.db"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PERFWATCH" \
	    -D "$T/ro/pw.db" runs >/dev/null 2>"$T/err" || rc=$?
	chmod 700 "$T"
	expect_eq "$rc" 73
	expect_eq "$(cat "$T/err")" "perfwatch: $T/ro/pw.db: this user may \
write the file but not its directory, where its -wal and -shm files \
must be made: let it write the directory"
else
	echo "skipped: the read-only reader (needs root, setpriv and a" \
	    "binary that user 65534 can run)"
fi

# A database read-only to its user, in a directory that user can write:
# it reads, and a command that writes is refused before it starts (73),
# where check and baseline set failed at their first write (65, "attempt
# to write a readonly database"), a run after its snapshot (70), and
# baseline delete said there was no such baseline.
reader=
if [ "$(id -u)" -eq 0 ]; then
	reader="setpriv --reuid=65534 --regid=65534 --clear-groups"
	command -v setpriv >/dev/null &&
	    $reader "$PERFWATCH" -V >/dev/null 2>&1 || reader=none
fi
if [ "$reader" != none ]; then
	mkdir "$T/rw"
	step_history 6 5 6 3 | pw -D "$T/rw/pw.db" import - >/dev/null
	pw -D "$T/rw/pw.db" baseline set good r-01 r-02 r-03 >/dev/null
	chmod 755 "$T"
	chmod 777 "$T/rw"
	chmod 444 "$T/rw/pw.db"
	before=$(sqlite3 "$T/rw/pw.db" .dump)
	printf 'run,time,workload,metric,value,unit,better\nn,1,w,m,1,s,lower\n' \
	    >"$T/rw/one.csv"
	chmod 644 "$T/rw/one.csv"
	while IFS='|' read -r want name args; do
		rc=0
		# shellcheck disable=SC2086 # the words are split on purpose
		$reader "$PERFWATCH" -D "$T/rw/pw.db" $name $args >/dev/null \
		    2>"$T/err" || rc=$?
		[ "$rc" -eq "$want" ] ||
			fail "read-only: $name $args: exit $rc: $(cat "$T/err")"
		[ "$want" -eq 0 ] || expect_match "$(cat "$T/err")" \
		    "$T/rw/pw.db: read-only to this user, and perfwatch $name writes to it"
	done <<EOF
0|runs|
0|baseline show|good
73|check|--baseline good r-05
128|check|--bisect --baseline good r-05
73|baseline set|other r-04
73|baseline use|good
73|baseline delete|good
73|alerts ack|1
73|import|$T/rw/one.csv
73|notify flush|
EOF
	chmod 700 "$T"
	[ "$(sqlite3 "$T/rw/pw.db" .dump)" = "$before" ] ||
		fail "the read-only database changed"
fi
pass
