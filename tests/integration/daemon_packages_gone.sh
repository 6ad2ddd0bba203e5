#!/bin/sh
# The package database's directory gone for longer than the settle
# period (removed, or moved away while it is restored from a backup):
# the list cannot be read, which starts a run that says so.  When the
# directory is back at its path, perfwatchd watches it again by itself,
# and what changed in it is compared with the list from before.
set -eu
. "$(dirname "$0")/daemon.subr"

start_packages_daemon 1s

mv "$T/dpkg" "$T/dpkg.away"
wait_package_run 1 "no run after the directory went away"
grep -q "$T/dpkg is gone" "$LOG" || fail "the missing directory not named"

# Back, with an upgrade made meanwhile.
mv "$T/dpkg.away" "$T/dpkg"
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.1-1; } | dpkg_write
wait_package_run 2 "the directory put back was not watched again"
expect_eq "$(package_detail)" "dpkg: libfoo1 1.0-1 → 1.1-1"
grep -q "SIGHUP" "$LOG" && fail "the daemon asked for a SIGHUP"

# Watched as before: a change after it has its run too.
{ dpkg_stanza coreutils 9.2-1; dpkg_stanza libfoo1 1.1-1; } | dpkg_write
wait_package_run 3 "no run for a change after the directory came back"

# A reload while it is gone: the same database, still looked for.  The
# reload chose "no database" there, and nothing was watched again until
# a restart: the upgrade below started no run.
mv "$T/dpkg" "$T/dpkg.away"
wait_package_run 4 "no run after the directory went away again"
reloads=$(grep -c "reloaded $CONF" "$LOG" || true)
kill -HUP "$DPID"
wait_until 10 "the reload" sh -c \
    "[ \$(grep -c 'reloaded $CONF' '$LOG') -gt $reloads ]" || fail "no reload"
grep -q "the package database is not watched" "$LOG" &&
	fail "the reload stopped watching for the database"
mv "$T/dpkg.away" "$T/dpkg"
{ dpkg_stanza coreutils 9.2-1; dpkg_stanza libfoo1 1.2-1; } | dpkg_write
wait_package_run 5 "the directory put back after a reload was not watched"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
