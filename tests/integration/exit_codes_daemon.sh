#!/bin/sh
# Every exit status that perfwatchd(8)'s EXIT STATUS gives, provoked on
# the real daemon, each with the message that names what went wrong;
# then every number of that section must be one this test provoked, so
# that the manual and the code cannot drift apart unseen.  The parts
# that need root (an account to drop to, a /dev/null that cannot be
# opened, in a mount namespace of its own) are left out without it, and
# said so.
set -eu
. "$(dirname "$0")/daemon.subr"
top=${PERFWATCH_TOP:?}

: >"$T/provoked"
: >"$T/left_out"
# doutcome CODE ARGS...: perfwatchd ARGS exits CODE (within 20 s: one
# that starts when it should not is stopped and fails); its standard
# output and error go to $T/out and $T/err.
doutcome() {
	want=$1
	shift
	rc=0
	timeout 20 "$PERFWATCHD" "$@" >"$T/out" 2>"$T/err" </dev/null || rc=$?
	[ "$rc" -eq "$want" ] ||
		fail "perfwatchd $*: exit $rc, not $want: $(cat "$T/err")"
	echo "$want" >>"$T/provoked"
}
# expect_dexit CODE TEXT ARGS...: exits CODE, standard error says TEXT.
expect_dexit() {
	code=$1
	text=$2
	shift 2
	doutcome "$code" "$@"
	expect_match "$(cat "$T/err")" "$text"
}
# with_conf NAME SED-SCRIPT: $T/NAME.conf, the configuration edited.
with_conf() {
	sed "$2" "$CONF" >"$T/$1.conf"
}
# conf_plus NAME LINE: $T/NAME.conf, the configuration with LINE first
# in [perfwatch].
conf_plus() {
	awk -v l="$2" '{ print } /^\[perfwatch\]$/ { print l }' "$CONF" \
	    >"$T/$1.conf"
}

write_profile
write_conf_manual

# 0: the check of a good configuration, the version, the help.
doutcome 0 -n -f "$CONF"
expect_match "$(cat "$T/out")" "$CONF: configuration OK"
doutcome 0 -V
expect_match "$(cat "$T/out")" "perfwatchd "
doutcome 0 -h
expect_match "$(cat "$T/out")" "usage: perfwatchd"

# 64: an option or a word it does not take, each message beginning with
# "perfwatchd:" as every other does, not with the path it was started by
# (getopt's own words are the C library's: only the name is checked).
expect_dexit 64 "invalid option -- 'x'" -x
expect_dexit 64 "perfwatchd: unexpected argument 'word'" word
for args in -x --bogus -f --help=x; do
	# shellcheck disable=SC2086 # one option, or an option and its value
	doutcome 64 $args
	case "$(head -n 1 "$T/err")" in
	"perfwatchd: "*) ;;
	*) fail "perfwatchd $args said: $(head -n 1 "$T/err")" ;;
	esac
	expect_match "$(sed -n 2p "$T/err")" "usage: perfwatchd"
done

# 74: what -n, -V and -h say cannot be written (a closed standard
# output is /dev/null to the daemon: a full device it is).
[ -c /dev/full ] || { echo "74 left out: no /dev/full"; echo 74 >>"$T/left_out"; }
[ ! -c /dev/full ] || for args in "-n -f $CONF" -V -h; do
	rc=0
	# shellcheck disable=SC2086 # the words are split on purpose
	"$PERFWATCHD" $args >/dev/full 2>"$T/err" || rc=$?
	[ "$rc" -eq 74 ] || fail "perfwatchd $args >/dev/full: exit $rc"
	expect_match "$(cat "$T/err")" \
	    "perfwatchd: standard output: No space left on device"
	echo 74 >>"$T/provoked"
done

# 78: a configuration at fault, at its line, for -n and for the start.
conf_plus bad 'bogus_key = 1'
expect_dexit 78 "$T/bad.conf:2: bogus_key: unknown key" -n -f "$T/bad.conf"
expect_dexit 78 "$T/bad.conf:2: bogus_key: unknown key" -d -f "$T/bad.conf"
expect_dexit 78 "$T/nothere.conf: No such file or directory" \
    -d -f "$T/nothere.conf"
with_conf noprofile "s|^profile = .*|profile = $T/nothere.profile|"
expect_dexit 78 "$T/noprofile.conf:5: [perfwatch] profile" \
    -n -f "$T/noprofile.conf"
expect_match "$(cat "$T/err")" "$T/nothere.profile: No such file or directory"
if [ "$(id -u)" -eq 0 ]; then
	with_conf nouser 's/^user = .*/user = pw-no-such-user/'
	expect_dexit 78 "user pw-no-such-user does not exist" \
	    -d -f "$T/nouser.conf"
	with_conf rootuser 's/^allow_root = .*/allow_root = no/'
	expect_dexit 78 "user root is root" -n -f "$T/rootuser.conf"
else
	echo "the account's 78 left out: only root drops to one"
fi

# 73: a directory it needs that cannot be made.
: >"$T/afile"
with_conf nodir "s|^state_dir = .*|state_dir = $T/afile/state|"
expect_dexit 73 "state_dir: mkdir $T/afile/state: Not a directory" \
    -d -f "$T/nodir.conf"

# 1: a start that something in the way stops: a socket name that is
# not a socket, a database that is not one, a dashboard's address in
# use, and (below) another daemon on the same state directory.
mkdir -p "$T/run"
: >"$SOCK"
expect_dexit 1 "$SOCK: exists and is not a socket" -d -f "$CONF"
rm -f "$SOCK"
mkdir -p "$T/junk-state"
head -c 4096 /dev/urandom >"$T/junk-state/perfwatch.db"
with_conf junk "s|^state_dir = .*|state_dir = $T/junk-state|"
expect_dexit 1 "$T/junk-state/perfwatch.db: not a readable SQLite database" \
    -d -f "$T/junk.conf"
python3 - "$T/port" <<'EOPY' &
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(1)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("%d\n" % s.getsockname()[1])
import os
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(60)
EOPY
holder=$!
wait_until 10 "the port's holder" test -s "$T/port" || fail "no port held"
conf_plus inuse "http = 127.0.0.1:$(cat "$T/port")"
expect_dexit 1 "Address already in use" -d -f "$T/inuse.conf"
kill "$holder"
wait "$holder" 2>/dev/null || :

start_daemon
expect_dexit 1 "another perfwatchd (pid $DPID) uses $T/state" -d -f "$CONF"

# perfwatch(1)'s 1 for a request the daemon refuses, with its reason.
rc=0
pwc trigger --workload nomatch >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "a trigger the daemon refuses: exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "perfwatch: perfwatchd: "
expect_match "$(cat "$T/err")" "nomatch"

# 0: stopped by a signal.
stop_daemon TERM
expect_eq "$DSTATUS" 0
echo 0 >>"$T/provoked"

# 75: a newer perfwatch migrated the store while the daemon ran; its
# next write (the pause) finds it and the daemon stops.
start_daemon
sql "BEGIN IMMEDIATE; CREATE TABLE from_newer (x);
    PRAGMA user_version = $(($(sql 'PRAGMA user_version') + 1)); COMMIT;"
pwc pause >/dev/null 2>&1 || :
n=0
while kill -0 "$DPID" 2>/dev/null; do
	n=$((n + 1))
	[ "$n" -le 150 ] || fail "perfwatchd did not exit within 15 s"
	sleep 0.1
done
DSTATUS=0
wait "$DPID" || DSTATUS=$?
DPID=
expect_eq "$DSTATUS" 75
grep -qF "by a newer perfwatch; this perfwatchd knows" "$LOG" ||
	fail "the log does not say why the daemon stopped"
echo 75 >>"$T/provoked"

# 71: started with standard output closed, and /dev/null cannot be
# opened in its place (a read-only file bound over it, in a mount
# namespace of this test's own).
: >"$T/null"
rc=0
# shellcheck disable=SC2016 # the inner shell expands its own arguments
unshare -m --propagation private sh -c 'mount --bind "$1" /dev/null &&
    mount -o remount,ro,bind /dev/null' sh "$T/null" 2>"$T/err" || rc=$?
if [ "$rc" -ne 0 ]; then
	echo "71 left out: no mount namespace here: $(cat "$T/err")"
	echo 71 >>"$T/left_out"
else
	rc=0
	# shellcheck disable=SC2016 # the same
	unshare -m --propagation private sh -c 'mount --bind "$1" /dev/null &&
	    mount -o remount,ro,bind /dev/null && exec "$2" -n -f "$3" >&-' \
	    sh "$T/null" "$PERFWATCHD" "$CONF" 2>"$T/err" || rc=$?
	[ "$rc" -eq 71 ] || fail "perfwatchd with no /dev/null: exit $rc: $(cat "$T/err")"
	echo 71 >>"$T/provoked"
fi

# Every number of perfwatchd(8)'s EXIT STATUS is a status provoked above
# (or left out on this machine), and every status provoked is there (a
# manual's section, as in ".Xr perfwatch 1", is left out with its line).
sed -n '/^\.Sh EXIT STATUS/,/^\.Sh EXAMPLES/p' "$top/man/perfwatchd.8" |
    grep -v '^\.Xr' | grep -o '[0-9][0-9]*' | sort -un >"$T/documented"
[ -s "$T/documented" ] || fail "no EXIT STATUS numbers in perfwatchd(8)"
while read -r code; do
	grep -qx "$code" "$T/provoked" "$T/left_out" ||
		fail "perfwatchd(8) gives exit status $code, which no case here provokes"
done <"$T/documented"
sort -un "$T/provoked" | while read -r code; do
	grep -qx "$code" "$T/documented" ||
		fail "perfwatchd exits $code, which perfwatchd(8)'s EXIT STATUS does not give"
done
pass
