#!/bin/sh
# Every exit status that perfwatch(1)'s EXIT STATUS gives, provoked on the
# real binary with a real store, each with the message that names what
# went wrong; then every number of that section must be one this test
# provoked (but for the few listed at the end that are not statuses),
# and every status provoked must be in that section, so that the manual
# and the code cannot drift apart again unseen.  A full disk (a tmpfs of
# 1 MB) needs root and a mount; without them that part is left out and
# said so, the rest still runs.
set -eu
. "$(dirname "$0")/lib.sh"
top=${PERFWATCH_TOP:?}

: >"$T/provoked"
HOLDER=
locker=
exit_cleanup() {
	# The reader is gone before the unmount, or the tmpfs stays busy.
	exec 3>&-
	[ -z "$HOLDER" ] || kill "$HOLDER" 2>/dev/null || true
	[ -z "$HOLDER" ] || wait "$HOLDER" 2>/dev/null || true
	# shellcheck disable=SC2086 # one process or two
	[ -z "$locker" ] || kill $locker 2>/dev/null || true
	umount "$T/full" 2>/dev/null || true
	[ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap exit_cleanup EXIT
trap 'exit 1' INT TERM

# outcome CODE ARGS...: perfwatch ARGS exits CODE, noted as provoked;
# its standard output goes to $T/out, its standard error to $T/err.
outcome() {
	want=$1
	shift
	rc=0
	pw "$@" >"$T/out" 2>"$T/err" </dev/null || rc=$?
	[ "$rc" -eq "$want" ] ||
		fail "perfwatch $*: exit $rc, not $want: $(cat "$T/err")"
	echo "$want" >>"$T/provoked"
}
# expect_exit CODE TEXT ARGS...: exits CODE, and standard error says TEXT.
expect_exit() {
	code=$1
	text=$2
	shift 2
	outcome "$code" "$@"
	expect_match "$(cat "$T/err")" "$text"
}
# expect_exit_out CODE TEXT ARGS...: exits CODE, standard output says TEXT.
expect_exit_out() {
	code=$1
	text=$2
	shift 2
	outcome "$code" "$@"
	expect_match "$(cat "$T/out")" "$text"
}

# 12 runs of this host, 5 samples each, 20% slower from r10.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better"
	for (r = 1; r <= 12; r++)
		for (i = 1; i <= 5; i++)
			printf "r%02d,%d,w,m,%.1f,s,lower\n", r,
			    1700000000 + r * 3600,
			    (r >= 10 ? 120 : 100) + ((i * 7 + r * 3) % 5) * 0.3
}' >"$T/step.csv"
printf 'run,time,workload,metric,value,unit,better\nlone,1700100000,w,other,1,s,lower\n' \
    >"$T/lone.csv"
printf '[perfwatch]\nwork_dir = %s/work\nsocket = %s/none.sock\n[quiet]\n%s\n' \
    "$T" "$T" "$QUIET_ANY_LOAD" >"$T/run.conf"
printf '[perfwatch]\nwork_dir = %s/work\n[quiet]\npolicy = skip\nlook = 0.2\nmin_mem_available = 100\n' \
    "$T" >"$T/skip.conf"
for w in true false 'sleep 60'; do
	printf '[workload "t"]\ncommand = %s\nmeasure = time\niterations = 1\n' \
	    "$w" >"$T/${w%% *}.profile"
done
expect_exit_out 0 "imported 12 runs" import "$T/step.csv"
pw import "$T/lone.csv" >/dev/null

# 0 and 1: a run judged, and one found slower; --bisect's 0, 1, 125, 128.
expect_exit_out 0 "unchanged" check r05
expect_exit_out 1 "regression" check r10
expect_exit_out 0 "unchanged" check --bisect r05
expect_exit_out 1 "regression" check --bisect r10
expect_exit 125 "baseline rolling has no run with its metrics: cannot tell" \
    check --bisect lone
expect_exit 128 'no run "nosuch"' check --bisect nosuch
# A usage error under --bisect stops the bisection (128) rather than
# marking the commit bad (64), also with --bisect abbreviated as getopt
# takes it ("--bi" on; "--bisec --bogus" was 128, "--bogus --bisec" 64).
expect_exit 128 "unrecognized option '--bogus'" check --bogus --bisect
expect_exit 128 "unrecognized option '--bogus'" check --bogus --bisec
expect_exit 128 "unrecognized option '--bogus'" check --bogus --bi
# Nor may main()'s own refusals before check runs: a bad configuration
# (78) and --json with --csv (64) with --bisect abbreviated, and an
# error in the options before the command (64), where git bisect run
# took the commit for bad.
printf '[perfwatch]\nbogus_key = 1\n' >"$T/bisect-bad.conf"
expect_exit 128 "$T/bisect-bad.conf:2:" -c "$T/bisect-bad.conf" check --bis
expect_exit 128 "$T/bisect-bad.conf:2:" -c "$T/bisect-bad.conf" check --bisect
expect_exit 128 "--json or --csv, not both" check --bis --json --csv
expect_exit 128 "unrecognized option '--bogus'" --bogus check --bisect
expect_exit 128 "-c: an empty file name" -c '' check --bisect
expect_exit 128 "-D: an empty file name" -D '' check --bi
# With a value, which --bisect does not take (64 before).
expect_exit 128 "option '--bisect' doesn't allow an argument" check --bis=1

# 64: words that make no command.
expect_exit 64 'unknown command "nosuch"' nosuch
expect_exit 64 "unrecognized option '--bogus'" runs --bogus
# perfwatch's own options' errors name it "perfwatch", not the path it
# was started by, as a command's name it "perfwatch runs".
for args in -x --bogus -c; do
	outcome 64 $args
	case "$(head -n 1 "$T/err")" in
	"perfwatch: "*) ;;
	*) fail "perfwatch $args said: $(head -n 1 "$T/err")" ;;
	esac
done
expect_match "$(head -n 1 "$T/err")" "perfwatch: option requires an argument"
expect_exit 64 "--json or --csv, not both" runs --json --csv
expect_exit 64 '--limit: "x" is not a count' history --limit x
expect_exit 64 "--detail: blank" run --detail ' '
expect_exit 64 '"sys.pipx" (did you mean sys.pipe?)' \
    -c "$T/run.conf" run --profile "$top/etc/profiles/quick.conf" \
    --workload sys.pipx

# 65: data that is not there or will not do; the store is untouched.
expect_exit 65 'no run "nosuch"' show nosuch
expect_exit 65 'no baseline "nosuch"' baseline show nosuch
expect_exit 65 "no host nosuch in the store" runs --host nosuch
printf 'run,time,workload,metric,value,unit,better\nbad,1700000000,w,m,fast,s,lower\n' \
    >"$T/bad.csv"
sqlite3 "$PERFWATCH_DB" .dump >"$T/before.sql"
expect_exit 65 "$T/bad.csv:2:5: value" import "$T/bad.csv"
expect_exit 65 'run "r01" exists already' -c "$T/run.conf" run \
    --profile "$T/true.profile" --label r01
sqlite3 "$PERFWATCH_DB" .dump >"$T/after.sql"
cmp -s "$T/before.sql" "$T/after.sql" || fail "a refused command changed the store"

# 66: an input that is not there, or not a file.
expect_exit 66 "$T/missing.csv: No such file or directory" import "$T/missing.csv"
expect_exit 66 "$T: Is a directory" import "$T"
expect_exit 66 "$T/norepo: No such file or directory" bisect \
    --repo "$T/norepo" HEAD~1..HEAD

# 70: a run that measured nothing; a damaged store, named with its
# error, not taken for "no run"; a reply perfwatchd cannot have sent.
expect_exit 70 "t: exited with status 1" -c "$T/run.conf" run --no-check \
    --profile "$T/false.profile"
printf '[perfwatch]\nwork_dir = %s/afile/work\n' "$T" >"$T/nowork.conf"
: >"$T/afile"
expect_exit 70 "$T/afile/work: Not a directory" -c "$T/nowork.conf" env show
cp "$PERFWATCH_DB" "$T/damaged.db"
spoil_page "$T/damaged.db" runs
expect_exit 70 "$T/damaged.db: database disk image is malformed" \
    -D "$T/damaged.db" show r01
python3 - "$T/none.sock" "$T/listening" <<'EOPY' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(1)
open(sys.argv[2], "w").close()
c, _ = s.accept()
c.recv(4096)
c.sendall(b"this is not JSON\n")
c.close()
EOPY
peer=$!
wait_file -e "$T/listening" "$peer" "the peer on the control socket"
expect_exit 70 "$T/none.sock: unreadable reply" -c "$T/run.conf" status
wait "$peer"
rm -f "$T/none.sock"

# 73: a database that is not there for a command that reads, a file
# that is no database, one of a newer perfwatch; an output not made.
expect_exit 73 "$T/nothere.db: no such database" -D "$T/nothere.db" runs
[ ! -e "$T/nothere.db" ] || fail "runs made a database"
head -c 4096 /dev/urandom >"$T/junk.db"
expect_exit 73 "$T/junk.db: not a readable SQLite database" \
    -D "$T/junk.db" runs
cp "$PERFWATCH_DB" "$T/newer.db"
sqlite3 "$T/newer.db" "PRAGMA user_version = $(($(sqlite3 "$T/newer.db" \
    'PRAGMA user_version') + 1))"
expect_exit 73 "$T/newer.db: written by a newer perfwatch" -D "$T/newer.db" \
    import "$T/step.csv"
expect_exit 73 "$T/no/dir/out.csv: No such file or directory" \
    export -o "$T/no/dir/out.csv"
expect_exit 73 "work directory $T/afile/work: Not a directory" \
    -c "$T/nowork.conf" run --profile "$T/true.profile"

# 74: standard output that cannot be written.
if [ -c /dev/full ]; then
	rc=0
	pw runs >/dev/full 2>"$T/err" || rc=$?
	[ "$rc" -eq 74 ] || fail "runs >/dev/full: exit $rc: $(cat "$T/err")"
	expect_match "$(cat "$T/err")" \
	    "standard output: No space left on device"
fi
rc=0
pw runs >&- 2>"$T/err" || rc=$?
[ "$rc" -eq 74 ] || fail "runs >&-: exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "standard output: Bad file descriptor"
echo 74 >>"$T/provoked"

# 75: another process holds the store's write lock past the busy
# timeout (each command waits it out at once, beside the others), on a
# store with no snapshot of this machine yet, which the run and the
# bisection write first, and on one where this host is not yet (its
# runs are under an old name), which they add first; the quiet policy
# skips the run; no perfwatchd to answer.  The two bisections are of
# two clones: a tree is one bisection's at a time.
git init -q "$T/repo"
for i in 1 2 3; do
	echo "$i" >"$T/repo/f"
	git -C "$T/repo" add f
	git -C "$T/repo" -c user.name=t -c user.email=t@t commit -qm "c$i"
done
git clone -q "$T/repo" "$T/repo2"
pw -D "$T/locked.db" import "$T/step.csv" >/dev/null
pw -D "$T/locked.db" baseline set keep r01 r02 r03 >/dev/null
pw -D "$T/renamed.db" import "$T/step.csv" >/dev/null
sqlite3 "$T/renamed.db" "UPDATE hosts SET name = 'old-name'
    WHERE name = '$(hostname)'"
hold_store_lock "$T/locked.db" "$T/locked" 60 &
locker=$!
hold_store_lock "$T/renamed.db" "$T/locked2" 60 &
locker="$locker $!"
wait_file -e "$T/locked" "${locker% *}" "the locking process"
wait_file -e "$T/locked2" "${locker#* }" "the second locking process"
n=0
pids=
while IFS='|' read -r dir db args; do
	n=$((n + 1))
	printf '%s\n' "$args" >"$T/args.$n"
	printf '%s\n' "$db" >"$T/db.$n"
	(
		cd "$dir"
		rc=0
		# shellcheck disable=SC2086 # the words are split on purpose
		pw -D "$T/$db" -c "$T/run.conf" $args >"$T/out.$n" 2>"$T/err.$n" || rc=$?
		echo "$rc" >"$T/rc.$n"
	) &
	pids="$pids $!"
done <<CASES
$T|locked.db|baseline use keep
$T|locked.db|check r10
$T|locked.db|run --no-check --profile $T/true.profile
$T/repo|locked.db|bisect --profile $T/true.profile HEAD~2..HEAD
$T|renamed.db|run --no-check --profile $T/true.profile
$T/repo2|renamed.db|bisect --profile $T/true.profile HEAD~2..HEAD
CASES
for p in $pids; do
	wait "$p"
done
# shellcheck disable=SC2086 # the two processes
kill $locker
for p in $locker; do
	wait "$p" 2>/dev/null || :
done
locker=
i=1
while [ "$i" -le "$n" ]; do
	rc=$(cat "$T/rc.$i")
	[ "$rc" -eq 75 ] ||
		fail "$(cat "$T/args.$i") on $(cat "$T/db.$i") locked: exit $rc, not 75: $(cat "$T/err.$i")"
	expect_match "$(cat "$T/err.$i")" "$T/$(cat "$T/db.$i")"
	expect_match "$(cat "$T/err.$i")" "database is locked"
	echo 75 >>"$T/provoked"
	i=$((i + 1))
done
# A lock that keeps readers out too (another program's exclusive locking
# mode): no command can open the store, and each says it is busy.
python3 - "$T/locked.db" "$T/xlocked" 60 <<'EOPY' &
import sqlite3, sys, time
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA locking_mode = EXCLUSIVE")
con.execute("BEGIN EXCLUSIVE")
con.execute("COMMIT")
open(sys.argv[2], "w").close()
time.sleep(float(sys.argv[3]))
EOPY
locker=$!
wait_file -e "$T/xlocked" "$locker" "the exclusive locking process"
n=0
pids=
for args in runs "notify pending" "notify flush"; do
	n=$((n + 1))
	printf '%s\n' "$args" >"$T/args.$n"
	(
		rc=0
		# shellcheck disable=SC2086 # the words are split on purpose
		pw -D "$T/locked.db" -c "$T/run.conf" $args >"$T/out.$n" \
		    2>"$T/err.$n" || rc=$?
		echo "$rc" >"$T/rc.$n"
	) &
	pids="$pids $!"
done
for p in $pids; do
	wait "$p"
done
kill "$locker"
wait "$locker" 2>/dev/null || :
locker=
i=1
while [ "$i" -le "$n" ]; do
	rc=$(cat "$T/rc.$i")
	[ "$rc" -eq 75 ] ||
		fail "$(cat "$T/args.$i") under an exclusive lock: exit $rc, not 75: $(cat "$T/err.$i")"
	expect_match "$(cat "$T/err.$i")" \
	    "$T/locked.db: busy, locked by another process (database is locked); try again"
	i=$((i + 1))
done
expect_exit 75 "skipping the run" -c "$T/skip.conf" run --no-check \
    --profile "$T/true.profile"
expect_exit 75 "cannot reach perfwatchd at $T/none.sock" -c "$T/run.conf" \
    status

# 78: a configuration at fault, at its line.
printf '[perfwatch]\nwork_dir = %s/work\nbogus_key = 1\n' "$T" >"$T/bad.conf"
expect_exit 78 "$T/bad.conf:3:" -c "$T/bad.conf" runs
expect_exit 78 'profile "nosuch" not found' -c "$T/run.conf" run \
    --profile nosuch
expect_exit 78 'no sink "nosuch" in the configuration' -c "$T/run.conf" \
    notify test nosuch

# 128 plus the signal's number: a run stopped while it measures, marked
# aborted (SIGINT reaches it as a terminal's job: lib.sh's from_terminal).
for sig in INT:130 TERM:143 HUP:129; do
	from_terminal "$PERFWATCH" -c "$T/run.conf" run --no-check \
	    --profile "$T/sleep.profile" --label "sig-${sig%:*}" \
	    >/dev/null 2>"$T/err" &
	runner=$!
	n=0
	until [ "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM runs
	    WHERE label = 'sig-${sig%:*}' AND status = 'running'" 2>/dev/null)" = 1 ]; do
		n=$((n + 1))
		[ "$n" -le 300 ] || { kill "$runner"; fail "run sig-${sig%:*} did not start"; }
		sleep 0.1
	done
	sleep 0.5
	kill -"${sig%:*}" "$runner"
	rc=0
	wait "$runner" || rc=$?
	[ "$rc" -eq "${sig#*:}" ] ||
		fail "run stopped by SIG${sig%:*}: exit $rc: $(cat "$T/err")"
	expect_match "$(cat "$T/err")" "aborted by signal"
	echo "${sig#*:}" >>"$T/provoked"
done

# So is an import waiting for its input (a FIFO that this shell keeps
# open and never writes to): it imports nothing and leaves no database.
mkfifo "$T/in"
exec 5<>"$T/in"
"$PERFWATCH" -D "$T/signalled.db" import - <"$T/in" >/dev/null 2>"$T/err" &
importer=$!
wait_file -e "$T/signalled.db" "$importer" "the import"
kill -TERM "$importer"
rc=0
wait "$importer" || rc=$?
exec 5>&-
[ "$rc" -eq 143 ] || fail "import stopped by SIGTERM: exit $rc: $(cat "$T/err")"
echo 143 >>"$T/provoked"
expect_match "$(cat "$T/err")" "by signal 15"
expect_match "$(cat "$T/err")" "nothing was imported"
[ ! -e "$T/signalled.db" ] || fail "the stopped import left its database"

# 74 again: a full disk, for every command that writes to it.
full_disk() {
	mkdir "$T/full"
	mount -t tmpfs -o size=1m tmpfs "$T/full" 2>"$T/mount.err" || {
		echo "full disk left out: cannot mount a tmpfs: $(cat "$T/mount.err")"
		return 0
	}
	FULL_DB="$T/full/perfwatch.db"
	pw -D "$FULL_DB" import "$T/step.csv" >/dev/null || fail "import to the tmpfs"
	# An alert, and its row in the outbox for the log sink.
	rc=0
	pw -D "$FULL_DB" check r10 >/dev/null || rc=$?
	[ "$rc" -eq 1 ] || fail "check r10 on the tmpfs: exit $rc"
	# A reader keeps the -shm there and empties the log: only the
	# commands' writes meet the full disk, not their opening.
	mkfifo "$T/hold"
	sqlite3 -cmd "PRAGMA wal_checkpoint(TRUNCATE);" "$FULL_DB" \
	    <"$T/hold" >"$T/holder.out" 2>&1 &
	HOLDER=$!
	exec 3>"$T/hold"
	wait_file -s "$T/holder.out" "$HOLDER" "the reader"
	dd if=/dev/zero of="$T/full/filler" bs=4k 2>/dev/null || true
	sqlite3 "$FULL_DB" .dump >"$T/before.sql"
	expect_exit 74 "database or disk is full" -D "$FULL_DB" check r11
	expect_exit 128 "database or disk is full" -D "$FULL_DB" check \
	    --bisect r11
	expect_exit 74 "outbox row 1: database or disk is full" \
	    -D "$FULL_DB" -c "$T/run.conf" notify flush
	expect_exit 74 "database or disk is full" -D "$FULL_DB" alerts ack 1
	expect_exit 74 "database or disk is full" -D "$FULL_DB" baseline set \
	    full r01 r02 r03
	expect_exit 74 "database or disk is full" -D "$FULL_DB" import \
	    "$T/lone.csv"
	expect_exit 74 "database or disk is full" -D "$FULL_DB" \
	    -c "$T/run.conf" run --no-check --profile "$T/true.profile"
	(cd "$T/repo" && expect_exit 74 "database or disk is full" \
	    -D "$FULL_DB" -c "$T/run.conf" bisect \
	    --profile "$T/true.profile" HEAD~2..HEAD)
	echo 74 >>"$T/provoked"
	sqlite3 "$FULL_DB" .dump >"$T/after.sql"
	cmp -s "$T/before.sql" "$T/after.sql" ||
		fail "a command on the full disk changed the store"
	# A run that fills the disk as it measures: its samples, how its
	# workload ended and its end cannot be written.
	rm "$T/full/filler"
	printf '[workload "fill"]\ncommand = dd if=/dev/zero of=%s bs=4k 2>/dev/null; true\nmeasure = time\niterations = 1\n' \
	    "$T/full/filler" >"$T/fill.profile"
	expect_exit 74 "iteration 1 not stored: database or disk is full" \
	    -D "$FULL_DB" -c "$T/run.conf" run --no-check \
	    --profile "$T/fill.profile"
	# The disk full again, and this machine's snapshot stored by that
	# run: a bisection gets as far as its first run, which cannot be
	# recorded, and stops there, as every commit's would meet it.
	(cd "$T/repo" && expect_exit 74 "exited 74; stopping" \
	    -D "$FULL_DB" -c "$T/run.conf" bisect \
	    --profile "$T/true.profile" HEAD~2..HEAD)
	expect_match "$(cat "$T/err")" "database or disk is full"
	exec 3>&-
	wait "$HOLDER" || true
	HOLDER=
}
if [ "$(id -u)" -eq 0 ]; then
	full_disk
else
	echo "full disk left out: mounting a tmpfs needs root"
fi

# Every number the manual's EXIT STATUS gives is a status provoked
# above, but for the few that are not statuses, and every status
# provoked is there (a manual's section, as in ".Xr perfwatchd 8", is
# left out with its line).
not_status=" 5 "	# "locked for longer than 5 seconds"
sed -n '/^\.Sh EXIT STATUS/,/^\.Sh EXAMPLES/p' "$top/man/perfwatch.1" |
    grep -v '^\.Xr' | grep -o '[0-9][0-9]*' | sort -un >"$T/documented"
[ -s "$T/documented" ] || fail "no EXIT STATUS numbers in perfwatch(1)"
while read -r code; do
	case "$not_status" in *" $code "*) continue ;; esac
	grep -qx "$code" "$T/provoked" ||
		fail "perfwatch(1) gives exit status $code, which no case here provokes"
done <"$T/documented"
sort -un "$T/provoked" | while read -r code; do
	grep -qx "$code" "$T/documented" ||
		fail "perfwatch exits $code, which perfwatch(1)'s EXIT STATUS does not give"
done
pass
