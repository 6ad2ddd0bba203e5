#!/bin/sh
# Which database perfwatch uses, in the order perfwatch(1) and README.md
# give: -D, else $PERFWATCH_DB, else state_dir/perfwatch.db when the
# configuration sets state_dir, else $XDG_STATE_HOME/perfwatch/perfwatch.db
# when XDG_STATE_HOME is absolute, else ~/.local/state/perfwatch/perfwatch.db
# of $HOME.  Each import below says the file it made.  The manual gave
# XDG_STATE_HOME as if any value were used, and did not name HOME.
set -eu
. "$(dirname "$0")/lib.sh"
top=${PERFWATCH_TOP:?}

printf 'run,time,workload,metric,value,unit,better\nr1,1700000000,w,m,1,s,lower\n' \
    >"$T/one.csv"
# A configuration that sets no state_dir, and one that does.
printf '[detect]\nbaseline_runs = 5\n' >"$T/plain.conf"
printf '[perfwatch]\nstate_dir = %s/state\n' "$T" >"$T/state.conf"
unset PERFWATCH_DB

# into CONF WANT [PERFWATCH ARGS]: an import with -c CONF (--replace:
# the run may be there already) goes into WANT, and says so.
into() {
	conf=$1
	want=$2
	shift 2
	out=$(pw -c "$conf" "$@" import --replace "$T/one.csv") ||
		fail "import into $want"
	expect_match "$out" "imported 1 run, 1 sample ("
	expect_match "$out" ") into $want"
	[ -f "$want" ] || fail "no database $want"
}

into "$T/plain.conf" "$HOME/.local/state/perfwatch/perfwatch.db"
XDG_STATE_HOME="$T/xdg" into "$T/plain.conf" "$T/xdg/perfwatch/perfwatch.db"
# A relative XDG_STATE_HOME is not used: nothing is made under it, and
# the database of HOME is the one taken.
rm -rf "$HOME/.local"
mkdir -p "$T/cwd"
cd "$T/cwd"
XDG_STATE_HOME=xdg into "$T/plain.conf" \
    "$HOME/.local/state/perfwatch/perfwatch.db"
[ ! -e "$T/cwd/xdg" ] || fail "a relative XDG_STATE_HOME was used"
cd "$T"
XDG_STATE_HOME="$T/xdg2" into "$T/state.conf" "$T/state/perfwatch.db"
PERFWATCH_DB="$T/env.db" XDG_STATE_HOME="$T/xdg3" \
    into "$T/state.conf" "$T/env.db"
PERFWATCH_DB="$T/env2.db" into "$T/state.conf" "$T/opt.db" -D "$T/opt.db"
for f in "$T/xdg2" "$T/xdg3" "$T/env2.db"; do
	[ ! -e "$f" ] || fail "$f was made, where an earlier choice stands"
done

# perfwatch(1) says so.
tr '\n' ' ' <"$top/man/perfwatch.1" >"$T/man"
# shellcheck disable=SC2016 # the manual's words, $ and all
for words in '.Pa $XDG_STATE_HOME/perfwatch/perfwatch.db when .Ev XDG_STATE_HOME is an absolute path, else .Pa $HOME/.local/state/perfwatch/perfwatch.db .' \
    'a relative path is not used' '.It Ev HOME '; do
	grep -qF -- "$words" "$T/man" || fail "perfwatch(1) lacks: $words"
done
pass
