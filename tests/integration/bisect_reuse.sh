#!/bin/sh
# perfwatch bisect uses again only the runs that measured what it
# measures: a bisection of every workload does not take the runs of one
# of --workload toy, which never ran the workload that got worse.
# Before, it took them for its ends, found toy unchanged and said there
# was nothing to bisect (1), measuring nothing.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

cat >"$T/emit2.sh" <<EOF
read -r v <"\$1/built2"
echo "lat2 \$v ms lower"
EOF
cat >>"$T/profile.conf" <<EOF

[workload "other"]
command = sh $T/emit2.sh $T/repo
iterations = 3
EOF
# toy stays at 100 ms; other goes from 100 to 150 ms at the third
# commit after the good end.
make_repo "lat 100 ms lower"
cd "$T/repo"
echo built2 >>.gitignore
for v in 100 100 150 150; do
	echo "$v" >value2
	git add -A
	git commit -q --allow-empty -m "other $v"
done
cd "$T"
BUILD='cp value built && cp value2 built2'
rc=0
bisect main~3..main >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "toy alone: exit $rc, not 1: $(cat "$T/err")"
runs=$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM runs")
rc=0
(cd "$T/repo" && "$PERFWATCH" -c "$T/pw.conf" bisect --build "$BUILD" \
    --json main~3..main) >"$T/out.json" 2>"$T/err" || rc=$?
[ "$rc" -eq 0 ] || fail "every workload: exit $rc: $(cat "$T/err")"
expect_eq "$(json_field "$T/out.json" metric.workload)" other
expect_eq "$(json_field "$T/out.json" first_bad.id)" "$(rev main~1)"
# Both ends measured anew, of every workload, and the runs say so.
[ "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM runs")" -ge \
    $((runs + 6)) ] || fail "the ends were not measured again"
[ "$(sqlite3 "$PERFWATCH_DB" "SELECT count(*) FROM runs WHERE
    trigger_detail LIKE '% of $T/repo, every workload, build: $BUILD'")" \
    -ge 6 ] || fail "the runs' detail does not say what they measured"
pass
