#!/bin/sh
# perfwatchd -n -v prints every effective value, and what it prints is a
# configuration: read back, it prints the same.  A [workload] section
# used to get the defaults of any workload's kind (measure = output and
# destroy_data = no for sys.pipe, which the file refuses: "key
# destroy_data does not apply to sys.pipe") and none of the workload's
# own (sys.pipe's timeout of 10m, disk.bonnie's 6h and 10s of settle).
# A sink's URL is printed as the logs show it, without its password or
# token: the dump printed both.  A key that the profile's section of the
# workload sets and the configuration's does not is printed as the
# profile sets it, which a run reads first: the dump printed the
# workload's default (quick's sys.pipe "duration = 10s", not 2s), and the
# dump read back as a configuration made the runs longer.  Its first
# line, "FILE: configuration OK", is a comment: saved as it is, the dump
# was refused ("expected key = value").
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual '
[workload "sys.pipe"]
iterations = 3

[workload "disk.bonnie"]
enabled = no

[workload "disk.stream"]
size = 1536M

[workload "app"]
command = true
measure = time

[sink "mail"]
type = email
to = ops@example.org
smtp_url = smtp://me:s3cretpw@127.0.0.1:2525

[sink "hook"]
type = webhook
url = https://t0ken42@hooks.example.org/perf?x=1'
"$PERFWATCHD" -n -v -f "$CONF" >"$T/dump" 2>"$T/err" ||
	fail "perfwatchd -n -v: $(cat "$T/err")"
expect_eq "$(head -n 1 "$T/dump")" "# $CONF: configuration OK"

# section NAME: the keys of [workload "NAME"] in the dump, one line.
section() {
	sed -n "/^\[workload \"$1\"\]\$/,/^\$/p" "$T/dump" | sed '1d;/^$/d' |
	    tr '\n' '|'
}
expect_eq "$(section sys.pipe)" "enabled = yes|iterations = 3|warmup = 0|timeout = 10m|grace = 5s|duration = 10s|settle = 0s|"
expect_eq "$(section disk.bonnie)" "enabled = no|iterations = 5|warmup = 0|timeout = 6h|grace = 5s|size = 2x|seeks = 8000|seekers = 3|settle = 10s|"
expect_eq "$(section disk.stream)" "enabled = yes|iterations = 5|warmup = 0|timeout = 30m|grace = 5s|size = 1536M|fsync_every = 128M|direct = no|destroy_data = no|settle = 10s|"
expect_eq "$(section app)" "enabled = yes|iterations = 5|warmup = 0|timeout = 30m|grace = 5s|command = true|measure = time|settle = 0s|"
expect_eq "$(grep '^smtp_url' "$T/dump")" "smtp_url = smtp://me:***@127.0.0.1:2525"
expect_eq "$(grep '^url' "$T/dump")" "url = https://***@hooks.example.org/perf?x=1"
if grep -q 's3cretpw\|t0ken42' "$T/dump"; then
	fail "the dump shows a secret: $(grep 's3cretpw\|t0ken42' "$T/dump")"
fi

# Read back as it is, the dump is the same configuration.
cp "$T/dump" "$T/again.conf"
"$PERFWATCHD" -n -v -f "$T/again.conf" >"$T/dump2" 2>"$T/err" ||
	fail "the dump read back: $(cat "$T/err")"
expect_eq "$(head -n 1 "$T/dump2")" "# $T/again.conf: configuration OK"
sed 1d "$T/again.conf" >"$T/values"
sed 1d "$T/dump2" | cmp -s - "$T/values" ||
	fail "the dump read back differs: $(sed 1d "$T/dump2" |
	    diff "$T/values" - || :)"

# The profile's sections first, then the configuration's over them, as
# a run reads them; a battery workload the profile does not run is only
# tuned (sys.pipe above: its defaults).
cat >"$T/prof2.conf" <<EOF
[workload "tiny"]
command = true
measure = time
iterations = 1

[workload "sys.pipe"]
duration = 2s
iterations = 3
warmup = 1

[workload "sys.syscall"]
enabled = no
duration = 1s
EOF
write_conf_manual '
[workload "sys.pipe"]
iterations = 1

[workload "sys.syscall"]
warmup = 2

[workload "sys.context1"]
iterations = 2'
sed -i "s|^profile = .*|profile = $T/prof2.conf|" "$CONF"
"$PERFWATCHD" -n -v -f "$CONF" >"$T/dump" 2>"$T/err" ||
	fail "perfwatchd -n -v with a profile: $(cat "$T/err")"
expect_eq "$(section sys.pipe)" "enabled = yes|iterations = 1|warmup = 1|timeout = 10m|grace = 5s|duration = 2s|settle = 0s|"
expect_eq "$(section sys.syscall)" "enabled = no|iterations = 5|warmup = 2|timeout = 10m|grace = 5s|duration = 1s|settle = 0s|"
expect_eq "$(section sys.context1)" "enabled = yes|iterations = 2|warmup = 0|timeout = 10m|grace = 5s|duration = 10s|settle = 0s|"
sed 1d "$T/dump" >"$T/again.conf"
"$PERFWATCHD" -n -v -f "$T/again.conf" >"$T/dump2" 2>"$T/err" ||
	fail "the dump with a profile read back: $(cat "$T/err")"
sed 1d "$T/dump2" | cmp -s - "$T/again.conf" ||
	fail "the dump with a profile read back differs: $(sed 1d "$T/dump2" |
	    diff "$T/again.conf" - || :)"
pass
