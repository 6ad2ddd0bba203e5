#!/bin/sh
# The dashboard ([perfwatch] http) of the real daemon, fetched with curl,
# over a store with real runs and an alert (detect_alerts' step history,
# checked run by run) and a run whose label and metric hold <script>&":
# a bad address is a config error with file:line; / lists the runs that
# `perfwatch runs` lists and the open alert; /api/runs and /api/history
# are what runs and history print with --json, to the byte, and
# /api/alerts holds what alerts --json prints; a metric's chart has one
# point per run median, at the medians' values, and the alert's runs
# shaded; every string is escaped;
# 404, 405 with Allow, 400 on an unknown parameter; HEAD has no body;
# a reload moves the dashboard, a port in use is logged and refused at
# start.
set -eu
. "$(dirname "$0")/daemon.subr"

command -v curl >/dev/null 2>&1 || fail "curl is not installed"
# perfwatch reads the daemon's store, not lib.sh's.
export PERFWATCH_DB="$DB"

# free_port: a loopback port nothing listens on (asked of the kernel).
free_port() {
	python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# set_http VALUE: [perfwatch] http = VALUE in the configuration.
set_http() {
	write_conf_manual
	awk -v v="$1" '{ print } /^\[perfwatch\]$/ { print "http = " v }' \
	    "$CONF" >"$CONF.new"
	mv "$CONF.new" "$CONF"
}

# get PATH [CURL-ARGS]: fetch into $T/body and $T/headers; print the code.
get() {
	p=$1
	shift
	curl -sS --max-time 10 -o "$T/body" -D "$T/headers" \
	    -w '%{http_code}' "$@" "http://127.0.0.1:$PORT$p"
}

# header NAME: a header of the last reply, without its CR.
header() {
	grep -i "^$1:" "$T/headers" | head -n 1 | sed 's/^[^:]*: *//' |
	    tr -d '\r'
}

write_profile
mkdir -p "$T/state"

# A bad address: refused with the file and the line, exit 78.
set_http "localhost:8089"
rc=0
out=$("$PERFWATCHD" -n -f "$CONF" 2>&1) || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd -n on http = localhost:8089: $rc: $out"
expect_match "$out" "$CONF:2: http: expected a numeric address and a port"

# The data: 24 runs of box, r-21 and r-22 15% slower, checked run by run
# to a confirmed alert; and a run whose names would be markup.
step_history 24 21 22 7 rate >"$T/hist.csv"
cat >>"$T/hist.csv" <<'EOF'
"x<script>&""",1702200000,evil.<b>,"m&""<i>",5,s,lower,box,1
"x<script>&""",1702200000,evil.<b>,"m&""<i>",6,s,lower,box,2
EOF
PORT=$(free_port)
set_http "127.0.0.1:$PORT"
pwc import "$T/hist.csv" >/dev/null || fail "import"
for r in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 \
    21 22; do
	pwc check "r-$r" >/dev/null || [ "$r" -ge 21 ] ||
		fail "check r-$r: exit $?"
done
expect_match "$(pwc alerts)" "confirmed"
# r-05 lost a workload, as a run that failed one does: the list says so.
sqlite3 "$DB" "INSERT INTO run_workloads (run, workload, status, error)
    SELECT id, 'mine<b>', 'failed', 'exited with status 1' FROM runs
    WHERE label = 'r-05'" || fail "r-05's workload"

start_daemon
grep -q "dashboard on http://127.0.0.1:$PORT/" "$LOG" ||
	fail "no 'dashboard on' line in the log"
# And a battery of this host, measured by the daemon: its length known.
pwc trigger >/dev/null || fail "trigger"
wait_until 60 "the battery" runs_at_least 1 \
    "trigger = 'manual' AND status = 'complete'" || fail "no battery ran"

# /: the runs that `perfwatch runs` lists, and the alert.
[ "$(get /)" = 200 ] || fail "/: $(cat "$T/headers")"
[ "$(header Content-Type)" = "text/html; charset=utf-8" ] ||
	fail "/: Content-Type $(header Content-Type)"
[ "$(header Cache-Control)" = no-store ] || fail "/: no Cache-Control"
cp "$T/body" "$T/index.html"
pwc runs --json --limit 50 >"$T/runs.json"
python3 - "$T/index.html" "$T/runs.json" <<'EOF' || fail "/ and runs differ"
import html, json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
runs = json.load(open(sys.argv[2]))
shown = [html.unescape(m) for m in
    re.findall(r'<td class="run">(.*?)</td>', page)]
want = [r["run"] for r in runs]
assert len(want) == 26, want
# Newest first on the page.
assert shown == want[::-1], (shown, want)
# The ids, trigger, status and the workloads that did not complete of
# each, in the same rows.
rows = re.findall(r'<tr><td class="n">#(\d+)</td><td class="run">.*?</td>'
    r'<td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td>'
    r'<td class="n">(.*?)</td><td>(.*?)</td></tr>', page)
assert [(int(i), html.unescape(h), t, tr, st, sec, html.unescape(inc))
        for i, h, t, tr, st, sec, inc in rows] \
    == [(r["id"], r["host"], r["time"], r["trigger"], r["status"],
         "-" if r["duration"] is None else str(r["duration"]),
         ", ".join(w["workload"] + " " + w["status"]
                   for w in r["incomplete"]) or "-")
        for r in runs[::-1]], rows
r05 = [r for r in runs if r["run"] == "r-05"][0]
assert r05["incomplete"] == [{"workload": "mine<b>", "status": "failed"}], r05
assert "<td>mine&lt;b&gt; failed</td>" in page, page
# The daemon's own battery is the newest, its length known.
assert runs[-1]["trigger"] == "manual" and runs[-1]["duration"] is not None, \
    runs[-1]
# The open alert: metric, change, first bad and last good run, summary.
a = re.search(r'<table class="alerts">.*?</table>', page, re.S).group(0)
assert "sys.pipe time</a>" in a and ">r-21</td>" in a and ">r-20</td>" in a, a
assert "confirmed" in a and re.search(r'>\+1[3-7]\.\d%<', a), a
assert "no machine snapshot" in a, a
# This host and box.
assert '<span class="host">box</span>' in page, page
host = runs[-1]["host"]
assert page.count('<span class="host">' + html.escape(host) + '</span> (this one)') == 1
EOF
# Markup from the store is escaped, never written as markup.
grep -q '<script>' "$T/index.html" && fail "/ holds a raw <script>"
grep -q 'x&lt;script&gt;&amp;&quot;' "$T/index.html" ||
	fail "/ lacks the escaped label"
grep -q 'evil.&lt;b&gt; m&amp;&quot;&lt;i&gt;' "$T/index.html" ||
	fail "/ lacks the escaped metric"
grep -q '<b>\|<i>' "$T/index.html" && fail "/ holds a raw <b> or <i>"
grep -qi 'src=\|<script\|<link' "$T/index.html" &&
	fail "/ fetches something"

# The API: the command's JSON, to the byte.
[ "$(get /api/runs)" = 200 ] || fail "/api/runs"
[ "$(header Content-Type)" = application/json ] || fail "/api/runs: type"
[ "$(header Cache-Control)" = no-store ] || fail "/api/runs: no Cache-Control"
cmp -s "$T/body" "$T/runs.json" || fail "/api/runs differs from runs --json"
python3 -c 'import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a == b and len(a) == 26
assert {"run", "id", "host", "time", "trigger", "status"} <= set(a[0])
' "$T/body" "$T/runs.json" || fail "/api/runs JSON differs"
[ "$(get /api/alerts)" = 200 ] || fail "/api/alerts"
[ "$(header Content-Type)" = application/json ] || fail "/api/alerts: type"
pwc alerts --json >"$T/alerts.json"
# The command's list, whole: one alert of one, nothing left out.
python3 -c 'import json, sys
got = json.load(open(sys.argv[1]))
a = json.load(open(sys.argv[2]))
assert got == {"alerts": a, "total": 1, "truncated": False, "next": None}, got
assert len(a) == 1 and a[0]["first_bad_run"] == "r-21", a
' "$T/body" "$T/alerts.json" || fail "/api/alerts: not the alert"
[ "$(get '/api/history?metric=time&workload=sys.pipe')" = 200 ] ||
	fail "/api/history"
[ "$(header Content-Type)" = application/json ] ||
	fail "/api/history: Content-Type $(header Content-Type)"
cp "$T/body" "$T/history.json"
pwc history --workload sys.pipe --metric time --limit 400 --json \
    >"$T/history.cli"
cmp -s "$T/history.json" "$T/history.cli" || fail "/api/history differs"

# A metric's page: one point per run median, at its value, in run order.
[ "$(get '/metric?workload=sys.pipe&name=time')" = 200 ] || fail "/metric"
python3 - "$T/body" "$T/history.json" <<'EOF' || fail "/metric: chart"
import html, json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
hist = json.load(open(sys.argv[2]))[0]["runs"]
assert len(hist) == 24
svg = re.findall(r'<svg .*?</svg>', page, re.S)
assert len(svg) == 1, len(svg)
pts = re.findall(r'<circle class="pt" cx="([\d.]+)" cy="([\d.]+)" r="3">'
    r'<title>(.*?): (.*?)</title>', svg[0])
assert len(pts) == len(hist), (len(pts), len(hist))
assert [p[2] for p in pts] == [r["run"] for r in hist]
for p, r in zip(pts, hist):
    assert abs(float(p[3]) - r["median"]) <= 1e-5 * abs(r["median"]), (p, r)
xs = [float(p[0]) for p in pts]
assert xs == sorted(xs) and len(set(xs)) == len(xs), xs
# Slower runs (r-21, r-22: a larger time) higher up: a smaller y.
ys = {p[2]: float(p[1]) for p in pts}
assert ys["r-21"] < ys["r-20"] and ys["r-22"] < ys["r-23"], ys
# The alert's runs shaded, and the table below lists every run.
assert len(re.findall(r'<rect class="alert"', svg[0])) == 1, svg[0]
rows = re.findall(r'<table class="history">.*?</table>', page, re.S)[0]
assert rows.count("<tr><td>") == 24, rows.count("<tr><td>")
EOF
[ "$(get '/metric?workload=evil.%3Cb%3E&name=m%26%22%3Ci%3E')" = 200 ] ||
	fail "/metric of the evil metric: $(cat "$T/body")"
grep -q '<b>\|<i>\|<script>' "$T/body" && fail "evil metric page not escaped"
grep -q '<h1>evil.&lt;b&gt; m&amp;&quot;&lt;i&gt;</h1>' "$T/body" ||
	fail "evil metric page has no escaped title"
grep -c '<circle class="pt"' "$T/body" | grep -qx 1 ||
	fail "evil metric: not one point"

# Errors: an unknown metric named, escaped; unknown paths; methods; params.
[ "$(get '/metric?name=nosuch%3Cx%3E')" = 404 ] || fail "unknown metric"
grep -q 'nosuch&lt;x&gt;' "$T/body" || fail "404 does not name the metric"
grep -q 'nosuch<x>' "$T/body" && fail "404 names it unescaped"
[ "$(header Content-Type)" = "text/html; charset=utf-8" ] || fail "404 type"
[ "$(get '/api/history?metric=nosuch')" = 404 ] || fail "unknown history"
python3 -c 'import json, sys; assert "nosuch" in json.load(sys.stdin)["error"]' \
    <"$T/body" || fail "/api/history 404 is not JSON naming it"
[ "$(get /nope)" = 404 ] || fail "/nope"
[ "$(header Cache-Control)" = no-store ] || fail "404: no Cache-Control"
[ "$(get /api/nope)" = 404 ] || fail "/api/nope"
[ "$(get '/api/runs?limit=5')" = 400 ] || fail "unknown parameter"
grep -q limit "$T/body" || fail "400 does not name the parameter"
[ "$(get '/metric?name=time&name=rate')" = 400 ] || fail "name twice"
# A %00 cut the name short: time%00junk was taken for time.
[ "$(get '/metric?workload=sys.pipe&name=time%00junk')" = 400 ] ||
	fail "/metric: a %00 in the name was not refused"
grep -q 'NUL' "$T/body" || fail "%00: the 400 does not say why"
[ "$(get '/api/history?metric=time%00x')" = 400 ] ||
	fail "/api/history: a %00 in the name was not refused"
[ "$(get / -X POST -d x=1)" = 405 ] || fail "POST"
[ "$(header Allow)" = "GET, HEAD" ] || fail "405: Allow $(header Allow)"
[ "$(get /api/runs -X DELETE)" = 405 ] || fail "DELETE"
[ "$(header Allow)" = "GET, HEAD" ] || fail "405: Allow"
# Under /api/ the 405 is JSON, as every other error there (it was HTML).
case "$(header Content-Type)" in
application/json*) ;;
*) fail "405 under /api/: $(header Content-Type)" ;;
esac
python3 -c 'import json, sys; assert "error" in json.load(open(sys.argv[1]))' \
    "$T/body" || fail "405 under /api/: $(cat "$T/body")"

# HEAD: the headers a GET has, its length, and not one byte of body.
get / >/dev/null
glen=$(wc -c <"$T/body")
python3 - "$PORT" "$glen" <<'EOF' || fail "HEAD /"
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
s.sendall(b"HEAD / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
data = b""
while True:
    b = s.recv(65536)
    if not b:
        break
    data += b
head, sep, body = data.partition(b"\r\n\r\n")
assert sep and head.startswith(b"HTTP/1.") and b" 200 " in head, data[:200]
assert body == b"", body[:200]
hdr = dict(l.split(b": ", 1) for l in head.split(b"\r\n")[1:])
hdr = {k.lower(): v for k, v in hdr.items()}
assert hdr[b"content-length"] == sys.argv[2].encode(), hdr
assert hdr[b"cache-control"] == b"no-store", hdr
assert hdr[b"content-type"].startswith(b"text/html"), hdr
EOF

# Change points: a history of host box2 with a step at q-11 (+20%) and a
# spike at q-22 (+60%, one run), imported while the daemon serves.  The
# page marks each at its first run, a triangle for the step and a
# diamond for the spike, titled with the run and the change, and lists
# them under the chart as `perfwatch changes` reports them; /api/changes
# is changes --json to the byte, for one metric and for all.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,host,iteration"
	s = 11
	for (r = 1; r <= 30; r++) {
		level = r == 22 ? 160 : r >= 11 ? 120 : 100
		for (i = 1; i <= 5; i++) {
			s = (s * 1103515245 + 12345) % 2147483648
			printf "q-%02d,%d,cp.demo,level,%.4f,ms,lower,box2,%d\n",
			    r, 1703000000 + r * 3600,
			    level * (1 + 0.02 * (s / 2147483648 - 0.5)), i
		}
	}
}' >"$T/cp.csv"
pwc import "$T/cp.csv" >/dev/null || fail "import cp.csv"
pwc changes --workload cp.demo --metric level --json >"$T/changes.cli" ||
	fail "changes --json"
[ "$(get '/api/changes?workload=cp.demo&metric=level')" = 200 ] ||
	fail "/api/changes: $(cat "$T/body")"
[ "$(header Content-Type)" = application/json ] || fail "/api/changes: type"
cmp -s "$T/body" "$T/changes.cli" ||
	fail "/api/changes differs from changes --json"
pwc changes --json >"$T/changes.all" || fail "changes --json (all)"
[ "$(get /api/changes)" = 200 ] || fail "/api/changes (all)"
cmp -s "$T/body" "$T/changes.all" || fail "/api/changes (all) differs"
[ "$(get '/api/changes?metric=nosuch')" = 404 ] || fail "/api/changes nosuch"
[ "$(get '/metric?workload=cp.demo&name=level')" = 200 ] ||
	fail "/metric cp.demo level"
python3 - "$T/body" "$T/changes.cli" <<'EOF' || fail "/metric: change points"
import html, json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
ch = json.load(open(sys.argv[2]))
assert [(c["run"], c["kind"]) for c in ch] == \
    [("q-11", "step"), ("q-22", "spike")], ch
svg = re.findall(r'<svg .*?</svg>', page, re.S)[0]
pts = re.findall(r'<circle class="pt" cx="([\d.]+)" cy="[\d.]+" r="3">'
    r'<title>(.*?): ', svg)
x = {label: float(cx) for cx, label in pts}
marks = re.findall(r'<g class="change (step|spike)"><title>(.*?)</title>'
    r'<path class="guide" d="M([\d.]+) ', svg)
assert len(marks) == 2, marks
for (kind, title, mx), c in zip(marks, ch):
    assert kind == c["kind"], (kind, c)
    assert html.unescape(title) == "%s: %s, %+.1f%%" % (c["run"], c["kind"],
        c["change_pct"]), (title, c)
    assert float(mx) == x[c["run"]], (mx, x[c["run"]])
t = re.findall(r'<table class="changes">.*?</table>', page, re.S)
assert len(t) == 1, t
# Over the 30 runs of box2, all of which count.
assert "<p>Over the 30 runs shown that count" in page, page
rows = re.findall(r'<tr><td>(.*?)</td><td class="(?:step|spike)">(.*?)</td>'
    r'<td class="n">(.*?)</td><td class="n">(.*?)</td>'
    r'<td class="n">(.*?)</td>', t[0])
assert [(r[0], r[1]) for r in rows] == [(c["run"], c["kind"]) for c in ch]
for r, c in zip(rows, ch):
    assert abs(float(r[2]) - c["before"]) <= 1e-5 * c["before"], (r, c)
    assert abs(float(r[3]) - c["after"]) <= 1e-5 * c["after"], (r, c)
    assert r[4] == "%+.1f%%" % c["change_pct"], (r, c)
EOF

# Every link of / answers: a metric of a 300-byte name (import takes any
# length) was linked, and its page refused the name as too long; one of
# 1100 bytes is listed without a link, and so is one not UTF-8.
long300=$(printf '%0300d' 0 | tr 0 L)
long1100=$(printf '%01100d' 0 | tr 0 M)
printf 'run,time,workload,metric,value,unit,better,host,iteration\nlong-1,1703500000,w.long,%s,5,s,lower,box3,1\nlong-1,1703500000,w.long,%s,5,s,lower,box3,1\n' \
    "$long300" "$long1100" >"$T/long.csv"
pwc import "$T/long.csv" >/dev/null || fail "import long.csv"
# A workload whose name is not UTF-8, as a store from before import
# checked holds: it was linked, and its page refused the name (400).
sqlite3 "$DB" "INSERT INTO metrics (workload, metric, unit, better)
    VALUES (CAST(X'6F6C64FE' AS TEXT), 'legacy', 's', 'lower')" ||
	fail "the legacy metric"
[ "$(get /)" = 200 ] || fail "/ with long names"
cp "$T/body" "$T/index2.html"
grep -q "w.long $long1100 <small>(a name too long for its page)</small>" \
    "$T/index2.html" || fail "/: the 1100-byte name not listed unlinked"
grep -q "$(printf 'old\357\277\275') legacy <small>(a name not UTF-8, which its page does not take)</small>" \
    "$T/index2.html" || fail "/: the name not UTF-8 not listed unlinked"
python3 - "$T/index2.html" <<'EOF' >"$T/links" || fail "/: links"
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
links = [html.unescape(h) for h in re.findall(r'href="(/metric\?[^"]*)"', page)]
assert any("L" * 300 in l for l in links), links
assert not any("M" * 1100 in l for l in links), links
print("\n".join(links))
EOF
while read -r link; do
	[ "$(get "$link")" = 200 ] || fail "/ links to $link: $(head -c 300 "$T/body")"
done <"$T/links"

# An alert that began before the 400 runs a page shows, still open: its
# runs in view are shaded from the first one shown (it was not shaded).
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,host,iteration"
	s = 7
	for (r = 1; r <= 420; r++) {
		level = r >= 20 ? 115 : 100
		for (i = 1; i <= 5; i++) {
			s = (s * 1103515245 + 12345) % 2147483648
			printf "s-%03d,%d,span.demo,time,%.4f,s,lower,box4,%d\n",
			    r, 1704000000 + r * 3600,
			    level * (1 + 0.02 * (s / 2147483648 - 0.5)), i
		}
	}
}' >"$T/span.csv"
pwc import "$T/span.csv" >/dev/null || fail "import span.csv"
for r in 020 021 022 419 420; do
	pwc check "s-$r" >/dev/null || [ $? -eq 1 ] || fail "check s-$r"
done
pwc alerts --json | python3 -c 'import json, sys
a = [x for x in json.load(sys.stdin) if x["workload"] == "span.demo"]
assert len(a) == 1 and a[0]["first_bad_run"] == "s-020" and \
    a[0]["last_run"] == "s-420", a' || fail "span.demo: not the alert wanted"
[ "$(get '/metric?workload=span.demo&name=time')" = 200 ] ||
	fail "/metric span.demo"
python3 - "$T/body" <<'EOF' || fail "/metric: an alert older than the runs shown"
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
svg = re.findall(r'<svg .*?</svg>', page, re.S)[0]
pts = re.findall(r'<circle class="pt" cx="([\d.]+)" cy="[\d.]+" r="3">'
    r'<title>(.*?): ', svg)
assert len(pts) == 400 and pts[0][1] == "s-021", (len(pts), pts[0])
rects = re.findall(r'<rect class="alert" x="([\d.]+)" y="[\d.]+" '
    r'width="([\d.]+)"', svg)
assert len(rects) == 1, rects
x, w = float(rects[0][0]), float(rects[0][1])
# From the first run shown to the last.
assert x <= float(pts[0][0]) and x + w >= float(pts[-1][0]), (x, w)
EOF

# More open alerts than / lists (100): /api/alerts gives the first 100 of
# what alerts --json prints, the newest, as / lists them (it gave every
# one, each read for its metric and runs in the daemon's loop), and says
# it left the others out (daemon_http_alerts pages through them).
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,host,iteration"
	s = 5
	for (r = 1; r <= 12; r++)
		for (m = 0; m < 101; m++)
			for (i = 1; i <= 5; i++) {
				s = (s * 1103515245 + 12345) % 2147483648
				v = r >= 11 ? 130 : 100
				v *= 1 + 0.02 * (s / 2147483648 - 0.5)
				printf "a-%02d,%d,many,m%03d,%.4f,s,lower,box5,%d\n",
				    r, 1705000000 + r * 3600, m, v, i
			}
}' >"$T/many.csv"
pwc import "$T/many.csv" >/dev/null || fail "import many.csv"
for r in 11 12; do
	pwc check "a-$r" >/dev/null || [ $? -eq 1 ] || fail "check a-$r"
done
pwc alerts --json >"$T/alerts.many"
python3 -c 'import json, sys
assert len(json.load(open(sys.argv[1]))) > 101' "$T/alerts.many" ||
	fail "fewer than 102 open alerts"
[ "$(get /api/alerts)" = 200 ] || fail "/api/alerts (many)"
python3 - "$T/body" "$T/alerts.many" <<'EOF' ||
import json, sys
page = json.load(open(sys.argv[1]))
every = json.load(open(sys.argv[2]))
assert page["total"] == len(every) and page["truncated"] is True, page["total"]
got = page["alerts"]
assert len(got) == 100, len(got)
assert got == every[:100], "not the first 100 of alerts --json"
ids = [a["id"] for a in got]
assert ids == sorted(ids, reverse=True), ids
assert min(ids) > max(a["id"] for a in every[100:]), "not the newest"
EOF
	fail "/api/alerts past 100 alerts: not the newest 100"
[ "$(get /)" = 200 ] || fail "/ (many alerts)"
grep -q '<p>The first 100 of 10[2-9]\.</p>' "$T/body" ||
	fail "/: does not say it lists the first 100 alerts"

# A reload that moves it: the old port is let go, the new one answers.
OLD=$PORT
PORT=$(free_port)
set_http "127.0.0.1:$PORT"
kill -HUP "$DPID"
wait_until 10 "the dashboard on $PORT" sh -c \
    "curl -sf -o /dev/null http://127.0.0.1:$PORT/api/runs" ||
	fail "no dashboard on $PORT after the reload"
curl -s -o /dev/null --max-time 5 "http://127.0.0.1:$OLD/" &&
	fail "still answering on $OLD"
# IPv6, where the machine has a loopback for it.
if python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' \
    2>/dev/null; then
	set_http "[::1]:$PORT"
	kill -HUP "$DPID"
	wait_until 10 "the dashboard on [::1]:$PORT" sh -c \
	    "curl -sfg -o /dev/null 'http://[::1]:$PORT/api/alerts'" ||
		fail "no dashboard on [::1]:$PORT"
fi

# none: off, the port let go.
set_http none
kill -HUP "$DPID"
wait_until 10 "the dashboard off" grep -q \
    "dashboard: no longer on http://\[::1\]:$PORT/\|dashboard: no longer on http://127.0.0.1:$PORT/" \
    "$LOG" || fail "no 'no longer on' line after http = none"
curl -s -o /dev/null --max-time 5 "http://127.0.0.1:$PORT/" &&
	fail "still answering on $PORT after http = none"

# A port in use: a clear error in the log at a reload, with file:line.
python3 -c 'import socket, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen()
print(s.getsockname()[1], flush=True)
time.sleep(120)' >"$T/held" &
HOLD=$!
wait_until 10 "a port held" test -s "$T/held" || fail "no port held"
HELD=$(cat "$T/held")
set_http "127.0.0.1:$HELD"
kill -HUP "$DPID"
wait_until 10 "the bind error" grep -q \
    "$CONF:2: \[perfwatch\] http = 127.0.0.1:$HELD: bind: Address already in use" \
    "$LOG" || fail "no bind error in the log"
grep -q "the dashboard is off" "$LOG" || fail "the log does not say it is off"
kill -0 "$DPID" || fail "perfwatchd died on a port in use"
stop_daemon
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# At start, a port in use is a refusal to start (exit 1), as the control
# socket's would be.
set_http "127.0.0.1:$HELD"
rc=0
timeout 20 "$PERFWATCHD" -d -f "$CONF" >"$T/refused.log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "perfwatchd started on a port in use: $rc"
grep -q "$CONF:2: \[perfwatch\] http = 127.0.0.1:$HELD: bind: Address already in use" \
    "$T/refused.log" || fail "no bind error at start: $(cat "$T/refused.log")"
[ -e "$SOCK" ] && fail "the refused daemon left its socket"
kill "$HOLD" 2>/dev/null || true
pass
