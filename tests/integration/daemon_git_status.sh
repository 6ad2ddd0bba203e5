#!/bin/sh
# `perfwatch status` says how each watched git tree is: the commit seen
# last, or, when the tree cannot be read (its .git removed, a path that
# does not exist), that it cannot, since when and libgit2's reason; and
# again the commit once it can be read.  The --json reply has the same
# under "git", in the order of the file.  A reload looks at every tree
# at once, so the test does not wait for [triggers] git_poll.
set -eu
. "$(dirname "$0")/daemon.subr"

git_repo
first=$(g rev-parse HEAD)
short=$(printf '%.12s' "$first")

write_profile
write_conf_manual "git_poll = 1h

[git \"demo\"]
path = $repo
branch = main

[git \"gone\"]
path = $T/nosuch
branch = main"
start_daemon
wait_until 15 "the first look at the repository" \
    grep -q "git demo: watching refs/heads/main" "$LOG" ||
	fail "the repository was not read"

# git_json EXPR: a Python expression over the reply's "git" array, g.
git_json() {
	pwc status --json |
	    python3 -c "import json,sys; g=json.load(sys.stdin)['git']; print($1)"
}

# demo_failing: the reply says demo cannot be read.
demo_failing() {
	[ "$(git_json 'g[0]["error"] is not None')" = True ]
}

# Readable, and not: both said, in the file's order.
[ "$(git_json '[x["name"] for x in g]')" = "['demo', 'gone']" ] ||
	fail "status --json git: $(git_json g)"
[ "$(git_json 'g[0]["commit"]')" = "$first" ] || fail "demo's commit"
[ "$(git_json 'g[0]["error"]')" = None ] || fail "demo has an error"
# Without a build command nothing was built: "built" is null, not absent.
[ "$(git_json 'g[0]["built"]')" = None ] || fail "demo's built: $(git_json g)"
[ "$(git_json 'g[0]["ref"]')" = refs/heads/main ] || fail "demo's ref"
[ "$(git_json 'g[0]["checked"] is not None')" = True ] || fail "demo checked"
[ "$(git_json 'g[1]["commit"]')" = None ] || fail "gone has a commit"
[ "$(git_json 'g[1]["error"] is not None and len(g[1]["error"]) > 0')" = True ] ||
	fail "gone has no error: $(git_json 'g[1]')"
[ "$(git_json 'g[1]["failing_since"] is not None')" = True ] ||
	fail "gone has no failing_since"
st=$(pwc status)
expect_match "$st" "  git:       demo at $short (refs/heads/main of $repo)"
expect_match "$st" "  git:       gone cannot be read (since "
expect_match "$st" "$(git_json 'g[1]["error"]') (refs/heads/main of $T/nosuch)"

# Its .git removed: said at the next look, with the commit seen last.
mv "$repo/.git" "$repo/.git.away"
kill -HUP "$DPID"
wait_until 15 "demo failing" demo_failing ||
	fail "status does not say demo cannot be read: $(git_json 'g[0]')"
[ "$(git_json 'g[0]["commit"]')" = "$first" ] ||
	fail "demo's last commit lost"
err=$(git_json 'g[0]["error"]')
grep -q "git demo: $repo: $err" "$LOG" || fail "the log and status differ: $err"
st=$(pwc status)
expect_match "$st" "  git:       demo cannot be read (since "
expect_match "$st" "$err (refs/heads/main of $repo)"

# Back: the commit again, no error.
mv "$repo/.git.away" "$repo/.git"
kill -HUP "$DPID"
wait_until 15 "demo readable" grep -q "git demo: readable again" "$LOG" ||
	fail "demo not read again"
[ "$(git_json 'g[0]["error"]')" = None ] || fail "demo still has an error"
[ "$(git_json 'g[0]["failing_since"]')" = None ] || fail "demo failing_since"
expect_match "$(pwc status)" "  git:       demo at $short (refs/heads/main of $repo)"
stop_daemon
pass
