#!/bin/sh
# bench/store removes its scratch directory in /tmp (the history's CSV
# and database, hundreds of MiB) at the end.  Stopped by a signal, it
# was killed outright and left the directory behind: the removal ran at
# exit only.  It now notes the signal, stops at its next row, exits 128
# + the signal through exit(), and the directory goes.  Signalled while
# it writes the CSV (SIGTERM), and while it imports it (SIGINT, as from
# a terminal), each at the default size so that it is still at it.
set -eu
. "$(dirname "$0")/lib.sh"

bench="$(dirname "$PERFWATCH")/../bench/store"
[ -x "$bench" ] || skip "no $bench (make build-all)"
[ -d /proc/self/fd ] || skip "no /proc"

# stop SIGNAL FILE: start the bench, wait until it holds its scratch
# directory's FILE open, send it SIGNAL; the bench's exit status is
# $rc, the directory $scratch.
stop() {
	from_terminal "$bench" -p "$PERFWATCH" >"$T/out" 2>"$T/err" &
	pid=$!
	scratch=
	i=0
	while [ -z "$scratch" ]; do
		for fd in /proc/"$pid"/fd/*; do
			case "$(readlink "$fd" 2>/dev/null)" in
			/tmp/pw-bench-store.*/"$2")
				scratch=$(dirname "$(readlink "$fd")") ;;
			esac
		done
		[ -n "$scratch" ] && break
		i=$((i + 1))
		[ "$i" -lt 600 ] || { kill "$pid"; fail "no $2 open in 60 s"; }
		kill -0 "$pid" 2>/dev/null || fail "ended first: $(cat "$T/err")"
		sleep 0.1
	done
	kill -"$1" "$pid"
	rc=0
	wait "$pid" || rc=$?
}

stop TERM history.csv
[ ! -e "$scratch" ] || { rm -rf "$scratch"; fail "SIGTERM left $scratch"; }
expect_eq "$rc" 143
expect_match "$(cat "$T/err")" "bench-store: Terminated: stopping"

stop INT bench.db
[ ! -e "$scratch" ] || { rm -rf "$scratch"; fail "SIGINT left $scratch"; }
expect_eq "$rc" 130
expect_match "$(cat "$T/err")" "bench-store: Interrupt: stopping"
pass
