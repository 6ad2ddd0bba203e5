#!/bin/sh
# alerts --json as perfwatch(1) gives it: every time a string in RFC
# 3339, UTC, the attribution's runs' "time" too, and every key named in
# the alerts entry or among DESCRIPTION's common keys; the entry named
# only host, attribution, diff and summary.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/alerts.subr"
top=${PERFWATCH_TOP:?}

# An alert that r25 opens and r26 and r27 confirm: a confirmed alert
# carries its attribution.
alerts_make_confirmed
pw alerts --json >"$T/alerts.json" || fail "alerts --json"
pw runs --json --limit 0 >"$T/runs.json" || fail "runs --json"

python3 - "$T/alerts.json" "$T/runs.json" <<'EOF' ||
import json, sys
alerts = json.load(open(sys.argv[1]))
times = {r["run"]: r["time"] for r in json.load(open(sys.argv[2]))}
assert len(alerts) == 1 and alerts[0]["state"] == "confirmed", alerts
a = alerts[0]["attribution"]
for k, label in (("last_good_run", "r24"), ("first_bad_run", "r25")):
    assert a[k]["run"] == label, a
    assert a[k]["time"] == times[label], (a[k], times[label])
EOF
	fail "alerts --json: $(cat "$T/alerts.json")"
json_keys "$T/alerts.json" >"$T/keys"

awk '/^\.It Ic alerts / { on = 1; next } /^\.It Ic / || /^\.Sh / { on = 0 }
    on' "$top/man/perfwatch.1" >"$T/entry"
awk '/^\.Bl -tag -width change_pct/ { on = 1 } on; on && /^\.El/ { exit }' \
    "$top/man/perfwatch.1" >>"$T/entry"
while read -r k; do
	grep -qw -- "$k" "$T/entry" ||
		fail "perfwatch(1) alerts does not name the --json key $k"
done <"$T/keys"
pass
