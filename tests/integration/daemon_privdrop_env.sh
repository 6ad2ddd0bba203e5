#!/bin/sh
# Started as root, perfwatchd read its profile as root, though a profile
# named by name is looked up first in state_dir/profiles, which the
# account it becomes writes: a link put there to a file only root may
# read had its first line printed in the error (stderr and syslog), by
# -n and by the start alike.  It reads the profile as the account now.
# And it kept root's HOME after becoming the account: libgit2 then
# refused every watched tree ("failed to stat '/root/.gitconfig'"), and
# the builds ran with it.  HOME, USER and LOGNAME are the account's now.
set -eu
. "$(dirname "$0")/daemon.subr"

if [ "$(id -u)" -ne 0 ]; then
	skip "needs root"
fi
getent passwd nobody >/dev/null || fail "no user nobody"
nogroup=$(id -gn nobody)
nobody_home=$(getent passwd nobody | cut -d: -f6)
chmod 755 "$T"

# A profile by name, found in the state directory nobody writes: a link
# to a file of root's, mode 0600.
write_profile
DUSER=nobody DGROUP=$nogroup DALLOW_ROOT=no write_conf_manual
sed -i 's#^profile = .*#profile = planted#' "$CONF"
chmod 644 "$CONF"
mkdir -p "$T/state/profiles"
chown -R nobody "$T/state"
chmod 750 "$T/state"
echo 'root:$6$SECRETHASH:19000:0:99999:7:::' >"$T/shadow"
chmod 600 "$T/shadow"
ln -s "$T/shadow" "$T/state/profiles/planted.conf"
for how in -n -d; do
	rc=0
	timeout 20 "$PERFWATCHD" $how -f "$CONF" >"$T/planted$how.out" 2>&1 ||
		rc=$?
	[ "$rc" -eq 78 ] || fail "perfwatchd $how: exit $rc: $(cat "$T/planted$how.out")"
	if grep -q SECRETHASH "$T/planted$how.out"; then
		fail "perfwatchd $how printed root's file: $(cat "$T/planted$how.out")"
	fi
	expect_match "$(cat "$T/planted$how.out")" "Permission denied"
done
rm -rf "$T/state"

# A watched tree, and root's HOME a directory only root may read.
git_repo
chown -R nobody "$repo"
mkdir -m 700 "$T/roothome"
echo '[user]' >"$T/roothome/.gitconfig"
mkdir "$T/out"
chown nobody "$T/out"
DUSER=nobody DGROUP=$nogroup DALLOW_ROOT=no write_conf_git \
    "build = env >$T/out/env.txt"
chmod 644 "$CONF" "$T/profile.conf"
HOME="$T/roothome" start_daemon
wait_until 15 "the first look at the repository" \
    grep -q "git demo: watching refs/heads/main" "$LOG" ||
	fail "the repository was not read: $(grep 'git demo' "$LOG")"
echo 2 >"$repo/version.txt"
g -c safe.directory="$repo" commit -q -a -m second
chown -R nobody "$repo"
wait_until 30 "the build" test -s "$T/out/env.txt" || fail "no build"
expect_match "$(cat "$T/out/env.txt")" "
HOME=$nobody_home
"
expect_match "$(cat "$T/out/env.txt")" "
USER=nobody
"
stop_daemon TERM
pass
