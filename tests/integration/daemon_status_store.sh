#!/bin/sh
# status on a store that cannot be read: "last run: none" and "alerts: 0
# open", exit 0, where perfwatch(1) has a failed read name the database
# and its error, never "no run" or "no alert"; a script polling status
# --json saw a healthy host with no alert.  Now the counts are null, the
# reply's store_error names the database and its error, and status exits
# 70.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual
start_daemon
pwc trigger >/dev/null || fail "trigger"
wait_until 30 "the run" runs_at_least 1 "status = 'complete'" ||
	fail "no run"
[ "$(status_field 'd["store_error"]')" = None ] || fail "a store error at first"
pwc status >"$T/ok.out" || fail "status exited $?"
stop_daemon TERM

sql "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
spoil_page "$DB" alerts
start_daemon
request '{"cmd":"status"}' >"$T/st.json"
python3 - "$T/st.json" "$DB" <<'EOF' || fail "status: $(cat "$T/st.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["alerts"] == {"open": None, "by_state": None}, d["alerts"]
assert d["store_error"].startswith(sys.argv[2] + ": "), d["store_error"]
assert "malformed" in d["store_error"], d["store_error"]
EOF
rc=0
pwc status >"$T/bad.out" 2>&1 || rc=$?
[ "$rc" -eq 70 ] || fail "status exited $rc: $(cat "$T/bad.out")"
expect_match "$(cat "$T/bad.out")" "  alerts:    cannot be read"
expect_match "$(cat "$T/bad.out")" "  store:     cannot be read: $DB: "
rc=0
pwc status --json >"$T/bad.json" || rc=$?
[ "$rc" -eq 70 ] || fail "status --json exited $rc"
stop_daemon TERM
pass
