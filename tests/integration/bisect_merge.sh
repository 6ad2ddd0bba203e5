#!/bin/sh
# perfwatch bisect over a history whose regression came in with a merged
# branch: the search keeps to the first parents and names the merge,
# where git bisect would go on into the branch and name its commit.  It
# named the merge with nothing more.  It now says it is a merge and
# gives the branch's range (the merge base to the branch's tip; in JSON
# "merged_branch"), and a bisection of that range names the commit.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

make_repo "lat 100 ms lower" "lat 100 ms lower"
(
	cd "$T/repo"
	git checkout -q -b side main~1
	echo "lat 100 ms lower" >value && echo s1 >counter
	git commit -qam s1
	echo "lat 130 ms lower" >value && echo s2 >counter
	git commit -qam s2
	echo s3 >counter
	git commit -qam s3
	git checkout -q main
	git merge -q --no-ff -X theirs -m merge side
	echo c4 >counter
	git commit -qam c4
)
expect_eq "$(cat "$T/repo/value")" "lat 130 ms lower"
bisect main~3..main >"$T/out" 2>"$T/err" ||
	fail "bisect: exit $?: $(cat "$T/err")"
grep -q "^first bad commit: $(rev main~1) merge (+30.0%)$" "$T/out" ||
	fail "bisect: $(cat "$T/out")"
base=$(git -C "$T/repo" merge-base main~2 side)
expect_match "$(cat "$T/out")" \
    "it is a merge: the change came in with the branch it merged, or with the merge itself; bisect the branch next: $(echo "$base" | cut -c1-12)..$(rev side | cut -c1-12) (the merge base to the branch's tip)"
bisect --json main~3..main >"$T/json" 2>"$T/err" ||
	fail "bisect --json: exit $?: $(cat "$T/err")"
expect_eq "$(json_field "$T/json" merged_branch.good)" "$base"
expect_eq "$(json_field "$T/json" merged_branch.bad)" "$(rev side)"

# The range it gives names the branch's commit, as git bisect would.
bisect "$(echo "$base" | cut -c1-12)..$(rev side | cut -c1-12)" \
    >"$T/out" 2>"$T/err" || fail "bisect the branch: exit $?: $(cat "$T/err")"
grep -q "^first bad commit: $(rev side~1) s2 (+30.0%)$" "$T/out" ||
	fail "bisect the branch: $(cat "$T/out")"
case $(cat "$T/out") in
*"it is a merge"*) fail "s2 taken for a merge: $(cat "$T/out")" ;;
esac
bisect --json "$base..side" >"$T/json" 2>"$T/err" ||
	fail "bisect --json the branch: exit $?: $(cat "$T/err")"
expect_eq "$(json_field "$T/json" merged_branch)" None

# Nothing to bisect (the same level at both ends): the report has every
# key of the one above, "merged_branch" and "noise" null among them,
# where it left them out, and the one above "nothing_to_bisect" (null);
# so do the two ends, where they had only their id, summary and runs.
rc=0
bisect --json main~1..main >"$T/none.json" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "bisect --json, nothing to bisect: exit $rc: $(cat "$T/err")"
python3 - "$T/json" "$T/none.json" <<'PY' || fail "nothing to bisect: $(cat "$T/none.json")"
import json, sys
report = json.load(open(sys.argv[1]))
none = json.load(open(sys.argv[2]))
assert none["nothing_to_bisect"], none
assert list(report) == list(none), (list(report), list(none))
assert report["nothing_to_bisect"] is None, report
assert none["merged_branch"] is None and none["noise"] is None, none
# Each end has every key of the report's, null where there is no value.
for end in "good", "bad":
    assert list(none[end]) == list(report[end]), (end, none[end],
                                                 report[end])
    assert none[end]["verdict"] == end, none[end]
    assert none[end]["level"] is None and none[end]["llr"] is None, none
PY
pass
