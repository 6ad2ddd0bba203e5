#!/bin/sh
# An upgrade while perfwatchd runs: a newer perfwatch migrates the store
# past the schema this daemon knows.  The daemon's next write (here the
# pause a control request saves) finds it under the write lock, writes
# nothing, says why and exits 75, which systemd's Restart=on-failure
# restarts on.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual
start_daemon

known=$(sql "PRAGMA user_version")
[ "$known" -ge 1 ] || fail "no schema version in the store: $known"
newer=$((known + 1))
# What a newer perfwatch's migration leaves: a table of its own and the
# version bumped, in one transaction.
sql "BEGIN IMMEDIATE; CREATE TABLE from_newer (x);
    PRAGMA user_version = $newer; COMMIT;"
sql ".dump" >"$T/before.sql"

out=$(pwc pause 2>&1) || true
printf '%s\n' "$out" >"$T/pause.out"
expect_match "$out" "not saved"

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
said="the store was migrated to schema $newer by a newer perfwatch;"
said="$said this perfwatchd knows $known: restart it"
grep -qF "$said" "$LOG" ||
	fail "the daemon's log does not say why it stopped"

# Nothing written after the bump: not the pause, nor anything else.
sql ".dump" >"$T/after.sql"
cmp -s "$T/before.sql" "$T/after.sql" ||
	fail "the store changed after the migration:" \
	    "$(diff "$T/before.sql" "$T/after.sql")"
[ -z "$(sql "SELECT value FROM settings WHERE key = 'daemon:paused'")" ] ||
	fail "the pause was saved into the newer schema"
expect_eq "$(sql "PRAGMA user_version")" "$newer"
pass
