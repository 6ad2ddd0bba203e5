#!/bin/sh
# perfwatch bisect says why each skipped commit was skipped: one whose
# level lies between the ends (115 between 100 and 130) is measured
# --max-runs times and stays undecided, which is no failure to measure
# it; one whose build fails could not be measured.  The table's list,
# the progress lines and the JSON (skipped: undecided or failed) say
# which.
set -eu
. "$(dirname "$0")/lib.sh"

command -v git >/dev/null || fail "git is not installed"
. "$(dirname "$0")/lib.sh"

command -v git >/dev/null || fail "git is not installed"

cat >"$T/emit.sh" <<EOF
n=\$(cat "$T/count" 2>/dev/null || echo 0)
n=\$((n + 1))
echo \$n >"$T/count"
read -r name v unit better <"\$1/built"
awk -v n=\$n -v v="\$v" -v name="\$name" -v unit="\$unit" \
    -v better="\$better" 'BEGIN {
	printf "%s %.6f %s %s\\n", name, v * (1 + 0.0001 * ((n * 7919) % 13 - 6) / 6), unit, better
}'
EOF
cat >"$T/profile.conf" <<EOF
[workload "toy"]
command = sh $T/emit.sh $T/repo
iterations = 3
EOF
mkdir -p "$T/work"
cat >"$T/pw.conf" <<EOF
[perfwatch]
work_dir = $T/work
profile = $T/profile.conf
[quiet]
$QUIET_ANY_LOAD
EOF

# make_repo LINE...: a commit c1, c2 ... a line each, "name value unit
# better", which the build makes the workload print; one that starts
# with "!" does not build.
make_repo() {
	rm -rf "$T/repo"
	git init -q -b main "$T/repo"
	(
		cd "$T/repo"
		git config user.email test@example.org
		git config user.name test
		git config commit.gpgsign false
		echo built >.gitignore
		i=1
		for line in "$@"; do
			rm -f broken
			case $line in
			!*) line=${line#!}; echo yes >broken ;;
			esac
			echo "$line" >value
			echo "$i" >counter
			git add -A
			git commit -qm "c$i"
			i=$((i + 1))
		done
	)
}
bisect() {
	(cd "$T/repo" && "$PERFWATCH" -c "$T/pw.conf" bisect --build "$BUILD" \
	    --workload toy "$@")
}
rev() {
	git -C "$T/repo" rev-parse "$1"
}
json_field() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    d = d[k] if not k.isdigit() else d[int(k)]
print(d)' "$@"
}
# in_range VALUE LO HI
in_range() {
	python3 -c 'import sys
v, lo, hi = map(float, sys.argv[1:])
sys.exit(not lo < v < hi)' "$@"
}

BUILD='test ! -f broken && cp value built'

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
assert all("skipped" not in p for p in d["tested"] if p["verdict"] != "skip")
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
pass
