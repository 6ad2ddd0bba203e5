#!/bin/sh
# How `perfwatch run` records each workload's end in run_workloads, on
# tiny commands: a disabled workload is left out (and does not stop the
# run), a timeout is `timeout`, an iteration the store refuses fails the
# workload with the store's reason, and a workload that an abort cut short
# is `aborted`, not `complete`.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"

sql() {
	sqlite3 "$PERFWATCH_DB" "$1"
}

# run_status LABEL: the status of run LABEL.  run_samples LABEL: how many
# samples it kept.
run_status() {
	sql "SELECT status FROM runs WHERE label = '$1'"
}
run_samples() {
	sql "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run
	    WHERE r.label = '$1'"
}

# labels [OPTION]...: the labels perfwatch runs lists, on one line.
labels() {
	pw runs --limit 0 --csv "$@" | tail -n +2 | cut -d, -f1 | tr '\n' ' '
}

# run LABEL PROFILE-TEXT: a run of that profile; its exit status in $rc.
run() {
	printf '%s\n' "$2" >"$T/$1.profile"
	rc=0
	pw -c "$T/pw.conf" run --no-check --profile "$T/$1.profile" \
	    --label "$1" >"$T/$1.out" 2>&1 || rc=$?
}

# outcome RUN WORKLOAD: "status|error" of the workload in that run.
outcome() {
	sql "SELECT w.status || '|' || coalesce(w.error, '') FROM run_workloads w
	    JOIN runs r ON r.id = w.run WHERE r.label = '$1' AND
	    w.workload = '$2'"
}

# enabled = no: the others run; the disabled one has no row at all.
run disabled '[workload "fast"]
command = echo a 1 s
iterations = 1
[workload "off"]
command = echo b 1 s
enabled = no'
[ "$rc" -eq 0 ] || fail "disabled: exit $rc: $(cat "$T/disabled.out")"
[ "$(outcome disabled fast)" = "complete|" ] ||
	fail "disabled: fast is $(outcome disabled fast)"
# A run whose workloads all completed: show adds nothing under the table.
[ "$(pw show disabled | tail -n 1 | cut -c1-4)" = "fast" ] ||
	fail "show disabled: $(pw show disabled)"
[ "$(sql "SELECT count(*) FROM run_workloads w JOIN runs r ON
    r.id = w.run WHERE r.label = 'disabled' AND w.workload = 'off'")" = 0 ] ||
	fail "disabled: off has a row"
[ "$(run_status disabled)" = complete ] ||
	fail "disabled: run not complete"

# The configuration turns a profile's disabled workload back on.
printf '[workload "off"]\nenabled = yes\n' >>"$T/pw.conf"
run reenabled '[workload "off"]
command = echo b 1 s
iterations = 1
enabled = no'
[ "$rc" -eq 0 ] || fail "reenabled: exit $rc: $(cat "$T/reenabled.out")"
[ "$(outcome reenabled off)" = "complete|" ] ||
	fail "reenabled: off is $(outcome reenabled off)"
printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"

# Every workload off: nothing to run, a usage error.
run alloff '[workload "off"]
command = echo b 1 s
enabled = no'
[ "$rc" -eq 64 ] || fail "alloff: exit $rc: $(cat "$T/alloff.out")"
expect_match "$(cat "$T/alloff.out")" "no workload to run"

# A --workload glob that matches nothing is a usage error naming it and
# what the profile runs, before anything runs, also beside a glob that
# matches (which used to run that one alone, without a word); a glob
# that matches only a disabled workload matches nothing to run.
printf '[workload "fast"]\ncommand = echo a 1 s\niterations = 1\n[workload "off"]\ncommand = echo b 1 s\nenabled = no\n' \
    >"$T/globs.profile"
set -f
for globs in "--workload zz" "--workload fast --workload zz" \
    "--workload of*"; do
	rc=0
	# shellcheck disable=SC2086
	pw -c "$T/pw.conf" run --no-check --profile "$T/globs.profile" \
	    --label globs $globs >"$T/globs.out" 2>&1 || rc=$?
	[ "$rc" -eq 64 ] || fail "$globs: exit $rc: $(cat "$T/globs.out")"
	expect_match "$(cat "$T/globs.out")" \
	    "no workload of the profile (its workloads: fast)"
	case " $(labels) " in
	*" globs "*) fail "$globs: a run was made" ;;
	esac
done
set +f

# A typo of a workload's name says which one it is likely of, as a typo
# of a configuration key does; a glob gets no guess.
printf '[workload "sys.pipe"]\niterations = 1\n[workload "sys.execl"]\niterations = 1\n' \
    >"$T/typo.profile"
rc=0
pw -c "$T/pw.conf" run --no-check --profile "$T/typo.profile" --label typo \
    --workload sys.pipx --workload 'sys.x*' >"$T/typo.out" 2>&1 || rc=$?
[ "$rc" -eq 64 ] || fail "sys.pipx: exit $rc: $(cat "$T/typo.out")"
expect_match "$(cat "$T/typo.out")" "perfwatch: --workload \"sys.pipx\" (did you mean sys.pipe?), \"sys.x*\" match no workload of the profile (its workloads: sys.pipe sys.execl)"

# So too when a workload the globs leave out has a bad key (which does
# not stop a run of the others): the typo ran fast alone, exit 0.
printf '[workload "fast"]\ncommand = echo a 1 s\niterations = 1\n[workload "bad"]\ncommand = echo b 1 s\nseeks = 3\n' \
    >"$T/badkey.profile"
rc=0
pw -c "$T/pw.conf" run --no-check --profile "$T/badkey.profile" \
    --label badkey --workload fast --workload zz >"$T/badkey.out" 2>&1 ||
	rc=$?
[ "$rc" -eq 64 ] || fail "badkey: exit $rc: $(cat "$T/badkey.out")"
expect_match "$(cat "$T/badkey.out")" "perfwatch: --workload \"zz\" matches \
no workload of the profile (its workloads: fast bad)"

# A section that cannot run is named at its header, in the profile or in
# the configuration, as perfwatchd -n names it, before anything runs.
run nocmd '[workload "fast"]
command = echo a 1 s
[workload "nocmd"]
iterations = 1'
[ "$rc" -eq 78 ] || fail "nocmd: exit $rc: $(cat "$T/nocmd.out")"
expect_eq "$(cat "$T/nocmd.out")" "perfwatch: $T/nocmd.profile:3: \
[workload \"nocmd\"]: no command given, and it is not a workload of the battery"
# misspelt LABEL NAME: a configuration section [workload "NAME"] with no
# command, beside a profile of one command, is refused at its header as a
# misspelling of sys.pipe, and nothing runs.
misspelt() {
	printf '[workload "%s"]\niterations = 1\n' "$2" >>"$T/pw.conf"
	run "$1" '[workload "fast"]
command = echo a 1 s'
	[ "$rc" -eq 78 ] || fail "$1: exit $rc: $(cat "$T/$1.out")"
	line=$(grep -nF "[workload \"$2\"]" "$T/pw.conf" | cut -d: -f1)
	expect_eq "$(cat "$T/$1.out")" "perfwatch: $T/pw.conf:$line: \
[workload \"$2\"]: no command given, and it is not a workload of the battery \
(did you mean sys.pipe?)"
	printf '[perfwatch]\nwork_dir = %s\n[quiet]\n%s\n' \
	    "$T/work" "$QUIET_ANY_LOAD" >"$T/pw.conf"
}
misspelt pipx sys.pipx
# The battery's names are lower case and a run matches them as written:
# a section that differs from one in case only tunes nothing, and is
# named as a misspelling rather than taken for a command of a profile.
misspelt upper Sys.Pipe
[ "$(sql "SELECT count(*) FROM runs WHERE label IN ('nocmd', 'pipx', 'upper')")" = 0 ] ||
	fail "nocmd, pipx, upper: recorded"

# The configuration's section of a battery workload tunes it where a
# profile runs it; it does not add it to a profile that does not, though
# its keys are still checked.  A command of the configuration's own runs.
cp "$T/pw.conf" "$T/pw.conf.plain"
printf '[workload "sys.pipe"]\nduration = 1s\n[workload "mine"]\n%s\n' \
    'command = echo b 2 s' >>"$T/pw.conf"
run tuned '[workload "fast"]
command = echo a 1 s
iterations = 1'
[ "$rc" -eq 0 ] || fail "tuned: exit $rc: $(cat "$T/tuned.out")"
expect_eq "$(sql "SELECT group_concat(w.workload, ' ') FROM (SELECT
    w.workload FROM run_workloads w JOIN runs r ON r.id = w.run WHERE
    r.label = 'tuned' ORDER BY w.workload) w")" "fast mine"
printf '[workload "sys.spawn"]\ntable_size = 10\n' >>"$T/pw.conf"
run tunedbad '[workload "fast"]
command = echo a 1 s'
[ "$rc" -eq 78 ] || fail "tunedbad: exit $rc: $(cat "$T/tunedbad.out")"
expect_match "$(cat "$T/tunedbad.out")" "table_size"
mv "$T/pw.conf.plain" "$T/pw.conf"

# A timeout is recorded as one, and said once.
run slow '[workload "tmo"]
command = sleep 30; echo x 1 s
timeout = 1
grace = 1
iterations = 1'
[ "$rc" -eq 70 ] || fail "timeout: exit $rc: $(cat "$T/slow.out")"
[ "$(outcome slow tmo)" = "timeout|timed out after 1 s" ] ||
	fail "timeout: tmo is $(outcome slow tmo)"
[ "$(grep -c '^perfwatch: tmo: timed out' "$T/slow.out")" -eq 1 ] ||
	fail "timeout: said other than once: $(cat "$T/slow.out")"
# show says it too, later: a workload that failed has no metric to list.
[ "$(pw show slow | tail -n 1)" = "tmo: timeout: timed out after 1 s" ] ||
	fail "show slow: $(pw show slow)"
pw show --json slow >"$T/slow.json"
python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))["workloads"]
assert w == [{"workload": "tmo", "status": "timeout", "wall": w[0]["wall"],
    "cpu": w[0]["cpu"], "error": "timed out after 1 s"}], w
assert w[0]["wall"] >= 1, w
# [quiet] look: the machine was looked at for 0.1 s, not the default 1.
seen = json.load(open(sys.argv[1]))["quiet"]["seen"]
assert 0.09 < seen["interval"] < 0.9, seen
' "$T/slow.json" || fail "show --json slow: $(pw show --json slow)"
[ "$(pw show --csv slow | tail -n +2)" = "" ] || fail "show --csv slow"

# fast/a is stored in s; a later run printing it in ms cannot be stored:
# the workload fails with the store's reason after its first iteration.
run unit '[workload "fast"]
command = echo a 1 ms
iterations = 2'
[ "$rc" -eq 70 ] || fail "store: exit $rc: $(cat "$T/unit.out")"
o=$(outcome unit fast)
case "$o" in
failed\|"iteration 1 not stored: "*) ;;
*) fail "store: fast is \"$o\"" ;;
esac
expect_match "$o" "unit"
[ "$(grep -c '^perfwatch: fast: iteration 1 not stored' "$T/unit.out")" -eq 1 ] ||
	fail "store: $(cat "$T/unit.out")"
[ "$(run_status unit)" = failed ] ||
	fail "store: run not failed"
[ "$(run_samples unit)" = 0 ] || fail "store: samples kept"

# The store refuses the run's end, as a full disk does (here a trigger
# that the workload adds): the run says so and exits 70, with no report
# (nothing on standard output) of a run that has no end; it stays running
# with its samples until the next run marks it aborted.
run unended "[workload \"fast\"]
command = sqlite3 $PERFWATCH_DB \"CREATE TRIGGER full BEFORE UPDATE OF status ON runs BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END\"; echo a 1 s
iterations = 1"
[ "$rc" -eq 70 ] || fail "unended: exit $rc: $(cat "$T/unended.out")"
expect_match "$(cat "$T/unended.out")" "perfwatch: run unended could not be \
recorded as complete; the samples stored are kept"
if grep -q '^run unended' "$T/unended.out"; then
	fail "unended: a report: $(cat "$T/unended.out")"
fi
[ "$(sql "SELECT status || ' ' || coalesce(ended, '-') FROM runs WHERE
    label = 'unended'")" = "running -" ] || fail "unended: not left running"
[ "$(run_samples unended)" = 1 ] || fail "unended: sample lost"
sql "DROP TRIGGER full"
run swept '[workload "fast"]
command = echo a 1 s
iterations = 1'
[ "$rc" -eq 0 ] || fail "swept: exit $rc: $(cat "$T/swept.out")"
[ "$(run_status unended)" = aborted ] ||
	fail "unended: not marked aborted by the next run"

# SIGTERM during partly's second iteration (iterations interleave: done 1,
# half 1, partly 1, half 2, partly 2): half, with 2 of 3 iterations stored
# and none in flight, is aborted, not complete, as is partly; done, which
# ran all its iterations, is complete.
cat >"$T/partly.profile" <<EOF
[workload "done"]
command = echo d 1 s
iterations = 1
[workload "half"]
command = echo h 1 s
iterations = 3
[workload "partly"]
command = if [ -e $T/flag ]; then touch $T/started; sleep 30; fi; touch $T/flag; echo p 1 s
iterations = 3
EOF
"$PERFWATCH" -c "$T/pw.conf" run --no-check --profile "$T/partly.profile" \
    --label partly >"$T/partly.out" 2>&1 &
pid=$!
wait_file -e "$T/started" "$pid" partly
# While it runs, perfwatch runs lists it as running, with no length yet.
[ "$(labels --status running)" = "partly " ] ||
	fail "runs --status running: $(labels --status running)"
pw runs --csv --status running | grep -q '^partly,[^,]*,[^,]*,-,manual,' ||
	fail "runs: $(pw runs --csv --status running)"
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq $((128 + 15)) ] || fail "partly: exit $rc: $(cat "$T/partly.out")"
[ "$(run_status partly)" = aborted ] ||
	fail "partly: run not aborted"
# partly, in flight at the abort, has no error that says "aborted" again,
# as half, between its iterations, has none: show said "partly: aborted:
# aborted", and JSON "aborted" for one and null for the other.
[ "$(outcome partly partly)" = "aborted|" ] ||
	fail "partly: partly is $(outcome partly partly)"
[ "$(outcome partly half)" = "aborted|" ] ||
	fail "partly: half is $(outcome partly half)"
expect_eq "$(pw show partly | tail -n 2)" "half: aborted
partly: aborted"
pw show --json partly | python3 -c '
import json, sys
w = {x["workload"]: x for x in json.load(sys.stdin)["workloads"]}
assert w["partly"]["error"] is None and w["half"]["error"] is None, w
' || fail "show --json partly: $(pw show --json partly)"
[ "$(outcome partly done)" = "complete|" ] ||
	fail "partly: done is $(outcome partly done)"
[ "$(sql "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run
    JOIN metrics m ON m.id = s.metric WHERE r.label = 'partly' AND
    m.workload = 'partly'")" = 1 ] || fail "partly: not one sample kept"
# SIGHUP (the terminal went away) and Ctrl-C abort a run as SIGTERM does
# (129, 130), the sample measured kept.  Ignored when the run starts, as
# under nohup, or by a shell without job control for a command started
# with & (SIGINT: it is not the terminal's foreground), the run goes on
# to its end.
cat >"$T/sig.profile" <<EOF
[workload "sig"]
command = if [ -e $T/sigflag ]; then touch $T/sigstarted; while [ ! -e $T/siggo ]; do sleep 0.1; done; fi; touch $T/sigflag; echo u 1 s
iterations = 2
timeout = 60
EOF
# signal_run SIG LABEL default|ignored: run sig.profile as LABEL with SIG
# at its default action or ignored, send SIG once the second iteration
# has started, let that iteration end, and wait; $rc is the exit status.
signal_run() {
	rm -f "$T/sigflag" "$T/sigstarted" "$T/siggo"
	if [ "$3" = default ]; then
		from_terminal "$PERFWATCH" -c "$T/pw.conf" run --no-check \
		    --profile "$T/sig.profile" --label "$2" >"$T/$2.out" 2>&1 &
	else
		(trap '' "$1"; exec "$PERFWATCH" -c "$T/pw.conf" run \
		    --no-check --profile "$T/sig.profile" --label "$2") \
		    >"$T/$2.out" 2>&1 &
	fi
	pid=$!
	wait_file -e "$T/sigstarted" "$pid" "$2"
	kill -s "$1" "$pid"
	sleep 0.3
	touch "$T/siggo"
	rc=0
	wait "$pid" || rc=$?
}
for case in HUP:1:hup:nohup INT:2:int:bg; do
	IFS=: read -r sig num aborted goes_on <<EOC
$case
EOC
	signal_run "$sig" "$aborted" default
	[ "$rc" -eq $((128 + num)) ] ||
		fail "$aborted: exit $rc: $(cat "$T/$aborted.out")"
	[ "$(run_status "$aborted")" = aborted ] ||
		fail "$aborted: run not aborted"
	[ "$(run_samples "$aborted")" = 1 ] ||
		fail "$aborted: not one sample kept"
	signal_run "$sig" "$goes_on" ignored
	[ "$rc" -eq 0 ] || fail "$goes_on: SIG$sig ignored: exit $rc: $(cat \
	    "$T/$goes_on.out")"
	[ "$(run_status "$goes_on")" = complete ] ||
		fail "$goes_on: run not complete"
	[ "$(run_samples "$goes_on")" = 2 ] ||
		fail "$goes_on: not two samples"
done

# `perfwatch run` killed with its whole process group by SIGKILL, as
# perfwatchd's last resort does: its workload, the workload's children
# included, dies with it; the iteration directory it leaves is removed by
# the next run.  (The run itself stays `running` until perfwatchd marks
# it, at its start or when its own child was the one killed.)
cat >"$T/killed.profile" <<EOF
[workload "killme"]
command = sleep 43 & echo \$! >$T/sleep.pid; wait
timeout = 60
iterations = 1
EOF
setsid "$PERFWATCH" -c "$T/pw.conf" run --no-check --profile \
    "$T/killed.profile" --label killed >"$T/killed.out" 2>&1 &
pid=$!
wait_file -s "$T/sleep.pid" "$pid" killed
[ "$(ps -o pgid= -p "$pid" | tr -d ' ')" = "$pid" ] ||
	fail "killed: perfwatch run does not lead its group"
kill -s KILL -- -"$pid"
wait "$pid" || :
spid=$(cat "$T/sleep.pid")
i=0
while [ -n "$(ps -o stat= -p "$spid" | grep -v Z)" ]; do
	i=$((i + 1))
	[ "$i" -lt 50 ] || { kill "$spid"; fail "killed: sleep 43 outlived it"; }
	sleep 0.1
done
# It is named after the workload, not after its kind ("command").
ls -d "$T"/work/perfwatch-killme.* >/dev/null 2>&1 ||
	fail "killed: no iteration directory left to sweep: $(ls "$T/work")"
run after '[workload "fast"]
command = echo a 1 s
iterations = 1'
[ "$rc" -eq 0 ] || fail "after: exit $rc: $(cat "$T/after.out")"
expect_match "$(cat "$T/after.out")" "removed 1 iteration directory"
if ls -d "$T"/work/perfwatch-* >/dev/null 2>&1; then
	fail "after: left $(ls "$T/work")"
fi

# On a terminal the progress line names the step once:
# "[1/3] fast warm-up 1/1, elapsed ...", not "fast warm-up 1/1 warm-up 1/1".
if script -qec true /dev/null >/dev/null 2>&1; then	# util-linux script
	printf '[workload "fast"]\ncommand = echo a 1 s\nwarmup = 1\niterations = 2\n' \
	    >"$T/tty.profile"
	script -qec "'$PERFWATCH' -c '$T/pw.conf' run --no-check --profile \
	    '$T/tty.profile' --label tty" /dev/null >"$T/tty.out" 2>&1 ||
		fail "tty: $(cat "$T/tty.out")"
	grep -q '^\[1/3\] fast warm-up 1/1, elapsed ' "$T/tty.out" ||
		fail "tty: $(cat "$T/tty.out")"
	grep -q '^\[3/3\] fast iteration 2/2, elapsed ' "$T/tty.out" ||
		fail "tty: $(cat "$T/tty.out")"
	# The time left charges nothing for the iterations of a workload
	# that failed, which the run skips: it said ~0:04 here, two more of
	# bad's 2 s.
	cat >"$T/ttybad.profile" <<EOF
[workload "bad"]
command = sleep 2; exit 3
iterations = 3
[workload "fast"]
command = echo a 1 s
iterations = 3
EOF
	script -qec "'$PERFWATCH' -c '$T/pw.conf' run --no-check --profile \
	    '$T/ttybad.profile' --label ttybad" /dev/null >"$T/ttybad.out" \
	    2>&1 || fail "ttybad: $(cat "$T/ttybad.out")"
	grep -q '^\[4/6\] fast iteration 2/3, elapsed 0:0[2-9], left ~0:00' \
	    "$T/ttybad.out" || fail "ttybad: $(cat "$T/ttybad.out")"
fi

# perfwatch runs lists them oldest first, filtered by status: aborted are
# partly and hup (by a signal) and unended and killed (the next run marked
# them, their process gone).
all=$(labels)
[ "$all" = "$(sql "SELECT label FROM runs ORDER BY started, id" |
    tr '\n' ' ')" ] || fail "runs: lists $all"
expect_match "$all" "disabled reenabled tuned slow unit unended swept partly hup nohup int bg killed after"
[ "$(labels --status aborted)" = "unended partly hup int killed " ] ||
	fail "runs --status aborted: $(labels --status aborted)"
[ -z "$(labels --status running)" ] ||
	fail "runs --status running: $(labels --status running)"
[ "$(labels --status failed)" = "$(sql "SELECT label FROM runs WHERE
    status = 'failed' ORDER BY started, id" | tr '\n' ' ')" ] ||
	fail "runs --status failed: $(labels --status failed)"
[ "$(labels --trigger manual)" = "$all" ] || fail "runs --trigger manual"
[ -z "$(labels --trigger schedule)" ] || fail "runs --trigger schedule"
[ "$(pw runs --limit 2 | tail -n +2 | wc -l)" -eq 2 ] || fail "runs --limit 2"
pw runs --json --limit 0 | python3 -c '
import json, sys
d = {r["run"]: r for r in json.load(sys.stdin)}
assert d["killed"]["status"] == "aborted", d["killed"]
assert d["slow"]["duration"] >= 1 and d["slow"]["trigger"] == "manual", d["slow"]
assert d["partly"]["status"] == "aborted", d["partly"]
'
# show --json gives a run's length as runs --json does, and runs --csv
# under the same name: show had none, and the CSV called it "seconds".
dur=$(pw runs --json --limit 0 | python3 -c '
import json, sys
print([r for r in json.load(sys.stdin) if r["run"] == "slow"][0]["duration"])')
expect_eq "$(pw show --json slow | python3 -c '
import json, sys
print(json.load(sys.stdin)["duration"])')" "$dur"
expect_eq "$(pw runs --csv --limit 0 | python3 -c '
import csv, sys
print([r for r in csv.DictReader(sys.stdin) if r["run"] == "slow"][0]["duration"])')" "$dur"
# A long detail is cut to 60 characters in the table (UTF-8 counted as
# characters), whole in CSV and JSON.
long=$(printf '\303\251%.0s' $(seq 100))
pw -c "$T/pw.conf" run --no-check --profile "$T/after.profile" \
    --label long --detail "$long" >"$T/long.out" 2>&1 ||
	fail "long: $(cat "$T/long.out")"
cut=$(printf '\303\251%.0s' $(seq 60))
pw runs --limit 1 | tail -n 1 | grep -q " $cut\.\.\.  *#[0-9]*  -\$" ||
	fail "runs: the detail is not cut to 60: $(pw runs --limit 1)"
[ "$(pw runs --limit 1 --csv | tail -n 1 | cut -d, -f9)" = "$long" ] ||
	fail "runs --csv: the detail is cut"
# ... under the name --json gives it, as the length is "duration" in both.
pw runs --limit 1 --json >"$T/long.json"
pw runs --limit 1 --csv | python3 -c '
import csv, json, sys
r = list(csv.DictReader(sys.stdin))[0]
j = json.load(open(sys.argv[1]))[0]
assert "detail" not in r, r
assert r["trigger_detail"] == j["trigger_detail"] == sys.argv[2], (r, j)
' "$T/long.json" "$long" || fail "runs --csv: trigger_detail: $(pw runs --csv --limit 1)"
# run --json begins with the run as show --json gives it: its id and
# trigger detail too, where run --json had neither.
pw -c "$T/pw.conf" run --no-check --json --profile "$T/after.profile" \
    --label js --detail "by hand" >"$T/js.json" 2>"$T/js.err" ||
	fail "run --json: $(cat "$T/js.err")"
pw show --json js >"$T/js-show.json"
python3 -c '
import json, sys
r, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
keys = ("run", "id", "host", "time", "trigger", "profile", "status",
    "busy", "trigger_detail", "duration")
for k in keys:
    assert k in r and r[k] == s[k], (k, r.get(k), s[k])
assert r["trigger_detail"] == "by hand" and isinstance(r["id"], int), r
' "$T/js.json" "$T/js-show.json" || fail "run --json: $(cat "$T/js.json")"
# A note (a command's '#' line) is the command's text: printed with its
# control characters escaped as a table's cells are, never raw, where a
# terminal would take them as commands (here: set the window's title).
run noted "[workload \"noted\"]
command = printf '# \033]0;x\007\n# tab\there \303\251\n'; echo a 1 s
iterations = 1"
[ "$rc" -eq 0 ] || fail "noted: exit $rc: $(cat "$T/noted.out")"
no_raw "$T/noted.out"
grep -qxF 'noted: note: \x1b]0;x\x07' "$T/noted.out" ||
	fail "noted: $(cat "$T/noted.out")"
grep -qxF "noted: note: tab\\there $(printf '\303\251')" "$T/noted.out" ||
	fail "noted: $(cat "$T/noted.out")"
# Each distinct note once, in the order first printed, however many: a
# command's thousands (135000 cost 18 s of CPU, each compared with every
# note kept; now looked up in a hash).
run many "[workload \"many\"]
command = seq -f '#%g' 1 3000; echo '#same'; seq -f '#%g' 3000 -1 1; echo '#same'; echo a 1 s
iterations = 2"
[ "$rc" -eq 0 ] || fail "many: exit $rc: $(cat "$T/many.out")"
{ seq -f 'many: note: %g' 1 3000; echo 'many: note: same'; } >"$T/many.want"
grep ': note: ' "$T/many.out" | cmp -s - "$T/many.want" ||
	fail "many: notes: $(grep -c ': note: ' "$T/many.out") lines, not \
those of $T/many.want"
# So is the error that quotes a line of its output, where the run's
# warning printed the control characters raw (the report escaped them).
run garbled "[workload \"garbled\"]
command = printf 'a \033]0;x\007 s\n'
iterations = 1"
[ "$rc" -eq 70 ] || fail "garbled: exit $rc: $(cat "$T/garbled.out")"
no_raw "$T/garbled.out"
grep -qxF 'perfwatch: garbled: output line 1: value "\x1b]0;x\x07" is not a finite number, expected "metric value unit [higher|lower]", got "a \x1b]0;x\x07 s"' \
    "$T/garbled.out" || fail "garbled: $(cat "$T/garbled.out")"
# And the store's reason for refusing an iteration, which quotes the
# unit stored, an imported file's text.
printf 'run,time,workload,metric,value,unit,better\nold,2026-01-01T00:00:00Z,stored,a,1,"s\033]0;x\007",lower\n' \
    >"$T/stored.csv"
pw import "$T/stored.csv" >/dev/null || fail "import stored.csv"
run stored '[workload "stored"]
command = echo a 1 s
iterations = 1'
[ "$rc" -eq 70 ] || fail "stored: exit $rc: $(cat "$T/stored.out")"
no_raw "$T/stored.out"
grep -qxF 'perfwatch: stored: iteration 1 not stored: unit of stored a is "s\x1b]0;x\x07" in the store, not "s"' \
    "$T/stored.out" || fail "stored: $(cat "$T/stored.out")"

rc=0
pw runs --status done >"$T/out" 2>&1 || rc=$?
[ "$rc" -eq 64 ] || fail "runs --status done: exit $rc"
expect_match "$(cat "$T/out")" '"done" is not running, complete, aborted or failed'
rc=0
pw runs --trigger schedul >"$T/out" 2>&1 || rc=$?
[ "$rc" -eq 64 ] || fail "runs --trigger schedul: exit $rc"
expect_match "$(cat "$T/out")" '"schedul" is not schedule, package, kernel, git, manual, rerun, bisect or import'
rc=0
pw runs --host nohost >"$T/out" 2>&1 || rc=$?
[ "$rc" -eq 65 ] || fail "runs --host nohost: exit $rc"
expect_match "$(cat "$T/out")" "no host nohost in the store"

# A label the host has already is refused at once, 65, before the quiet
# look: with the measuring lock held and policy = skip the run would
# otherwise be skipped (75) after the look, and under policy = wait only
# after max_wait.
printf '[perfwatch]\nwork_dir = %s\n[quiet]\npolicy = skip\n' "$T/work" \
    >"$T/skip.conf"
python3 -c '
import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.flock(f, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(60)
' "$PERFWATCH_LOCK" >"$T/locker.out" 2>&1 &
locker=$!
i=0
until grep -q locked "$T/locker.out"; do
	i=$((i + 1))
	[ "$i" -lt 100 ] || fail "the lock was not taken: $(cat "$T/locker.out")"
	sleep 0.1
done
rc=0
pw -c "$T/skip.conf" run --no-check --profile "$T/disabled.profile" \
    --label disabled >"$T/again.out" 2>&1 || rc=$?
kill "$locker" 2>/dev/null || true
wait "$locker" 2>/dev/null || true
[ "$rc" -eq 65 ] || fail "a label in use: exit $rc: $(cat "$T/again.out")"
expect_eq "$(cat "$T/again.out")" 'perfwatch: run "disabled" exists already'

# A profile tunes workloads: a [quiet] (or any section but [workload])
# written in one would be read by nobody, so the run is refused, 78,
# each such section named at its line, and nothing is recorded.
run stray '[workload "fast"]
command = echo a 1 s
iterations = 1
[quiet]
policy = skip
[sink "ops"]
type = log'
[ "$rc" -eq 78 ] || fail "stray: exit $rc: $(cat "$T/stray.out")"
expect_eq "$(cat "$T/stray.out")" \
"$T/stray.profile:4: [quiet]: a profile holds [workload] sections only; this one belongs in the configuration (perfwatch.conf(5))
$T/stray.profile:6: [sink \"ops\"]: a profile holds [workload] sections only; this one belongs in the configuration (perfwatch.conf(5))"
case " $(labels) " in *" stray "*) fail "stray: a run was recorded" ;; esac

# A command's " ;" is the shell's, not the start of an INI comment that
# would cut it (the iterations line's still is one); both echoes count.
run semi '[workload "semi"]
command = echo a 1 s ; echo b 2 s
iterations = 1 ; one is enough'
[ "$rc" -eq 0 ] || fail "semi: exit $rc: $(cat "$T/semi.out")"
expect_eq "$(sql "SELECT group_concat(m.metric, ' ') FROM (SELECT DISTINCT
    m.metric FROM samples s JOIN runs r ON r.id = s.run JOIN metrics m ON
    m.id = s.metric WHERE r.label = 'semi' ORDER BY m.metric) m")" "a b"
# A failed command's error keeps its cause: dd says "No space left on
# device", then prints three lines of counts.
if [ -w /dev/full ]; then
	run ddfull '[workload "dd"]
command = dd if=/dev/zero of=/dev/full bs=1k count=1 && echo a 1 s
iterations = 1'
	[ "$rc" -eq 70 ] || fail "ddfull: exit $rc: $(cat "$T/ddfull.out")"
	expect_match "$(outcome ddfull dd)" "failed|exited with status 1: dd: "
	expect_match "$(outcome ddfull dd)" "No space left on device; "
	expect_match "$(cat "$T/ddfull.out")" "No space left on device"
fi

# A run can be complete with a workload that failed: the runs list says
# which, last in each row (it listed such a run as complete, and nothing
# else; only show told).  A run that lost no workload says "-".
run mixed '[workload "good"]
command = echo a 1 s
iterations = 1
[workload "broken"]
command = exit 3
iterations = 1'
[ "$rc" -eq 0 ] || fail "mixed: exit $rc: $(cat "$T/mixed.out")"
[ "$(run_status mixed)" = complete ] ||
	fail "mixed: run not complete"
row=$(pw runs --csv --limit 0 | grep '^mixed,')
expect_eq "${row##*,}" "broken failed"
expect_eq "$(pw runs --csv --limit 0 | head -n 1)" \
    "run,host,time,duration,trigger,profile,status,busy,trigger_detail,id,incomplete"
row=$(pw runs --csv --limit 0 | grep '^disabled,')
expect_eq "${row##*,}" "-"
row=$(pw runs --limit 0 | grep '^slow ')
case "$row" in *" tmo timeout") ;; *) fail "runs: slow is \"$row\"" ;; esac
row=$(pw runs --limit 0 | head -n 1)
case "$row" in *" id  incomplete") ;; *) fail "runs: header \"$row\"" ;; esac
pw runs --json --limit 0 | python3 -c '
import json, sys
d = {r["run"]: r for r in json.load(sys.stdin)}
assert d["mixed"]["incomplete"] == [{"workload": "broken",
    "status": "failed"}], d["mixed"]
assert d["mixed"]["status"] == "complete", d["mixed"]
assert d["slow"]["incomplete"] == [{"workload": "tmo",
    "status": "timeout"}], d["slow"]
assert d["disabled"]["incomplete"] == [], d["disabled"]
' || fail "runs --json: $(pw runs --json --limit 0)"

# A profile not found says where it was looked for, by the directories'
# names (it named $PERFWATCH_PROFILE_DIR and "next to the configuration"
# whatever they were); a file of that name here is meant, and is given
# with a slash, which the error says.
printf '[workload "fast"]\ncommand = echo a 1 s\n' >"$T/here.profile"
rc=0
(cd "$T" && PERFWATCH_PROFILE_DIR="$T/pdir" "$PERFWATCH" -c "$T/pw.conf" \
    run --profile here.profile) >"$T/out" 2>&1 || rc=$?
[ "$rc" -eq 78 ] || fail "here.profile: exit $rc: $(cat "$T/out")"
expect_match "$(cat "$T/out")" "perfwatch: profile \"here.profile\" not found (looked for here.profile.conf in $T/pdir, $T/profiles, "
expect_match "$(cat "$T/out")" "perfwatch: here.profile is a file here; a file is given with a slash: --profile ./here.profile"
rc=0
(cd "$T" && "$PERFWATCH" -c "$T/pw.conf" run --profile nosuch) \
    >"$T/out" 2>&1 || rc=$?
[ "$rc" -eq 78 ] || fail "nosuch: exit $rc: $(cat "$T/out")"
expect_match "$(cat "$T/out")" "(looked for nosuch.conf in $T/profiles, "
case "$(cat "$T/out")" in
*"a file here"*|*PERFWATCH_PROFILE_DIR*) fail "nosuch: $(cat "$T/out")" ;;
esac
# The store refuses how each workload ended (a trigger again): the run
# says so for each, naming the store's reason, and exits 70, where it
# went on without a word and exited 0 with no trace of the failed one.
run unrecorded "[workload \"fast\"]
command = sqlite3 $PERFWATCH_DB \"CREATE TRIGGER full BEFORE INSERT ON run_workloads BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END\"; echo a 1 s
iterations = 1
[workload \"bad\"]
command = exit 3
iterations = 1"
sql "DROP TRIGGER full"
[ "$rc" -eq 70 ] || fail "unrecorded: exit $rc: $(cat "$T/unrecorded.out")"
expect_match "$(cat "$T/unrecorded.out")" "perfwatch: run unrecorded: how \
bad ended (failed) could not be recorded: database or disk is full"
expect_match "$(cat "$T/unrecorded.out")" "perfwatch: run unrecorded: how \
fast ended (complete) could not be recorded: database or disk is full"

pass
