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

pass
