#!/bin/sh
# A receiver that answers 429 or 503 with Retry-After is left alone for
# as long as it asks: the row's next attempt is no sooner than that,
# whether Retry-After gives seconds or an HTTP-date; one that asks for
# less than the backoff still waits the backoff, and one that asks for
# more than max_age leaves still the last try when the row is max_age
# old.  Before, Retry-After was not read: a rate-limited receiver was
# asked again after the first backoff (a minute), however long it had
# said to wait.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

p_slow=$(free_port)
start_webhook "$T/slow" "$p_slow" --status 429 --retry-after 3600
p_date=$(free_port)
# An HTTP-date two hours from now.
when=$(LC_ALL=C date -u -d "@$(($(date +%s) + 7200))" \
    '+%a, %d %b %Y %H:%M:%S GMT')
start_webhook "$T/date" "$p_date" --status 503 --retry-after "$when"
p_soon=$(free_port)
start_webhook "$T/soon" "$p_soon" --status 429 --retry-after 5
p_short=$(free_port)
start_webhook "$T/short" "$p_short" --status 429 --retry-after 3600
printf '[detect]\nbaseline_runs = 30\n' >"$T/sinks.conf"
for s in "slow $p_slow 1d" "date $p_date 1d" "soon $p_soon 1d" \
    "short $p_short 30m"; do
	set -- $s
	printf '[sink "%s"]\ntype = webhook\nurl = http://127.0.0.1:%s/hook\n'\
'max_age = %s\n' "$1" "$2" "$3" >>"$T/sinks.conf"
done
conf="$T/sinks.conf"
confirmed_regression "$conf"

t0=$(date +%s)
pwt -c "$conf" notify flush >"$T/f.out" 2>&1 ||
	fail "flush: $(cat "$T/f.out")"
t1=$(date +%s)
expect_match "$(cat "$T/f.out")" "delivered 2, retrying 4, failed 0"
for s in slow date soon short; do
	[ "$(count_files "$T/$s"/req-*.body)" -eq 1 ] ||
		fail "$s: not one request"
done
sqlite3 "$PERFWATCH_DB" "SELECT sink, created, attempts, next_attempt
    FROM outbox WHERE sink != 'log'" >"$T/rows" || fail "sqlite3"
"$PY" - "$T/rows" "$t0" "$t1" <<'EOPY'
import sys
t0, t1 = int(sys.argv[2]), int(sys.argv[3])
rows = {}
for line in open(sys.argv[1]):
    sink, created, attempts, nxt = line.strip().split("|")
    rows[sink] = (int(created), int(attempts), int(nxt))
assert set(rows) == {"slow", "date", "soon", "short"}, rows
assert all(r[1] == 1 for r in rows.values()), rows
# Retry-After: 3600, the backoff being 60 s.
assert t0 + 3600 <= rows["slow"][2] <= t1 + 3600, (rows["slow"], t0, t1)
# An HTTP-date two hours on (a second's rounding either way).
assert t0 + 7200 - 2 <= rows["date"][2] <= t1 + 7200 + 1, (rows["date"], t0)
# Retry-After: 5, less than the backoff: the backoff.
assert t0 + 60 <= rows["soon"][2] <= t1 + 60, (rows["soon"], t0, t1)
# Retry-After past max_age (30m): the last try when the row is that old.
c = rows["short"][0]
assert rows["short"][2] == c + 1800, rows["short"]
EOPY
grep -q 'sink slow): attempt 1 failed, next at +3[56][0-9][0-9]s: HTTP 429' \
    "$T/f.out" || fail "the log line: $(cat "$T/f.out")"
pass
