#!/bin/sh
# The bisect script of perfwatch(1)'s EXAMPLES (measure.sh, whose status
# is the one git bisect run reads), taken from the page as it is and run
# by git bisect run on a real repository, whose toy workload needs no
# reboot: it finds the first bad
# commit of the workload it checks, not that of another workload its
# runs measure, which got slower earlier, and a perfwatch run that fails
# for a reason every commit shares (here a --workload that matches none)
# stops the bisection at the first commit.  The script mapped every
# failed run to 125, so git bisect run built, measured and skipped every
# commit of the range.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect.subr"

# The script, from the line after "$ cat measure.sh" to the one before
# the next prompt, its roff escapes read.
awk '/^\$ cat measure\.sh$/ { on = 1; next }
    on && /^\$ / { exit }
    on { gsub(/\\e/, "\\"); print }' \
    "$PERFWATCH_TOP/man/perfwatch.1" >"$T/example.sh"
expect_match "$(cat "$T/example.sh")" "exec perfwatch check --bisect"
expect_match "$(cat "$T/example.sh")" "--workload 'sys.*'"
expect_match "$(cat "$T/example.sh")" "--workload sys.pipe"
# Its workloads are ours: toy, the one it checks, and tick, 30% slower
# from c2 on; its perfwatch is this build with the test's configuration,
# and make copies the commit's value where toy reads it, a line to
# $T/steps each.
cat >>"$T/profile.conf" <<EOF
[workload "tick"]
command = sh $T/tick.sh
iterations = 3
EOF
cat >"$T/tick.sh" <<EOF
if [ "\$(cat $T/repo/counter)" -ge 2 ]; then v=70; else v=100; fi
echo "ops \$v ops higher"
EOF
# What the page does by hand before measure.sh (build, install, boot)
# is make here, in front of the script.
with_build() {
	printf '#!/bin/sh\nmake -s >/dev/null || exit 128\n'
	sed 1d
}
sed -e "s/'sys\\.\\*'/'t*'/" -e 's/sys\.pipe$/toy/' "$T/example.sh" |
    with_build >"$T/bisect.sh"
chmod +x "$T/bisect.sh"
mkdir -p "$T/bin"
printf '#!/bin/sh\nexec "%s" -c "%s" "$@"\n' "$PERFWATCH" "$T/pw.conf" \
    >"$T/bin/perfwatch"
chmod +x "$T/bin/perfwatch"
export PATH="$T/bin:$PATH"

make_repo "lat 100 ms lower" "lat 100 ms lower" "lat 100 ms lower" \
    "lat 130 ms lower" "lat 130 ms lower" "lat 130 ms lower"
printf 'all:\n\tcp value built\n\techo x >>%s/steps\n' "$T" \
    >"$T/repo/Makefile"
echo Makefile >>"$T/repo/.git/info/exclude"
git -C "$T/repo" checkout -q main~5
make -s -C "$T/repo" >/dev/null
for i in 1 2 3; do
	perfwatch run --trigger bisect --no-check --workload 't*' \
	    --label "good$i" >/dev/null
done
perfwatch baseline set good good1 good2 good3 >/dev/null
git -C "$T/repo" checkout -q main

rm -f "$T/steps"
(cd "$T/repo" && git bisect start main main~5 &&
    git bisect run "$T/bisect.sh") >"$T/gb.out" 2>&1 ||
	fail "git bisect run: $(cat "$T/gb.out")"
expect_match "$(cat "$T/gb.out")" "$(rev main~2) is the first bad commit"
git -C "$T/repo" bisect reset >/dev/null 2>&1

# A workload that matches none: perfwatch run exits 64 at every commit.
sed "s/'sys\\.\\*'/nosuch/" "$T/example.sh" | with_build >"$T/bisect.sh"
rm -f "$T/steps"
rc=0
(cd "$T/repo" && git bisect start main main~5 &&
    git bisect run "$T/bisect.sh") >"$T/gb.out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "git bisect run went on: $(cat "$T/gb.out")"
expect_match "$(cat "$T/gb.out")" "exit code 128"
expect_eq "$(wc -l <"$T/steps" | tr -d ' ')" 1
git -C "$T/repo" bisect reset >/dev/null 2>&1
pass
