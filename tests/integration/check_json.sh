#!/bin/sh
# check --json and check --baseline as perfwatch(1) gives them: every
# key of the document (its verdicts, events and alerts too) is named in
# the manual's entry for check, which named none but not_judged, busy
# and busy_why; and a check with --baseline writes its verdicts but
# advances no alert ("alerts not advanced", alerts_advanced false),
# which the entry did not say.
set -eu
. "$(dirname "$0")/lib.sh"
top=${PERFWATCH_TOP:?}

# 30 runs of this host, 5 samples each, 20% slower from r25.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better"
	for (r = 1; r <= 30; r++)
		for (i = 1; i <= 5; i++)
			printf "r%02d,%d,w,m,%.1f,s,lower\n", r,
			    1700000000 + r * 3600,
			    (r >= 25 ? 120 : 100) + ((i * 7 + r * 3) % 5) * 0.3
}' >"$T/step.csv"
pw import "$T/step.csv" >/dev/null || fail "import"
pw baseline set early r01 r02 r03 r04 r05 >/dev/null || fail "baseline set"

# r25 opens an alert: an event, an alert named by the verdict.
rc=0
pw check --json r25 >"$T/r25.json" || rc=$?
expect_eq "$rc" 1
python3 - "$T/r25.json" <<'EOF' || fail "check --json r25"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["alerts_advanced"] is True, d
assert len(d["verdicts"]) == 1 and len(d["events"]) == 1, d
assert d["events"][0]["from"] is None, d
assert len(d["alerts"]) == 1, d
EOF
json_keys "$T/r25.json" >"$T/keys"
[ "$(wc -l <"$T/keys")" -ge 30 ] || fail "few keys: $(cat "$T/keys")"

# Each is named in the entry, as .Ic KEY (alone, or in a list of them).
awk '/^\.It Ic check / { on = 1; next } /^\.It Ic / { on = 0 } on' \
    "$top/man/perfwatch.1" >"$T/entry"
while read -r k; do
	grep -Eq "^\\.(Ic|Dq) ([a-z_]+ , )*$k( |$)" "$T/entry" ||
		fail "perfwatch(1) check does not name the --json key $k"
done <"$T/keys"

# --baseline: verdicts written, no alert moved (r26 would confirm it).
pw alerts --json >"$T/alerts.before"
rc=0
pw check --baseline early r26 >"$T/out" || rc=$?
expect_eq "$rc" 1
expect_eq "$(head -n 1 "$T/out")" \
    "run r26 on $(hostname), baseline early (alerts not advanced)"
rc=0
pw check --json --baseline early r26 >"$T/r26.json" || rc=$?
expect_eq "$rc" 1
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["alerts_advanced"] is False and d["events"] == [], d
assert d["baseline"] == "early", d' "$T/r26.json" ||
	fail "check --json --baseline"
pw alerts --json >"$T/alerts.after"
cmp -s "$T/alerts.before" "$T/alerts.after" ||
	fail "check --baseline moved an alert"
tr '\n' ' ' <"$top/man/perfwatch.1" | grep -qF 'A check with .Fl -baseline is a comparison asked for, not the host'"'"'s own judgment: it writes its verdicts but advances no alert and queues nothing' ||
	fail "perfwatch(1) does not say that check --baseline advances no alert"
pass
