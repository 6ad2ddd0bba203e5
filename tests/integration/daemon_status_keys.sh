#!/bin/sh
# Every key of the control socket's status reply, with a battery in
# progress and another queued behind it, is named in perfwatchd(8)'s
# entry for {"cmd":"status"}, which named state, waiting, waiting_since,
# wait_until and git alone and left the rest (work, its pid and step,
# pending, retry_at, last_run, by_state ...) for a client to guess.
# The battery in progress names its run with its host, as a run is named
# everywhere; a build in progress or queued names its [git] section and
# the section's tree as [git] and --list-git do, "name" and "path".
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

# A build in progress and another queued behind it: each names its [git]
# section "name" and the section's working tree "path", as --list-git,
# status --json's "git" and bisect --json do (they said "repository" for
# the section's name).  Two trees, each watched under its own section,
# whose build waits for $T/go.
git_repo
repo2=$T/repo2
timeout 20 git clone -q "$repo" "$repo2"
write_conf_manual "git_poll = 1h

[git \"one\"]
path = $repo
build = while [ ! -f $T/go ]; do sleep 0.1; done
workloads = tiny

[git \"two\"]
path = $repo2
build = while [ ! -f $T/go ]; do sleep 0.1; done
workloads = tiny"
start_daemon
wait_until 15 "the first look at both trees" sh -c \
    "grep -q 'git one: watching' '$LOG' && grep -q 'git two: watching' '$LOG'" ||
	fail "the trees were not read"
for r in "$repo" "$repo2"; do
	echo 2 >"$r/version.txt"
	timeout 20 git -C "$r" -c user.name=Test -c user.email=test@example.org \
	    -c commit.gpgsign=false commit -q -a -m second
done
kill -HUP "$DPID"	# reads both branches at once
# building_one_queued: a build in progress, the other queued.
building_one_queued() {
	[ "$(status_field 'd["work"] is not None and
	    d["work"]["kind"] == "build" and len(d["builds"]) == 1')" = True ]
}
wait_until 15 "a build and one queued" building_one_queued ||
	fail "no build with another queued: $(request '{"cmd":"status"}')"
request '{"cmd":"status"}' >"$T/build.json"
: >"$T/go"
stop_daemon
python3 - "$T/build.json" "$repo" "$repo2" <<'EOF' || fail "the builds' status"
import json, sys
d = json.load(open(sys.argv[1]))
trees = {"one": sys.argv[2], "two": sys.argv[3]}
got = {}
for b in (d["work"], d["builds"][0]):
    assert "repository" not in b, b
    assert len(b["commit"]) == 40, b
    got[b["name"]] = b["path"]
assert got == trees, (got, d)
EOF

{ json_keys "$T/status.json"; json_keys "$T/build.json"; } | sort -u \
    >"$T/keys"
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
