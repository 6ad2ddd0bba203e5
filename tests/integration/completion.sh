#!/bin/sh
# The bash completion of etc/bash-completion/perfwatch, driven as bash
# drives it (COMP_WORDS, COMP_CWORD, then COMPREPLY) against the real
# binary and a real store: commands, options of a command and of a
# subcommand, run labels, baselines and alerts of the store the line
# names, sinks and [git] trees of the configuration it names.  Then
# every command's options and subcommands against its usage line, and
# perfwatchd's against its --help.
set -eu
. "$(dirname "$0")/lib.sh"

export LC_ALL=C
command -v bash >/dev/null 2>&1 || fail "no bash to complete with"
# FreeBSD's base system has no bash: its dependency list must carry it,
# as Debian's need not (bash is essential there), or `make check` there
# fails here with nothing saying what to install.
sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$PERFWATCH_TOP/deps/freebsd.txt" |
    grep -qx bash || fail "deps/freebsd.txt does not list bash"
cat >"$T/h.csv" <<EOF
run,time,workload,metric,value,unit,better
alpha-1,1700000000,w.one,m1,10,s,lower
alpha-2,1700003600,w.one,m1,11,s,lower
beta-1,1700007200,w.two,m2,12,ops,higher
EOF
pw import "$T/h.csv" >/dev/null
pw baseline set base1 alpha-1 alpha-2 >/dev/null
printf 'run,time,workload,metric,value,unit,better\ngamma-1,1700000000,w,m,1,s,lower\n' \
    >"$T/o.csv"
PERFWATCH_DB="$T/other.db" pw import "$T/o.csv" >/dev/null

# complete WORD...: what completing the last word offers, one line.
complete_words() {
	bash -c '
	. "$1/etc/bash-completion/perfwatch"
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	if [ -n "${LINE-}" ]; then
		COMP_LINE=$LINE
		COMP_POINT=${#LINE}
	fi
	case $(basename "$1") in
	perfwatchd)	_perfwatchd ;;
	*)		_perfwatch ;;
	esac
	printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "
	' sh "$PERFWATCH_TOP" "$@"
}

# complete_parts COMMAND USAGE: the completion's own split of a usage line
# into its parts, one a line.
complete_parts() {
	bash -c '
	. "$1/etc/bash-completion/perfwatch"
	_perfwatch_parts "$2" "$3"
	' sh "$PERFWATCH_TOP" "$@"
}

# expect WANT WORD...: completing WORD... offers exactly WANT.
expect() {
	want=$1
	shift
	got=$(complete_words "$@")
	[ "$got" = "$want" ] || fail "completing \"$*\": \"$got\", not \"$want\""
}

# Every command of the usage list and help, and only those; after help,
# one command name.
cmds=$( (pw --help | sed -n '/^commands:/,$s/^  \([a-z]*\) .*/\1/p'
    echo help) | sort | tr '\n' ' ')
expect "$cmds" "$PERFWATCH" ""
expect "check " "$PERFWATCH" help che
expect " " "$PERFWATCH" help check ""
for c in bisect check runs show; do
	expect_match " $cmds" " $c "
done
expect "changes check " "$PERFWATCH" ch
expect "--help --version -D -V -c -h -v " "$PERFWATCH" -
expect "--csv --help --host --json --limit --metric --workload " \
    "$PERFWATCH" history --
# export takes --csv and --json, short for --format, as perfwatch(1) says.
expect "--csv --format --help --json --output --run " "$PERFWATCH" export --
# ... and -o, short for --output, and -h, which every command takes.
expect "--csv --format --help --json --output --run -h -o " "$PERFWATCH" export -

# Subcommands, then each subcommand's own options.
expect "delete index list set show use " "$PERFWATCH" baseline ""
expect "diff show " "$PERFWATCH" env ""
expect "flush pending test " "$PERFWATCH" notify ""
expect "--force --help --json --syslog " "$PERFWATCH" notify flush --
expect "--all --csv --help --json --limit " "$PERFWATCH" notify pending --
# Before its subcommand notify takes none of theirs ("notify --json flush"
# is an unknown subcommand); these were all offered.
expect "--help " "$PERFWATCH" notify --
expect "--help " "$PERFWATCH" baseline --

# What the store holds, from the store the line names.
expect "alpha-1 alpha-2 " "$PERFWATCH" show al
expect "alpha-1 alpha-2 beta-1 " "$PERFWATCH" check ""
expect "beta-1 " "$PERFWATCH" env diff alpha-1 b
expect "gamma-1 " "$PERFWATCH" -D "$T/other.db" show ""
# The -c or -D word as bash gives it, as typed: a ~, quotes, a backslash
# before a blank or a $NAME are not yet expanded there, and the store is
# read as the shell would name it when the line runs.  A $( ) or a
# backquote in the word is never run.
mkdir -p "$HOME"
cp "$T/other.db" "$HOME/other.db"
cp "$T/other.db" "$T/my other.db"
# shellcheck disable=SC2088 # the ~ as typed, for the completion
expect "gamma-1 " "$PERFWATCH" -D "~/other.db" show ""
expect "gamma-1 " "$PERFWATCH" -D "\$HOME/other.db" show ""
expect "gamma-1 " "$PERFWATCH" -D "\${HOME}/other.db" show ""
expect "gamma-1 " "$PERFWATCH" -D "\"$T/my other.db\"" show ""
expect "gamma-1 " "$PERFWATCH" -D "'$T/my other.db'" show ""
expect "gamma-1 " "$PERFWATCH" -D "$T/my\\ other.db" show ""
expect " " "$PERFWATCH" -D "\$(touch $T/ran)" show ""
expect " " "$PERFWATCH" -D "\`touch $T/ran\`" show ""
[ ! -e "$T/ran" ] || fail "completing ran a command of the -D word"
# host:label, which bash splits at the colon into three words: the whole
# word is read back from the line, and what follows its colon offered.
printf 'run,time,workload,metric,value,unit,better,host\ndelta-1,1700010800,w.one,m1,9,s,lower,box2\n' \
    >"$T/d.csv"
pw import "$T/d.csv" >/dev/null
# --host: the hosts of the runs recorded (the import without a host
# column took this machine's name).
expect "$(printf '%s\n' box2 "$(hostname)" | sort -u | tr '\n' ' ')" \
    "$PERFWATCH" runs --host ""
expect "box2 " "$PERFWATCH" history --host bo
LINE="perfwatch show box2:d" expect "delta-1 " "$PERFWATCH" show box2 : d
LINE="perfwatch env diff alpha-1 box2:" expect "delta-1 " \
    "$PERFWATCH" env diff alpha-1 box2 :
LINE="perfwatch check box2:a" expect " " "$PERFWATCH" check box2 : a
expect "alpha-1 alpha-2 beta-1 delta-1 " "$PERFWATCH" check ""
expect "base1 rolling " "$PERFWATCH" baseline use ""
# check --baseline takes rolling too, as baseline use does (perfwatch(1)).
expect "base1 rolling " "$PERFWATCH" check --baseline ""
# Each command is offered no more arguments than it takes: show and check
# one run (or --latest), env show one and env diff two, baseline set a
# new name (nothing to offer) and then runs, use, show and delete one
# baseline, import one file; compare any number.  An option's value is
# not an argument, and host:label, three words to bash, is one.
all="alpha-1 alpha-2 beta-1 delta-1 "
expect " " "$PERFWATCH" show alpha-1 ""
expect " " "$PERFWATCH" check --latest ""
expect "$all" "$PERFWATCH" check --baseline base1 --json ""
expect " " "$PERFWATCH" check --baseline base1 alpha-2 --bisect ""
LINE="perfwatch show box2:delta-1 " expect " " \
    "$PERFWATCH" show box2 : delta-1 ""
expect "$all" "$PERFWATCH" compare alpha-1 alpha-2 ""
# compare's groups, NAME=RUN,RUN...: bash splits the word at "=" (as
# COMP_WORDBREAKS has it), and the runs after the last comma are offered
# with what comes before it, which the line keeps.
LINE="perfwatch compare g=alpha-1,al" expect "alpha-1,alpha-1 alpha-1,alpha-2 " \
    "$PERFWATCH" compare g = alpha-1,al
LINE="perfwatch compare g=alpha-1,alpha-2," expect \
    "alpha-1,alpha-2,alpha-1 alpha-1,alpha-2,alpha-2 alpha-1,alpha-2,beta-1 alpha-1,alpha-2,delta-1 " \
    "$PERFWATCH" compare g = alpha-1,alpha-2,
LINE="perfwatch compare g=b" expect "beta-1 " "$PERFWATCH" compare g = b
# With "=" out of COMP_WORDBREAKS, the group is one word.
expect "g=alpha-1 g=alpha-2 " "$PERFWATCH" compare g=al
expect " " "$PERFWATCH" env show alpha-1 ""
expect "$all" "$PERFWATCH" env show --packages ""
expect " " "$PERFWATCH" env diff alpha-1 beta-1 ""
LINE="perfwatch env diff box2:delta-1 a" expect "alpha-1 alpha-2 " \
    "$PERFWATCH" env diff box2 : delta-1 a
expect " " "$PERFWATCH" baseline set ""
expect "$all" "$PERFWATCH" baseline set new ""
expect "$all" "$PERFWATCH" baseline set new alpha-1 ""
expect " " "$PERFWATCH" baseline use base1 ""
expect " " "$PERFWATCH" baseline show base1 ""
# baseline index takes one run.
expect "alpha-1 alpha-2 " "$PERFWATCH" baseline index al
expect " " "$PERFWATCH" baseline index alpha-1 ""
expect " " "$PERFWATCH" baseline delete base1 ""
expect " " "$PERFWATCH" import --format csv "$T/h.csv" ""
expect "$T/h.csv " "$PERFWATCH" import --format csv "$T/h."
expect "m1 m2 " "$PERFWATCH" history --metric ""
expect "w.one w.two " "$PERFWATCH" changes --workload ""
expect "aborted " "$PERFWATCH" runs --status ab
expect "csv jsonl " "$PERFWATCH" export --format ""
# --repo takes a directory, and only a directory.
mkdir "$T/repo-a" "$T/repo-b" && touch "$T/repo-file"
# -o and --output take a file.
expect "$T/repo-file " "$PERFWATCH" export -o "$T/repo-f"
expect "$T/repo-file " "$PERFWATCH" export --output "$T/repo-f"
expect "$T/repo-a $T/repo-b " "$PERFWATCH" bisect --repo "$T/repo"
expect "bisect " "$PERFWATCH" run --trigger b
expect "import " "$PERFWATCH" runs --trigger i
expect " " "$PERFWATCH" run --trigger i
mkdir "$T/cwd" && cd "$T/cwd" && touch my.conf
expect "full my.conf nightly quick " "$PERFWATCH" run --profile ""
# A file name with a blank is one word offered, not two.
touch "my file.conf"
expect "my file.conf my.conf " "$PERFWATCH" -c my
expect "my file.conf my.conf " "$PERFWATCH" run --profile my
expect "my file.conf my.conf " "$PERFWATCH" import my
rm "my file.conf"
expect "$T/h.csv " "$PERFWATCH" import "$T/h."

# After alerts ack, the open alerts' ids (alerts --csv of the store the
# line names), and one only; after alerts --all, no subcommand: perfwatch
# reads one right after the command only.
step_history 22 21 22 7 >"$T/step.csv"
PERFWATCH_DB="$T/alerts.db" pw import "$T/step.csv" >/dev/null
rc=0
PERFWATCH_DB="$T/alerts.db" pw check r-21 >/dev/null || rc=$?
expect_eq "$rc" 1
expect "1 " "$PERFWATCH" -D "$T/alerts.db" alerts ack ""
expect " " "$PERFWATCH" -D "$T/alerts.db" alerts ack 1 ""
expect " " "$PERFWATCH" alerts ack ""
expect "ack " "$PERFWATCH" alerts ""
expect " " "$PERFWATCH" alerts --all ""
expect "--all --before --csv --help --json --limit " "$PERFWATCH" alerts \
    --all --

# The sinks (notify test --list) after notify test, and the [git] trees
# (bisect --list-git) after bisect --git, of the configuration named.
cat >"$T/s.conf" <<EOF
[sink "mail"]
type = email
to = ops@example.org
sendmail = yes
[sink "hook"]
type = webhook
url = http://127.0.0.1:9/x
[git "linux"]
path = $T/repo-a
[git "mesa"]
path = $T/repo-b
EOF
expect_eq "$(pw -c "$T/s.conf" notify test --list | tr '\n' ' ')" \
    "mail (email) hook (webhook) log (log) "
expect_eq "$(pw -c "$T/s.conf" bisect --list-git --csv | tr '\n' ' ')" \
    "name,path linux,$T/repo-a mesa,$T/repo-b "
expect "hook log mail " "$PERFWATCH" -c "$T/s.conf" notify test ""
expect " " "$PERFWATCH" -c "$T/s.conf" notify test mail ""
expect " " "$PERFWATCH" -c "$T/s.conf" notify test --list ""
expect "--help --json --list " "$PERFWATCH" notify test --
expect "linux mesa " "$PERFWATCH" -c "$T/s.conf" bisect --git ""
expect "mesa " "$PERFWATCH" -c "$T/s.conf" bisect --git m

expect "--help --version -V -d -f -h -n -v " "$PERFWATCHD" -

# Every command against its usage line (perfwatch COMMAND --help), the
# one place its options are written: after "COMMAND [SUB] --" exactly
# the options of that part of the line and --help are offered; after
# "COMMAND ", exactly its subcommands, and nothing for a command that
# takes no word but options.  The line is split here as a reader would,
# not with the completion's own functions, and their split compared.
n=0
for cmd in $(pw --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
	n=$((n + 1))
	usage=$(pw "$cmd" --help | sed -n '1s/^usage: perfwatch //p')
	[ -n "$usage" ] || fail "perfwatch $cmd --help: no usage line"
	# Each part (split at a " | " outside brackets: not notify test's
	# [--list | SINK]), without the command's name: its subcommand (the
	# first word, when a plain word; "-" when none), then the part.
	printf '%s\n' "$usage" |
	    awk -v c="$cmd" '
	    function out(p) {
		if (p == c)
			p = ""
		else if (index(p, c " ") == 1)
			p = substr(p, length(c) + 2)
		split(p, w, " ")
		print (w[1] ~ /^[a-z][a-z]*$/ ? w[1] : "-") " " p
	    }
	    {
		depth = 0
		p = ""
		for (i = 1; i <= length($0); i++) {
			ch = substr($0, i, 1)
			if (ch == "[")
				depth++
			else if (ch == "]")
				depth--
			if (depth == 0 && substr($0, i, 3) == " | ") {
				out(p)
				p = ""
				i += 2
				continue
			}
			p = p ch
		}
		out(p)
	    }' >"$T/parts"
	# The completion's own split is the same (it split inside brackets:
	# notify test [--list, then SINK] ...).
	cut -d ' ' -f 2- "$T/parts" >"$T/want.parts"
	complete_parts "$cmd" "$usage" >"$T/got.parts"
	cmp -s "$T/want.parts" "$T/got.parts" ||
		fail "the completion splits \"$usage\" into" \
		    "$(tr '\n' '/' <"$T/got.parts"), not" \
		    "$(tr '\n' '/' <"$T/want.parts")"
	subs=$(cut -d ' ' -f 1 "$T/parts" | grep -v '^-$' | sort -u |
	    tr '\n' ' ')
	# A command whose every form takes a subcommand takes no option
	# before it but --help.
	if [ -n "$subs" ] && ! grep -q '^- ' "$T/parts"; then
		expect "--help " "$PERFWATCH" "$cmd" --
	fi
	for sub in $(cut -d ' ' -f 1 "$T/parts" | sort -u); do
		want=$( (echo --help; grep "^$sub " "$T/parts" |
		    grep -o -- '--[a-z][a-z-]*') | sort -u | tr '\n' ' ')
		[ "$sub" != - ] || sub=
		# shellcheck disable=SC2086 # no subcommand: no word
		expect "$want" "$PERFWATCH" "$cmd" $sub --
	done
	if [ -n "$subs" ]; then
		expect "$subs" "$PERFWATCH" "$cmd" ""
	elif [ -z "$(printf '%s\n' "$usage" |
	    sed "s/^$cmd//; s/\[-[^]]*\]//g; s/\.\.\.//g; s/ //g")" ]; then
		# Only options ([-...] groups): no word to complete.
		expect " " "$PERFWATCH" "$cmd" ""
	fi
done
[ "$n" -ge 16 ] || fail "only $n commands"

# perfwatchd: what it offers is what its --help lists.
# (The first word of each line that starts with one, and the long form
# after its comma.)
want=$("$PERFWATCHD" --help |
    awk '/^  -/ { sub(/,$/, "", $1); print $1; if ($2 ~ /^--/) print $2 }' |
    sort -u | tr '\n' ' ')
expect "$want" "$PERFWATCHD" -
pass
