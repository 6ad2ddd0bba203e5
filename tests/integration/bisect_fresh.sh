#!/bin/sh
# perfwatch bisect on a machine that has not run perfwatch yet: with no
# work directory it stopped at once ("machine snapshot: DIR: No such
# file or directory", 70) where a run makes the directory; and a range
# mistyped made an empty database before it was refused.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

make_repo "lat 100 ms lower" "lat 130 ms lower"
cat >"$T/fresh.conf" <<CONF
[perfwatch]
work_dir = $T/fresh/work
profile = $T/profile.conf
[quiet]
$QUIET_ANY_LOAD
CONF
fresh() {
	(cd "$T/repo" && "$PERFWATCH" -c "$T/fresh.conf" \
	    -D "$T/fresh/db/perfwatch.db" bisect --build "$BUILD" \
	    --workload toy "$@")
}
for range in nosuch..main main..main~1; do
	rc=0
	fresh "$range" >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" -eq 65 ] || fail "bisect $range: exit $rc: $(cat "$T/err")"
	[ ! -e "$T/fresh/db" ] || fail "bisect $range made $(ls -R "$T/fresh")"
done
fresh main~1..main >"$T/out" 2>"$T/err" ||
	fail "bisect with no work directory: exit $?: $(cat "$T/err")"
grep -q "^first bad commit: $(rev main) c2 (+30.0%)$" "$T/out" ||
	fail "bisect with no work directory: $(cat "$T/out")"
[ -d "$T/fresh/work" ] || fail "no work directory made"
pass
