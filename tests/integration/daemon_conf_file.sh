#!/bin/sh
# The configuration file as perfwatchd reads it, and as its runs read the
# copy it writes (state_dir/run.conf, two lines of comment first):
# - A file that starts with a byte order mark passed `perfwatchd -n` and
#   started the daemon, and then every run refused the copy, the mark
#   now on its third line; the mark is not copied, and runs complete.
# - A file just under 1 MiB passed too, and its copy, 148 bytes longer,
#   was over every reader's 1 MiB: the daemon now says at once that it
#   takes less, and why.
# - A FIFO given for the file blocked the start (and perfwatch too) for
#   ever; it is refused as not a regular file.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual
{ printf '\357\273\277'; cat "$CONF"; } >"$T/bom.conf"
mv "$T/bom.conf" "$CONF"
"$PERFWATCHD" -n -f "$CONF" >"$T/n.out" 2>&1 ||
	fail "perfwatchd -n: $(cat "$T/n.out")"
start_daemon
request '{"cmd":"trigger","workloads":["tiny"]}' | grep -q '"ok":true' ||
	fail "trigger refused"
wait_until 20 "a run" runs_at_least 1 "status = 'complete'" ||
	fail "no complete run from a configuration with a byte order mark"
[ "$(head -c 1 "$T/state/run.conf")" = "#" ] || fail "run.conf begins oddly"
grep -q "$(printf '\357\273\277')" "$T/state/run.conf" &&
	fail "the byte order mark was copied into run.conf"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# Just under 1 MiB: refused by the daemon, with its limit and why.
write_conf_manual
size=$(wc -c <"$CONF")
{ printf '# '; head -c $((1048575 - size - 3)) /dev/zero | tr '\0' x;
    printf '\n'; } >>"$CONF"
[ "$(wc -c <"$CONF")" -eq 1048575 ] || fail "size $(wc -c <"$CONF")"
rc=0
"$PERFWATCHD" -n -f "$CONF" >"$T/n.out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "a configuration of 1048575 bytes was taken"
expect_match "$(cat "$T/n.out")" "$CONF: larger than 1040384 bytes, the most perfwatchd takes (its runs read a copy of it with two lines before, under 1 MiB)"

# A FIFO: refused at once by both programs.
rm -f "$CONF"
mkfifo "$CONF"
rc=0
timeout 10 "$PERFWATCHD" -n -f "$CONF" >"$T/n.out" 2>&1 || rc=$?
[ "$rc" -ne 124 ] || fail "perfwatchd -n waited on a FIFO"
[ "$rc" -ne 0 ] || fail "perfwatchd -n took a FIFO"
expect_match "$(cat "$T/n.out")" "$CONF: not a regular file"
rc=0
timeout 10 "$PERFWATCH" -c "$CONF" status >"$T/s.out" 2>&1 || rc=$?
[ "$rc" -ne 124 ] || fail "perfwatch waited on a FIFO"
expect_match "$(cat "$T/s.out")" "$CONF: expected a regular file"
pass
