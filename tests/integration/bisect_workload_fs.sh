#!/bin/sh
# A bisection takes the machine's snapshot before its runs, and counts a
# run only if it recorded the same one.  A run's snapshot holds the
# filesystem of a workload's own work_dir on another filesystem than
# work_dir (workload.<name>.fs.*), of every workload of the profile,
# whatever --workload picks: the bisection's must hold it too, though
# that directory is not made yet, or every run would be taken for one on
# another machine ("the machine changed during the bisection", 75).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

[ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ] ||
	skip "/dev/shm is not a tmpfs"
[ "$(stat -c %d /dev/shm)" != "$(stat -c %d "$T")" ] ||
	skip "$T is on /dev/shm's filesystem"
S=$(mktemp -d /dev/shm/pw-it.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T" "$S"' EXIT INT TERM

make_repo "lat 100 ms lower" "lat 130 ms lower"
printf '[workload "disk"]\ncommand = true\nmeasure = time\nwork_dir = %s\n' \
    "$S/not/yet" >>"$T/profile.conf"
bisect main~1..main >"$T/out" 2>"$T/err" ||
	fail "bisect: exit $?: $(cat "$T/err")"
grep -q "^first bad commit: $(rev main) c2 (+30.0%)$" "$T/out" ||
	fail "bisect: $(cat "$T/out")"
# The runs recorded the snapshot the bisection took, with the fields.
expect_eq "$(sqlite3 "$PERFWATCH_DB" \
    'SELECT count(DISTINCT snapshot) FROM runs')" 1
pw -c "$T/pw.conf" env show >"$T/show.out"
expect_eq "$(awk '$1 == "workload.disk.fs.type" { print $2 }' \
    "$T/show.out")" tmpfs
pass
