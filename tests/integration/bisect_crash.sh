#!/bin/sh
# perfwatch bisect killed outright (SIGKILL: nothing puts the tree back)
# leaves HEAD detached at the commit it measured.  The next bisection
# took that for where HEAD was, put it back there at its end, and the
# user's branch was never checked out again.  Where HEAD was is kept in
# the git directory now: the next bisection puts HEAD back on the branch
# and says so, refuses a range named from HEAD, which it would read from
# the commit left checked out, and names a tracked file the killed
# build changed as likely its build's, with how to put the tree back.
# A HEAD detached since at a commit of the user's is left alone.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

make_repo "lat 100 ms lower" "lat 100 ms lower" "lat 100 ms lower" \
    "lat 130 ms lower" "lat 130 ms lower"
git -C "$T/repo" checkout -q -b topic
# The build of c3 (a good commit next to the first bad one, which the
# search must measure) changes a tracked file and kills the bisection,
# its parent, while $T/kill exists.
BUILD="$BUILD"' && { [ ! -e '"$T"'/kill ] || [ "$(cat counter)" != 3 ] ||
    { echo built >>counter; kill -KILL $PPID; }; }'
touch "$T/kill"
rc=0
bisect main~4..main >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 137 ] || fail "killed bisection: exit $rc: $(cat "$T/err")"
rm "$T/kill"
git -C "$T/repo" symbolic-ref -q HEAD >/dev/null &&
	fail "the killed bisection left HEAD on a branch"
expect_eq "$(git -C "$T/repo" rev-parse HEAD)" "$(rev main~2)"

# Its build's change to a tracked file is named as likely its, with how
# to put the tree back; it is not undone, as it may be the user's.
rc=0
bisect main~4..main >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "tree with changes: exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/err")" \
    "counter has changes that are not committed, and HEAD is at $(rev main~2 | cut -c1-12), where a bisection that did not end left it: if they are its build's, \`git checkout -f topic\` puts the tree back"
expect_eq "$(git -C "$T/repo" status --porcelain)" " M counter"
git -C "$T/repo" checkout -q -- counter

# HEAD~2..HEAD would be read from the commit left checked out (c1..c3),
# not from topic.
rc=0
bisect HEAD~2..HEAD >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "range from HEAD: exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/err")" \
    "HEAD is at $(rev main~2 | cut -c1-12), where a bisection that did not end left it, not at topic: name the range without HEAD, or check out topic first"

bisect main~4..main >"$T/out" 2>"$T/err" ||
	fail "bisect after the kill: exit $?: $(cat "$T/err")"
expect_match "$(cat "$T/err")" \
    "bisect: HEAD is at $(rev main~2 | cut -c1-12), where a bisection that did not end left it: it goes back to topic"
grep -q "^first bad commit: $(rev main~1) c4 (+30.0%)$" "$T/out" ||
	fail "bisect after the kill: $(cat "$T/out")"
expect_eq "$(git -C "$T/repo" symbolic-ref HEAD)" refs/heads/topic
expect_eq "$(git -C "$T/repo" status --porcelain)" ""
[ ! -e "$T/repo/.git/perfwatch-bisect-head" ] ||
	fail "where HEAD was is still kept after it was put back"

# Killed again where it leaves the tree (detached, the file naming the
# branch), the next bisection finds every run it needs in the store and
# checks nothing out: it put nothing back, though it said it would.
git -C "$T/repo" checkout -q --detach main~2
printf 'refs/heads/topic\n' >"$T/repo/.git/perfwatch-bisect-head"
bisect main~4..main >"$T/out" 2>"$T/err" ||
	fail "bisect from the store: exit $?: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "it goes back to topic"
grep -q "^first bad commit: $(rev main~1) c4 (+30.0%)$" "$T/out" ||
	fail "bisect from the store: $(cat "$T/out")"
expect_eq "$(git -C "$T/repo" symbolic-ref HEAD)" refs/heads/topic
[ ! -e "$T/repo/.git/perfwatch-bisect-head" ] ||
	fail "where HEAD was is still kept by a bisection that moved nothing"

# A bisection that ends as it should leaves nothing behind, and one
# started with HEAD on a branch again puts it back there.
bisect main~4..main >/dev/null 2>"$T/err" ||
	fail "bisect again: exit $?: $(cat "$T/err")"
expect_eq "$(git -C "$T/repo" symbolic-ref HEAD)" refs/heads/topic
[ ! -e "$T/repo/.git/perfwatch-bisect-head" ] ||
	fail "where HEAD was is kept after a bisection that ended"

# Killed again, the user puts the tree back as the refusal above
# advises (git checkout -f topic leaves the file), and later checks out
# a commit of their own, detached: the file is stale, and the next
# bisection leaves that HEAD where it is.  It took HEAD detached for
# where the killed one left it, said "it goes back to topic", and moved
# the user's HEAD onto the branch.
touch "$T/kill"
rc=0
PERFWATCH_DB="$T/killed.db" bisect main~4..main >"$T/out" 2>"$T/err" ||
	rc=$?
[ "$rc" -eq 137 ] || fail "killed again: exit $rc: $(cat "$T/err")"
rm "$T/kill"
git -C "$T/repo" checkout -q -f topic
git -C "$T/repo" checkout -q --detach main~3
[ -e "$T/repo/.git/perfwatch-bisect-head" ] ||
	fail "the killed bisection left no file to test with"
PERFWATCH_DB="$T/killed.db" bisect main~4..main >"$T/out" 2>"$T/err" ||
	fail "bisect from a detached HEAD of the user's: exit $?: \
$(cat "$T/err")"
if grep -q "did not end" "$T/err"; then
	fail "a stale file taken for a bisection that did not end: \
$(cat "$T/err")"
fi
grep -q "^first bad commit: $(rev main~1) c4 (+30.0%)$" "$T/out" ||
	fail "bisect from a detached HEAD of the user's: $(cat "$T/out")"
git -C "$T/repo" symbolic-ref -q HEAD >/dev/null &&
	fail "the user's detached HEAD was moved onto a branch"
expect_eq "$(git -C "$T/repo" rev-parse HEAD)" "$(rev main~3)"
[ ! -e "$T/repo/.git/perfwatch-bisect-head" ] ||
	fail "a stale file is kept"
pass
