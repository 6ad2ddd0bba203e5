#!/bin/sh
# dpkg_admin_dir set to a database not there yet at start (no status
# file, or no directory at all, as in a chroot still being made): the
# package trigger waits for it, where it stayed off until a restart.
# The status file when it appears is the list to compare with, not a
# change (there is no list before it); an upgrade after it has its run.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_packages 1s
start_daemon
grep -q "$T/dpkg/status: No such file or directory (dpkg_admin_dir)" \
    "$LOG" || fail "the missing status file not named"
grep -q "the package database is not watched" "$LOG" &&
	fail "the package database was given up"

# It appears, as dpkg writes it: the list to compare with.
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.0-1; } | dpkg_write
wait_packages 2
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.1-1; } | dpkg_write
wait_package_run 1 "no run for an upgrade after the status file appeared"
expect_eq "$(package_detail)" "dpkg: libfoo1 1.0-1 → 1.1-1"
expect_eq "$(count_runs "trigger = 'package'")" 1
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# No directory at all: looked for until it is made.
rm -rf "$T/dpkg"
: >"$LOG"
start_daemon
grep -q "$T/dpkg/status: No such file or directory (dpkg_admin_dir)" \
    "$LOG" || fail "the missing directory not named"
mkdir "$T/dpkg"
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.1-1; } | dpkg_write
wait_packages 2
{ dpkg_stanza coreutils 9.2-1; dpkg_stanza libfoo1 1.1-1; } | dpkg_write
wait_package_run 2 "no run for an upgrade after the directory was made"
expect_eq "$(package_detail)" "dpkg: coreutils 9.1-1 → 9.2-1"
expect_eq "$(count_runs "trigger = 'package'")" 2
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
