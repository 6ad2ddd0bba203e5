#!/bin/sh
# perfwatch bisect says why each skipped commit was skipped: one whose
# level lies between the ends (115 between 100 and 130) is measured
# --max-runs times and stays undecided, which is no failure to measure
# it; one whose build fails could not be measured.  The table's list,
# the progress lines and the JSON (skipped: undecided or failed) say
# which.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

# 1. c2 at 115 between the ends: undecided after --max-runs 3 runs.
make_repo "lat 100 ms lower" "lat 115 ms lower" "lat 130 ms lower" \
    "lat 130 ms lower"
c2=$(rev main~2)
bisect --max-runs 3 main~3..main >"$T/out.txt" 2>"$T/err" ||
	fail "undecided: $(cat "$T/err")"
grep -q "^the first bad commit is one of these 2 (skipped commits hide it):$" \
    "$T/out.txt" || fail "undecided: $(cat "$T/out.txt")"
grep -q "^  $c2 c2 (skipped: undecided after 3 runs, --max-runs 3)$" \
    "$T/out.txt" || fail "undecided: c2's line: $(cat "$T/out.txt")"
grep -q "^  $(rev main~1) c3$" "$T/out.txt" ||
	fail "undecided: c3's line: $(cat "$T/out.txt")"
if grep -q "could not be measured" "$T/out.txt"; then
	fail "undecided: c2 said not measured: $(cat "$T/out.txt")"
fi
grep -q "^skip  *$(echo "$c2" | cut -c1-12)  *3  *11[45]\.[0-9]*  *+1[45]\.[0-9]%  *-\{0,1\}[0-9]*\.[0-9]  *c2$" \
    "$T/out.txt" || fail "undecided: c2's row: $(cat "$T/out.txt")"
grep -q "^bisect: $(echo "$c2" | cut -c1-12) is skipped: undecided after 3 runs, --max-runs 3$" \
    "$T/err" || fail "undecided: progress: $(cat "$T/err")"
bisect --max-runs 3 --json main~3..main >"$T/out.json" 2>"$T/err" ||
	fail "undecided, JSON: $(cat "$T/err")"
python3 - "$T/out.json" "$c2" <<'PY' || fail "undecided, JSON: $(cat "$T/out.json")"
import json, sys
d = json.load(open(sys.argv[1]))
t = [p for p in d["tested"] if p["id"] == sys.argv[2]]
assert len(t) == 1, t
assert t[0]["verdict"] == "skip" and t[0]["skipped"] == "undecided", t
assert t[0]["runs"] == 3, t
assert all(p["skipped"] is None for p in d["tested"] if p["verdict"] != "skip")
assert d["first_bad"] is None and len(d["candidates"]) == 2, d
PY

# 2. c2's build fails: skipped as not measured.
make_repo "lat 100 ms lower" "!lat 130 ms lower" "lat 130 ms lower" \
    "lat 130 ms lower"
c2=$(rev main~2)
bisect main~3..main >"$T/out.txt" 2>"$T/err" || fail "failed: $(cat "$T/err")"
grep -q "^  $c2 c2 (skipped: its build or run failed)$" "$T/out.txt" ||
	fail "failed: c2's line: $(cat "$T/out.txt")"
grep -q "is skipped: its build or run failed$" "$T/err" ||
	fail "failed: progress: $(cat "$T/err")"
bisect --json main~3..main >"$T/out.json" 2>"$T/err" ||
	fail "failed, JSON: $(cat "$T/err")"
python3 - "$T/out.json" "$c2" <<'PY' || fail "failed, JSON: $(cat "$T/out.json")"
import json, sys
d = json.load(open(sys.argv[1]))
t = [p for p in d["tested"] if p["id"] == sys.argv[2]]
assert len(t) == 1 and t[0]["skipped"] == "failed" and t[0]["runs"] == 0, t
PY
# 3. An end that does not build is no skip: the bisection stops, 65.
make_repo "lat 100 ms lower" "lat 130 ms lower" "!lat 130 ms lower"
rc=0
bisect main~2..main >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "bad end broken: exit $rc: $(cat "$T/err")"
grep -q "^perfwatch: the bad end ($(rev main | cut -c1-12)) cannot be measured$" \
    "$T/err" || fail "bad end broken: $(cat "$T/err")"
# 4. c2 builds, but the workload bisected fails there while another
# workload of the run completes (the run does not fail outright): the
# failure is in the run, and c2 is skipped as failed after that one run.
# It was run --max-runs + 1 times (9 whole batteries), then skipped as
# "9 runs without toy lat".
cat >"$T/profile2.conf" <<EOF
[workload "toy"]
command = sh $T/emit.sh $T/repo
iterations = 3
[workload "aux"]
command = echo aux 1 s lower
iterations = 3
EOF
sed "s|$T/profile.conf|$T/profile2.conf|" "$T/pw.conf" >"$T/pw2.conf"
make_repo "lat 100 ms lower" "!lat 130 ms lower" "lat 130 ms lower" \
    "lat 130 ms lower"
c2=$(rev main~2)
(cd "$T/repo" && PERFWATCH_DB="$T/two.db" "$PERFWATCH" -c "$T/pw2.conf" \
    bisect --build 'rm -f built; test -f broken || cp value built' \
    --json main~3..main) >"$T/out.json" 2>"$T/err" ||
	fail "workload failed: exit $?: $(cat "$T/err")"
grep -q "^bisect: $(echo "$c2" | cut -c1-12) is skipped: its build or run failed$" \
    "$T/err" || fail "workload failed: progress: $(cat "$T/err")"
expect_eq "$(sqlite3 "$T/two.db" "SELECT count(*) FROM runs
    WHERE label LIKE 'bisect-$(echo "$c2" | cut -c1-12)-%'")" 1
python3 - "$T/out.json" "$c2" <<'PY' || fail "workload failed, JSON: $(cat "$T/out.json")"
import json, sys
d = json.load(open(sys.argv[1]))
t = [p for p in d["tested"] if p["id"] == sys.argv[2]]
assert len(t) == 1 and t[0]["skipped"] == "failed", t
PY

# 5. A workload that fails once in a while: c2 (115, between the ends)
# has its second run's toy fail (invocation 4 of the command at c2); it
# is measured again, as a run without the metric was, and stays
# undecided after --max-runs runs that measured it, not skipped as
# failed because one run did (which case 4's rule first made it).
cat >"$T/flaky.sh" <<EOF
if grep -q '^lat 115 ' "\$1/built"; then
	n=\$(cat "$T/flaky.count" 2>/dev/null || echo 0)
	n=\$((n + 1))
	echo \$n >"$T/flaky.count"
	[ "\$n" -ne 4 ] || exit 1
fi
exec sh $T/emit.sh "\$1"
EOF
cat >"$T/profile3.conf" <<EOF
[workload "toy"]
command = sh $T/flaky.sh $T/repo
iterations = 3

[workload "aux"]
command = echo aux 1 s lower
iterations = 3
EOF
sed "s|$T/profile.conf|$T/profile3.conf|" "$T/pw.conf" >"$T/pw3.conf"
make_repo "lat 100 ms lower" "lat 115 ms lower" "lat 130 ms lower" \
    "lat 130 ms lower"
c2=$(rev main~2)
rm -f "$T/flaky.count"
(cd "$T/repo" && PERFWATCH_DB="$T/three.db" "$PERFWATCH" -c "$T/pw3.conf" \
    bisect --build "$BUILD" --max-runs 3 --json \
    main~3..main) >"$T/out.json" 2>"$T/err" ||
	fail "flaky: exit $?: $(cat "$T/err")"
[ "$(cat "$T/flaky.count")" -ge 7 ] ||
	fail "flaky: c2's toy ran $(cat "$T/flaky.count") times: $(cat "$T/err")"
python3 - "$T/out.json" "$c2" <<'PY' || fail "flaky, JSON: $(cat "$T/out.json")"
import json, sys
d = json.load(open(sys.argv[1]))
t = [p for p in d["tested"] if p["id"] == sys.argv[2]]
assert len(t) == 1 and t[0]["skipped"] == "undecided", t
assert t[0]["runs"] == 3, t
PY
pass
