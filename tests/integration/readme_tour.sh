#!/bin/sh
# README.md's short tour, typed as printed: each "$ perfwatch" command
# of it that works on the bundled histories (import, compare, baseline,
# check, changes) is run in its order, in a directory where etc/ is the
# checkout's and with the default database of $HOME, and what the tour
# prints under it must come out in that order, line for line ("..."
# stands for lines left out), with the exit status the text gives (1
# from check: a regression; 65 from the bad import, which leaves the
# store as it was).  The commands that measure this machine (run,
# bisect) or need its snapshots (env diff) are left to their own tests.
set -eu
. "$(dirname "$0")/lib.sh"
top=${PERFWATCH_TOP:?}

unset PERFWATCH_DB
: >"$T/empty.conf"
mkdir -p "$T/tour"
ln -s "$top/etc" "$T/tour/etc"
cd "$T/tour"
# The tour's bad file: a word where row 3, column 5 wants a number.
printf '%s\n' 'run,time,workload,metric,value,unit,better' \
    'b-1,1700000000,w,m,1,s,lower' 'b-2,1700003600,w,m,fast,s,lower' \
    >bad.csv

# Each command, then its lines, as "C command" and "O line" records; a
# blank line inside a block is kept out, and a block ends at the text.
awk '
/^    \$ / { cmd = substr($0, 7); print "C " cmd; inblock = 1; next }
/^    / && inblock { print "O " substr($0, 5); next }
/^$/ { next }
{ inblock = 0 }
' "$top/README.md" >"$T/tour.txt"

db="$HOME/.local/state/perfwatch/perfwatch.db"
n=0
# check_one: run the command in $cmd and compare what it prints with
# $T/want, the lines the tour gives under it.
check_one() {
	case $cmd in
	"perfwatch import bad.csv")	want_rc=65 ;;
	"perfwatch check "*)		want_rc=1 ;;
	*)				want_rc=0 ;;
	esac
	[ ! -f "$db" ] || cp "$db" "$T/before.db"
	rc=0
	eval "\"\$PERFWATCH\" -c \"\$T/empty.conf\" ${cmd#perfwatch }" \
	    >"$T/got" 2>&1 || rc=$?
	[ "$rc" -eq "$want_rc" ] ||
		fail "README: \"$cmd\" exits $rc, not $want_rc: $(cat "$T/got")"
	if [ "$want_rc" -eq 65 ]; then
		cmp -s "$db" "$T/before.db" ||
			fail "README: \"$cmd\" changed the store"
	fi
	# The tour's lines, "..." aside and with its user's home for ours,
	# must be lines of the output, in order.
	sed -e "s#/home/me/#$HOME/#" "$T/want" | grep -vx '\.\.\.' \
	    >"$T/want.lines" || true
	awk 'NR == FNR { want[++nw] = $0; next }
	    k < nw && $0 == want[k + 1] { k++ }
	    END { if (k < nw) { print want[k + 1]; exit 1 } }' \
	    "$T/want.lines" "$T/got" >"$T/missing" ||
		fail "README: \"$cmd\" does not print, or not there:" \
		    "\"$(cat "$T/missing")\"; it printed:
$(cat "$T/got")"
	n=$((n + 1))
}

cmd=
: >"$T/want"
while IFS= read -r rec; do
	case $rec in
	"C "*)
		[ -z "$cmd" ] || check_one
		cmd=
		: >"$T/want"
		case ${rec#C } in
		"perfwatch import "*|"perfwatch compare "*| \
		"perfwatch baseline "*|"perfwatch check "*| \
		"perfwatch changes"*)
			cmd=${rec#C } ;;
		esac
		;;
	"O "*)
		[ -z "$cmd" ] || printf '%s\n' "${rec#O }" >>"$T/want"
		;;
	esac
done <"$T/tour.txt"
[ -z "$cmd" ] || check_one
# import, the bad import, compare, baseline set, check, the second
# import and changes.
[ "$n" -ge 7 ] || fail "only $n of the tour's commands found in README.md"
pass
