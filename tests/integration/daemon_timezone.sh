#!/bin/sh
# perfwatchd's cron schedule follows a change of the machine's time zone
# without a restart: the zone's link is replaced (as timedatectl
# set-timezone replaces /etc/localtime) between two real zoneinfo files,
# and the daemon logs the change, works out the next battery in the new
# zone, and says it in its status and to systemd (whose line reads the
# same when both zones' next 02:30 fall on the same date); a time the
# change made the local clock jump over runs at once.  The daemon is given
# the link as TZ=":FILE", as tzset(3) reads it, so that the test need not
# touch the machine's own /etc/localtime.
set -eu
. "$(dirname "$0")/daemon.subr"

zi=/usr/share/zoneinfo
for z in Asia/Tokyo America/New_York; do
	[ -f "$zi/$z" ] || skip "no $zi/$z (tzdata)"
done
link="$T/localtime"
ln -s "$zi/Asia/Tokyo" "$link"

# zone_desc ZONE: the zone as the daemon's log names it.
zone_desc() {
	echo "$1 ($(TZ=":$zi/$1" date +'%Z %z'))"
}

# expect_next ZONE: the status' next run is 02:30 in ZONE, the first
# one after now there, and systemd was told it in ZONE's reading.
expect_next() {
	next=$(status_field 'd["next_run"]')
	[ "$(TZ=":$zi/$1" date -d "$next" +%H:%M)" = 02:30 ] ||
		fail "next run $next is not 02:30 in $1"
	now=$(date -u +%s)
	next_s=$(date -u -d "$next" +%s)
	[ "$next_s" -gt "$now" ] && [ $((next_s - now)) -le 86400 ] ||
		fail "next run $next is not the next 02:30 in $1"
	local_next=$(TZ=":$zi/$1" date -d "$next" +'%Y-%m-%d %H:%M')
	wait_until 10 "STATUS in $1" grep -q \
	    "^STATUS=idle; next run $local_next\$" "$T/notify.out" ||
		fail "systemd was not told $local_next: $(cat "$T/notify.out")"
}

write_profile
write_conf "
[schedule]
cron = 30 2 * * *
jitter = 0
catch_up = no
[triggers]
packages = no
kernel = no"

notify_listen
TZ=":$link" NOTIFY_SOCKET="$T/notify.sock" start_daemon
expect_next Asia/Tokyo

# Replaced as timedatectl does: a new link renamed over the old one.
ln -s "$zi/America/New_York" "$link.new"
mv -f "$link.new" "$link"
want="time zone changed: $(zone_desc Asia/Tokyo) -> $(zone_desc America/New_York), next battery at"
wait_until 10 "the change to New York" grep -qF "$want" "$LOG" ||
	fail "no \"$want\" in the log"
expect_next America/New_York

# Replaced as ln -sf without a rename does: removed, then made again.
# The moment without a link is no change (no zone, as UTC, in between).
rm "$link"
ln -s "$zi/Asia/Tokyo" "$link"
want="time zone changed: $(zone_desc America/New_York) -> $(zone_desc Asia/Tokyo), next battery at"
wait_until 10 "the change back to Tokyo" grep -qF "$want" "$LOG" ||
	fail "no \"$want\" in the log"
expect_next Asia/Tokyo
[ "$(grep -c "time zone changed" "$LOG")" -eq 2 ] ||
	fail "other changes were logged: $(grep "time zone changed" "$LOG")"

stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
wait "$NPID" || true

# A time the change makes the local clock jump over runs at once: the
# daemon starts in Tokyo with a daily time a minute or two ahead in New
# York's reading (hours away in Tokyo's), and once that time has passed
# the zone becomes New York's: from where the daemon last worked out its
# next run, New York's time has come.
ln -sfn "$zi/Asia/Tokyo" "$link"
at=$(( ($(date +%s) + 119) / 60 * 60 ))
hm=$(TZ=":$zi/America/New_York" date -d "@$at" +'%M %H')
write_conf "
[schedule]
cron = ${hm#0} * * *
jitter = 0
catch_up = no
[triggers]
packages = no
kernel = no"
TZ=":$link" start_daemon
before=$(count_runs "trigger = 'schedule'")
wait_until 150 "New York's time to pass" sh -c "[ \$(date +%s) -gt $at ]" ||
	fail "the clock did not reach $at"
[ "$(count_runs "trigger = 'schedule'")" -eq "$before" ] ||
	fail "a scheduled run before the change"
ln -s "$zi/America/New_York" "$link.new"
mv -f "$link.new" "$link"
due=$(TZ=":$zi/America/New_York" date -d "@$at" +'%Y-%m-%d %H:%M')
wait_until 10 "the run that has come" grep -qF \
    "in time zone $(zone_desc America/New_York) the run due $due has come with the change; it starts now" "$LOG" ||
	fail "the run due $due in New York did not start"
wait_until 30 "the run due $due" runs_at_least $((before + 1)) \
    "trigger = 'schedule' AND status = 'complete'" ||
	fail "no run due $due"
expect_match "$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'schedule'
    ORDER BY id DESC LIMIT 1")" "due $due (cron ${hm#0} * * *)"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
