#!/bin/sh
# What the dashboard reads of the store for its alerts: one page, not
# every open alert.  250 open alerts, each carrying the package diff of
# an upgrade of 1500 packages (some 170 KB stored, 290 KB printed), are
# 40 MB of attributions; a page of one alert (/api/alerts?limit=1) and
# the front page (which prints each alert's one-line summary) must not
# raise the daemon's peak resident memory by anything like that.
# Before, each request read every open alert whole (store_alerts_list)
# and kept a page of them, and / parsed the attributions of its 100 to
# print their summaries.  The answers stay those of `perfwatch alerts
# --json`.  Linux: the peak is /proc's VmHWM.  A sanitizer's build keeps
# what is freed for a while (ASan's quarantine), and its peak says
# nothing of what is read: there only the answers are checked.
set -eu
. "$(dirname "$0")/daemon.subr"
. "$(dirname "$0")/http.subr"
. "$(dirname "$0")/alerts.subr"

command -v sqlite3 >/dev/null 2>&1 || skip "sqlite3 is not installed"

# peak: the daemon's peak resident memory, in KiB (0 under a sanitizer).
san=$(ldd "$PERFWATCHD" 2>/dev/null | awk '/libasan|libtsan/ { print 1 }')
peak() {
	if [ -n "$san" ]; then
		echo 0
		return
	fi
	awk '$1 == "VmHWM:" { print $2 }' "/proc/$DPID/status"
}

http_conf

alerts_make_many pwc
# Each alert's summary its own, to tell one from another on the page.
sql "$(alerts_diff_sql \
    "printf('1500 packages upgraded (alert %d)', alerts.id)")" ||
	fail "the attributions"
[ "$(sql "SELECT count(*) FROM alerts WHERE state IN
    ('suspected', 'confirmed')")" -ge 250 ] || fail "fewer than 250 alerts"
pwc alerts --json >"$T/every.json" || fail "alerts --json"

start_daemon
# Without /proc (the BSDs), the answers alone too.
[ -r "/proc/$DPID/status" ] || san=1
# A first small request, so that what is measured is the alerts alone.
[ "$(get /api/runs)" = 200 ] || fail "/api/runs: $(cat "$T/body")"
p0=$(peak)

[ "$(get '/api/alerts?limit=1')" = 200 ] ||
	fail "/api/alerts?limit=1: $(head -c 300 "$T/body")"
p1=$(peak)
python3 - "$T/body" "$T/every.json" <<'EOF' || fail "/api/alerts?limit=1"
import json, sys
got = json.load(open(sys.argv[1]))
every = json.load(open(sys.argv[2]))
assert got["alerts"] == every[:1], "not the newest of alerts --json"
assert got["total"] == len(every) and got["truncated"] is True, got["total"]
assert got["next"] == "/api/alerts?before=%d&limit=1" % every[0]["id"]
EOF
echo "peak: $p0 KiB, after /api/alerts?limit=1 $p1 KiB" >&2
[ $((p1 - p0)) -lt 16384 ] ||
	fail "/api/alerts?limit=1 raised the peak by $((p1 - p0)) KiB"

[ "$(get /)" = 200 ] || fail "/: $(head -c 300 "$T/body")"
p2=$(peak)
echo "peak after /: $p2 KiB" >&2
[ $((p2 - p1)) -lt 16384 ] || fail "/ raised the peak by $((p2 - p1)) KiB"
# The summaries of the newest 100, each in its row, and no others.
python3 - "$T/body" "$T/every.json" <<'EOF' || fail "/ lost the summaries"
import json, re, sys
page = open(sys.argv[1]).read()
page = page[page.index('<table class="alerts">'):]
page = page[:page.index('</table>')]
every = json.load(open(sys.argv[2]))
rows = re.findall(r'<tr><td class="n">#(\d+)</td>.*?<td>([^<]*)</td></tr>',
                  page)
assert [int(i) for i, _ in rows] == [a["id"] for a in every[:100]], rows[:3]
for (i, s), a in zip(rows, every):
    assert s == a["attribution"]["summary"], (i, s)
    assert s == "1500 packages upgraded (alert %s)" % i, (i, s)
EOF

# perfwatchd's status (perfwatch status) counts the open alerts of this
# host by state: it read every one whole, in the loop, as / did.  The
# alerts of even id made this host's (the one perfwatchd recorded at
# its start; the other is import's box).
[ "$(sql "SELECT count(*) FROM hosts")" -eq 2 ] || fail "hosts: $(sql \
    "SELECT name FROM hosts")"
sql "UPDATE alerts SET host = (SELECT id FROM hosts WHERE name <> 'box')
    WHERE id % 2 = 0"
request '{"cmd":"status"}' >"$T/status" || fail "status"
p3=$(peak)
echo "peak after status: $p3 KiB" >&2
[ $((p3 - p2)) -lt 16384 ] ||
	fail "status raised the peak by $((p3 - p2)) KiB"
python3 - "$T/status" "$T/every.json" <<'EOF' ||
import collections, json, sys
st = json.load(open(sys.argv[1]))
every = json.load(open(sys.argv[2]))
mine = [a for a in every if a["id"] % 2 == 0]
by = collections.Counter(a["state"] for a in mine)
assert len(mine) >= 125, len(mine)
want = {"suspected": by["suspected"], "confirmed": by["confirmed"]}
assert st["alerts"] == {"open": len(mine), "by_state": want}, st
EOF
	fail "status: $(cat "$T/status")"
pass
