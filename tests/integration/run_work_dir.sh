#!/bin/sh
# perfwatchd makes work_dir with the directories above it at its start;
# perfwatch run made only the last one, so a run by hand before the
# daemon had ever started (work_dir = /srv/perfwatch/work on a fresh
# machine) stopped at once: "work directory ...: No such file or
# directory", exit 73.  run and bisect now make it as the daemon does,
# and run a workload's own work_dir too, both shared (mode 1777).
set -eu
. "$(dirname "$0")/lib.sh"

cat >"$T/run.conf" <<EOC
[perfwatch]
work_dir = $T/srv/perfwatch/work

[quiet]
$QUIET_ANY_LOAD
EOC
printf '[workload "tiny"]\ncommand = true\nmeasure = time\niterations = 1\n' \
    >"$T/profile.conf"
pw -c "$T/run.conf" run --no-check --profile "$T/profile.conf" \
    >/dev/null 2>"$T/err" || fail "run: exit $?: $(cat "$T/err")"
[ -d "$T/srv/perfwatch/work" ] || fail "no work directory made"
# Shared by every user's runs, as perfwatchd and tmpfiles.d make it: made
# 0755 by whoever ran first, it locked the others out.
expect_eq "$(stat -c %a "$T/srv/perfwatch/work")" 1777

# A workload's own work_dir, which stands instead of that one, is made
# so too: made at each iteration by its last name alone, every iteration
# failed ("work directory ...: No such file or directory"), exit 70.
printf 'work_dir = %s\n' "$T/own/a/b" >>"$T/profile.conf"
pw -c "$T/run.conf" run --no-check --profile "$T/profile.conf" \
    >/dev/null 2>"$T/err" || fail "run in $T/own/a/b: exit $?: $(cat "$T/err")"
[ -d "$T/own/a/b" ] || fail "no work directory $T/own/a/b made"
# Shared too, as the one it stands instead of: made 0755, another user's
# run of the workload failed "work directory ...: Permission denied".
expect_eq "$(stat -c %a "$T/own/a/b")" 1777

# One that cannot be made is still said, and exits 73.
: >"$T/file"
sed -i "s#^work_dir = .*#work_dir = $T/file/work#" "$T/run.conf"
rc=0
pw -c "$T/run.conf" run --no-check --profile "$T/profile.conf" \
    >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 73 ] || fail "run in $T/file/work: exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/err")" "work directory $T/file/work: Not a directory"
# So is a workload's own, before anything runs.
sed -i "s#^work_dir = .*#work_dir = $T/srv/perfwatch/work#" "$T/run.conf"
sed -i "s#^work_dir = .*#work_dir = $T/file/own#" "$T/profile.conf"
rc=0
pw -c "$T/run.conf" run --no-check --profile "$T/profile.conf" \
    >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 73 ] || fail "run in $T/file/own: exit $rc: $(cat "$T/err")"
expect_eq "$(cat "$T/err")" "perfwatch: work directory $T/file/own: \
Not a directory"

# A work directory that is itself a file, of [perfwatch] or of the
# workload, is refused up front too (73), with no run recorded: taken for
# one that was there, every workload failed in a run recorded as failed,
# exit 70 ("w: failed: work directory ...: Not a directory"), which has
# git bisect run skip every commit.
runs=$(sqlite3 "$PERFWATCH_DB" 'SELECT count(*) FROM runs')
printf '[workload "tiny"]\ncommand = true\nmeasure = time\niterations = 1\n' \
    >"$T/plain.conf"
sed "s#^work_dir = .*#work_dir = $T/file#" "$T/run.conf" >"$T/file.conf"
sed "s#^work_dir = .*#work_dir = $T/file#" "$T/profile.conf" >"$T/own.conf"
for confs in "$T/file.conf $T/plain.conf" "$T/run.conf $T/own.conf"; do
	# shellcheck disable=SC2086 # two words: the files
	set -- $confs
	rc=0
	pw -c "$1" run --no-check --profile "$2" >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" -eq 73 ] || fail "run in the file $T/file ($2): exit $rc: \
$(cat "$T/err")"
	expect_eq "$(cat "$T/err")" "perfwatch: work directory $T/file: \
Not a directory"
done
expect_eq "$(sqlite3 "$PERFWATCH_DB" 'SELECT count(*) FROM runs')" "$runs"
pass
