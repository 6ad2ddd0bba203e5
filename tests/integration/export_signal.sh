#!/bin/sh
# An export to a file stopped by SIGINT, SIGTERM or SIGHUP while it
# writes removes its temporary file (FILE.XXXXXX, beside FILE), leaves
# FILE as it was and exits 128 plus the signal's number.  Killed at the
# signal's default action, it left the temporary file behind.
set -eu
. "$(dirname "$0")/lib.sh"

# 400 runs of 1000 samples: an export that takes a while to write.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better"
	for (r = 1; r <= 400; r++)
		for (i = 1; i <= 1000; i++)
			printf "r%03d,%d,w,m%d,%.3f,s,lower\n", r,
			    1700000000 + r * 60, i % 10, i / 7
}' | pw import - >/dev/null
echo "an older export" >"$T/out.csv"

# temp_there: true when the export's temporary file is there.
temp_there() {
	for f in "$T"/out.csv.??????; do
		[ -e "$f" ] && return 0
	done
	return 1
}

# stop_export SIGNAL: an export to $T/out.csv, stopped (SIGSTOP) once
# its temporary file is there, sent SIGNAL and continued; its exit
# status in $rc, its stderr in $T/err.  An export that ends before its
# file is seen is tried again.
stop_export() {
	tries=0
	while :; do
		tries=$((tries + 1))
		[ "$tries" -le 10 ] || fail "SIG$1: never caught writing"
		from_terminal "$PERFWATCH" export -o "$T/out.csv" \
		    >/dev/null 2>"$T/err" &
		exporter=$!
		while ! temp_there && kill -0 "$exporter" 2>/dev/null; do
			:
		done
		kill -STOP "$exporter" 2>/dev/null || true
		if temp_there; then
			break
		fi
		kill -CONT "$exporter" 2>/dev/null || true
		wait "$exporter" || fail "export: $(cat "$T/err")"
		echo "an older export" >"$T/out.csv"
	done
	kill "-$1" "$exporter"
	kill -CONT "$exporter"
	rc=0
	wait "$exporter" || rc=$?
}

for sig in INT:130 TERM:143 HUP:129; do
	stop_export "${sig%:*}"
	! temp_there || fail "SIG$sig: exit $rc, left $(ls "$T"/out.csv.*)"
	expect_eq "$(cat "$T/out.csv")" "an older export"
	[ "$rc" -eq "${sig#*:}" ] || fail "SIG$sig: exit $rc: $(cat "$T/err")"
	expect_eq "$(cat "$T/err")" "perfwatch: export to $T/out.csv stopped \
by signal $((rc - 128)); the file is left as it was"
done

# Not stopped, it takes the file's place.
pw export -o "$T/out.csv" || fail "export"
expect_eq "$(wc -l <"$T/out.csv" | tr -d ' ')" 400001
! temp_there || fail "left $(ls "$T"/out.csv.*)"
pass
