#!/bin/sh
# Every key of the control socket's status reply, with a battery in
# progress and another queued behind it, is named in perfwatchd(8)'s
# entry for {"cmd":"status"}, which named state, waiting, waiting_since,
# wait_until and git alone and left the rest (work, its pid and step,
# pending, retry_at, last_run, by_state ...) for a client to guess.
# The battery in progress names its run with its host, as a run is named
# everywhere.
set -eu
. "$(dirname "$0")/daemon.subr"
top=${PERFWATCH_TOP:?}

write_profile slow
write_conf_manual
start_daemon
# slow_running: the battery's workload in progress is slow.
slow_running() {
	[ "$(status_field 'd["work"] and d["work"]["workload"]')" = slow ]
}
pwc trigger --workload slow >/dev/null || fail "trigger slow"
wait_until 30 "the slow workload" slow_running || fail "slow did not start"
pwc trigger --workload tiny >/dev/null || fail "trigger tiny"
request '{"cmd":"status"}' >"$T/status.json"
stop_daemon
pw -D "$DB" runs --json >"$T/runs.json" || fail "runs --json"

python3 - "$T/status.json" "$T/runs.json" <<'EOF' || fail "the status reply"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["state"] == "running" and d["work"]["kind"] == "battery", d
# The run in progress is named as runs --json names it: its label and
# its host (the run had no host beside it).
runs = {r["run"]: r for r in json.load(open(sys.argv[2]))}
w = d["work"]
assert w["run"] in runs and w["host"] == runs[w["run"]]["host"], (w, runs)
assert len(d["pending"]) == 1, d
# Not waiting for a quiet machine: the keys are there, null.
w = d["work"]
assert w["waiting"] is None and w["waiting_since"] is None, w
assert w["wait_until"] is None, w
EOF
json_keys "$T/status.json" >"$T/keys"
[ "$(wc -l <"$T/keys")" -ge 25 ] || fail "few keys: $(cat "$T/keys")"

# The entry: from its .It to the next request's.
awk '/^\.It Li \{"cmd":"status"\}/ { on = 1; next } /^\.It Li / { on = 0 }
    on' "$top/man/perfwatchd.8" >"$T/entry"
# ok is every reply's, said after the list of requests.
grep -A1 -x 'Every reply has' "$top/man/perfwatchd.8" | grep -qx '.Li ok ;' ||
	fail "perfwatchd(8) does not give every reply its ok"
grep -vx ok "$T/keys" >"$T/keys.status" || true
while read -r k; do
	grep -Eq "^\\.Li ([a-z_]+ , )*$k( |$)" "$T/entry" ||
		fail "perfwatchd(8) status does not name the key $k"
done <"$T/keys.status"
pass
