#!/bin/sh
# status --json names a run as every other --json does: last_run is the
# run as runs --json gives it (run, host, "time", "trigger_detail",
# "duration"), with its verdicts, and a battery queued has its
# "trigger_detail".  last_run had "started", "ended" (left out while a
# run had no end) and "detail", and the queue "detail", for a script
# reading both documents to map.  A build queued names its [git] section
# "name" and its tree "path", as the section's entry under "git" does.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
# A watched tree with a build, whose commit is queued while paused.
git_repo
write_conf_manual "git_poll = 1h

[git \"demo\"]
path = $repo
build = true
workloads = tiny"
start_daemon
wait_until 15 "the first look at the tree" grep -q "git demo: watching" \
    "$LOG" || fail "the tree was not read"
pwc trigger --workload tiny >/dev/null || fail "trigger tiny"
wait_until 20 "the tiny run" runs_at_least 1 \
    "trigger = 'manual' AND status = 'complete'" || fail "no tiny run"
# A battery queued while paused: its trigger and detail in "pending".
pwc pause >/dev/null || fail "pause"
pwc trigger --workload other >/dev/null || fail "trigger other"
echo 2 >"$repo/version.txt"
g commit -q -a -m second
kill -HUP "$DPID"	# reads the branch at once
wait_until 15 "the build queued" sh -c "grep -q 'queued a build of demo' '$LOG'" ||
	fail "no build queued"
pwc status --json >"$T/status.json" || fail "status --json"
json_as_printed "$T/status.json" ||
	fail "status --json is not printed as --json is: $(cat "$T/status.json")"
pw -D "$DB" runs --json >"$T/runs.json" || fail "runs --json"
stop_daemon

python3 - "$T/status.json" "$T/runs.json" "$repo" <<'EOF' ||
import json, sys
d = json.load(open(sys.argv[1]))
runs = json.load(open(sys.argv[2]))
last = d["last_run"]
run = runs[0]
# The same run, the same keys and values; runs --json's "incomplete"
# alone is not the daemon's, and "verdicts" not runs'.
del run["incomplete"]
verdicts = last.pop("verdicts")
assert isinstance(verdicts, dict), verdicts
assert last == run, (last, run)
for k in ("started", "ended", "detail"):
    assert k not in last, (k, last)
assert isinstance(last["duration"], int) and last["time"].endswith("Z"), last
assert last["trigger_detail"] == "workloads tiny", last
p = d["pending"]
assert len(p) == 1 and p[0] == {"trigger": "manual",
    "trigger_detail": "workloads other"}, p
# The build queued names its [git] section and tree as the section does
# under "git": "name" and "path" (it said "repository" for the name).
b = d["builds"]
assert len(b) == 1 and b[0] == {"name": "demo", "path": sys.argv[3],
    "commit": d["git"][0]["commit"]}, (b, d["git"])
assert d["git"][0]["name"] == "demo" and d["git"][0]["path"] == sys.argv[3], d
EOF
	fail "status --json: $(cat "$T/status.json")"
pass
