#!/bin/sh
# The main job behind `make run`: perfwatchd in the foreground on a
# development configuration whose state, work directory and control
# socket are under var/.  It measures the quick battery at once (a
# `perfwatch trigger` sent as soon as it listens), then follows its
# schedule and triggers; Ctrl-C stops it (a battery in progress is kept,
# marked aborted).  In another terminal:
#   build/bin/perfwatch -c var/perfwatch.conf status
set -eu
BUILD=${BUILD:-build}
top=$(pwd)
pw="$top/$BUILD/bin/perfwatch"
pwd_bin="$top/$BUILD/bin/perfwatchd"
state="$top/var"
conf="$state/perfwatch.conf"
sock="$state/perfwatchd.sock"
mkdir -p "$state/work"

# A configuration from before the daemon (no socket under var/): keep it
# aside and write the new one.
if [ -f "$conf" ] && ! grep -q "^socket = $sock\$" "$conf"; then
	mv "$conf" "$conf.old"
	echo "== $conf predates perfwatchd: kept as $conf.old"
fi
if [ ! -f "$conf" ]; then
	if [ "$(id -u)" -eq 0 ]; then
		# A development machine run as root: the daemon stays root.
		account="user = root
group = root
allow_root = yes"
	else
		account="user = $(id -un)
group = $(id -gn)"
	fi
	cat >"$conf" <<EOF
# Development configuration written by \`make run\`; edit freely, then
# send perfwatchd SIGHUP (or Ctrl-C and \`make run\` again).
[perfwatch]
state_dir = $state
work_dir = $state/work
socket = $sock
profile = quick
$account

[quiet]
policy = annotate
EOF
fi
export PERFWATCH_PROFILE_DIR="$top/etc/profiles"
export PERFWATCH="$pw"

"$pwd_bin" -n -f "$conf" >/dev/null || {
	"$pwd_bin" -n -f "$conf"
	exit 78
}

# As soon as the daemon answers, ask for the quick battery.
(
	i=0
	while ! "$pw" -c "$conf" status >/dev/null 2>&1; do
		i=$((i + 1))
		[ "$i" -le 100 ] || exit 0
		sleep 0.1
	done
	"$pw" -c "$conf" trigger >/dev/null &&
	    echo "== the quick battery starts now (about 2-3 minutes);" \
		"then perfwatchd follows its schedule.  Ctrl-C stops it." >&2
) &

echo "== perfwatchd -d -v -f $conf   (status: $pw -c $conf status)"
exec "$pwd_bin" -d -v -f "$conf"
