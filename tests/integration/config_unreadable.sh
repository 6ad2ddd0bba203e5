#!/bin/sh
# The system configuration there but not readable by the user (0600 for
# a sink's password): perfwatch says so, and goes on with the built-in
# defaults.  It used to take the defaults without a word, so the user's
# commands answered for another database ("no such database", or an
# empty one) while the machine's runs sat in the configured one.  A
# file that is not there is no news and is not said.
#
# The system file is perfwatchd -h's default path.  Each case runs in a
# private mount namespace with a directory made here bound over that
# file's directory's parent, so the machine's own files are neither read
# nor touched.
set -eu
. "$(dirname "$0")/lib.sh"

need_nobody
command -v unshare >/dev/null 2>&1 || skip "no unshare"
unshare -m true 2>/dev/null || skip "no mount namespace here"

conf=$("$PERFWATCHD" -h 2>&1 | sed -n 's/.*(default \(.*\))$/\1/p')
[ -n "$conf" ] || fail "perfwatchd -h names no default configuration"
etc=$(dirname "$(dirname "$conf")")
[ -d "$etc" ] || skip "$etc is not a directory to mount over"
name=$(basename "$(dirname "$conf")")/$(basename "$conf")

# in_etc DIR ARG...: perfwatch as nobody, with DIR standing for $etc.
in_etc() {
	_dir=$1
	shift
	unshare -m --propagation private sh -c \
	    'mount --bind "$1" "$2" || exit 99; shift 2; exec "$@"' \
	    sh "$_dir" "$etc" $NOBODY "$PERFWATCH" "$@"
}

chmod 755 "$T"
mkdir -p "$T/state" "$T/home"
chown nobody "$T/state" "$T/home"
printf 'run,time,workload,metric,value,unit,better\nr1,1700000000,w,m,1,s,lower\n' \
    >"$T/h.csv"
chmod 644 "$T/h.csv"

# The system directories: none, a readable file, a 0600 file, a file
# behind a directory nobody may not search.
mkdir -p "$T/none" "$T/readable/${name%/*}" "$T/closed/${name%/*}" \
    "$T/hidden/${name%/*}"
for d in readable closed hidden; do
	printf '[perfwatch]\nstate_dir = %s\n' "$T/state" >"$T/$d/$name"
	chmod 644 "$T/$d/$name"
done
chmod 600 "$T/closed/$name"
chmod 700 "$T/hidden/${name%/*}"
unset PERFWATCH_DB
before=$(ls -la "$etc")

rc=0
in_etc "$T/none" -D "$T/state/perfwatch.db" import "$T/h.csv" \
    >"$T/none.out" 2>"$T/none.err" || rc=$?
expect_eq "$rc" 0
expect_eq "$(cat "$T/none.err")" ""

# Readable: its state_dir names the database.
rc=0
in_etc "$T/readable" runs >"$T/readable.out" 2>"$T/readable.err" || rc=$?
expect_eq "$rc" 0
expect_eq "$(cat "$T/readable.err")" ""
expect_match "$(cat "$T/readable.out")" "r1"

# Not readable: said, and the defaults (a database in HOME, which lib.sh
# sets to $T/home) used.
rc=0
in_etc "$T/closed" runs >"$T/closed.out" 2>"$T/closed.err" || rc=$?
[ "$rc" -ne 99 ] || fail "could not mount $T/closed over $etc"
expect_match "$(cat "$T/closed.err")" \
    "perfwatch: $conf: Permission denied; using the built-in defaults"
expect_match "$(cat "$T/closed.err")" "$T/home/.local/state/perfwatch"
[ "$rc" -ne 0 ] || fail "runs on a database that is not there exited 0"

# Behind a directory nobody may not search: the same.
rc=0
in_etc "$T/hidden" -D "$T/state/perfwatch.db" runs >"$T/hidden.out" \
    2>"$T/hidden.err" || rc=$?
expect_eq "$rc" 0
expect_match "$(cat "$T/hidden.err")" \
    "perfwatch: $conf: Permission denied; using the built-in defaults"
expect_match "$(cat "$T/hidden.out")" "r1"

# The machine's own directory is as it was: the mounts stayed inside.
expect_eq "$(ls -la "$etc")" "$before"
pass
