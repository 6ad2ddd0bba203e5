#!/bin/sh
# perfwatchd follows a change of the zone that TZ names without a path,
# as tzset(3) reads it: TZ="Area/City" (or ":Area/City") is the file of
# that name under $TZDIR, else under the system's zoneinfo directory.
# The daemon watched only /etc/localtime and a TZ that was a path, so
# the zone file such a TZ names could be replaced (a tzdata upgrade, an
# administrator's link) and the schedule stayed on the old zone until a
# restart.  The test's own TZDIR holds the zone "Test/Zone", a link
# renamed over as in daemon_timezone.sh, then a plain file renamed over
# as a package manager installs one.
set -eu
. "$(dirname "$0")/daemon.subr"

zi=/usr/share/zoneinfo
for z in Asia/Tokyo America/New_York; do
	[ -f "$zi/$z" ] || skip "no $zi/$z (tzdata)"
done
tzdir="$T/zoneinfo"
mkdir -p "$tzdir/Test"
zone="$tzdir/Test/Zone"
ln -s "$zi/Asia/Tokyo" "$zone"

# zone_desc NAME ZONE: the zone as the daemon's log names it, NAME being
# what it is called there, ZONE the zone it is.
zone_desc() {
	echo "$1 ($(TZ=":$zi/$2" date +'%Z %z'))"
}

# expect_next ZONE: the status' next run is 02:30 in ZONE, the first
# one after now there.
expect_next() {
	next=$(status_field 'd["next_run"]')
	[ "$(TZ=":$zi/$1" date -d "$next" +%H:%M)" = 02:30 ] ||
		fail "next run $next is not 02:30 in $1"
	now=$(date -u +%s)
	next_s=$(date -u -d "$next" +%s)
	[ "$next_s" -gt "$now" ] && [ $((next_s - now)) -le 86400 ] ||
		fail "next run $next is not the next 02:30 in $1"
}

# replace_zone link|file ZONEFILE: rename a new Test/Zone over the old,
# a link to ZONEFILE or a copy of it, the log's length noted first.
replace_zone() {
	mark=$(wc -l <"$LOG")
	if [ "$1" = link ]; then
		ln -s "$2" "$zone.new"
	else
		cp "$2" "$zone.new"
	fi
	mv -f "$zone.new" "$zone"
}

# expect_change FROM TO: the log says, since replace_zone, that the
# zone went from FROM to TO (zone_desc's words).
expect_change() {
	want="time zone changed: $1 -> $2, next battery at"
	wait_until 10 "the change to $2" sh -c \
	    "tail -n +$((mark + 1)) '$LOG' | grep -qF '$want'" ||
		fail "no \"$want\" in the log"
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

for tz in Test/Zone :Test/Zone; do
	ln -sfn "$zi/Asia/Tokyo" "$zone"
	TZDIR="$tzdir" TZ="$tz" start_daemon
	expect_match "$(grep "time zone" "$LOG" | tail -n 1)" \
	    "schedule: time zone $(zone_desc Asia/Tokyo Asia/Tokyo), from $zone"
	expect_next Asia/Tokyo

	# A new link renamed over the old one, as timedatectl does.
	replace_zone link "$zi/America/New_York"
	expect_change "$(zone_desc Asia/Tokyo Asia/Tokyo)" \
	    "$(zone_desc America/New_York America/New_York)"
	expect_next America/New_York

	# A file renamed over it, as a package manager installs the zone's
	# new version: not a link, so the log names the zone as TZ does.
	replace_zone file "$zi/Asia/Tokyo"
	expect_change "$(zone_desc America/New_York America/New_York)" \
	    "$(zone_desc Test/Zone Asia/Tokyo)"
	expect_next Asia/Tokyo

	stop_daemon TERM
	[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS (TZ=$tz)"
done
pass
