#!/bin/sh
# perfwatch bisect of a repository whose regression came in with a
# submodule's update.  Checking out a commit does not move a submodule
# (git checkout does not either), so every commit was built with the
# submodule as it was checked out, the ends measured the same, and the
# answer was "nothing to bisect" with no word of why.  It says so now,
# naming the submodule; a build command that runs `git submodule update`
# finds the commit that updated it.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

gitc() {
	git -c user.email=test@example.org -c user.name=test \
	    -c commit.gpgsign=false -c protocol.file.allow=always "$@"
}
# The library: its first commit is fast, its second slow.
git init -q -b main "$T/lib"
echo "lat 100 ms lower" >"$T/lib/value"
gitc -C "$T/lib" add value
gitc -C "$T/lib" commit -qm l1
echo "lat 130 ms lower" >"$T/lib/value"
gitc -C "$T/lib" commit -qam l2
# The program: c1 with the library at l1, c2, c3 that updates it to l2,
# c4.  The workload reads what the build copied from the submodule.
git init -q -b main "$T/repo"
(
	cd "$T/repo"
	echo built >.gitignore
	gitc submodule add -q "$T/lib" lib
	gitc -C lib checkout -q main~1
	git add -A
	gitc commit -qm c1
	echo 2 >counter && git add counter && gitc commit -qm c2
	gitc -C lib checkout -q main
	git add lib && gitc commit -qm c3
	echo 4 >counter && gitc commit -qam c4
)
BUILD='cp lib/value built'
bisect main~3..main >"$T/out" 2>"$T/err" || true
expect_match "$(cat "$T/err")" \
    "bisect: submodule lib changes between the ends; checking out a commit does not move a submodule (nor does git checkout): each commit is built with it as it is now, unless the build command runs \`git submodule update\`"

BUILD='git -c protocol.file.allow=always submodule update -q && cp lib/value built'
bisect main~3..main >"$T/out" 2>"$T/err" ||
	fail "bisect with submodule update: exit $?: $(cat "$T/err")"
grep -q "^first bad commit: $(rev main~1) c3 (+30.0%)$" "$T/out" ||
	fail "bisect with submodule update: $(cat "$T/out" "$T/err")"
expect_eq "$(git -C "$T/repo" symbolic-ref HEAD)" refs/heads/main

# A range over which no submodule changes says nothing of them.
bisect main~1..main >"$T/out" 2>"$T/err" || true
case $(cat "$T/err") in
*submodule*) fail "a range without a submodule change: $(cat "$T/err")" ;;
esac
pass
