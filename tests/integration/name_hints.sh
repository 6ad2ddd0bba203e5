#!/bin/sh
# A name mistyped is answered with the name meant: each place that
# refuses an unknown workload, metric, profile or sink name says "did you
# mean" with the nearest one or two (name_hint), the configuration's at
# its file:line, and the refusal changes nothing.
set -eu
. "$(dirname "$0")/lib.sh"

# conf_says NAME TEXT WANT: perfwatchd -n -f of a file holding TEXT exits
# 78 and says WANT ({F} the file).
conf_says() {
	printf '%b' "$2" >"$T/$1.conf"
	rc=0
	out=$("$PERFWATCHD" -n -f "$T/$1.conf" 2>&1) || rc=$?
	[ "$rc" -eq 78 ] || fail "$1: perfwatchd -n: exit $rc: $out"
	want=$(printf '%s' "$3" | sed "s|{F}|$T/$1.conf|g")
	expect_eq "$out" "$want"
}

# [workload "NAME"] of a battery workload mistyped, without a command.
conf_says bonie '[workload "disk.bonie"]\niterations = 3\n' \
    '{F}:1: [workload "disk.bonie"]: no command given, and it is not a workload of the battery (did you mean disk.bonnie?)'
conf_says swapped '[schedule]\njitter = 1m\n\n[workload "sys.ppie"]\nwarmup = 1\n' \
    '{F}:4: [workload "sys.ppie"]: no command given, and it is not a workload of the battery (did you mean sys.pipe?)'
conf_says case '[workload "sys.EXECL"]\nwarmup = 1\n' \
    '{F}:1: [workload "sys.EXECL"]: no command given, and it is not a workload of the battery (did you mean sys.execl?)'
conf_says tie '[workload "sys.fcopy"]\nwarmup = 1\n' \
    '{F}:1: [workload "sys.fcopy"]: no command given, and it is not a workload of the battery'
conf_says shell '[workload "sys.shell"]\nwarmup = 1\n' \
    '{F}:1: [workload "sys.shell"]: no command given, and it is not a workload of the battery (did you mean sys.shell1 or sys.shell8?)'
conf_says far '[workload "sys.nothing"]\nwarmup = 1\n' \
    '{F}:1: [workload "sys.nothing"]: no command given, and it is not a workload of the battery'

# A store of three runs, made here: sys.pipe (lps), sys.spawn (forks),
# disk.bonnie (block_write, block_read).
{
	echo 'run,time,workload,metric,value,unit,better'
	for r in 1 2 3; do
		t=$((1700000000 + r * 3600))
		echo "r$r,$t,sys.pipe,lps,$((1000 + r)),lps,higher"
		echo "r$r,$t,sys.spawn,forks,$((500 + r)),ops,higher"
		echo "r$r,$t,disk.bonnie,block_write,$((90 + r)),MiB/s,higher"
		echo "r$r,$t,disk.bonnie,block_read,$((80 + r)),MiB/s,higher"
	done
} | pw import - >/dev/null || fail "import"
cp "$PERFWATCH_DB" "$T/before.db"

# cli_says EXIT WANT ARGS...: perfwatch ARGS exits EXIT, prints nothing
# on stdout, and says WANT on stderr; the store is as it was.
cli_says() {
	code=$1
	want=$2
	shift 2
	rc=0
	pw "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq "$code" ] || fail "perfwatch $*: exit $rc: $(cat "$T/err")"
	[ ! -s "$T/out" ] || fail "perfwatch $*: printed $(cat "$T/out")"
	expect_eq "$(cat "$T/err")" "$want"
	cmp -s "$PERFWATCH_DB" "$T/before.db" || fail "perfwatch $*: store changed"
}

# history and changes take one name each, exactly.
cli_says 65 'perfwatch: no metric matches workload sys.ppie (did you mean sys.pipe?)' \
    history --workload sys.ppie
cli_says 65 'perfwatch: no metric matches workload sys.pipe metric lsp (did you mean lps?)' \
    history --workload sys.pipe --metric lsp
cli_says 65 'perfwatch: no metric matches workload diskbonnie (did you mean disk.bonnie?) metric block_write' \
    history --workload diskbonnie --metric block_write
cli_says 65 'perfwatch: no metric matches metric block (did you mean block_read or block_write?)' \
    changes --metric block
cli_says 65 'perfwatch: no metric matches metric BLOCK_READ (did you mean block_read?)' \
    history --metric BLOCK_READ
cli_says 65 'perfwatch: no metric matches workload net.tcp' \
    history --workload net.tcp
# A metric of another workload is no hint for this one.
cli_says 65 'perfwatch: no metric matches workload sys.pipe metric forks' \
    history --workload sys.pipe --metric forks

# check takes globs; a glob matching nothing is no typo of one name.
cli_says 65 "perfwatch: --workload sys.spwan: no metric in $PERFWATCH_DB matches it (did you mean sys.spawn?); its workloads are disk.bonnie, sys.pipe, sys.spawn" \
    check r3 --workload sys.spwan
cli_says 65 "perfwatch: --metric blockwrite: no metric in $PERFWATCH_DB matches it (did you mean block_write?); its metrics are block_read, block_write, lps, forks" \
    check r3 --metric blockwrite
cli_says 65 "perfwatch: --metric x*: no metric in $PERFWATCH_DB matches it; its metrics are block_read, block_write, lps, forks" \
    check r3 --metric 'x*'

# notify test SINK: the configuration's sinks.
printf '[sink "mail"]\ntype = email\nto = ops@example.org\nsendmail = yes\n[sink "hook"]\ntype = webhook\nurl = http://127.0.0.1:9/x\n' >"$T/sinks.conf"
cli_says 78 'perfwatch: no sink "mial" in the configuration (did you mean mail?)' \
    -c "$T/sinks.conf" notify test mial
cli_says 78 'perfwatch: no sink "pager" in the configuration' \
    -c "$T/sinks.conf" notify test pager

pass
