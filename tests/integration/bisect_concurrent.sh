#!/bin/sh
# Two bisections of one tree.  The second took the first's
# perfwatch-bisect-head for one that did not end: it said HEAD went back
# to the branch, checked out and built its own commits while the first
# measured, and put the tree back under it; the first's store kept runs
# labelled as its commits that measured the second's builds, which every
# later bisection of those commits used again.  The tree is one
# bisection's at a time now: the second is refused (75), with the first's
# pid, and leaves the tree and the first alone.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

make_repo "lat 100 ms lower" "lat 100 ms lower" "lat 130 ms lower" \
    "lat 130 ms lower"
# The first bisection's first build (the good end's) waits while
# $T/hold exists, with the tree checked out at c1.
touch "$T/hold"
(
	BUILD="$BUILD"' && touch '"$T"'/building &&
	    while [ -e '"$T"'/hold ]; do sleep 0.1; done'
	rc=0
	PERFWATCH_DB="$T/a.db" bisect main~3..main >"$T/a.out" \
	    2>"$T/a.err" || rc=$?
	echo "$rc" >"$T/a.rc"
) &
first=$!
i=0
while [ ! -e "$T/building" ]; do
	i=$((i + 1))
	[ "$i" -lt 300 ] || { rm -f "$T/hold"; fail "the first bisection \
never built: $(cat "$T/a.err")"; }
	sleep 0.1
done
expect_eq "$(git -C "$T/repo" rev-parse HEAD)" "$(rev main~3)"

rc=0
PERFWATCH_DB="$T/b.db" timeout 120 sh -c '
	cd "$1" && "$PERFWATCH" -c "$2" bisect --build "$3" --workload toy \
	    main~3..main' sh "$T/repo" "$T/pw.conf" "$BUILD" \
    >"$T/b.out" 2>"$T/b.err" || rc=$?
rm -f "$T/hold"
[ "$rc" -eq 75 ] || { wait "$first" || :; fail "second bisection: exit $rc, \
not 75: $(cat "$T/b.err")"; }
expect_match "$(cat "$T/b.err")" \
    "perfwatch: $T/repo: another bisection is running in this tree (pid "
pid=$(sed -n 's/.*in this tree (pid \([0-9]*\)).*/\1/p' "$T/b.err")
expect_eq "$(ps -o comm= -p "$pid")" perfwatch
if grep -q "did not end" "$T/b.err"; then
	fail "the second bisection took the first's for one that did not \
end: $(cat "$T/b.err")"
fi
# It neither made a database nor touched the first's tree.
[ ! -e "$T/b.db" ] || fail "the refused bisection made a database"

wait "$first"
expect_eq "$(cat "$T/a.rc")" 0
grep -q "^first bad commit: $(rev main~1) c3 (+30.0%)$" "$T/a.out" ||
	fail "first bisection: $(cat "$T/a.out") $(cat "$T/a.err")"
expect_eq "$(git -C "$T/repo" symbolic-ref HEAD)" refs/heads/main
expect_eq "$(git -C "$T/repo" status --porcelain)" ""

# Once it has ended, the tree is the next one's.
PERFWATCH_DB="$T/b.db" bisect main~3..main >"$T/b.out" 2>"$T/b.err" ||
	fail "bisect after the first ended: exit $?: $(cat "$T/b.err")"
grep -q "^first bad commit: $(rev main~1) c3 (+30.0%)$" "$T/b.out" ||
	fail "bisect after the first ended: $(cat "$T/b.out")"
pass
