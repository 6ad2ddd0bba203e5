#!/bin/sh
# perfwatch bisect with a build that changes tracked files, as builds do
# (a lock file brought up to date, a version stamp, a file regenerated):
# the tree of each commit checked out is that commit's, not the last
# build's.  Before, the change stayed when the tree moved on: where the
# next commit changes the file too the checkout refused ("1 conflict
# prevents checkout") and the bisection stopped with 70 at its first
# move; elsewhere the next build started from the last one's change.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

make_repo "lat 100 ms lower" "lat 100 ms lower" "lat 130 ms lower" \
    "lat 130 ms lower"
# counter differs in every commit; .gitignore is the same in all, and
# the build refuses one that a build before it changed.
BUILD='test ! -f broken && test "$(wc -l <.gitignore)" -eq 1 &&
    echo "# built" >>.gitignore && echo built >>counter && cp value built'
rc=0
bisect main~3..main >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 0 ] || fail "bisect: exit $rc: $(cat "$T/err")"
grep -q "^first bad commit: $(rev main~1) c3 (+30.0%)$" "$T/out" ||
	fail "bisect: $(cat "$T/out") $(cat "$T/err")"
if grep -q "is skipped" "$T/err"; then
	fail "a commit was skipped: $(cat "$T/err")"
fi
# And put back as it was: on main, the builds' changes undone.
expect_eq "$(git -C "$T/repo" symbolic-ref HEAD)" refs/heads/main
expect_eq "$(git -C "$T/repo" rev-parse HEAD)" "$(rev main)"
expect_eq "$(git -C "$T/repo" status --porcelain --untracked-files=no)" ""
pass
