#!/bin/sh
# perfwatchd started as root becomes [perfwatch] user before it opens the
# database.  A state_dir that a perfwatch run by hand as root made, and
# the database in it, are root's: the daemon stopped with SQLite's words
# for a reader ("read-only to this user, and reading it needs its -shm
# file, which only a writer can create: read it while perfwatchd has it
# open, or as its owner"), which said neither whose the files are nor
# that the daemon runs as nobody.  It now names the directory or file,
# its owner, the user, and the chown that mends it; after that chown it
# starts.  The socket, bound with that user's ids, in a directory of
# root's: "bind: Permission denied" alone, where it now says whose right
# is missing.
set -eu
. "$(dirname "$0")/daemon.subr"

if [ "$(id -u)" -ne 0 ]; then
	skip "needs root"
fi
getent passwd nobody >/dev/null || fail "no user nobody"
nogroup=$(id -gn nobody)

# nobody must reach the test directory, the profile and the binaries.
chmod 755 "$T"
write_profile
DUSER=nobody DGROUP=$nogroup DALLOW_ROOT=no write_conf_manual
chmod 644 "$CONF" "$T/profile.conf"

# A store made by hand as root, in a state_dir of root's.
mkdir -m 755 "$T/state"
printf 'run,time,workload,metric,value,unit,better\nr1,1200000000,tiny,time,1,s,lower\n' \
    >"$T/h.csv"
PERFWATCH_DB="$DB" pw import "$T/h.csv" >/dev/null || fail "import as root"
[ "$(stat -c %U "$T/state" "$DB" | sort -u)" = root ] ||
	fail "not root's: $(ls -la "$T/state")"

# start NAME: perfwatchd as it starts, which must stop at once (exit 1):
# its output in $T/NAME.out, the error its last line.
start() {
	rc=0
	timeout 20 "$PERFWATCHD" -d -f "$CONF" >"$T/$1.out" 2>&1 || rc=$?
	[ "$rc" -eq 1 ] || fail "$1: exit $rc: $(cat "$T/$1.out")"
}
start dir
expect_eq "$(tail -n 1 "$T/dir.out")" "perfwatchd: state_dir $T/state: owned by root, not writable by user nobody, which perfwatchd runs as: chown -R nobody:$nogroup $T/state"

# The directory given to nobody, the database still root's.
chown nobody "$T/state"
start db
expect_eq "$(tail -n 1 "$T/db.out")" "perfwatchd: $DB: owned by root, not writable by user nobody, which perfwatchd runs as: chown -R nobody:$nogroup $T/state"

# As the message says: it starts, on the store made by hand.
chown -R "nobody:$nogroup" "$T/state"
start_daemon
[ "$(sqlite3 "$DB" "SELECT label FROM runs")" = r1 ] ||
	fail "the store: $(sqlite3 "$DB" "SELECT label FROM runs")"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# The socket's directory there already, root's.
rm -r "$T/run"
mkdir -m 755 "$T/run"
start sock
expect_eq "$(tail -n 1 "$T/sock.out")" "perfwatchd: $SOCK: bind: Permission denied (its directory must be writable by user nobody; perfwatchd makes it when missing)"
pass
