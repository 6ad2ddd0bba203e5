#!/bin/sh
# A read of the store that fails is no "none": env show said "no snapshot
# 1" (65) of a run whose snapshot could not be read, and history exited
# 70 without a word when the runs of a metric could not be read (and
# history --json said nothing, 70).  Each now names the store and its
# error, exit 70.  So do check, whose verdicts could not be written
# (it said 65, "cannot be judged"), and check and baseline list when the
# setting that names the baseline in use could not be read: they judged
# by the rolling baseline, or said it was in use, as if none were set;
# and compare and baseline set when the lookup of a run they were given
# failed (65, as for a run not there), or baseline set could not write
# the baseline (65), and compare when a run's samples could not be read
# (65), and changes when the history it scans could not be read (65),
# and baseline show, which showed no metric (0), when the samples of its
# runs could not be read, and export (65) when its samples could not be
# read, and show (70 without a word) when its run's samples could not.  A page of a table or index overwritten stands
# for the disk that fails under it; the lock cases are store_busy.sh's.
set -eu
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null || fail "sqlite3 is not installed"
printf '[perfwatch]\nwork_dir = %s/work\n[quiet]\n%s\n' "$T" \
    "$QUIET_ANY_LOAD" >"$T/run.conf"
printf '[workload "t"]\ncommand = true\nmeasure = time\niterations = 1\n' \
    >"$T/t.profile"
pw -c "$T/run.conf" run --no-check --profile "$T/t.profile" --label one \
    >/dev/null 2>&1 || fail "the run"
pw env show one >/dev/null || fail "env show one before the damage"
sqlite3 "$PERFWATCH_DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
cp "$PERFWATCH_DB" "$T/good.db"

# expect_store_error ARGS...: exit 70, the store's error, no "no ...".
expect_store_error() {
	rc=0; pw "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 70 ] || fail "$*: exit $rc: $(cat "$T/err")"
	case "$(cat "$T/err")" in
	*"$PERFWATCH_DB: "*"database disk image is malformed"*) ;;
	*) fail "$*: no store error named: $(cat "$T/err")" ;;
	esac
	case "$(cat "$T/err")" in
	*"no snapshot"*|*"no run"*) fail "$*: $(cat "$T/err")" ;;
	esac
}

spoil_page "$PERFWATCH_DB" snapshots
expect_store_error env show one
expect_store_error env show '#1'
expect_store_error env diff one one

cp "$T/good.db" "$PERFWATCH_DB"
pw history >/dev/null || fail "history before the damage"
spoil_page "$PERFWATCH_DB" samples
expect_store_error history
expect_match "$(cat "$T/err")" "perfwatch history: $PERFWATCH_DB:"
expect_store_error history --json
[ ! -s "$T/out" ] || fail "history --json printed: $(cat "$T/out")"
cp "$T/good.db" "$PERFWATCH_DB"
pw check one >/dev/null || fail "check before the damage"
spoil_page "$PERFWATCH_DB" verdicts
expect_store_error check one
expect_match "$(cat "$T/err")" "checking run one"

cp "$T/good.db" "$PERFWATCH_DB"
pw baseline set pin one >/dev/null || fail "baseline set"
pw baseline use pin >/dev/null || fail "baseline use"
sqlite3 "$PERFWATCH_DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
spoil_page "$PERFWATCH_DB" settings
expect_store_error baseline list
expect_store_error check one
case "$(cat "$T/out")" in
*rolling*) fail "check judged by the rolling baseline: $(cat "$T/out")" ;;
esac

# A lookup of a run by its label that fails, after the list of runs was
# read: compare and baseline set printed the store's error but exited
# 65, as for a run not there.  An index on labels (which the lookup
# uses and the list does not) is what fails.
cp "$T/good.db" "$PERFWATCH_DB"
sqlite3 "$PERFWATCH_DB" 'CREATE INDEX runs_by_label ON runs (label);
    PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
spoil_page "$PERFWATCH_DB" runs_by_label
pw runs >/dev/null || fail "runs: the list of runs is damaged too"
expect_store_error compare a=one b=one
expect_store_error baseline set pin one

# The runs looked up, their samples not readable: compare said the
# store's error but exited 65, as for runs that cannot be compared.
cp "$T/good.db" "$PERFWATCH_DB"
spoil_page "$PERFWATCH_DB" samples
pw runs >/dev/null || fail "runs: the list of runs is damaged too"
expect_store_error compare a=one b=one
expect_store_error compare --json a=one b=one
[ ! -s "$T/out" ] || fail "compare --json printed: $(cat "$T/out")"
# changes, whose history of run levels could not be read, exited 65 as
# for bad data, its last word the error without the store's name.
expect_store_error changes
expect_match "$(tail -n 1 "$T/err")" "perfwatch: $PERFWATCH_DB: "
expect_store_error changes --json
[ ! -s "$T/out" ] || fail "changes --json printed: $(cat "$T/out")"

# The lookups went well, the writing of the baseline failed: 65 before.
cp "$T/good.db" "$PERFWATCH_DB"
pw baseline set pin one >/dev/null || fail "baseline set pin"
sqlite3 "$PERFWATCH_DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
spoil_page "$PERFWATCH_DB" baselines
rc=0; pw baseline set other one >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 70 ] || fail "baseline set other: exit $rc: $(cat "$T/err")"
expect_match "$(cat "$T/err")" \
    "baseline other: database disk image is malformed"

# baseline show, whose runs' samples could not be read, listed the runs
# and a table of no metric, exit 0, without a word of the error.
cp "$T/good.db" "$PERFWATCH_DB"
pw baseline set pin one >/dev/null || fail "baseline set pin"
pw baseline show pin >"$T/out" || fail "baseline show before the damage"
expect_match "$(cat "$T/out")" " wall "
sqlite3 "$PERFWATCH_DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
spoil_page "$PERFWATCH_DB" samples
expect_store_error baseline show pin
[ ! -s "$T/out" ] || fail "baseline show printed: $(cat "$T/out")"
expect_store_error baseline show --json pin
[ ! -s "$T/out" ] || fail "baseline show --json printed: $(cat "$T/out")"

# runs lists the workloads each run did not complete: when they cannot be
# read, the list is the store's error, not runs that lost nothing.
cp "$T/good.db" "$PERFWATCH_DB"
expect_eq "$(pw runs --csv | tail -n 1 | sed 's/.*,//')" "-"
spoil_page "$PERFWATCH_DB" run_workloads
expect_store_error runs
[ ! -s "$T/out" ] || fail "runs printed: $(cat "$T/out")"
expect_store_error runs --json
[ ! -s "$T/out" ] || fail "runs --json printed: $(cat "$T/out")"

# export, whose samples could not be read, exited 65 as for a run not
# there; the run not there is still 65.
cp "$T/good.db" "$PERFWATCH_DB"
pw export >/dev/null || fail "export before the damage"
spoil_page "$PERFWATCH_DB" samples
expect_store_error export
expect_store_error export -o "$T/export.csv"
[ ! -e "$T/export.csv" ] || fail "export -o left a file"
rc=0; pw export --run nosuch >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 65 ] || fail "export --run nosuch: exit $rc: $(cat "$T/err")"

# show, whose run was found but whose samples, or how its workloads
# ended, could not be read, exited 70 without a word, and printed nothing
# to say why.
for table in samples run_workloads; do
	cp "$T/good.db" "$PERFWATCH_DB"
	pw show one >/dev/null || fail "show before the damage"
	spoil_page "$PERFWATCH_DB" "$table"
	for out in '' --json --csv; do
		expect_store_error show $out one
		[ ! -s "$T/out" ] || fail "show $out ($table): $(cat "$T/out")"
	done
	expect_store_error show
done

# A failure that leaves the read transaction open (a statement that
# cannot be prepared; a damaged page makes SQLite end it itself): it was
# ended with COMMIT, which cleared the error, and changes said it with
# exit 65, for bad data, and without the store's name.
cp "$T/good.db" "$PERFWATCH_DB"
sqlite3 "$PERFWATCH_DB" 'ALTER TABLE samples RENAME TO samples_gone' \
    >/dev/null
rc=0; pw changes >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 70 ] || fail "changes: exit $rc: $(cat "$T/err")"
expect_match "$(tail -n 1 "$T/err")" \
    "perfwatch: $PERFWATCH_DB: no such table: samples"
[ ! -s "$T/out" ] || fail "changes printed: $(cat "$T/out")"
pass
