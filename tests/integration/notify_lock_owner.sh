#!/bin/sh
# The flush lock (DB.notify) made by root, with a flush by hand, serves
# perfwatchd's user too: it was made 0600 and opened for writing, and
# every flush of the service user then failed ("Permission denied", 70)
# and no alert went out.  The lock still keeps two flushes apart, and a
# link the service user leaves at its name is not followed by root.
set -eu
. "$(dirname "$0")/lib.sh"

need_nobody
command -v flock >/dev/null 2>&1 || skip "no flock(1)"

chmod 755 "$T"
mkdir "$T/db"
chown nobody "$T/db"
DB="$T/db/perfwatch.db"
printf 'run,time,workload,metric,value,unit,better\nr1,1700000000,w,m,1,s,lower\n' \
    >"$T/h.csv"
chmod 644 "$T/h.csv"
as_nobody -D "$DB" import "$T/h.csv" >/dev/null || fail "import as nobody"

# Root flushes by hand first, and makes the lock file.
pw -D "$DB" notify flush >"$T/root.out" 2>&1 ||
	fail "flush as root: $(cat "$T/root.out")"
[ "$(stat -c %U "$DB.notify")" = root ] || fail "root made no lock file"

rc=0
as_nobody -D "$DB" notify flush >"$T/nobody.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "flush as nobody exited $rc: $(cat "$T/nobody.out")"
expect_match "$(cat "$T/nobody.out")" "delivered 0, retrying 0, failed 0"

# Held by another flush, the lock still keeps nobody's out (75).
rc=0
flock "$DB.notify" $NOBODY "$PERFWATCH" -D "$DB" notify flush \
    >"$T/held.out" 2>&1 ||
	rc=$?
[ "$rc" -eq 75 ] || fail "flush beside a held lock exited $rc: $(cat "$T/held.out")"
expect_match "$(cat "$T/held.out")" "another notify flush is running"

# A symbolic link the service user leaves at the lock's name is not
# followed by root's flush: it created the link's target, wherever it
# pointed (an empty /etc/nologin locks every other user out).
mkdir "$T/victim"
rm -f "$DB.notify"
$NOBODY ln -s "$T/victim/nologin" "$DB.notify" ||
	fail "nobody could not make the link"
rc=0
pw -D "$DB" notify flush >"$T/link.out" 2>&1 || rc=$?
[ ! -e "$T/victim/nologin" ] || fail "root's flush made the link's target"
[ "$rc" -ne 0 ] || fail "a flush through a link exited 0: $(cat "$T/link.out")"
expect_match "$(cat "$T/link.out")" "$DB.notify"
pass
