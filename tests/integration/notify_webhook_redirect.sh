#!/bin/sh
# A webhook receiver that answers with a redirect is not followed: the
# signed alert would go wherever the answer points (here another
# server, which gets nothing).  The row is retried, as for a url to
# mend, its answer saying where the redirect points (or that it points
# nowhere); once the sink's url is set to that, the next flush delivers
# the alert that waited.  Before, a redirect failed the row for good:
# every alert sent before the url was mended was lost.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

p_new=$(free_port)
start_webhook "$T/new" "$p_new"
p_moved=$(free_port)
start_webhook "$T/moved" "$p_moved" --status 307 \
    --location "http://127.0.0.1:$p_new/v2/perfwatch"
p_bare=$(free_port)
start_webhook "$T/bare" "$p_bare" --status 302
printf 'k3y-for-perfwatch\n' >"$T/secret"
chmod 600 "$T/secret"
sinks() {
	printf '[detect]\nbaseline_runs = 30\n'
	printf '[sink "moved"]\ntype = webhook\nurl = %s\nsecret_file = %s\n' \
	    "$1" "$T/secret"
	printf '[sink "bare"]\ntype = webhook\nurl = %s\n' \
	    "http://127.0.0.1:$p_bare/perfwatch"
}
conf="$T/sinks.conf"
sinks "http://127.0.0.1:$p_moved/perfwatch" >"$conf"
confirmed_regression "$conf"

pwt -c "$conf" notify flush >"$T/f1.out" 2>&1 ||
	fail "flush 1: $(cat "$T/f1.out")"
expect_match "$(cat "$T/f1.out")" "retrying 2, failed 0"
expect_match "$(cat "$T/f1.out")" "sink moved): attempt 1 failed, next at \
+60s: HTTP 307: redirected to http://127.0.0.1:$p_new/v2/perfwatch, which is \
not followed: set [sink \"moved\"] url to it if it is right"
expect_match "$(cat "$T/f1.out")" "sink bare): attempt 1 failed, next at \
+60s: HTTP 302: a redirect with no Location, not followed: thanks"
[ "$(count_files "$T"/moved/req-*.body)" -eq 1 ] || fail "moved: not one"
[ "$(count_files "$T"/new/req-*.body)" -eq 0 ] ||
	fail "the redirect was followed"

# The url mended: the alert that waited goes there.
sinks "http://127.0.0.1:$p_new/v2/perfwatch" >"$conf"
pwt -c "$conf" notify flush --force >"$T/f2.out" 2>&1 ||
	fail "flush 2: $(cat "$T/f2.out")"
expect_match "$(cat "$T/f2.out")" "delivered 1, retrying 1, failed 0"
[ "$(count_files "$T"/new/req-*.body)" -eq 1 ] || fail "new: not one"
cmp "$T/moved/req-1.body" "$T/new/req-1.body" ||
	fail "not the same alert"
"$PY" - "$T/new/req-1.json" <<'EOPY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["path"] == "/v2/perfwatch", r
EOPY
pass
