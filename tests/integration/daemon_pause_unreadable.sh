#!/bin/sh
# A pause is kept in the store across restarts (perfwatchd(8)); a store
# whose settings cannot be read (a spoiled page) made a paused daemon
# start unpaused without a word, and its batteries start on it.  It now
# starts paused and says why.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual
start_daemon
pwc pause >/dev/null || fail "pause refused"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
setting_is daemon:paused yes || fail "the pause was not saved"

sql "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
spoil_page "$DB" settings
start_daemon
grep -q "cannot read whether perfwatchd is paused: .*; starting paused" \
    "$LOG" || fail "no word of the unreadable pause"
[ "$(status_field 'd["state"]')" = paused ] || fail "not paused after restart"
stop_daemon TERM
pass
