#!/bin/sh
# perfwatch alerts a page at a time, as the dashboard's /api/alerts:
# --limit N the newest N, --before ID those older than alert ID, in
# every output, the pages together the whole list.  The table and CSV
# read of each attribution its summary alone: over 250 open alerts of
# an upgrade of 1500 packages each (some 40 MB of attributions) the
# command's peak memory stays small, and the summaries are the same.
# Before, the command had neither option (a usage error), and read
# every alert with its whole attribution, parsed to print one line.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/alerts.subr"

command -v sqlite3 >/dev/null 2>&1 || skip "sqlite3 is not installed"

alerts_make_many pw
# Each its own summary; alert 3's text is no JSON, alert 4's summary
# no string: neither has one to print.
timeout 60 sqlite3 "$PERFWATCH_DB" "$(alerts_diff_sql \
    "printf('1500 packages upgraded (alert %d)', alerts.id)");
    UPDATE alerts SET attribution = '{\"summary\": ' WHERE id = 3;
    UPDATE alerts SET attribution = '{\"summary\": 7}' WHERE id = 4;" ||
	fail "the attributions"
pw alerts --json >"$T/every.json" || fail "alerts --json"

# The CSV of every alert: its peak memory, and its summaries those of
# --json.  A sanitizer's build keeps what is freed for a while (ASan's
# quarantine), and its peak says nothing of what is read: not judged.
san=$(ldd "$PERFWATCH" 2>/dev/null | awk '/libasan|libtsan/ { print 1 }')
python3 - "$PERFWATCH" "$T/every.json" "${san:-0}" <<'EOF' ||
	fail "alerts --csv"
import csv, io, json, resource, subprocess, sys
out = subprocess.run([sys.argv[1], "alerts", "--csv"], check=True,
                     stdout=subprocess.PIPE).stdout.decode()
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
every = json.load(open(sys.argv[2]))
rows = list(csv.DictReader(io.StringIO(out)))
assert len(every) >= 250, len(every)
assert [int(r["id"]) for r in rows] == [a["id"] for a in every]
for r, a in zip(rows, every):
    attr = a["attribution"]
    s = attr.get("summary") if isinstance(attr, dict) else None
    want = s if isinstance(s, str) else "-"
    assert r["summary"] == want, (r["id"], r["summary"], want)
    if a["id"] in (3, 4):
        assert want == "-", (a["id"], want)
    else:
        assert want == "1500 packages upgraded (alert %d)" % a["id"], want
# ru_maxrss is in KiB on Linux and the BSDs.
print("alerts --csv: peak %d KiB" % peak, file=sys.stderr)
assert peak < 24 * 1024 or sys.argv[3] != "0", "peak %d KiB" % peak
EOF

# Pages of 7, by --before the last id of each, in each output.
python3 - "$PERFWATCH" "$T/every.json" <<'EOF' || fail "alerts pages"
import csv, io, json, subprocess, sys
pw = sys.argv[1]
every = json.load(open(sys.argv[2]))
def run(*args):
    return subprocess.run([pw, "alerts"] + list(args), check=True,
                          stdout=subprocess.PIPE).stdout.decode()
got, before = [], None
while True:
    args = ["--json", "--limit", "7"]
    if before is not None:
        args += ["--before", str(before)]
    page = json.loads(run(*args))
    if not page:
        break
    assert len(page) <= 7
    got += page
    before = page[-1]["id"]
assert got == every, "the pages are not alerts --json"
# --limit=N and --before=#ID; CSV and table rows the same ids.
page = json.loads(run("--json", "--limit=5", "--before=#%d" % every[9]["id"]))
assert page == every[10:15], [a["id"] for a in page]
rows = list(csv.DictReader(io.StringIO(run("--csv", "--limit", "3",
                                           "--before", str(every[0]["id"])))))
assert [int(r["id"]) for r in rows] == [a["id"] for a in every[1:4]], rows
lines = run("--limit", "2").splitlines()
assert len(lines) == 3, lines
assert [int(l.split()[0]) for l in lines[1:]] == [a["id"] for a in every[:2]]
# --limit 0 is every alert; before the oldest, none.
assert json.loads(run("--json", "--limit", "0")) == every
assert json.loads(run("--json", "--before", str(every[-1]["id"]))) == []
# Past the last page is not "none": it says before which.
assert run("--before", str(every[-1]["id"])) == \
    "no open alerts before #%d\n" % every[-1]["id"]
# --limit as large as a count can be is every alert (it aborted).
assert json.loads(run("--json", "--limit", "9223372036854775807")) == every
EOF

# A bad value is a usage error (64) that names it; nothing is listed.
for args in "--limit x" "--limit -1" "--limit" "--before 0" "--before x" \
    "--before" "--before=" "--before 99999999999999999999"; do
	rc=0
	# shellcheck disable=SC2086
	pw alerts $args >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 64 ] || fail "alerts $args: exit $rc: $(cat "$T/err")"
	[ ! -s "$T/out" ] || fail "alerts $args printed: $(cat "$T/out")"
	opt=${args%% *}
	opt=${opt%%=*}
	grep -q -- "$opt" "$T/err" || fail "alerts $args: $(cat "$T/err")"
done
pass
