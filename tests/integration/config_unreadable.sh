#!/bin/sh
# The system configuration there but not readable by the user (0600 for
# a sink's password): perfwatch says so, and goes on with the built-in
# defaults.  It used to take the defaults without a word, so the user's
# commands answered for another database ("no such database", or an
# empty one) while the machine's runs sat in the configured one.  A
# file that is not there is no news and is not said.
#
# The system file is perfwatchd -h's default path; a private mount
# namespace puts an empty tmpfs over its directory's parent, so the
# machine's own files are neither read nor touched.
set -eu
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "needs root"
fi
getent passwd nobody >/dev/null || fail "no user nobody"
command -v setpriv >/dev/null 2>&1 || skip "no setpriv"
command -v unshare >/dev/null 2>&1 || skip "no unshare"
unshare -m true 2>/dev/null || skip "no mount namespace here"

conf=$("$PERFWATCHD" -h 2>&1 | sed -n 's/.*(default \(.*\))$/\1/p')
[ -n "$conf" ] || fail "perfwatchd -h names no default configuration"
confdir=$(dirname "$conf")
etc=$(dirname "$confdir")
[ -d "$etc" ] || skip "$etc is not a directory to mount over"

chmod 755 "$T"
mkdir -p "$T/state" "$T/home"
chown nobody "$T/state" "$T/home"
printf 'run,time,workload,metric,value,unit,better\nr1,1700000000,w,m,1,s,lower\n' \
    >"$T/h.csv"
chmod 644 "$T/h.csv"

# What runs inside the namespace; each case writes its output to $T.
cat >"$T/inner.sh" <<EOF
set -u
as_nobody() {
	HOME="$T/home" setpriv --reuid=nobody --regid="\$(id -g nobody)" \
	    --clear-groups "$PERFWATCH" "\$@"
}
mount -t tmpfs -o mode=0755 perfwatch-test "$etc" || exit 2

# No file: nothing said.
as_nobody -D "$T/state/perfwatch.db" import "$T/h.csv" \
    >"$T/none.out" 2>"$T/none.err"
echo \$? >"$T/none.rc"

mkdir "$confdir"
printf '[perfwatch]\nstate_dir = $T/state\n' >"$conf"

# Readable: its state_dir names the database.
chmod 644 "$conf"
as_nobody runs >"$T/readable.out" 2>"$T/readable.err"
echo \$? >"$T/readable.rc"

# Not readable: said, and the defaults (a database in HOME) used.
chmod 600 "$conf"
as_nobody runs >"$T/unreadable.out" 2>"$T/unreadable.err"
echo \$? >"$T/unreadable.rc"

# A directory on the way that the user may not search: the same.
chmod 644 "$conf"
chmod 700 "$confdir"
as_nobody -D "$T/state/perfwatch.db" runs >"$T/dir.out" 2>"$T/dir.err"
echo \$? >"$T/dir.rc"
exit 0
EOF
unset PERFWATCH_DB
before=$(ls -la "$etc")
unshare -m --propagation private sh "$T/inner.sh" ||
	fail "the namespace's set-up failed ($?)"

expect_eq "$(cat "$T/none.rc")" 0
expect_eq "$(cat "$T/none.err")" ""

expect_eq "$(cat "$T/readable.rc")" 0
expect_eq "$(cat "$T/readable.err")" ""
expect_match "$(cat "$T/readable.out")" "r1"

expect_match "$(cat "$T/unreadable.err")" \
    "perfwatch: $conf: Permission denied; using the built-in defaults"
expect_match "$(cat "$T/unreadable.err")" "$T/home/.local/state/perfwatch"
[ "$(cat "$T/unreadable.rc")" -ne 0 ] ||
	fail "runs on a database that is not there exited 0"

expect_eq "$(cat "$T/dir.rc")" 0
expect_match "$(cat "$T/dir.err")" \
    "perfwatch: $conf: Permission denied; using the built-in defaults"
expect_match "$(cat "$T/dir.out")" "r1"

# The machine's own directory is as it was: the tmpfs stayed inside.
expect_eq "$(ls -la "$etc")" "$before"
pass
