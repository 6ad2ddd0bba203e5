#!/bin/sh
# perfwatch's own options and usage: --help and --version (long and
# short) print on stdout and exit 0; a bad option or command prints the
# usage on stderr, after a line naming the word, and exits 64; every
# command answers --help with its usage line, and perfwatch(1) describes
# every command the usage lists with the options of its usage line and
# no other; the manuals and README.md name no option there is not, and
# perfwatchd(8) gives the options of perfwatchd --help.
set -eu
. "$(dirname "$0")/lib.sh"
top=${PERFWATCH_TOP:?}

for opt in -h --help; do
	rc=0
	pw "$opt" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 0 ] || fail "perfwatch $opt: exit $rc"
	[ ! -s "$T/err" ] || fail "perfwatch $opt wrote on stderr: $(cat "$T/err")"
	head -n 1 "$T/out" | grep -qF "usage: perfwatch [-hvV] [-c CONF] [-D DB] COMMAND" ||
		fail "perfwatch $opt: $(head -n 1 "$T/out")"
done
version=$(sed -n 's/^#define PERFWATCH_VERSION[^"]*"\(.*\)"$/\1/p' \
    "$top/common/perfwatch.h")
[ -n "$version" ] || fail "no PERFWATCH_VERSION in common/perfwatch.h"
for opt in -V --version; do
	[ "$(pw "$opt")" = "perfwatch $version" ] ||
		fail "perfwatch $opt: $(pw "$opt")"
done

# Errors: the usage on stderr, nothing on stdout, exit 64.
for args in "--bogus" "-x" "" "nosuchcommand"; do
	rc=0
	# shellcheck disable=SC2086 # "" stands for no argument at all
	pw $args >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 64 ] || fail "perfwatch $args: exit $rc"
	[ ! -s "$T/out" ] || fail "perfwatch $args wrote on stdout"
	grep -qF "usage: perfwatch [-hvV]" "$T/err" ||
		fail "perfwatch $args: no usage in: $(cat "$T/err")"
done
pw nosuchcommand 2>&1 | grep -qF 'unknown command "nosuchcommand"' ||
	fail "an unknown command is not named"
# A typo names the command meant; help names none but its own words.
rc=0; pw chek >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 64 ] || fail "perfwatch chek: exit $rc"
expect_match "$(cat "$T/err")" 'unknown command "chek" (did you mean check?)'
rc=0; pw help statsu >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 64 ] || fail "perfwatch help statsu: exit $rc"
[ ! -s "$T/out" ] || fail "perfwatch help statsu wrote on stdout"
expect_match "$(cat "$T/err")" '"statsu" (did you mean status?)'
rc=0; pw help check extra >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 64 ] || fail "perfwatch help check extra: exit $rc"
pw help >"$T/out" || fail "perfwatch help"
pw --help >"$T/out2"
cmp -s "$T/out" "$T/out2" || fail "perfwatch help is not perfwatch --help"
pw help check >"$T/out" || fail "perfwatch help check"
pw check --help >"$T/out2"
cmp -s "$T/out" "$T/out2" || fail "perfwatch help check is not check --help"
# help is a command of perfwatch(1) too: its --help (wherever it stands,
# as for any command) and help help give its usage, as they do for the
# others, not "unknown command".
for args in "help --help" "help -h" "help help" "help check --help"; do
	rc=0; pw $args >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 0 ] || fail "perfwatch $args: exit $rc: $(cat "$T/err")"
	expect_eq "$(head -n 1 "$T/out")" "usage: perfwatch help [COMMAND]"
done
grep -q '^\.It Ic help' "$top/man/perfwatch.1" ||
	fail "perfwatch(1) has no entry for help"

# Every command of the list: --help exits 0 with its usage line, a bad
# option prints that same line (there is one copy of it, in main.c), and
# the manual has an entry for the command and each option the line lists.
cmds=$(pw --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
n=0
for cmd in $cmds; do
	n=$((n + 1))
	rc=0
	pw "$cmd" --help >"$T/out" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || fail "perfwatch $cmd --help: exit $rc"
	head -n 1 "$T/out" | grep -q "^usage: perfwatch $cmd" ||
		fail "perfwatch $cmd --help: $(head -n 1 "$T/out")"
	grep -q "^\.It .*Ic $cmd\( \|$\)" "$top/man/perfwatch.1" ||
		fail "perfwatch(1) has no entry for $cmd"
	# A bad option: the same usage line, on stderr, exit 64.
	rc=0
	pw "$cmd" --no-such-option >"$T/bad.out" 2>"$T/bad.err" || rc=$?
	[ "$rc" -eq 64 ] || fail "perfwatch $cmd --no-such-option: exit $rc"
	grep -qxF "$(head -n 1 "$T/out")" "$T/bad.err" ||
		fail "perfwatch $cmd: --help says $(head -n 1 "$T/out"), a bad" \
		    "option $(cat "$T/bad.err")"
	# ... after a line that names the option and the command.
	[ "$(head -n 1 "$T/bad.err")" = \
	    "perfwatch $cmd: unrecognized option '--no-such-option'" ] ||
		fail "perfwatch $cmd --no-such-option: $(head -n 1 "$T/bad.err")"
	# Each option it lists is in the command's own entry of the manual
	# (from its .It line to the next command's).
	awk -v c="$cmd" '
	    /^\.It Ic / || /^\.Sh / {
		on = $0 ~ ("^\\.It Ic " c "( |$)") ||
		    $0 ~ ("^\\.It Ic [a-z]+ \\| Ic " c "( |$)")
	    }
	    on' "$top/man/perfwatch.1" >"$T/entry"
	[ -s "$T/entry" ] || fail "perfwatch(1): no entry text for $cmd"
	head -n 1 "$T/out" | grep -o -- '--[a-z][a-z-]*' | sort -u \
	    >"$T/opts.$cmd"
	while read -r opt; do
		grep -q "Fl -${opt#--}\( \|$\)" "$T/entry" ||
			fail "perfwatch(1) does not describe $cmd $opt"
	done <"$T/opts.$cmd"
	# ... and in its text, not only in the synopsis at its head: run's
	# --trigger, runs' filters and changes --json were named there
	# alone, with no word on what they take or do.  --csv is left out:
	# DESCRIPTION says what it is for every listing.
	awk -v c="$cmd" '
	    !($0 ~ ("^\\.It Ic " c "( |$)") ||
		$0 ~ ("^\\.It Ic [a-z]+ \\| Ic " c "( |$)"))' \
	    "$T/entry" >"$T/body"
	while read -r opt; do
		[ "$opt" = --csv ] ||
		    grep -q -- "Fl \(.* \)\{0,1\}-${opt#--}\( \|$\)" "$T/body" ||
			fail "perfwatch(1) names $cmd $opt in its synopsis" \
			    "alone: its text does not say what it does"
	done <"$T/opts.$cmd"
	# And the entry's own first lines (.It Ic cmd ..., the command's
	# synopsis in the manual) name those options and no other.
	awk -v c="$cmd" '
	    /^\.Sh / { sect = $0 }
	    sect == ".Sh COMMANDS" && ($0 ~ ("^\\.It Ic " c "( |$)") ||
		$0 ~ ("^\\.It Ic [a-z]+ \\| Ic " c "( |$)"))' \
	    "$top/man/perfwatch.1" | grep -o 'Fl -[a-z][a-z-]*' |
	    sed 's/^Fl -/--/' | sort -u >"$T/synopsis"
	comm -13 "$T/opts.$cmd" "$T/synopsis" >"$T/extra"
	[ ! -s "$T/extra" ] ||
		fail "perfwatch(1) gives $cmd $(tr '\n' ' ' <"$T/extra")which" \
		    "its usage lacks: $(head -n 1 "$T/out")"
	cmp -s "$T/opts.$cmd" "$T/synopsis" ||
		fail "perfwatch(1)'s .It Ic $cmd lines lack" \
		    "$(comm -23 "$T/opts.$cmd" "$T/synopsis" | tr '\n' ' ')"
done
[ "$n" -ge 16 ] || fail "only $n commands listed: $cmds"

# ... and brackets each option as the usage line does: an .Op takes the
# rest of its line, so one before another option's Oo ... Oc made
# "[--no-side-check [--json | --csv] good..bad]" of bisect's synopsis.
# Each option with its depth in brackets, by command: from the usage
# lines, and from the .It Ic lines of the manual's COMMANDS.
for cmd in $cmds; do
	pw "$cmd" --help | head -n 1
done | awk '{
	line = $0; d = 0
	while (line != "") {
		if (match(line, /^--[a-z][a-z-]*/)) {
			print $3, substr(line, 1, RLENGTH), d
			line = substr(line, RLENGTH + 1)
			continue
		}
		c = substr(line, 1, 1)
		if (c == "[") d++
		else if (c == "]") d--
		line = substr(line, 2)
	}
    }' | sort -u >"$T/depth.usage"
awk -v cmds="$cmds" '
    BEGIN {
	n = split(cmds, c, " ")
	for (i = 1; i <= n; i++)
		iscmd[c[i]] = 1
    }
    /^\.Sh / { sect = $0 }
    sect == ".Sh COMMANDS" && /^\.It Ic / {
	cmd = $3
	if ($4 == "|" && $5 == "Ic")
		cmd = $6
	if (!(cmd in iscmd))
		next
	d = 0
	for (i = 3; i <= NF; i++) {
		if ($i == "Oo" || $i == "Op")	# Op: to the end of the line
			d++
		else if ($i == "Oc")
			d--
		else if ($i == "Fl" && $(i + 1) ~ /^-[a-z][a-z-]*$/)
			print cmd, "-" $(i + 1), d
	}
    }' "$top/man/perfwatch.1" | sort -u >"$T/depth.man"
[ "$(wc -l <"$T/depth.usage")" -ge 50 ] ||
	fail "only $(wc -l <"$T/depth.usage") options in the usage lines"
cmp -s "$T/depth.usage" "$T/depth.man" ||
	fail "perfwatch(1) brackets options otherwise than the usage lines" \
	    "(command, option, depth; < usage, > manual):" \
	    "$(diff "$T/depth.usage" "$T/depth.man" | grep '^[<>]')"

# An option that takes a run in perfwatch(1)'s synopsis (Fl -run Ar run)
# says RUN in its usage line, as the commands' own run words do: a run
# is named by its label, host:label or #id, where export's "--run LABEL"
# said a label alone.
awk '
    /^\.Sh / { sect = $0 }
    sect == ".Sh COMMANDS" && /^\.It Ic / {
	for (i = 3; i < NF; i++)
		if ($i == "Fl" && $(i + 2) == "Ar" && $(i + 3) == "run")
			print $3, "-" $(i + 1)
    }' "$top/man/perfwatch.1" | sort -u >"$T/run.opts"
[ -s "$T/run.opts" ] || fail "perfwatch(1) has no option that takes a run"
while read -r cmd opt; do
	pw "$cmd" --help | head -n 1 | grep -qF -- "$opt RUN" ||
		fail "perfwatch $cmd --help: $opt does not take a RUN:" \
		    "$(pw "$cmd" --help | head -n 1)"
done <"$T/run.opts"

# Every long option the manuals and README.md name is one there is: each
# .Fl -option of a manual is an option of a perfwatch command or of
# perfwatchd, and each option named after a command ("perfwatch COMMAND
# ... --option", ".Ic COMMAND Fl -option") is one that command takes.
"$PERFWATCHD" --help >"$T/d.help" || fail "perfwatchd --help"
# perfwatchd's options: the first word of each line of its --help that
# starts with one, and the long form after its comma.
awk '/^  -/ { sub(/,$/, "", $1); print $1; if ($2 ~ /^--/) print $2 }' \
    "$T/d.help" | sort -u >"$T/opts.perfwatchd"
(echo --help; echo --version; cat "$T"/opts.*) | sort -u >"$T/all.opts"
for f in "$top"/man/*.[158]; do
	grep -o 'Fl -[a-z][a-z-]*' "$f" | sed 's/^Fl -/--/' | sort -u |
	    comm -23 - "$T/all.opts" >"$T/extra"
	[ ! -s "$T/extra" ] ||
		fail "${f##*/} names $(tr '\n' ' ' <"$T/extra")which no" \
		    "command takes"
done
awk -v cmds="$cmds" '
    BEGIN {
	n = split(cmds, c, " ")
	for (i = 1; i <= n; i++)
		iscmd[c[i]] = 1
    }
    {
	cmd = ""
	for (i = 1; i <= NF; i++) {
		w = $i
		sub(/^\./, "", w)	# .Ic at the start of a macro line
		gsub(/^[`"(]+|[`"),.;:]+$/, "", w)
		v = $(i + 1)
		gsub(/^[`"(]+|[`"),.;:]+$/, "", v)
		if (w ~ /(^|\/)perfwatch$/ || (w == "Ic" && v in iscmd)) {
			cmd = v in iscmd ? v : ""
			i++
		} else if (cmd != "" && w ~ /^--[a-z][a-z-]*$/)
			print FILENAME ":" FNR, cmd, w
		else if (cmd != "" && w == "Fl" && v ~ /^-[a-z][a-z-]*$/)
			print FILENAME ":" FNR, cmd, "-" v
	}
    }' "$top"/man/*.[158] "$top/README.md" >"$T/refs"
[ "$(wc -l <"$T/refs")" -ge 50 ] ||
	fail "only $(wc -l <"$T/refs") options named after a command: $(cat "$T/refs")"
while read -r where cmd opt; do
	# --help: every command's, as above.
	[ "$opt" = --help ] || grep -qxF -- "$opt" "$T/opts.$cmd" ||
		fail "${where#"$top"/}: perfwatch $cmd takes no $opt"
done <"$T/refs"

# perfwatchd(8) gives the options perfwatchd --help lists, in its
# SYNOPSIS and in the list of DESCRIPTION, and no other.
awk '
    /^\.Sh / { sect = $0 }
    sect == ".Sh SYNOPSIS" && /^\.Op Fl / {
	if ($4 == "Ar")
		print "-" $3
	else
		for (i = 1; i <= length($3); i++)
			print "-" substr($3, i, 1)
    }' "$top/man/perfwatchd.8" | sort -u >"$T/d.synopsis"
grep -v -- '^--' "$T/opts.perfwatchd" >"$T/d.short"
cmp -s "$T/d.short" "$T/d.synopsis" ||
	fail "perfwatchd(8) SYNOPSIS: $(tr '\n' ' ' <"$T/d.synopsis")," \
	    "perfwatchd --help: $(tr '\n' ' ' <"$T/d.short")"
awk '
    /^\.Sh / { desc = $0 == ".Sh DESCRIPTION" }
    desc && !done && /^\.Bl / { depth++ }
    desc && !done && /^\.El/ { if (--depth == 0) done = 1 }
    desc && !done && depth == 1 && /^\.It Fl / {
	for (i = 2; i <= NF; i++)
		if ($(i - 1) == "Fl")
			print "-" $i
    }' "$top/man/perfwatchd.8" | sort -u >"$T/d.list"
cmp -s "$T/opts.perfwatchd" "$T/d.list" ||
	fail "perfwatchd(8) lists $(tr '\n' ' ' <"$T/d.list")," \
	    "perfwatchd --help $(tr '\n' ' ' <"$T/opts.perfwatchd")"

# --help after a subcommand or another option, as the completion offers
# it (notify flush --), is the command's --help: its usage on stdout,
# exit 0; after "--" it is a word like any other.
for args in "notify flush --help" "env show --json --help" \
    "baseline list --help" "alerts ack --help" "history --csv --help" \
    "run --no-check -h" "check --bisect --help"; do
	rc=0
	# shellcheck disable=SC2086 # the words are split on purpose
	pw $args >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 0 ] || fail "perfwatch $args: exit $rc: $(cat "$T/err")"
	[ ! -s "$T/err" ] || fail "perfwatch $args wrote on stderr: $(cat "$T/err")"
	cmd=${args%% *}
	[ "$(cat "$T/out")" = "$(pw "$cmd" --help)" ] ||
		fail "perfwatch $args: $(head -n 1 "$T/out")"
done

# A word a command does not take is named, with the (sub)command, before
# the usage line; and the command is not carried out.
while IFS='|' read -r args msg; do
	rc=0
	# shellcheck disable=SC2086 # the words are split on purpose
	pw $args >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 64 ] || fail "perfwatch $args: exit $rc"
	[ ! -s "$T/out" ] || fail "perfwatch $args wrote on stdout"
	[ "$(head -n 1 "$T/err")" = "$msg" ] ||
		fail "perfwatch $args: \"$(head -n 1 "$T/err")\", not \"$msg\""
	sed -n 2p "$T/err" | grep -q '^usage: perfwatch ' ||
		fail "perfwatch $args: no usage after the message"
done <<'EOF'
history write_kps|perfwatch history: unexpected argument 'write_kps'
runs --limit 5 extra|perfwatch runs: unexpected argument 'extra'
changes x|perfwatch changes: unexpected argument 'x'
show a b|perfwatch show: unexpected argument 'b'
show --latest a|perfwatch show: a RUN or --latest, not both
check a b|perfwatch check: unexpected argument 'b'
compare a|perfwatch compare: two runs or groups are needed, 1 given
compare X=a1,b1 X=b2|perfwatch compare: two columns named 'X'
compare a1 b a1=c|perfwatch compare: two columns named 'a1'
compare metric=a b|perfwatch compare: two columns named 'metric'
alerts ack 1 2|perfwatch alerts ack: unexpected argument '2'
alerts ack|perfwatch alerts ack: needs an alert ID
alerts ack x1|perfwatch alerts ack: "x1" is not an alert ID
alerts ack --json 1|perfwatch alerts ack: unrecognized option '--json'
alerts --all ack|perfwatch alerts: unexpected argument 'ack'
baseline frobnicate|perfwatch baseline: unknown subcommand 'frobnicate'
baseline list x|perfwatch baseline list: unexpected argument 'x'
baseline delete a --all|perfwatch baseline delete: unrecognized option '--all'
env frobnicate|perfwatch env: unknown subcommand 'frobnicate'
env diff a b c|perfwatch env diff: unexpected argument 'c'
env show --all|perfwatch env show: unrecognized option '--all'
notify frobnicate|perfwatch notify: unknown subcommand 'frobnicate'
notify pending --limit 3 x|perfwatch notify pending: unexpected argument 'x'
notify test a b|perfwatch notify test: unexpected argument 'b'
import a b|perfwatch import: unexpected argument 'b'
export x|perfwatch export: unexpected argument 'x'
export --output=|perfwatch export: -o: an empty file name
run x|perfwatch run: unexpected argument 'x'
run --git-commit a=abcd --git-commit a=ef01|perfwatch: --git-commit: a is named twice
bisect|perfwatch bisect: no range GOOD..BAD given
bisect a..b c|perfwatch bisect: unexpected argument 'c'
bisect main|perfwatch bisect: 'main' is not a range GOOD..BAD
bisect a...b|perfwatch bisect: 'a...b' is not a range GOOD..BAD
bisect ..b|perfwatch bisect: '..b' is not a range GOOD..BAD
bisect a..|perfwatch bisect: 'a..' is not a range GOOD..BAD
bisect --list-git --workload x|perfwatch bisect: --list-git takes no --workload
bisect --runs 2 --list-git --json|perfwatch bisect: --list-git takes no --runs
pause now|perfwatch pause: unexpected argument 'now'
status --csv|perfwatch status: unrecognized option '--csv'
notify|perfwatch notify: a subcommand: flush, test or pending
env|perfwatch env: a subcommand: show or diff
env diff --json|perfwatch env diff: needs a RUN_A
history --limit x|perfwatch: --limit: "x" is not a count (0 for all)
runs --limit -1|perfwatch: --limit: "-1" is not a count (0 for all)
runs --status done|perfwatch: --status: "done" is not running, complete, aborted or failed
runs --json --csv|perfwatch runs: --json or --csv, not both
history --csv --limit 3 --json|perfwatch history: --json or --csv, not both
baseline show --csv x --json|perfwatch baseline: --json or --csv, not both
env diff --json --csv a|perfwatch env: --json or --csv, not both
notify pending --csv --json|perfwatch notify: --json or --csv, not both
export --csv --format jsonl|perfwatch export: one format: --format csv or --csv, or --format jsonl or --json
export --format jsonl --csv|perfwatch export: one format: --format csv or --csv, or --format jsonl or --json
import --format csv --format jsonl -|perfwatch import: one --format: csv or jsonl
runs --trigger cron|perfwatch: --trigger: "cron" is not schedule, package, kernel, git, manual, rerun, bisect or import
notify pending --limit x|perfwatch: --limit: "x" is not a count (0 for all)
changes --window 3.5|perfwatch: --window: "3.5" is not a whole number from 3 to 1000
changes --window 2|perfwatch: --window: "2" is not a whole number from 3 to 1000
changes --min-change x|perfwatch: --min-change: "x" is not a number from 0 to 100
changes --alpha 1|perfwatch: --alpha: "1" is not a number from 1e-09 to 0.5
EOF
# Both outputs under git bisect run: a usage error, which stops it.
rc=0; pw check --bisect --json --csv >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 128 ] || fail "check --bisect --json --csv: exit $rc"
expect_match "$(cat "$T/err")" "perfwatch check: --json or --csv, not both"
# A blank run label would name a run that nothing can name again (and
# that export writes but import refuses): refused before anything runs.
for label in '' '  '; do
	rc=0
	pw run --label "$label" --profile /nonexistent >"$T/out" 2>"$T/err" ||
		rc=$?
	[ "$rc" -eq 64 ] || fail "run --label '$label': exit $rc"
	[ "$(head -n 1 "$T/err")" = "perfwatch: --label: blank" ] ||
		fail "run --label '$label': $(cat "$T/err")"
done
# ... and perfwatch(1) gives that 64, not the 65 of a label taken.
grep -q 'must be valid UTF-8 and not blank (a usage error, 64)' \
    "$top/man/perfwatch.1" || fail "perfwatch(1): run --label blank is not 64"
sed -n '/^.Sh EXIT STATUS/,/^.Sh /p' "$top/man/perfwatch.1" |
    grep -q -- '-detail , -label ,' ||
	fail "perfwatch(1) EXIT STATUS: --label blank is not among the 64s"
grep -qx '.Op Fl hvV' "$top/man/perfwatch.1" || fail "perfwatch(1): synopsis"

# "--" ends the options of every command, also those that read their
# words by hand, so that runs labelled "-rc1" and "-rc2" can be named;
# after it, even --json is a word.
printf 'run,time,workload,metric,value,unit,better\n%s\n%s\n' \
    '-rc1,1700000000,w,m,1,s,lower' '-rc2,1700000100,w,m,1.1,s,lower' \
    >"$T/dash.csv"
pw import -- "$T/dash.csv" >/dev/null
expect_match "$(pw show --csv -- -rc1)" 'w,m,1,1,1,-,1,s,lower'
expect_match "$(pw compare --csv -- -rc1 -rc2)" 'w,m,1,1.1,10.000000000000009,'
expect_match "$(pw baseline set b -- -rc1 -rc2)" 'baseline b: 2 runs'
expect_match "$(pw baseline show --json -- b)" '"-rc2"'
expect_match "$(pw check --json -- -rc2)" '"run": "-rc2"'
rc=0
pw env diff -- -rc1 -rc2 2>"$T/err" || rc=$?
expect_eq "$rc" 65
expect_match "$(cat "$T/err")" 'run -rc1 has no machine snapshot'
# Two columns of one name, of runs that exist: refused, not printed.
rc=0
pw compare --csv -- X=-rc1 X=-rc2 >"$T/out" 2>"$T/err" || rc=$?
expect_eq "$rc" 64
[ ! -s "$T/out" ] || fail "compare X=-rc1 X=-rc2 printed: $(cat "$T/out")"
expect_match "$(head -n 1 "$T/err")" "perfwatch compare: two columns named 'X'"
rc=0
pw compare -- -rc1 --json 2>"$T/err" || rc=$?
expect_eq "$rc" 65
expect_match "$(cat "$T/err")" 'no run "--json"'
# --latest given twice is --latest, as for check (getopt), not an
# unrecognized option.
expect_eq "$(pw show --csv --latest --latest)" "$(pw show --csv --latest)"
expect_match "$(pw show --latest --latest)" 'run -rc2 on '
rc=0
pw show -- --help >"$T/out" 2>"$T/err" || rc=$?
expect_eq "$rc" 65
expect_match "$(cat "$T/err")" 'no run "--help"'
rc=0
pw show -rc1 2>"$T/err" || rc=$?
expect_eq "$rc" 64
expect_match "$(cat "$T/err")" "unrecognized option '-rc1'"

# An option whose text must say something, given none or blanks: a
# usage error naming it, before anything is measured or read; run
# --detail '' recorded a detail that showed as a blank, history --host ''
# said "no host  in the store" (65).
while IFS='|' read -r cmd opt val why; do
	rc=0
	pw "$cmd" "$opt=$val" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 64 ] || fail "$cmd $opt='$val': exit $rc: $(cat "$T/err")"
	[ ! -s "$T/out" ] || fail "$cmd $opt='$val' printed: $(cat "$T/out")"
	expect_match "$(head -n 1 "$T/err")" "perfwatch $cmd: $opt: $why"
	expect_match "$(cat "$T/err")" "usage: perfwatch $cmd"
done <<'CASES'
run|--detail||empty
run|--detail|  |blank
run|--profile||empty
run|--workload||empty
history|--host||empty
history|--workload| |blank
history|--metric||empty
runs|--host||empty
changes|--host||empty
changes|--workload||empty
changes|--metric||empty
check|--baseline||empty
bisect|--git||empty
bisect|--repo||empty
bisect|--build||empty
bisect|--workload||empty
bisect|--metric||empty
bisect|--profile||empty
CASES
rc=0; pw check --bisect --baseline= >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 128 ] || fail "check --bisect --baseline '': exit $rc"

# A number option's text is the number, as --window's always was: strtol
# and strtod took " 5" and "+5" for 5, strtod 0x2 and inf too (one parser,
# cli_parse_count or cli_parse_real, for every number option now).
while IFS='|' read -r args why; do
	rc=0
	# shellcheck disable=SC2086 # the words are split on purpose
	pw $args >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 64 ] || fail "$args: exit $rc: $(cat "$T/err")"
	expect_match "$(head -n 1 "$T/err")" "$why"
done <<'CASES'
runs --limit=+5|--limit: "+5" is not a count
history --limit=+5|--limit: "+5" is not a count
notify pending --limit=+3|--limit: "+3" is not a count
run --iterations=+3|--iterations: "+3" is not a count
bisect --runs=+3 a..b|--runs: "+3" is not a count
bisect --max-runs=+3 a..b|--max-runs: "+3" is not a count
alerts ack +1|"+1" is not an alert ID
alerts ack #+1|"#+1" is not an alert ID
changes --min-change=+2|--min-change: "+2" is not a number
changes --min-change=0x2|--min-change: "0x2" is not a number
changes --min-change=inf|--min-change: "inf" is not a number
changes --alpha=+0.01|--alpha: "+0.01" is not a number
changes --alpha=0x1p-7|--alpha: "0x1p-7" is not a number
changes --window=+5|--window: "+5" is not a whole number
bisect --iterations=+3 a..b|--iterations: "+3" is not a count
CASES
for args in "runs --limit" "history --limit" "notify pending --limit" \
    "changes --alpha" "changes --min-change" "changes --window" \
    "run --iterations" "bisect --iterations" "bisect --runs" \
    "bisect --max-runs"; do
	rc=0
	# shellcheck disable=SC2086 # the words are split on purpose
	pw $args " 3" x..y >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 64 ] || fail "$args ' 3': exit $rc: $(cat "$T/err")"
	expect_match "$(head -n 1 "$T/err")" '" 3" is not a'
done
rc=0; pw alerts ack ' 1' >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 64 ] || fail "alerts ack ' 1': exit $rc"

# -D '' and -c '' name no file: SQLite took -D '' for a temporary
# database, where an import went and was lost (exit 0, "into ").
printf 'run,time,workload,metric,value,unit,better\nlost,1,w,m,1,s,lower\n' \
    >"$T/lost.csv"
for opt in -D -c; do
	rc=0
	pw "$opt" '' import "$T/lost.csv" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 64 ] || fail "$opt '' import: exit $rc: $(cat "$T/out")"
	expect_match "$(head -n 1 "$T/err")" "perfwatch: $opt: an empty file name"
	expect_match "$(cat "$T/err")" "usage: perfwatch [-hvV]"
done

# What an import says, in the singular for one.
printf 'run,time,workload,metric,value,unit,better\n%s\n' \
    'solo,1700000200,w,m,1,s,lower' >"$T/one.csv"
expect_eq "$(pw import "$T/one.csv")" \
    "imported 1 run, 1 sample (0 new metrics) into $PERFWATCH_DB"
printf 'run,time,workload,metric,value,unit,better\n%s\n%s\n' \
    'duo,1700000300,w,m,1,s,lower' 'duo,1700000300,w,n,2,s,lower' \
    >"$T/two.csv"
expect_eq "$(pw import "$T/two.csv")" \
    "imported 1 run, 2 samples (1 new metric) into $PERFWATCH_DB"

# notify test of a sink the configuration lacks: 78, and no document on
# stdout for a program to take as the sinks' answers.
for json in "" --json; do
	rc=0
	# shellcheck disable=SC2086 # "" stands for no option
	pw notify test $json nosuch >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 78 ] || fail "notify test $json nosuch: exit $rc"
	[ ! -s "$T/out" ] || fail "notify test $json nosuch printed: $(cat "$T/out")"
	expect_match "$(cat "$T/err")" 'no sink "nosuch" in the configuration'
done
# ... which notify test's entry in perfwatch(1) gives, beside its 1.
awk '/^\.It Ic notify test / { on = 1; next } /^\.It Ic / { on = 0 } on' \
    "$top/man/perfwatch.1" | tr '\n' ' ' |
    grep -qF 'Exits 1 if any sink did not take it, and 78 for a .Ar sink that the configuration does not have' ||
	fail "perfwatch(1) notify test does not give the 78 of a sink not there"
pass
