#!/bin/sh
# bench/command times one program three ways, and direct is the runner
# executing the words without a shell.  The words are the program's
# arguments joined by spaces, so an argument with a space or a shell
# character ("a b", "x;y") was split, or sent the whole command through
# /bin/sh -c: direct then timed the shell, and every way but bare a
# different command.  Such arguments are refused now; plain ones run.
set -eu
. "$(dirname "$0")/lib.sh"

bench="$(dirname "$PERFWATCH")/../bench/command"
[ -x "$bench" ] || skip "no $bench (make build-all)"

# A program that says how many arguments it was given, each time.
cat >"$T/count" <<EOS
#!/bin/sh
echo "\$#" >>"$T/argc"
EOS
chmod +x "$T/count"

rc=0
"$bench" -n 10 -d "$T" "$T/count" 'a b' >"$T/out" 2>"$T/err" || rc=$?
expect_eq "$rc" 2
expect_match "$(cat "$T/err")" "plain words"
[ ! -s "$T/argc" ] || fail "ran it: $(sort "$T/argc" | uniq -c)"

rc=0
"$bench" -n 10 -d "$T" "$T/count" a b=c >"$T/out" 2>"$T/err" || rc=$?
expect_eq "$rc" 0
expect_match "$(cat "$T/out")" "direct"
# Bare, direct and shell, warm-up included: 33 runs, every one with 2.
expect_eq "$(sort "$T/argc" | uniq -c | tr -s ' ')" " 33 2"
pass
