#!/bin/sh
# A webhook received by a local HTTP server: the JSON document (the
# alert, its numbers, the last runs and the machine diff) signed with
# HMAC-SHA256 under the secret file (with the timestamp and delivery id,
# as perfwatch(1) says), the signature verified here with Python's hmac.  The receiver answers 500 first: the row is retried and
# the retry posts the same document.  A 404 is permanent; a 401 (the
# receiver refuses our signature: a secret to mend) is retried.  A receiver
# that never answers is given up on at the sink's timeout.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

port=$(free_port)
start_webhook "$T/hook" "$port" --fail-first 1
port404=$(free_port)
gone='no receiver here any more, see "https://hooks.example.org/v2/perfwatch", where it moved on 1 March'
start_webhook "$T/gone" "$port404" --status 404 --reply "$gone"
port401=$(free_port)
start_webhook "$T/denied" "$port401" --status 401
printf 'k3y-for-perfwatch\n' >"$T/secret"
chmod 600 "$T/secret"
cat >"$T/sinks.conf" <<EOF2
[sink "hook"]
type = webhook
url = http://127.0.0.1:$port/perfwatch
secret_file = $T/secret
[sink "gone"]
type = webhook
url = http://127.0.0.1:$port404/old
[sink "denied"]
type = webhook
url = http://127.0.0.1:$port401/signed
secret_file = $T/secret
EOF2
measured_regression

pwt -c "$T/bad.conf" notify flush >"$T/f1.out" 2>&1 ||
	fail "flush 1: $(cat "$T/f1.out")"
expect_match "$(cat "$T/f1.out")" "retrying 2, failed 1"
expect_match "$(cat "$T/f1.out")" "HTTP 500: receiver busy, try later"
expect_match "$(cat "$T/f1.out")" "HTTP 404: no receiver here any more"
# The CSV has the whole answer, where the table cuts it at 100 characters
# (the CSV cut it too, with "...").
pwt -c "$T/bad.conf" notify pending --all --csv >"$T/p1.csv" ||
	fail "pending --csv"
"$PY" - "$T/p1.csv" "HTTP 404: $gone" <<'EOPY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
gone = [r for r in rows if r["sink"] == "gone"]
assert len(gone) == 1 and gone[0]["status"] == "failed", rows
assert gone[0]["last_error"] == sys.argv[2], (gone, sys.argv[2])
EOPY
expect_match "$(cat "$T/f1.out")" "HTTP 401: thanks"
pwt -c "$T/bad.conf" notify flush --force >"$T/f2.out" 2>&1 ||
	fail "flush 2: $(cat "$T/f2.out")"
expect_match "$(cat "$T/f2.out")" "delivered 1, retrying 1, failed 0"
expect_match "$(cat "$T/f2.out")" "HTTP 200: thanks"
[ "$(count_files "$T"/hook/req-*.body)" -eq 2 ] || fail "not two requests"
[ "$(count_files "$T"/gone/req-*.body)" -eq 1 ] || fail "404 was retried"
[ "$(count_files "$T"/denied/req-*.body)" -eq 2 ] || fail "401 was not retried"
cmp "$T/hook/req-1.body" "$T/hook/req-2.body" ||
	fail "the retry posted another document"

"$PY" - "$T/hook" "$T/secret" "$(uname -n)" <<'EOPY'
import hashlib, hmac, json, sys
d, secret, host = sys.argv[1], open(sys.argv[2], "rb").read().strip(), \
    sys.argv[3]
for n in (1, 2):
    body = open("%s/req-%d.body" % (d, n), "rb").read()
    req = json.load(open("%s/req-%d.json" % (d, n)))
    h = {k.lower(): v for k, v in req["headers"].items()}
    assert req["path"] == "/perfwatch", req
    assert h["content-type"].startswith("application/json"), h
    signed = b"%s.%s." % (h["x-perfwatch-timestamp"].encode(),
                          h["x-perfwatch-delivery"].encode())
    want = "sha256=" + hmac.new(secret, signed + body,
                                hashlib.sha256).hexdigest()
    assert hmac.compare_digest(h["x-perfwatch-signature"], want), (h, want)
    # A tampered body does not verify.
    bad = hmac.new(secret, signed + body + b" ", hashlib.sha256).hexdigest()
    assert h["x-perfwatch-signature"] != "sha256=" + bad
doc = json.loads(body)
assert h["x-perfwatch-event"] == doc["event"], (h, doc["event"])
assert doc["event"].startswith("alert-1-confirmed-"), doc["event"]
assert doc["test"] is False
a = doc["alert"]
assert a["state"] == "confirmed" and a["previous"] == "suspected", a
assert a["host"] == host and a["workload"] == "app.pipe", a
assert a["metric"] == "throughput" and a["direction"] == "regression", a
assert a["first_bad_run"] == "bad1" and a["last_good_run"] == "good", a
assert -23 < a["change_pct"] < -22 and a["current"] == 776, a
# The attribution's runs as alerts --json names them.
for k, run in (("last_good_run", "good"), ("first_bad_run", "bad1")):
    r = a["attribution"][k]
    assert r["run"] == run and r["host"] == host, r
    assert r["time"].endswith("Z") and "label" not in r, r
    assert "started" not in r, r
assert a["ci_low"] < a["change_pct"] < a["ci_high"] and a["q"] < 0.001, a
# Its time as every --json gives one, and superseded_by null, not absent.
assert isinstance(a["time"], str) and a["time"].endswith("Z"), a
assert a["superseded_by"] is None, a
assert doc["subject"].startswith("[perfwatch] %s: app.pipe throughput -22." %
                                 host), doc["subject"]
m = doc["metrics"]
assert len(m) == 1 and m[0]["alert_metric"] and m[0]["current"] == 776, m
# The baseline's between-run noise, called as every --json calls it.
b = a["baseline"]
assert "spread" not in b and "spread" not in m[0], (b, m)
assert b["runs"] > 0 and 990 < b["level"] < 1010, b
assert isinstance(b["noise"], float) and 0 < b["noise"] < 20, b
assert m[0]["noise"] == b["noise"] and m[0]["baseline"] == b["level"], (m, b)
hist = m[0]["history"]
assert [r["run"] for r in hist[-3:]] == ["good", "bad1", "bad2"], hist
assert [r["first_bad"] for r in hist[-3:]] == [False, True, False], hist
assert [r["median"] for r in hist[-3:]] == [1001, 776, 776], hist
md = doc["machine_diff"]
assert md["from"] == "good" and md["to"] == "bad1", md
assert md["changes"]["fields"] == [], md
assert md["changes"]["packages"] == [{"name": "libc6", "change": "upgraded",
    "arch": "amd64", "old": "2.36-9", "new": "2.36-10", "old_arch": None}], md
assert "What changed on the machine from good" in doc["text"]
EOPY

# notify test: a signed test document, marked as a test.
pwt -c "$T/bad.conf" notify test hook >"$T/test.out" 2>&1 ||
	fail "notify test: $(cat "$T/test.out")"
expect_match "$(cat "$T/test.out")" "hook (webhook): delivered: HTTP 200"
"$PY" - "$T/hook" "$T/secret" <<'EOPY'
import hashlib, hmac, json, sys
d, secret = sys.argv[1], open(sys.argv[2], "rb").read().strip()
body = open("%s/req-3.body" % d, "rb").read()
h = {k.lower(): v for k, v in json.load(open("%s/req-3.json" % d))
     ["headers"].items()}
signed = b"%s.%s.%s" % (h["x-perfwatch-timestamp"].encode(),
                        h["x-perfwatch-delivery"].encode(), body)
assert h["x-perfwatch-signature"] == "sha256=" + hmac.new(
    secret, signed, hashlib.sha256).hexdigest()
doc = json.loads(body)
assert doc["test"] is True and doc["alert"]["sink"] == "hook", doc
assert doc["alert"]["time"].endswith("Z"), doc
assert doc["subject"].endswith(": test message (sink hook)"), doc
EOPY

# A receiver that takes the request and never answers: the sink's
# timeout (2 s, where the default is 2 min) ends the try, a failure to
# retry, and curl's words say after how long.
port_slow=$(free_port)
start_webhook "$T/slow" "$port_slow" --hang 250
cat >"$T/slow.conf" <<EOF2
[sink "slow"]
type = webhook
url = http://127.0.0.1:$port_slow/x
timeout = 2s
EOF2
rc=0
pwt -c "$T/slow.conf" notify test slow >"$T/slow.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "notify test of a silent receiver: exit $rc: \
$(cat "$T/slow.out")"
expect_match "$(cat "$T/slow.out")" "slow (webhook): retry: "
grep -Eq 'timed out after 2[0-9]{3} milliseconds' "$T/slow.out" ||
	fail "not the 2 s timeout: $(cat "$T/slow.out")"
[ "$(count_files "$T"/slow/req-*.body)" -eq 1 ] || fail "no request kept"
# A URL with a password in it (curl logs in with it), to a port where
# nothing listens: the answer names the URL, without the password.  It
# printed the password, which the outbox and syslog then kept.
port_none=$(free_port)
cat >"$T/login.conf" <<EOF2
[sink "login"]
type = webhook
url = http://bot:s3cret-t0ken@127.0.0.1:$port_none/hook
EOF2
rc=0
pwt -c "$T/login.conf" notify test --json >"$T/login.out" 2>"$T/login.err" ||
	rc=$?
[ "$rc" -eq 1 ] || fail "notify test of a dead receiver: exit $rc"
"$PY" - "$T/login.out" "$port_none" <<'EOPY'
import json, sys
out, none = sys.argv[1], sys.argv[2]
text = open(out).read()
assert "s3cret" not in text + open(out[:-4] + ".err").read(), text
r = {x["sink"]: x for x in json.loads(text)}
assert r["login"]["outcome"] == "retry", r
assert r["login"]["answer"].startswith(
    "http://bot:***@127.0.0.1:%s: " % none), r
EOPY
# A receiver that has moved (308, Location: the new URL): not followed,
# a failure to retry (the url is to be mended) whose answer says where
# it points.  It said only "HTTP 308", leaving the new URL to be found
# by hand.
port_moved=$(free_port)
start_webhook "$T/moved" "$port_moved" --status 308 \
    --location "http://127.0.0.1:$port_moved/v2/perfwatch"
cat >"$T/moved.conf" <<EOF2
[sink "moved"]
type = webhook
url = http://127.0.0.1:$port_moved/perfwatch
EOF2
rc=0
pwt -c "$T/moved.conf" notify test moved --json >"$T/moved.out" \
    2>"$T/moved.err" || rc=$?
[ "$rc" -eq 1 ] || fail "notify test of a moved receiver: exit $rc"
"$PY" - "$T/moved.out" "$port_moved" <<'EOPY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r) == 1 and r[0]["outcome"] == "retry", r
assert r[0]["answer"] == ("HTTP 308: redirected to http://127.0.0.1:%s/v2/"
    "perfwatch, which is not followed: set [sink \"moved\"] url to it if "
    "it is right" % sys.argv[2]), r
EOPY
[ "$(count_files "$T"/moved/req-*.body)" -eq 1 ] ||
	fail "the redirect was followed"
pass
