#!/bin/sh
# alerts --json prints every alert whole, its attribution with it: after
# an upgrade of 1500 packages, some 170 KB stored and 300 KB printed an
# alert.  Before, the command gathered every alert into one document and
# printed it at the end: 250 such alerts took some 400 MiB, 2000 of them
# 3 GiB.  Now each alert is written to an unlinked file in $TMPDIR as it
# is read, and the file copied out once the listing is whole: the peak
# stays small, the output is the same, and a listing that fails part
# way prints nothing still: the store's error and its status (70), or
# 74 when the temporary file cannot be made or written.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/alerts.subr"

command -v sqlite3 >/dev/null 2>&1 || skip "sqlite3 is not installed"

alerts_make_many pw
timeout 60 sqlite3 "$PERFWATCH_DB" "$(alerts_diff_sql \
    "printf('1500 packages upgraded (alert %d)', alerts.id)");
    PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null || fail "the attributions"
mkdir "$T/tmp"
export TMPDIR="$T/tmp"

# Every alert: its peak memory, its alerts whole and in order, laid out
# as a two-space indented document, and no temporary file left.  A
# sanitizer's build keeps what is freed for a while (ASan's quarantine),
# and its peak says nothing of what is read: not judged.
san=$(ldd "$PERFWATCH" 2>/dev/null | awk '/libasan|libtsan/ { print 1 }')
python3 - "$PERFWATCH" "$T/every.json" "${san:-0}" <<'EOPY' ||
import json, resource, subprocess, sys
out = subprocess.run([sys.argv[1], "alerts", "--json"], check=True,
                     stdout=subprocess.PIPE).stdout.decode()
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
open(sys.argv[2], "w").write(out)
every = json.loads(out)
assert len(every) == 250, len(every)
assert [a["id"] for a in every] == list(range(250, 0, -1))
for a in every:
    assert len(a["attribution"]["diff"]["packages"]) == 1500, a["id"]
    assert a["attribution"]["summary"] == \
        "1500 packages upgraded (alert %d)" % a["id"]
assert out == json.dumps(every, indent=2, ensure_ascii=False) + "\n"
# ru_maxrss is in KiB on Linux and the BSDs.
print("alerts --json: %d bytes, peak %d KiB" % (len(out), peak),
      file=sys.stderr)
assert len(out) > 70 * 1024 * 1024, len(out)
assert peak < 24 * 1024 or sys.argv[3] != "0", "peak %d KiB" % peak
EOPY
	fail "alerts --json"
[ -z "$(ls -A "$T/tmp")" ] || fail "alerts --json left $(ls -A "$T/tmp")"

# A page is that part of the whole, to the byte; before the oldest, [].
pw alerts --json --limit 3 --before 200 >"$T/page.json" ||
	fail "alerts --json --limit 3 --before 200"
python3 - "$T/every.json" "$T/page.json" <<'EOPY' || fail "the page"
import json, sys
every = json.load(open(sys.argv[1]))
page = open(sys.argv[2]).read()
assert page == json.dumps(every[51:54], indent=2, ensure_ascii=False) + "\n"
EOPY
expect_eq "$(pw alerts --json --before 1)" "[]"

# expect_fails STATUS MESSAGE ARGS...: alerts ARGS exits STATUS, says
# MESSAGE and prints nothing; no temporary file is left behind.
expect_fails() {
	want=$1 msg=$2
	shift 2
	rc=0
	pw alerts "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq "$want" ] ||
		fail "alerts $*: exit $rc, not $want: $(cat "$T/err")"
	expect_match "$(cat "$T/err")" "$msg"
	[ ! -s "$T/out" ] || fail "alerts $*: printed $(wc -c <"$T/out") bytes"
	[ -z "$(ls -A "$T/tmp")" ] || fail "alerts $*: left $(ls -A "$T/tmp")"
}

# A temporary file that cannot be made, or written past its first alert
# (a file size limit stands for the full disk: the writes fail, with
# EFBIG rather than ENOSPC, where an alert is spooled): 74, said.
TMPDIR="$T/none" expect_fails 74 \
    "perfwatch alerts: a temporary file in $T/none: No such file" --json
(
	trap '' XFSZ
	ulimit -f 1024
	expect_fails 74 "perfwatch alerts: a temporary file in $T/tmp: " \
	    --json
) || exit 1

# The oldest alert's attribution overflows onto pages of its own: one of
# them spoiled, every other alert still reads (a page of all 249 newer
# ones: whether one is left after it is asked without reading that
# alert, which failed here when the row after a page was fetched to
# tell), but the listing fails at the last one: the store's error, 70,
# and none of the 249 before it printed.
page=$(sqlite3 "$PERFWATCH_DB" "SELECT pageno FROM dbstat WHERE name =
    'alerts' AND pagetype = 'overflow' ORDER BY path LIMIT 1")
[ -n "$page" ] || skip "sqlite3 has no dbstat table"
size=$(sqlite3 "$PERFWATCH_DB" 'PRAGMA page_size')
python3 - "$PERFWATCH_DB" "$page" "$size" <<'EOPY'
import sys
path, page, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "r+b") as f:
    f.seek((page - 1) * size)
    f.write(b"\xff" * size)
EOPY
pw alerts --json --limit 249 >"$T/out" || fail "the 249 newest alerts"
[ "$(python3 -c 'import json, sys
print(len(json.load(open(sys.argv[1]))))' "$T/out")" -eq 249 ] ||
	fail "not 249 alerts"
expect_fails 70 \
    "perfwatch alerts: $PERFWATCH_DB: database disk image is malformed" \
    --json
pass
