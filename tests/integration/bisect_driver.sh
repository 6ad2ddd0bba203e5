#!/bin/sh
# perfwatch bisect on real git repositories made here: a workload of our
# own reads what the build command left in the tree, 100 ops/s before the
# regression and 80 from it on (1% noise).  The first bad commit is found
# in at most ceil(log2(commits)) steps, HEAD and the tree are put back, a
# second bisection reuses every run (not one with another build command),
# commits whose build fails are
# skipped and the answer is then a range, a regression merged from a
# branch is found at its merge, Ctrl-C stops it with HEAD put back, and
# bad input is refused with a clear message.
set -eu
. "$(dirname "$0")/lib.sh"

command -v git >/dev/null || fail "git is not installed"
command -v sqlite3 >/dev/null || fail "sqlite3 is not installed"

cat >"$T/measure.sh" <<'EOF'
#!/bin/sh
# ops/s from the build's output, 1% noise (or the width in ../noise);
# sleeps $SLOW_MEASURE first.  And which commit the build in the tree
# was made from (its counter).
[ -z "${SLOW_MEASURE:-}" ] || sleep "$SLOW_MEASURE"
s=$(cat "$1/built")
w=0.02
[ ! -f "$1/../noise" ] || w=$(cat "$1/../noise")
awk -v s="$s" -v w="$w" -v seed="$$" 'BEGIN { srand(seed)
	printf "ops %.4f ops/s higher\n", s * (1 + (rand() - 0.5) * w) }'
echo "commitno $(cat "$1/built-counter") count higher"
EOF
cat >"$T/profile.conf" <<EOF
[workload "toy"]
command = sh $T/measure.sh $T/repo
measure = output
iterations = 5
EOF
# The package database the snapshots read: a file of ours, so that the
# test can change the machine.
mkdir -p "$T/dpkg"
dpkg_status() {
	printf 'Package: libfoo1\nStatus: install ok installed\nVersion: %s\n%s\n' \
	    "$1" 'Architecture: amd64' >"$T/dpkg/status"
}
dpkg_status 1.0-1
write_conf() {
	cat >"$T/pw.conf" <<EOF
[perfwatch]
state_dir = $T/state
work_dir = $T/work
profile = $T/profile.conf
[triggers]
dpkg_admin_dir = $T/dpkg
[quiet]
$QUIET_ANY_LOAD
$1
EOF
}
write_conf ""
mkdir -p "$T/work"
DB=$PERFWATCH_DB	# lib.sh's, before state_dir

# make_repo N FIRST_BAD [BROKEN...]: commits c1..cN, 80 ops/s (or
# $BAD_SPEED) from FIRST_BAD on; the commits named BROKEN do not build.
make_repo() {
	n=$1 bad=$2
	shift 2
	rm -rf "$T/repo"
	git init -q -b main "$T/repo"
	(
		cd "$T/repo"
		git config user.email test@example.org
		git config user.name test
		git config commit.gpgsign false
		printf 'built\nbuilt-counter\n' >.gitignore
		i=1
		while [ "$i" -le "$n" ]; do
			if [ "$i" -ge "$bad" ]; then echo "${BAD_SPEED:-80}"
			else echo 100; fi \
			    >speed.txt
			rm -f broken
			for b in "$@"; do
				[ "$b" = "$i" ] && echo yes >broken
			done
			echo "$i" >counter
			git add -A
			git commit -qm "c$i"
			i=$((i + 1))
		done
	)
}
BUILD='test ! -f broken && cp speed.txt built && cp counter built-counter'
rev() {
	git -C "$T/repo" rev-parse "$1"
}
bisect() {
	pw -c "$T/pw.conf" bisect "$@"
}
json_field() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    d = d[k] if not k.isdigit() else d[int(k)]
print(d if not isinstance(d, (list, dict)) else json.dumps(d))' "$@"
}
runs_in_store() {
	sqlite3 "$DB" "SELECT count(*) FROM runs"
}
# Every run measured the build of its own commit: its commitno samples
# are the counter file of the commit it records.
check_builds() {
	sqlite3 -separator ' ' "$DB" "SELECT r.label,
	    json_extract(r.git_commits, '$.' || '${1:-bisect}'), s.value
	    FROM runs r JOIN samples s ON s.run = r.id
	    JOIN metrics m ON m.id = s.metric
	    WHERE r.trigger = 'bisect' AND m.metric = 'commitno'" |
	while read -r label id value; do
		want=$(git -C "$T/repo" show "$id:counter")
		[ "${value%.*}" = "$want" ] ||
			fail "run $label of c$want measured the build of c$value"
	done
	[ "$(sqlite3 "$DB" "SELECT count(*) FROM runs r JOIN samples s ON
	    s.run = r.id JOIN metrics m ON m.id = s.metric WHERE
	    m.metric = 'commitno'")" -gt 0 ] || fail "no commitno samples"
}

# 1. A line of 24 commits, the regression at c15.
make_repo 24 15
head_before=$(rev HEAD)
(cd "$T/repo" && bisect --build "$BUILD" --workload toy --json \
    main~23..main) >"$T/out.json" 2>"$T/err" || fail "bisect: $(cat "$T/err")"
[ "$(json_field "$T/out.json" first_bad.id)" = "$(rev main~9)" ] ||
	fail "first bad $(json_field "$T/out.json" first_bad.id), not c15: $(cat "$T/err")"
[ "$(json_field "$T/out.json" first_bad.summary)" = c15 ] || fail "summary"
[ "$(json_field "$T/out.json" commits)" = 23 ] || fail "23 commits"
measured=$(json_field "$T/out.json" measured)
[ "$measured" -le 5 ] || fail "$measured commits measured, ceil(log2(23)) is 5"
[ "$(json_field "$T/out.json" metric.metric)" = ops ] || fail "metric"
[ "$(json_field "$T/out.json" good.runs)" = 3 ] || fail "good end runs"
change=$(json_field "$T/out.json" first_bad.change_pct)
python3 -c "import sys; c = float(sys.argv[1]); sys.exit(not -21 < c < -19)" \
    "$change" || fail "first bad change $change, not about -20%"
[ "$(git -C "$T/repo" symbolic-ref HEAD)" = refs/heads/main ] ||
	fail "HEAD is not main again"
[ "$(rev HEAD)" = "$head_before" ] || fail "HEAD moved"
[ -z "$(git -C "$T/repo" status --porcelain --untracked-files=no)" ] ||
	fail "the tree has changes: $(git -C "$T/repo" status --porcelain)"
grep -q "bisect: step 1 " "$T/err" || fail "no progress: $(cat "$T/err")"
# Its runs: trigger bisect, the commit recorded, kept out of baselines.
c15=$(rev main~9)
n=$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE
    trigger = 'bisect' AND json_extract(git_commits, '$.bisect') = '$c15'")
[ "$n" -ge 1 ] || fail "no run of c15 recorded with its commit"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE
    trigger <> 'bisect'")" = 0 ] || fail "runs of another trigger"

# The table says the same.
before=$(runs_in_store)
(cd "$T/repo" && bisect --build "$BUILD" --workload toy main~23..main) \
    >"$T/out.txt" 2>"$T/err" || fail "bisect again: $(cat "$T/err")"
grep -q "^first bad commit: $c15 c15 (-" "$T/out.txt" ||
	fail "the table: $(cat "$T/out.txt")"
grep -q "^good  *$(rev main~23 | cut -c1-12)  *3 " "$T/out.txt" ||
	fail "no good end row: $(cat "$T/out.txt")"
check_builds
# ... from the runs it already had: nothing measured again.
[ "$(runs_in_store)" = "$before" ] || fail "the second bisection measured again"
# Another build command (a flag mended, say) built other binaries: the
# runs of the old one are not this bisection's, and the ends are
# measured again.
(cd "$T/repo" && bisect --build "$BUILD && true" --workload toy --json \
    main~23..main) >"$T/out.json" 2>"$T/err" || fail "another build: $(cat "$T/err")"
[ "$(json_field "$T/out.json" first_bad.id)" = "$c15" ] || fail "another build"
[ "$(runs_in_store)" -ge $((before + 6)) ] ||
	fail "another build: $before runs, then $(runs_in_store): old runs reused"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE trigger = 'bisect' AND
    trigger_detail LIKE '% of $T/repo, workloads: toy, build: $BUILD && true'")" -ge 6 ] ||
	fail "the runs' detail does not name the build"
before=$(runs_in_store)
# Once the machine changed (a package upgraded), those runs measured
# another machine: the same bisection measures again.
dpkg_status 1.0-2
(cd "$T/repo" && bisect --build "$BUILD" --workload toy --json \
    main~23..main) >"$T/out.json" 2>"$T/err" || fail "after an upgrade: $(cat "$T/err")"
[ "$(json_field "$T/out.json" first_bad.id)" = "$c15" ] || fail "after an upgrade"
after=$(runs_in_store)
[ "$after" -ge $((before + 6)) ] ||
	fail "after an upgrade: $before runs, then $after: old runs reused"
[ "$(sqlite3 "$DB" "SELECT count(DISTINCT snapshot) FROM runs")" = 2 ] ||
	fail "the runs are not on two snapshots"
dpkg_status 1.0-1

# 2. Builds that fail at c9 and c10, the regression at c10: a range.
make_repo 16 10 9 10
rm -f "$DB" "$DB-wal" "$DB-shm"
(cd "$T/repo" && bisect --build "$BUILD" --workload toy --json \
    main~15..main) >"$T/out.json" 2>"$T/err" || fail "skips: $(cat "$T/err")"
[ "$(json_field "$T/out.json" first_bad)" = None ] ||
	fail "a first bad commit among skipped ones: $(cat "$T/out.json")"
[ "$(json_field "$T/out.json" candidates)" = \
    "[\"$(rev main~7)\", \"$(rev main~6)\", \"$(rev main~5)\"]" ] ||
	fail "candidates $(json_field "$T/out.json" candidates), not c9 c10 c11"
grep -q "build at .* failed (exit 1)" "$T/err" || fail "no build error shown"
# c9, whose build failed, was never judged: no llr, as the table's "-"
# (it was 0, which reads as runs right between the ends).
c9=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print([(t["skipped"], t["llr"]) for t in d["tested"] if t["id"] == sys.argv[2]])' \
    "$T/out.json" "$(rev main~7)")
expect_eq "$c9" "[('failed', None)]"
check_builds
(cd "$T/repo" && bisect --build "$BUILD" --workload toy main~15..main) \
    >"$T/out.txt" 2>/dev/null || fail "skips, table"
grep -q "^the first bad commit is one of these 3" "$T/out.txt" ||
	fail "the range: $(cat "$T/out.txt")"
# As CSV: the rows, full ids, the three it may be marked.
(cd "$T/repo" && bisect --build "$BUILD" --workload toy --csv main~15..main) \
    >"$T/out.csv" 2>/dev/null || fail "skips, CSV"
head -n 1 "$T/out.csv" | grep -qx \
    'verdict,id,runs,level,change_pct,llr,summary,first_bad,unit' ||
	fail "CSV header: $(head -n 1 "$T/out.csv")"
[ "$(grep -c ',maybe,ops/s$' "$T/out.csv")" = 3 ] ||
	fail "CSV: not three candidates marked: $(cat "$T/out.csv")"
grep -q "^skip,$(rev main~7),0,.*,c9,maybe,ops/s$" "$T/out.csv" ||
	fail "CSV: c9 not a skipped candidate: $(cat "$T/out.csv")"

# One run at each end says nothing of the noise: a second of each is
# taken, the good end's after the bad end was built, so it is built
# again.
rm -f "$DB" "$DB-wal" "$DB-shm"
(cd "$T/repo" && bisect --build "$BUILD" --workload toy --runs 1 --json \
    main~9..main~4) >"$T/out.json" 2>"$T/err" || fail "--runs 1: $(cat "$T/err")"
[ "$(json_field "$T/out.json" good.runs)" = 2 ] ||
	fail "--runs 1: $(json_field "$T/out.json" good.runs) runs at the good end"
[ "$(grep -c "building $(rev main~9 | cut -c1-12)" "$T/err")" = 2 ] ||
	fail "the good end was not built again: $(cat "$T/err")"
check_builds

# 3. A regression merged from a branch: found at the merge (first
# parents), through --git NAME, whose section gives path, build and
# workloads.
make_repo 6 99
(
	cd "$T/repo"
	git checkout -q -b side main~3
	echo 80 >speed.txt
	git commit -qam "side: slower"
	echo x >sidefile && git add sidefile && git commit -qm "side: more"
	git checkout -q main
	git merge -q --no-ff -m "merge side" side
	echo 7 >counter && git commit -qam c7
)
write_conf "[git \"toy\"]
path = $T/repo
build = $BUILD
workloads = toy"
# perfwatchd had measured the good end three times (trigger git, the
# commit its detail, as perfwatchd runs them): those runs are used, none
# taken again.  A fourth, queued for another tree's commit, records toy
# at the same commit (the build the tree held) but measured that other
# change too: it is not used.
good4=$(rev main~4)
(cd "$T/repo" && git checkout -q main~4 && sh -c "$BUILD") ||
	fail "building c4"
for k in 1 2 3; do
	pw -c "$T/pw.conf" run --trigger git --detail "$good4" \
	    --git-commit "toy=$good4" --workload toy --no-check \
	    >/dev/null 2>&1 || fail "git run $k"
done
other=0123456789abcdef0123456789abcdef01234567
pw -c "$T/pw.conf" run --trigger git --detail "$other" \
    --git-commit "lib=$other" --git-commit "toy=$good4" --workload toy \
    --no-check >/dev/null 2>&1 || fail "the other tree's git run"
git -C "$T/repo" checkout -q main
bisect --git toy --json main~4..main >"$T/out.json" 2>"$T/err" ||
	fail "--git: $(cat "$T/err")"
[ "$(json_field "$T/out.json" good.runs)" = 3 ] || fail "good end runs"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE trigger = 'bisect'
    AND json_extract(git_commits, '$.toy') = '$good4'")" = 0 ] ||
	fail "the good end measured again beside perfwatchd's runs"
[ "$(json_field "$T/out.json" first_bad.summary)" = "merge side" ] ||
	fail "first bad $(json_field "$T/out.json" first_bad.summary), not the merge"
[ "$(json_field "$T/out.json" commits)" = 4 ] || fail "4 first-parent commits"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE
    json_extract(git_commits, '$.toy') IS NOT NULL")" -ge 6 ] ||
	fail "runs not recorded under the name toy"
# With a build of its own, perfwatchd's runs (the [git] build's) are not
# this bisection's: the good end is measured.
bisect --git toy --build "$BUILD && true" --json main~4..main \
    >"$T/out.json" 2>"$T/err" || fail "--git --build: $(cat "$T/err")"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE trigger = 'bisect'
    AND json_extract(git_commits, '$.toy') = '$good4'")" -ge 3 ] ||
	fail "--git --build: perfwatchd's runs of the good end were used"

# 4. Ctrl-C: the bisection stops at once, HEAD is put back, and a new
# one goes on from the runs kept.
make_repo 40 31
rm -f "$DB" "$DB-wal" "$DB-shm"
write_conf ""
(cd "$T/repo" && SLOW_MEASURE=0.3 from_terminal "$PERFWATCH" \
    -c "$T/pw.conf" bisect --build "$BUILD" --workload toy main~39..main) \
    >"$T/int.out" 2>"$T/int.err" &
pid=$!
wait_grep "bisect: step 2 " "$T/int.err" "$pid" "Ctrl-C"
sleep 0.5
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq 130 ] || fail "Ctrl-C: exit $rc: $(cat "$T/int.err")"
grep -q "stopped by signal 2" "$T/int.err" ||
	fail "no word of the signal: $(cat "$T/int.err")"
[ "$(git -C "$T/repo" symbolic-ref HEAD)" = refs/heads/main ] ||
	fail "HEAD not put back after Ctrl-C"
[ -z "$(git -C "$T/repo" status --porcelain --untracked-files=no)" ] ||
	fail "tree changed after Ctrl-C"
kept=$(sqlite3 "$DB" "SELECT count(*) FROM runs WHERE
    status = 'complete'")
[ "$kept" -ge 7 ] || fail "only $kept runs kept"
(cd "$T/repo" && bisect --build "$BUILD" --workload toy --json \
    main~39..main) >"$T/out.json" 2>/dev/null || fail "after Ctrl-C"
[ "$(json_field "$T/out.json" first_bad.summary)" = c31 ] ||
	fail "after Ctrl-C: $(json_field "$T/out.json" first_bad.summary)"
# SIGTERM during a build stops what the build's shell started too (a
# make under a script), so that nothing writes in the tree once it is
# put back; SIGHUP (the terminal went away) puts it back as well.  The
# build writes in the tree only once the test lets it (the file go),
# after the signal, however slowly the test sees the build start: a
# build that the signal did not stop then writes, and the tree shows it.
# The signal comes as soon as the test sees "building" (no pause in the
# polling): that is where a signal was lost, between the fork and the
# build's exec or just before the wait, and the bisection waited for a
# build that never ended (3 of 4 times under ASan before the fix).
gated="until [ -e $T/go ]; do sleep 0.1; done; echo late >>counter"
for sig in TERM:143 HUP:129 TERM:143 HUP:129; do
	# int.err too: the last one's "building" sent the signal at once.
	rm -f "$T/term.db" "$T/go" "$T/int.err"
	(cd "$T/repo" && from_terminal "$PERFWATCH" -c "$T/pw.conf" \
	    -D "$T/term.db" bisect --build "sh -c '$gated'" \
	    --workload toy main~3..main) >/dev/null 2>"$T/int.err" &
	pid=$!
	i=0
	while ! grep -q "bisect: building" "$T/int.err" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -le 50000 ] || fail "no build: $(cat "$T/int.err")"
	done
	kill -"${sig%:*}" "$pid"
	i=0
	while kill -0 "$pid" 2>/dev/null; do
		i=$((i + 1))
		if [ "$i" -gt 200 ]; then
			touch "$T/go"
			fail "SIG${sig%:*}: still running 20 s on (lost)"
		fi
		sleep 0.1
	done
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq "${sig#*:}" ] ||
		fail "SIG${sig%:*}: exit $rc: $(cat "$T/int.err")"
	[ "$(git -C "$T/repo" symbolic-ref HEAD)" = refs/heads/main ] ||
		fail "HEAD not put back after SIG${sig%:*}"
	touch "$T/go"
	sleep 1.5
	[ -z "$(git -C "$T/repo" status --porcelain --untracked-files=no)" ] ||
		fail "the build went on after SIG${sig%:*}: $(git -C "$T/repo" diff)"
done

# SIGHUP ignored, as under nohup: the bisection goes on through it, its
# build and runs too, to its end.
# A fresh log: the loop's own says "building" already.
rm -f "$T/term.db" "$T/go" "$T/nohup.err"
(trap '' HUP; cd "$T/repo" && exec "$PERFWATCH" -c "$T/pw.conf" \
    -D "$T/term.db" bisect --build "until [ -e $T/go ]; do sleep 0.1; done; $BUILD" \
    --workload toy --json main~11..main~7) >"$T/nohup.json" 2>"$T/nohup.err" &
pid=$!
wait_grep "bisect: building" "$T/nohup.err" "$pid" nohup
kill -HUP "$pid"
sleep 0.5
kill -0 "$pid" 2>/dev/null || fail "nohup: a SIGHUP it ignores stopped it"
touch "$T/go"
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq 0 ] || fail "nohup: exit $rc: $(cat "$T/nohup.err")"
[ "$(json_field "$T/nohup.json" first_bad.summary)" = c31 ] ||
	fail "nohup: $(json_field "$T/nohup.json" first_bad.summary)"

# 5. Bad input.
echo local >>"$T/repo/counter"
rc=0
(cd "$T/repo" && bisect --workload toy main~3..main) 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "a changed tree: exit $rc"
grep -q "counter has changes that are not committed" "$T/err" ||
	fail "a changed tree: $(cat "$T/err")"
git -C "$T/repo" checkout -q counter
rc=0
(cd "$T/repo" && bisect main..main~3) 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "reversed range: exit $rc"
grep -q "is an ancestor of the good one" "$T/err" || fail "$(cat "$T/err")"
rc=0
(cd "$T/repo" && bisect main) 2>/dev/null || rc=$?
[ "$rc" -eq 64 ] || fail "no range: exit $rc"
rc=0
bisect --git nosuch main~1..main 2>"$T/err" || rc=$?
[ "$rc" -eq 78 ] || fail "--git nosuch: exit $rc"
grep -q 'no \[git "nosuch"\] section' "$T/err" || fail "$(cat "$T/err")"
# A --metric that the workloads do not have (a typo): said after one run
# of the good end, with the metrics they have, exit 65; not "nothing to
# bisect" (1) after every run of both ends.
before=$(runs_in_store)
rc=0
(cd "$T/repo" && bisect --build "$BUILD" --workload toy --metric opz \
    main~39..main~20) 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "--metric opz: exit $rc: $(cat "$T/err")"
grep -q "^perfwatch: --metric opz: the runs of the workloads have no such metric (did you mean ops?); they have commitno, ops$" \
    "$T/err" || fail "--metric opz: $(cat "$T/err")"
[ "$(($(runs_in_store) - before))" -le 1 ] ||
	fail "--metric opz: $(($(runs_in_store) - before)) runs, not 1"
# Nothing worse between the ends: exit 1, and why.
rc=0
(cd "$T/repo" && bisect --build "$BUILD" --workload toy main~39..main~20) \
    2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "no change: exit $rc"
grep -q "nothing to bisect between" "$T/err" || fail "$(cat "$T/err")"
# ... and with --json a report that says so, the runs reused.
rc=0
(cd "$T/repo" && bisect --build "$BUILD" --workload toy --json \
    main~39..main~20) >"$T/out.json" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "no change, JSON: exit $rc"
python3 - "$T/out.json" "$(rev main~39)" "$(rev main~20)" "$T/err" <<'PY' ||
import json, sys
d = json.load(open(sys.argv[1]))
assert d["first_bad"] is None and d["candidates"] == [], d
assert "side_by_side" in d and d["side_by_side"] is None, d
assert d["metric"] is None and d["commits"] == 19, d
assert d["good"]["id"] == sys.argv[2] and d["good"]["runs"] >= 3, d
assert d["bad"]["id"] == sys.argv[3] and d["bad"]["runs"] >= 3, d
# The reason, as stderr says it (which one depends on the noise).
err = open(sys.argv[4]).read()
assert d["nothing_to_bisect"] and \
    ("nothing to bisect between %s and %s: %s\n" % (sys.argv[2][:12],
    sys.argv[3][:12], d["nothing_to_bisect"])) in err, (d, err)
PY
	fail "no change, JSON: $(cat "$T/out.json") $(cat "$T/err")"
# ... and with --csv the report's header and its two ends, with the exit
# status of the text (it printed nothing at all).
rc=0
(cd "$T/repo" && bisect --build "$BUILD" --workload toy --csv \
    main~39..main~20) >"$T/out.csv" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "no change, CSV: exit $rc"
grep -q "nothing to bisect between" "$T/err" || fail "$(cat "$T/err")"
python3 - "$T/out.csv" "$(rev main~39)" "$(rev main~20)" <<'PY' ||
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0] == ["verdict", "id", "runs", "level", "change_pct", "llr",
    "summary", "first_bad", "unit"], rows
assert [r[:2] for r in rows[1:]] == [["good", sys.argv[2]],
    ["bad", sys.argv[3]]], rows
for r in rows[1:]:
	assert int(r[2]) >= 3 and r[3:6] == ["-", "-", "-"] and r[7:] == ["", ""], r
PY
	fail "no change, CSV: $(cat "$T/out.csv") $(cat "$T/err")"
# Ends 1% apart, with 0.1% noise (so -0.9 to -1.1% as measured), under
# the floor of 2%: nothing to bisect, and it says so after the first
# three runs of each end, rather than measuring both up to ten times for
# a change it would not bisect.
write_conf "[detect]
min_change = 2"
echo 0.002 >"$T/noise"
BAD_SPEED=99 make_repo 6 4
before=$(runs_in_store)
rc=0
(cd "$T/repo" && bisect --build "$BUILD" --workload toy main~5..main) \
    2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "ends under the floor: exit $rc: $(cat "$T/err")"
why="every metric worse at the bad end is worse by less than the floor"
why="$why of 2%: the nearest, toy ops, changed -[01]\.[0-9]%,"
why="$why at most [01]\.[0-9]% worse"
grep -q "$why" "$T/err" || fail "ends under the floor: $(cat "$T/err")"
[ "$(($(runs_in_store) - before))" -eq 6 ] ||
	fail "ends under the floor: $(($(runs_in_store) - before)) runs, not 3 + 3"

# 6. A busy machine: another run holds the measuring lock (policy
# annotate), so each run is marked busy; none is counted, and three in a
# row stop the bisection (75).  Once the machine is free it starts
# again, measures anew, and finds the commit.
write_conf ""
make_repo 6 4
flock -o "$PERFWATCH_LOCK" sleep 60 &
holder=$!
sleep 0.5
before=$(runs_in_store)
rc=0
(cd "$T/repo" && bisect --build "$BUILD" --workload toy main~5..main) \
    2>"$T/err" || rc=$?
pkill -P "$holder" sleep 2>/dev/null || true
wait "$holder" 2>/dev/null || true
[ "$rc" -eq 75 ] || fail "busy: exit $rc: $(cat "$T/err")"
grep -q "was measured on a busy machine (another perfwatch run was measuring): not counted, measuring again" "$T/err" ||
	fail "busy: $(cat "$T/err")"
grep -q "3 runs in a row were measured on a busy machine; stopping" \
    "$T/err" || fail "busy: $(cat "$T/err")"
[ "$(($(runs_in_store) - before))" -eq 3 ] ||
	fail "busy: $(($(runs_in_store) - before)) runs, not 3"
(cd "$T/repo" && bisect --build "$BUILD" --workload toy --json \
    main~5..main) >"$T/out.json" 2>"$T/err" ||
	fail "after busy: $(cat "$T/err")"
[ "$(json_field "$T/out.json" first_bad.summary)" = c4 ] ||
	fail "after busy: $(json_field "$T/out.json" first_bad.summary)"
if grep -q "busy machine" "$T/err"; then
	fail "after busy: a busy run was used: $(cat "$T/err")"
fi
pass
