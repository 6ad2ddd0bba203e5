#!/bin/sh
# Started as root, perfwatchd becomes [perfwatch] user before it opens the
# store or runs anything: the daemon, its runs and their workloads run as
# nobody; the state and socket directories it creates belong to nobody,
# mode 0750; the socket is mode 0660 and group nogroup.  The work
# directory is shared with the runs people start by hand, as
# /var/tmp/perfwatch is: root's, mode 1777, where a run by another user
# works too (it was nobody's, mode 0750, and such a run stopped with
# "...: Permission denied", exit 70).  A link left in the state directory
# as the lock is refused.  Root as the user is refused unless allow_root
# says yes, and an unknown user is an error.
set -eu
. "$(dirname "$0")/daemon.subr"

if [ "$(id -u)" -ne 0 ]; then
	skip "needs root"
fi
getent passwd nobody >/dev/null || fail "no user nobody"
nogroup=$(id -gn nobody)
nobody_uid=$(id -u nobody)

# nobody must reach the test directory, the profile and the binaries.
chmod 755 "$T"
mkdir "$T/out"
chown nobody "$T/out"
cat >"$T/profile.conf" <<EOF
[workload "whoami"]
command = id -u >$T/out/uid.txt; id -G >$T/out/gids.txt
measure = time
iterations = 1
EOF
DUSER=nobody DGROUP=$nogroup DALLOW_ROOT=no write_conf_manual
rmdir "$T/work"
chmod 644 "$CONF" "$T/profile.conf"

start_daemon
grep -q "^Uid:[[:space:]]*${nobody_uid}[[:space:]]*${nobody_uid}[[:space:]]*${nobody_uid}" \
    "/proc/$DPID/status" || fail "the daemon is not nobody: $(grep Uid "/proc/$DPID/status")"
grep -q "^Groups:[[:space:]]*$(id -g nobody)[[:space:]]*$" "/proc/$DPID/status" ||
	fail "supplementary groups kept: $(grep Groups "/proc/$DPID/status")"
for dir in state run; do
	[ "$(stat -c '%a %U' "$T/$dir")" = "750 nobody" ] ||
		fail "$T/$dir: $(stat -c '%a %U' "$T/$dir")"
done
[ "$(stat -c '%a %U %G' "$T/work")" = "1777 root root" ] ||
	fail "$T/work: $(stat -c '%a %U %G' "$T/work")"
[ "$(stat -c '%a %U %G' "$SOCK")" = "660 nobody $nogroup" ] ||
	fail "socket: $(stat -c '%a %U %G' "$SOCK")"
[ "$(stat -c %U "$DB")" = nobody ] || fail "the database is not nobody's"

request '{"cmd":"trigger"}' | grep -q '"ok":true' || fail "trigger refused"
wait_until 20 "the run" runs_at_least 1 "status = 'complete'" ||
	fail "no run as nobody"
[ "$(cat "$T/out/uid.txt")" = "$nobody_uid" ] ||
	fail "the workload ran as uid $(cat "$T/out/uid.txt")"
[ "$(cat "$T/out/gids.txt")" = "$(id -g nobody)" ] ||
	fail "the workload had groups $(cat "$T/out/gids.txt")"

# A run by hand of another user (one with no account, uid 65533), in
# the work directory the daemon made, on the same configuration, with a
# database and a measuring lock of its own: it works there beside the
# daemon's user, in a directory of its own that it removes.
hand=65533
mkdir "$T/hand"
chown "$hand:$hand" "$T/hand"
cat >"$T/hand.conf" <<EOF
[workload "where"]
command = pwd >$T/hand/pwd.txt
measure = time
iterations = 1
EOF
chmod 644 "$T/hand.conf"
rc=0
PERFWATCH_DB="$T/hand/perfwatch.db" PERFWATCH_LOCK="$T/hand/measure.lock" \
    setpriv --reuid=$hand --regid=$hand --clear-groups \
    "$PERFWATCH" -c "$CONF" run --no-check --profile "$T/hand.conf" \
    >"$T/hand/out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] ||
	fail "a run by hand as uid $hand: exit $rc: $(cat "$T/hand/out")"
case $(cat "$T/hand/pwd.txt") in
"$T/work/perfwatch-where."??????) ;;
*) fail "the run by hand worked in $(cat "$T/hand/pwd.txt")" ;;
esac
left=$(find "$T/work" -mindepth 1 -maxdepth 1 -uid $hand)
[ -z "$left" ] || fail "the run by hand left $left"

stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
test ! -e "$SOCK" || fail "the socket was not removed"

# The state directory is nobody's: the lock's name may be a link that
# nobody left there, to have root give away or overwrite another file.
# Either kind is refused before anything is written, and the file it
# points to is left as it was.
echo secret >"$T/victim"
chmod 600 "$T/victim"
for kind in symbolic hard; do
	rm -f "$T/state/perfwatchd.lock"
	if [ "$kind" = symbolic ]; then
		ln -s "$T/victim" "$T/state/perfwatchd.lock"
		why="perfwatchd.lock: a symbolic link"
	else
		ln "$T/victim" "$T/state/perfwatchd.lock"
		why="perfwatchd.lock: not a regular file with a single link"
	fi
	rc=0
	timeout 10 "$PERFWATCHD" -d -f "$CONF" >"$T/lock-$kind.out" 2>&1 ||
		rc=$?
	[ "$rc" -eq 1 ] || fail "a $kind link as the lock: exit $rc"
	grep -q "$why" "$T/lock-$kind.out" || fail "$(cat "$T/lock-$kind.out")"
	[ "$(stat -c '%U %G %a' "$T/victim")" = "root root 600" ] ||
		fail "through a $kind link: $(stat -c '%U %G %a' "$T/victim")"
	[ "$(cat "$T/victim")" = secret ] ||
		fail "through a $kind link: the victim holds $(cat "$T/victim")"
done
rm -f "$T/state/perfwatchd.lock"

# Root as the user: refused without allow_root, exit 78.
DUSER=root DGROUP=root DALLOW_ROOT=no write_conf
rc=0
timeout 10 "$PERFWATCHD" -d -f "$CONF" >"$T/root.out" 2>&1 || rc=$?
[ "$rc" -eq 78 ] || fail "user root without allow_root: exit $rc"
grep -qF "$CONF:$(grep -n '^user = ' "$CONF" | cut -d: -f1): [perfwatch] user root is root: workloads never run as root" "$T/root.out" ||
	fail "$(cat "$T/root.out")"

# A user that does not exist: exit 78, saying which.
DUSER=perfwatch-no-such-user DGROUP=root DALLOW_ROOT=no write_conf
rc=0
timeout 10 "$PERFWATCHD" -d -f "$CONF" >"$T/nouser.out" 2>&1 || rc=$?
[ "$rc" -eq 78 ] || fail "unknown user: exit $rc"
grep -qF "$CONF:$(grep -n '^user = ' "$CONF" | cut -d: -f1): [perfwatch] user perfwatch-no-such-user does not exist" "$T/nouser.out" ||
	fail "$(cat "$T/nouser.out")"
pass
