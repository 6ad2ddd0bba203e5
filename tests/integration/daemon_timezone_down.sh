#!/bin/sh
# A time zone changed while perfwatchd was down: at its next start the
# daemon works out its next battery in the zone in force then, and
# judges what was missed by that zone's clock.  schedule:last holds a
# time, not a reading of the clock, so it needs no conversion: the run
# the new zone's clock passed while the daemon was down (the old zone's
# clock did not) is caught up once, the next run is the new zone's next
# time, and a restart catches up nothing more; a time only the old
# zone's clock passed is no run missed.  The zone is the link
# TZ=":FILE" names, as in daemon_timezone.sh.
set -eu
. "$(dirname "$0")/daemon.subr"

zi=/usr/share/zoneinfo
for z in Asia/Tokyo America/New_York; do
	[ -f "$zi/$z" ] || skip "no $zi/$z (tzdata)"
done
link="$T/localtime"
ln -s "$zi/Asia/Tokyo" "$link"

# in_zone ZONE FORMAT TIME: TIME (epoch seconds) as ZONE's clock reads it.
in_zone() {
	TZ=":$zi/$1" date -d "@$3" +"$2"
}

# expect_next ZONE H:M: the status' next run is H:M in ZONE, the first
# one after now there.
expect_next() {
	next=$(status_field 'd["next_run"]')
	next_s=$(date -u -d "$next" +%s)
	[ "$(in_zone "$1" %H:%M "$next_s")" = "$2" ] ||
		fail "next run $next is not $2 in $1"
	now=$(date -u +%s)
	[ "$next_s" -gt "$now" ] && [ $((next_s - now)) -le 86400 ] ||
		fail "next run $next is not the next $2 in $1"
}

# The daily time is the one New York's clock read ten minutes ago, which
# Tokyo's reads 14 hours before or 10 hours after that.
at=$(( ($(date +%s) - 600) / 60 * 60 ))
hm=$(in_zone America/New_York %H:%M "$at")
cron="$(in_zone America/New_York '%-M %-H' "$at") * * *"
write_profile
write_conf "
[schedule]
cron = $cron
jitter = 0
catch_up = yes
[triggers]
packages = no
kernel = no"

TZ=":$link" start_daemon
expect_next Asia/Tokyo "$hm"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
case $(sql "SELECT value FROM settings WHERE key = 'schedule:last'") in
*" cron $cron") ;;
*) fail "schedule:last is not a time under cron $cron" ;;
esac

# Down for twenty minutes, during which the zone became New York's: its
# clock read the daily time ten minutes ago.
ln -s "$zi/America/New_York" "$link.new"
mv -f "$link.new" "$link"
sql "UPDATE settings SET value = (CAST(value AS INTEGER) - 1200) ||
    substr(value, length(CAST(CAST(value AS INTEGER) AS TEXT)) + 1)
    WHERE key = 'schedule:last'"
before=$(date +%s)
due=$(in_zone America/New_York '%Y-%m-%d %H:%M' "$at")
TZ=":$link" start_daemon
expect_match "$(cat "$LOG")" \
    "schedule: the run due $due was missed; catching up"
wait_until 30 "the catch-up run" runs_at_least 1 \
    "trigger = 'schedule' AND status = 'complete'" ||
	fail "no catch-up run"
detail=$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'schedule'")
expect_match "$detail" \
    "catch-up of the run due $due, missed while perfwatchd was down"
expect_next America/New_York "$hm"
last=$(sql "SELECT CAST(value AS INTEGER) FROM settings
    WHERE key = 'schedule:last'")
[ "$last" -ge "$before" ] ||
	fail "schedule:last $last is not the start's time ($before or later)"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# start_quiet: start_daemon, which must log no run missed.
start_quiet() {
	lines=$(wc -l <"$LOG")
	TZ=":$link" start_daemon
	started=$(tail -n +$((lines + 1)) "$LOG")
	case $started in
	*"was missed"*) fail "a run was missed: $started" ;;
	esac
}

# Started again in the same zone: nothing more was missed.
start_quiet
expect_next America/New_York "$hm"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"

# The other way: twenty minutes down, the zone New York's at the start,
# and the daily time the one Tokyo's clock read ten minutes ago: New
# York's clock did not pass it, so nothing was missed.
at=$(( ($(date +%s) - 600) / 60 * 60 ))
hm=$(in_zone Asia/Tokyo %H:%M "$at")
cron="$(in_zone Asia/Tokyo '%-M %-H' "$at") * * *"
write_conf "
[schedule]
cron = $cron
jitter = 0
catch_up = yes
[triggers]
packages = no
kernel = no"
sql "UPDATE settings SET value = '$(($(date +%s) - 1200)) cron $cron'
    WHERE key = 'schedule:last'"
start_quiet
expect_next America/New_York "$hm"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
n=$(count_runs "trigger = 'schedule'")
[ "$n" -eq 1 ] || fail "$n scheduled runs, not the one catch-up"
pass
