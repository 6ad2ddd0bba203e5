#!/bin/sh
# perfwatch bisect's build gets standard input, output and error, and no
# other descriptor of perfwatch's: the build's log file and /dev/null
# were left open in it (at 6 and 7), for whatever it starts in the
# background to hold.  What the build has is what any child of this
# script has (the test runner's own descriptors pass through both).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

make_repo "lat 100 ms lower" "lat 130 ms lower"
# What ls has open, its own directory's descriptor too: the same in a
# build as in a child of this script, when the build inherits nothing
# more.  (The shell's own list is no measure: dash keeps copies aside.)
BUILD='cp value built && ls /proc/self/fd >>'"$T/build-fds"
[ -d /proc/self/fd ] || skip "no /proc/self/fd"
ls /proc/self/fd >"$T/want-fds"
bisect main~1..main >"$T/out" 2>"$T/err" ||
	fail "bisect: exit $?: $(cat "$T/err")"
grep -q "^first bad commit: $(rev main) c2 (+30.0%)$" "$T/out" ||
	fail "bisect: $(cat "$T/out")"
[ -s "$T/build-fds" ] || fail "the build did not list its descriptors"
sort -n -u "$T/build-fds" >"$T/got"
sort -n -u "$T/want-fds" >"$T/want"
cmp -s "$T/got" "$T/want" ||
	fail "the build's descriptors: $(tr '\n' ' ' <"$T/got"), not" \
	    "$(tr '\n' ' ' <"$T/want")"
pass
