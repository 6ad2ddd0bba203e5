#!/bin/sh
# /api/alerts on a store with more open alerts than one answer holds
# (100): the answer says how many there are and that it was cut, and
# names the request for the older ones (before=), which, followed to the
# end, gives every alert of `perfwatch alerts --json` once, in its
# order.  limit= asks for fewer; a bad before= or limit= is a 400 that
# names it.  Every key of the answer is named in perfwatchd(8)'s entry.
# Alerts with large attributions are cut at 4 MiB, not at 100.
# Before, the answer was the newest 100 alone: 100 alerts of 100 and 100
# of 250 looked the same, and the older ones could not be had.
set -eu
. "$(dirname "$0")/daemon.subr"
. "$(dirname "$0")/http.subr"
. "$(dirname "$0")/alerts.subr"
top=${PERFWATCH_TOP:?}

HTTP_MAX_TIME=20

http_conf

alerts_make_many pwc
pwc alerts --json >"$T/every.json" || fail "alerts --json"
python3 -c 'import json, sys
assert len(json.load(open(sys.argv[1]))) >= 250' "$T/every.json" ||
	fail "fewer than 250 open alerts"

start_daemon

# The first answer: the newest 100, how many there are, cut, and where
# the rest begins.
[ "$(get /api/alerts)" = 200 ] || fail "/api/alerts: $(cat "$T/body")"
cp "$T/body" "$T/first.json"
python3 - "$T/first.json" "$T/every.json" <<'EOF' ||
import json, sys
got = json.load(open(sys.argv[1]))
every = json.load(open(sys.argv[2]))
assert isinstance(got, dict), type(got).__name__
assert got["total"] == len(every), (got["total"], len(every))
assert got["truncated"] is True, got["truncated"]
assert got["alerts"] == every[:100], "not the newest 100 of alerts --json"
assert got["next"] == "/api/alerts?before=%d" % every[99]["id"], got["next"]
EOF
	fail "/api/alerts does not say it was cut"

# Followed to the end, every alert once, in the command's order.
python3 - "$PORT" "$T/every.json" <<'EOF' ||
import json, sys, urllib.request
port = sys.argv[1]
every = json.load(open(sys.argv[2]))
got, pages, path = [], 0, "/api/alerts"
while path is not None:
    with urllib.request.urlopen("http://127.0.0.1:%s%s" % (port, path),
                                timeout=20) as f:
        page = json.load(f)
    pages += 1
    assert page["total"] == len(every), page["total"]
    assert 0 < len(page["alerts"]) <= 100, len(page["alerts"])
    got += page["alerts"]
    assert page["truncated"] == (len(got) < len(every)), (len(got), page)
    assert (page["next"] is None) == (not page["truncated"]), page["next"]
    path = page["next"]
assert pages == (len(every) + 99) // 100, pages
assert got == every, "the pages are not alerts --json"
EOF
	fail "/api/alerts' pages do not give every alert"

# limit= asks for fewer, and the next page keeps it.
[ "$(get '/api/alerts?limit=7')" = 200 ] || fail "limit=7: $(cat "$T/body")"
python3 - "$T/body" "$T/every.json" <<'EOF' || fail "/api/alerts?limit=7"
import json, sys
got = json.load(open(sys.argv[1]))
every = json.load(open(sys.argv[2]))
assert got["alerts"] == every[:7] and got["truncated"] is True, got
assert got["next"] == "/api/alerts?before=%d&limit=7" % every[6]["id"], got
EOF
id=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))[6]["id"])' "$T/every.json")
[ "$(get "/api/alerts?limit=5&before=$id")" = 200 ] ||
	fail "before=$id: $(cat "$T/body")"
python3 - "$T/body" "$T/every.json" <<'EOF' || fail "/api/alerts?before="
import json, sys
got = json.load(open(sys.argv[1]))
every = json.load(open(sys.argv[2]))
assert got["alerts"] == every[7:12], [a["id"] for a in got["alerts"]]
assert got["total"] == len(every) and got["truncated"] is True, got
EOF
# Before the oldest: none left.
id=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))[-1]["id"])' "$T/every.json")
[ "$(get "/api/alerts?before=$id")" = 200 ] || fail "before the oldest"
python3 - "$T/body" "$T/every.json" <<'EOF' || fail "/api/alerts past the end"
import json, sys
got = json.load(open(sys.argv[1]))
assert got == {"alerts": [], "total": len(json.load(open(sys.argv[2]))),
               "truncated": False, "next": None}, got
EOF

# A bad value is a 400 that names its parameter; nothing is guessed.
for q in limit=0 limit=101 limit=x limit=5x limit=-1 before=0 before=-3 \
    before=abc before=99999999999999999999 'before=%201'; do
	code=$(get "/api/alerts?$q")
	[ "$code" = 400 ] || fail "/api/alerts?$q: $code: $(cat "$T/body")"
	python3 - "$T/body" "${q%%=*}" <<'EOF' ||
import json, sys
e = json.load(open(sys.argv[1]))["error"]
assert sys.argv[2] + "=" in e, e
EOF
		fail "/api/alerts?$q: $(cat "$T/body")"
done

# Each key of the answer is a word of perfwatchd(8)'s /api/alerts entry.
awk '/^\.It Pa \/api\/alerts/ { on = 1; next } /^\.It / { on = 0 } on' \
    "$top/man/perfwatchd.8" >"$T/entry"
[ -s "$T/entry" ] || fail "perfwatchd(8) has no /api/alerts entry"
python3 -c 'import json, sys
print("\n".join(sorted(json.load(open(sys.argv[1])))))' "$T/first.json" \
    >"$T/keys"
[ "$(wc -l <"$T/keys")" -eq 4 ] || fail "keys: $(cat "$T/keys")"
while read -r k; do
	grep -qw -- "$k" "$T/entry" ||
		fail "perfwatchd(8) /api/alerts does not name the key $k"
done <"$T/keys"

# Alerts that a large upgrade opened each carry its whole package diff:
# 1500 packages, some 290 KB an alert.  An answer stops short of 4 MiB
# (once it holds one alert) and says so; its pages still give every
# alert once.  Before, the first answer held 100 of them, 29 MB, built
# in the daemon's loop and held in its memory while the client read it.
command -v sqlite3 >/dev/null 2>&1 || { pass; exit 0; }
sql "$(alerts_diff_sql "'1500 packages upgraded'")" || fail "the attributions"
pwc alerts --json >"$T/big.json" || fail "alerts --json (big)"
[ "$(get /api/alerts)" = 200 ] ||
	fail "/api/alerts (big): $(head -c 300 "$T/body")"
python3 - "$T/body" "$T/big.json" <<'EOF' ||
import json, os, sys
size = os.path.getsize(sys.argv[1])
got = json.load(open(sys.argv[1]))
every = json.load(open(sys.argv[2]))
one = len(json.dumps(every[0], indent=2))
assert one > 250000, one
assert size <= 4 * 1024 * 1024, "%d bytes, %d alerts" % (size,
    len(got["alerts"]))
n = len(got["alerts"])
assert 0 < n < 100 and size + one > 4 * 1024 * 1024, (n, size, one)
assert got["alerts"] == every[:n], "not the newest of alerts --json"
assert got["total"] == len(every) and got["truncated"] is True, got["total"]
assert got["next"] == "/api/alerts?before=%d" % every[n - 1]["id"], got["next"]
EOF
	fail "/api/alerts of large alerts is not cut at 4 MiB"
python3 - "$PORT" "$T/big.json" <<'EOF' ||
import json, sys, urllib.request
port = sys.argv[1]
every = json.load(open(sys.argv[2]))
got, path = [], "/api/alerts?limit=30"
while path is not None:
    with urllib.request.urlopen("http://127.0.0.1:%s%s" % (port, path),
                                timeout=60) as f:
        body = f.read()
    assert len(body) <= 4 * 1024 * 1024, len(body)
    page = json.loads(body)
    assert 0 < len(page["alerts"]) < 30, len(page["alerts"])
    got += page["alerts"]
    path = page["next"]
    assert path is None or path.endswith("&limit=30"), path
assert got == every, "the pages are not alerts --json"
EOF
	fail "/api/alerts' pages of large alerts do not give every alert"
pass
