#!/bin/sh
# Names from the store reach a person's terminal escaped, in the lines
# beside a table as in its cells: an imported label with an escape
# sequence or a line feed (the file's text, which may come from another
# machine) was printed as it was by show, check, baseline show and
# env diff's heading lines, while the tables wrote \x1b and \n; a
# commit subject in bisect's answer the same.
set -eu
. "$(dirname "$0")/lib.sh"

esc=$(printf '\033')
printf 'run,time,workload,metric,value,unit,better\n%s\n%s\n' \
    "\"esc${esc}[31mred\",1,w,m,1,s,lower" \
    "\"two\nlines\",2,w,m,2,s,lower" >"$T/ctl.csv"
pw import "$T/ctl.csv" >/dev/null
pw baseline set b '#1' '#2' >/dev/null
# The lines on stderr too: an aborted run's label under check --bisect,
# a run without a snapshot under env, a baseline's name, and the hosts
# and labels of a baseline of two hosts.
printf 'run,time,workload,metric,value,unit,better,status,host\n%s\n%s\n' \
    "\"ab${esc}[2Jort\",3,w,m,3,s,lower,aborted," \
    "o1,4,w,m,4,s,lower,complete,\"h${esc}[5mx\"" >"$T/ctl2.csv"
pw import "$T/ctl2.csv" >/dev/null
pw baseline set "n${esc}[7m" '#1' >/dev/null
for args in "show #1" "show #2" "check #1" "check #2" "baseline show b" \
    "check --bisect #3" "env show #1" "env diff #1 #2" \
    "baseline show n${esc}[7m" "baseline set n${esc}[7m #1" \
    "baseline delete nope${esc}[7m" "baseline set two #1 #4" \
    "check --baseline n${esc}[7m #4"; do
	# shellcheck disable=SC2086 # the words are split on purpose
	pw $args >"$T/out" 2>&1 || true
	if grep -q "$esc" "$T/out"; then
		fail "$args printed an escape: $(od -c "$T/out" | head)"
	fi
done
expect_match "$(pw check --bisect '#3' 2>&1)" 'run ab\x1b[2Jort is aborted'
expect_match "$(pw baseline set two '#1' '#4' 2>&1)" 'h\x1b[5mx (o1)'
expect_eq "$(pw show '#1' | head -n 1)" \
    'run esc\x1b[31mred on '"$(pw runs --csv | awk -F, 'NR == 2 { print $2 }')"', 1970-01-01T00:00:01Z, trigger import, complete'
expect_match "$(pw check '#2' | head -n 1)" 'run two\nlines on '
[ "$(pw check '#2' | head -n 1 | wc -l)" -eq 1 ] || fail "check: two lines"
expect_match "$(pw baseline show b)" ':two\nlines  1970-01-01T00:00:02Z'
# JSON and CSV keep the text as it is stored.
expect_eq "$(pw show --json '#1' | python3 -c '
import json, sys
print(json.load(sys.stdin)["run"] == "esc\x1b[31mred")')" True

# A commit's subject in bisect's answer.
. "$(dirname "$0")/bisect.subr"
make_repo "lat 100 ms lower" "lat 130 ms lower"
git -C "$T/repo" commit -q --amend -m "bad${esc}]0;pwned${esc}\\"
(cd "$T/repo" && "$PERFWATCH" -c "$T/pw.conf" -D "$T/b.db" bisect \
    --build "$BUILD" --workload toy main~1..main) >"$T/out" 2>"$T/err" ||
	fail "bisect: exit $?: $(cat "$T/err")"
if grep -q "$esc" "$T/out"; then
	fail "bisect printed an escape: $(od -c "$T/out" | tail)"
fi
expect_match "$(cat "$T/out")" "first bad commit: $(rev main) bad\\x1b]0;pwned\\x1b\\ (+30.0%)"

# bisect's progress lines on stderr, escaped the same: a commit's subject
# in the line of its step.
make_repo "lat 100 ms lower" "lat 100 ms lower" "lat 130 ms lower"
git -C "$T/repo" checkout -q main~1
git -C "$T/repo" commit -q --amend -m "mid${esc}]0;pwned${esc}\\"
mid=$(git -C "$T/repo" rev-parse HEAD)
git -C "$T/repo" checkout -q main
git -C "$T/repo" rebase -q --onto "$mid" main~1 main
(cd "$T/repo" && "$PERFWATCH" -c "$T/pw.conf" -D "$T/b2.db" bisect \
    --build "$BUILD" --workload toy main~2..main) >"$T/out" 2>"$T/err" ||
	fail "bisect 2: exit $?: $(cat "$T/err")"
if grep -q "$esc" "$T/err"; then
	fail "bisect's progress printed an escape: $(od -c "$T/err" | head -20)"
fi
expect_match "$(cat "$T/err")" "): $(printf %.12s "$mid") mid\\x1b]0;pwned\\x1b\\"
pass
