#!/bin/sh
# A delivery that the store cannot record for a reason other than a lock
# (here a trigger that refuses the update, as a read-only file or a disk
# error would) is reported at once: the flush exits 70 and says that the
# row was delivered but not recorded, that the next flush sends it
# again, and the store's own words.  It does not wait for the store, as
# it does while another process holds the lock: no line says it is
# trying again.  The row stays pending, its message sent once.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

mkdir -p "$T/sm"
export PW_SENDMAIL_DIR="$T/sm"
cat >"$T/sinks.conf" <<EOF2
[detect]
baseline_runs = 30
[sink "local"]
type = email
to = ops@example.org
from = perfwatch@example.org
sendmail = yes
sendmail_path = $HERE/fake-sendmail
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"

# The claim (attempts, next_attempt) goes through; the record of the
# email does not (the log sink's rows are recorded).
timeout 10 sqlite3 "$PERFWATCH_DB" "CREATE TRIGGER no_record BEFORE UPDATE \
OF delivered_at ON outbox WHEN OLD.sink = 'local' BEGIN \
SELECT RAISE(ABORT, 'disk says no'); END;" || fail "creating the trigger"
id=$(timeout 10 sqlite3 "$PERFWATCH_DB" \
    "SELECT id FROM outbox WHERE sink = 'local'")
[ -n "$id" ] || fail "no email row queued"

# Bounded well past what the busy wait would take, so that a flush that
# waits shows up as retry lines, not as a timeout.
rc=0
timeout 200 "$PERFWATCH" -c "$conf" notify flush >"$T/f.out" 2>"$T/f.err" ||
	rc=$?
[ "$rc" -eq 70 ] || fail "flush: exit $rc, not 70: $(cat "$T/f.out" "$T/f.err")"
[ "$(count_files "$T"/sm/*.msg)" -eq 1 ] ||
	fail "not one sendmail call: $(cat "$T/f.out" "$T/f.err")"
n=$(grep -c 'not yet recorded' "$T/f.err" || true)
[ "$n" -eq 0 ] || fail "tried again $n times: $(cat "$T/f.err")"
expect_match "$(cat "$T/f.err")" "notify flush: outbox row $id: disk says no \
(delivered, but not recorded as delivered: the next flush sends it again)"
[ "$(timeout 10 sqlite3 "$PERFWATCH_DB" "SELECT attempts, \
delivered_at IS NULL, failed_at IS NULL FROM outbox WHERE id = $id")" = "1|1|1" ] ||
	fail "the row is not pending after one attempt"
pass
