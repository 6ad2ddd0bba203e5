#!/bin/sh
# perfwatchd makes state_dir, work_dir and the socket's directory at its
# start; one it cannot make stopped it (exit 73) with "mkdir /x/y: No
# such file or directory" alone, which does not say which of the three
# keys names it, nor where.  The message now names the key and its
# file:line, as every other configuration error does.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
# A file where a directory is wanted: no mkdir can go through it.
: >"$T/file"
for key in state_dir work_dir socket; do
	write_conf_manual
	case $key in
	socket) sed -i "s#^socket = .*#socket = $T/file/sub/s.sock#" "$CONF" ;;
	*) sed -i "s#^$key = .*#$key = $T/file/sub#" "$CONF" ;;
	esac
	line=$(grep -n "^$key = " "$CONF" | cut -d: -f1)
	rc=0
	out=$(timeout 20 "$PERFWATCHD" -d -f "$CONF" 2>&1) || rc=$?
	[ "$rc" -eq 73 ] || fail "$key: exit $rc: $out"
	expect_eq "$out" "perfwatchd: $CONF:$line: [perfwatch] $key: mkdir $T/file/sub: Not a directory"
done
pass
