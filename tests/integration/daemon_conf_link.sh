#!/bin/sh
# perfwatchd -f naming a symbolic link, as configuration managers
# replace a file (a link switched to a new target; NixOS's /etc is all
# links).  The daemon resolved the link once, at start:
# - SIGHUP after the link was switched read the old target again
#   ("reloaded a.conf") and kept its configuration;
# - with the profile beside the link (L/profiles, the link L/perfwatch.conf
#   to R/perfwatch.conf), perfwatchd -n said OK and the start, looking
#   beside the target, exited 78.
# Now the path is used as given (made absolute from the directory it was
# started in, as a relative one is too), for -n, the start, each reload
# and the runs alike.
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual
mv "$CONF" "$T/a.conf"
cp "$T/a.conf" "$T/b.conf"
printf '# this is b.conf\n' >>"$T/b.conf"
ln -s a.conf "$CONF"
start_daemon
grep -q "this is b.conf" "$T/state/run.conf" && fail "b.conf in use at start"

# Switched, then reloaded: b.conf is read, and its runs read it.
ln -sfn b.conf "$CONF"
kill -HUP "$DPID"
wait_until 10 "the reload" grep -q "reloaded " "$LOG" ||
	fail "no reload logged"
expect_match "$(grep "reloaded " "$LOG")" "reloaded $CONF"
grep -q "this is b.conf" "$T/state/run.conf" ||
	fail "the reload kept the link's old target: $(cat "$T/state/run.conf")"
expect_match "$(cat "$LOG")" "ready: $CONF,"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# A relative -f, started elsewhere: the same file at each reload, though
# the daemon works in /.
: >"$LOG"
(cd "$T" && exec "$PERFWATCHD" -d -f perfwatch.conf >>"$LOG" 2>&1) &
DPID=$!
wait_until 15 "perfwatchd ready" grep -q "ready:" "$LOG" ||
	fail "perfwatchd -f perfwatch.conf did not get ready"
expect_match "$(cat "$LOG")" "ready: $T/perfwatch.conf,"
ln -sfn a.conf "$CONF"
kill -HUP "$DPID"
wait_until 10 "the reload" grep -q "reloaded " "$LOG" ||
	fail "no reload logged"
expect_match "$(grep "reloaded " "$LOG")" "reloaded $T/perfwatch.conf"
grep -q "this is b.conf" "$T/state/run.conf" &&
	fail "the reload of a relative -f kept b.conf"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# The profile by name, in the profiles directory beside the link: -n and
# the start agree, and the runs find it there too.
mkdir -p "$T/L/profiles" "$T/R"
cp "$T/profile.conf" "$T/L/profiles/custom.conf"
sed "s|^profile = .*|profile = custom|" "$T/a.conf" >"$T/R/perfwatch.conf"
ln -s "$T/R/perfwatch.conf" "$T/L/perfwatch.conf"
rm -f "$CONF"
CONF="$T/L/perfwatch.conf"
"$PERFWATCHD" -n -f "$CONF" >"$T/n.out" 2>&1 ||
	fail "perfwatchd -n: $(cat "$T/n.out")"
: >"$LOG"
start_daemon
request '{"cmd":"trigger","workloads":["tiny"]}' | grep -q '"ok":true' ||
	fail "trigger refused"
wait_until 20 "a run" runs_at_least 1 "status = 'complete'" ||
	fail "no complete run of the profile beside the link"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
