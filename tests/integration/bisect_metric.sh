#!/bin/sh
# perfwatch bisect --metric takes what check --metric takes: globs, as
# often as wanted, the metric bisected chosen among all they select.  A
# workload prints forks (30% fewer from c3) and lps (12% fewer from c6):
# by itself the bisection follows forks, the larger change; --metric
# 'l*' bisects lps (the glob was taken as a name, and refused), and
# --metric forks --metric lps chooses between both (the second replaced
# the first).  A glob that matches nothing stops it (65) with the names
# there are, also beside one that matches.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

# Several metrics a commit: its line holds them, separated by ";".
cat >"$T/emit.sh" <<EOF
n=\$(cat "$T/count" 2>/dev/null || echo 0)
n=\$((n + 1))
echo \$n >"$T/count"
tr ';' '\\n' <"\$1/built" | awk -v n=\$n '{
	printf "%s %.6f %s %s\\n", \$1, \$2 * (1 + 0.0001 * ((n * 7919) % 13 - 6) / 6), \$3, \$4
}'
EOF
a="forks 50 forks/s higher" b="forks 35 forks/s higher"
c="lps 1000 lps higher" d="lps 880 lps higher"
make_repo "$a;$c" "$a;$c" "$b;$c" "$b;$c" "$b;$c" "$b;$d" "$b;$d" "$b;$d"

first_bad() {
	grep "^first bad commit: " "$T/out.txt" | cut -d' ' -f4,5
}
bisect main~7..main >"$T/out.txt" 2>"$T/err" ||
	fail "every metric: $(cat "$T/err")"
expect_eq "$(first_bad)" "$(rev main~5) c3"
expect_match "$(head -n 1 "$T/out.txt")" "toy forks"

bisect --metric 'l*' main~7..main >"$T/out.txt" 2>"$T/err" ||
	fail "--metric 'l*': $(cat "$T/err")"
expect_eq "$(first_bad)" "$(rev main~2) c6"
expect_match "$(head -n 1 "$T/out.txt")" "toy lps"

bisect --metric forks --metric lps main~7..main >"$T/out.txt" \
    2>"$T/err" || fail "--metric forks --metric lps: $(cat "$T/err")"
expect_eq "$(first_bad)" "$(rev main~5) c3"

# A name mistyped has the name meant; a glob is no typo of one name.
for args in "--metric lsp" "--metric lps --metric 'f?rk'"; do
	rc=0
	eval "bisect $args main~7..main" >"$T/out.txt" 2>"$T/err" || rc=$?
	expect_eq "$rc" 65
	case $args in
	*lsp) hint=" (did you mean lps?)" ;;
	*) hint= ;;
	esac
	expect_match "$(cat "$T/err")" "the runs of the workloads have no \
such metric$hint; they have forks, lps"
done
expect_match "$(cat "$T/err")" "perfwatch: --metric f?rk: "
pass
