#!/bin/sh
# A signed webhook checked by a receiver the way perfwatch(1) says: the
# signature covers the timestamp and the delivery id with the body, so a
# request captured once cannot be posted again later (its timestamp is
# old, and a new one breaks the signature), nor passed off as another
# delivery.  Before, only the body was signed: a captured request
# verified for ever, and there was no timestamp to check.
#
# The receiver answers 500 first: the retry carries the same body and
# delivery id, and a timestamp and signature of its own.  The requests
# are then posted again by hand: as they were (the receiver has taken
# that delivery: a duplicate, dropped), with a fresh timestamp, and with
# another delivery id (both refused: the signature no longer matches).
# A receiver whose clock is 10 minutes ahead refuses a request as stale.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

printf 'k3y-for-perfwatch\n' >"$T/secret"
chmod 600 "$T/secret"
port=$(free_port)
start_webhook "$T/hook" "$port" --fail-first 1 --verify "$T/secret"
port_ahead=$(free_port)
start_webhook "$T/ahead" "$port_ahead" --verify "$T/secret" --skew 600
printf '[detect]\nbaseline_runs = 30\n' >"$T/sinks.conf"
cat >>"$T/sinks.conf" <<EOF2
[sink "hook"]
type = webhook
url = http://127.0.0.1:$port/perfwatch
secret_file = $T/secret
[sink "ahead"]
type = webhook
url = http://127.0.0.1:$port_ahead/perfwatch
secret_file = $T/secret
EOF2
conf="$T/sinks.conf"
confirmed_regression "$conf"

t0=$(date +%s)
pwt -c "$conf" notify flush >"$T/f1.out" 2>&1 ||
	fail "flush 1: $(cat "$T/f1.out")"
t1=$(date +%s)
expect_match "$(cat "$T/f1.out")" "retrying 2, failed 0"
expect_match "$(cat "$T/f1.out")" "HTTP 500: receiver busy"
expect_match "$(cat "$T/f1.out")" "HTTP 401: stale timestamp"
pwt -c "$conf" notify flush --force >"$T/f2.out" 2>&1 ||
	fail "flush 2: $(cat "$T/f2.out")"
t2=$(date +%s)
expect_match "$(cat "$T/f2.out")" "delivered 1, retrying 1, failed 0"
[ "$(count_files "$T"/hook/req-*.body)" -eq 2 ] || fail "not two requests"
row=$(sqlite3 "$PERFWATCH_DB" "SELECT id FROM outbox WHERE sink = 'hook'") ||
	fail "sqlite3"

"$PY" - "$T/hook" "$T/secret" "$row" "$t0" "$t1" "$t2" \
    "http://127.0.0.1:$port/perfwatch" <<'EOPY'
import hashlib, hmac, json, sys, time, urllib.error, urllib.request
d, secret = sys.argv[1], open(sys.argv[2], "rb").read().rstrip(b"\r\n")
row = int(sys.argv[3])
t0, t1, t2 = (int(x) for x in sys.argv[4:7])
url = sys.argv[7]
reqs = []
for n in (1, 2):
    body = open("%s/req-%d.body" % (d, n), "rb").read()
    r = json.load(open("%s/req-%d.json" % (d, n)))
    reqs.append((body, {k.lower(): v for k, v in r["headers"].items()},
                 r["verdict"]))
# Both verified by the receiver; the first was answered 500.
assert [v for _, _, v in reqs] == ["ok", "ok"], reqs
(b1, h1, _), (b2, h2, _) = reqs
doc = json.loads(b2)
# One delivery: the same body and delivery id on both attempts, the id
# being the event's and the outbox row's.
assert b1 == b2
assert h1["x-perfwatch-event"] == h2["x-perfwatch-event"] == doc["event"]
assert h1["x-perfwatch-delivery"] == h2["x-perfwatch-delivery"] == \
    "%s-%d" % (doc["event"], row), (h2, row)
# Each attempt stamped with the time it was made.
assert t0 <= int(h1["x-perfwatch-timestamp"]) <= t1, (h1, t0, t1)
assert t1 <= int(h2["x-perfwatch-timestamp"]) <= t2, (h2, t1, t2)
# The signature, recomputed here as perfwatch(1) says, not by the
# receiver's code.
for body, h, _ in reqs:
    signed = b"%s.%s.%s" % (h["x-perfwatch-timestamp"].encode(),
                            h["x-perfwatch-delivery"].encode(), body)
    want = "sha256=" + hmac.new(secret, signed, hashlib.sha256).hexdigest()
    assert h["x-perfwatch-signature"] == want, (h, want)
    # Not the body alone, as before.
    old = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
    assert h["x-perfwatch-signature"] != old

def post(headers, body):
    keep = ("content-type", "x-perfwatch-event", "x-perfwatch-delivery",
            "x-perfwatch-timestamp", "x-perfwatch-signature")
    req = urllib.request.Request(url, data=body, method="POST",
                                 headers={k: v for k, v in headers.items()
                                          if k in keep})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()

# Posted again as it was: the receiver has taken that delivery.
assert post(h2, b2) == (200, "duplicate"), post(h2, b2)
# With the timestamp made fresh, as a replay later on would need.
h = dict(h2, **{"x-perfwatch-timestamp": str(int(time.time()) + 1)})
assert post(h, b2) == (401, "bad signature")
# As another delivery, to get past the receiver's duplicates.
h = dict(h2, **{"x-perfwatch-delivery": h2["x-perfwatch-delivery"] + "0"})
assert post(h, b2) == (401, "bad signature")
# With the body changed.
assert post(h2, b2 + b" ") == (401, "bad signature")
EOPY
# A receiver ten minutes ahead: perfwatch's timestamp is out of its
# tolerance, a 401 that is retried.
"$PY" - "$T/ahead/req-1.json" <<'EOPY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["verdict"] == "stale timestamp", r
EOPY

# notify test: signed the same way, a delivery id with no row (0).
pwt -c "$conf" notify test hook >"$T/test.out" 2>&1 ||
	fail "notify test: $(cat "$T/test.out")"
expect_match "$(cat "$T/test.out")" "hook (webhook): delivered: HTTP 200"
"$PY" - "$T/hook" <<'EOPY'
import json, sys
d = sys.argv[1]
r = json.load(open("%s/req-%d.json" % (d, 7)))
h = {k.lower(): v for k, v in r["headers"].items()}
doc = json.load(open("%s/req-%d.body" % (d, 7)))
assert r["verdict"] == "ok", r
assert doc["test"] is True
assert h["x-perfwatch-delivery"] == doc["event"] + "-0", h
EOPY
pass
