#!/bin/sh
# The service files and perfwatchd -n.  The rc.d script passes sh -n
# and ShellCheck; the systemd unit passes systemd-analyze verify (its
# ExecStart pointed at the built binary, its Documentation= at our
# manuals); sysusers and tmpfiles snippets are applied to a scratch root.
# Tools that are not installed are said to be skipped.  perfwatchd -n
# exits 0 on a good file and 78 with file:line on a bad one; the exit
# statuses and options are those its manual lists.
set -eu
. "$(dirname "$0")/daemon.subr"

top=${PERFWATCH_TOP:-$(pwd)}
skipped=""

sh -n "$top/rc.d/perfwatchd" || fail "sh -n rc.d/perfwatchd"
if command -v shellcheck >/dev/null 2>&1; then
	shellcheck -s sh "$top/rc.d/perfwatchd" >"$T/shellcheck.out" 2>&1 ||
		fail "shellcheck rc.d/perfwatchd: $(cat "$T/shellcheck.out")"
else
	skipped="$skipped shellcheck"
fi
# What rc.subr reads.
for v in 'name="perfwatchd"' 'rcvar="perfwatchd_enable"' 'sig_reload="HUP"' \
    'pidfile="${perfwatchd_pidfile}"' 'extra_commands="reload configtest"'; do
	grep -qF "$v" "$top/rc.d/perfwatchd" || fail "rc.d lacks $v"
done

if command -v systemd-analyze >/dev/null 2>&1; then
	mkdir -p "$T/man/man1" "$T/man/man5" "$T/man/man8" "$T/unit"
	cp "$top/man/perfwatch.1" "$T/man/man1/"
	cp "$top/man/perfwatch.conf.5" "$T/man/man5/"
	cp "$top/man/perfwatchd.8" "$T/man/man8/"
	sed "s#^ExecStart=/usr/sbin/perfwatchd#ExecStart=$PERFWATCHD#" \
	    "$top/systemd/perfwatchd.service" >"$T/unit/perfwatchd.service"
	grep -q "^ExecStart=$PERFWATCHD " "$T/unit/perfwatchd.service" ||
		fail "ExecStart not rewritten"
	MANPATH="$T/man" timeout 60 systemd-analyze verify \
	    "$T/unit/perfwatchd.service" >"$T/verify.out" 2>&1 ||
		fail "systemd-analyze verify: $(cat "$T/verify.out")"
	[ ! -s "$T/verify.out" ] || fail "systemd-analyze: $(cat "$T/verify.out")"
else
	skipped="$skipped systemd-analyze"
fi
for k in Type=notify User=perfwatch StateDirectory=perfwatch \
    RuntimeDirectory=perfwatch ProtectSystem=strict NoNewPrivileges=yes \
    PrivateTmp=yes ProtectHome=yes KillMode=mixed \
    'RestartPreventExitStatus=64 78'; do
	grep -qx "$k" "$top/systemd/perfwatchd.service" || fail "the unit lacks $k"
done

if command -v systemd-sysusers >/dev/null 2>&1 &&
    command -v systemd-tmpfiles >/dev/null 2>&1; then
	mkdir -p "$T/root/etc" "$T/root/var/lib" "$T/root/var/tmp"
	timeout 30 systemd-sysusers --root="$T/root" \
	    "$top/systemd/perfwatch.sysusers" >"$T/sysusers.out" 2>&1 ||
		fail "systemd-sysusers: $(cat "$T/sysusers.out")"
	grep -q '^perfwatch:x:[0-9]*:[0-9]*:perfwatch daemon:/var/lib/perfwatch:' \
	    "$T/root/etc/passwd" || fail "no perfwatch user: $(cat "$T/root/etc/passwd")"
	grep -q '^perfwatch:x:' "$T/root/etc/group" || fail "no perfwatch group"
	# Only root may give the directories to perfwatch: a build as
	# another user (a distribution's) applies the snippet with its own
	# ids in place of the owners, which are then checked by name.  The
	# state directory is perfwatch's; the work directory is root's and
	# shared, as /var/tmp, by every user's runs by hand.
	uid=$(grep '^perfwatch:' "$T/root/etc/passwd" | cut -d: -f3)
	root_uid=0
	tmpfiles="$top/systemd/perfwatch.tmpfiles"
	if [ "$(id -u)" -ne 0 ]; then
		grep -qx "d /var/lib/perfwatch 0750 perfwatch perfwatch -" \
		    "$tmpfiles" ||
			fail "the snippet does not give /var/lib/perfwatch to perfwatch"
		grep -qx "d /var/tmp/perfwatch 1777 root root -" "$tmpfiles" ||
			fail "the snippet does not share /var/tmp/perfwatch"
		uid=$(id -u)
		root_uid=$uid
		sed -e "s/ perfwatch perfwatch / $uid $(id -g) /" \
		    -e "s/ root root / $uid $(id -g) /" "$tmpfiles" \
		    >"$T/tmpfiles.conf"
		tmpfiles="$T/tmpfiles.conf"
	fi
	timeout 30 systemd-tmpfiles --root="$T/root" --create "$tmpfiles" \
	    >"$T/tmpfiles.out" 2>&1 ||
		fail "systemd-tmpfiles: $(cat "$T/tmpfiles.out")"
	[ "$(stat -c '%a %u' "$T/root/var/lib/perfwatch")" = "750 $uid" ] ||
		fail "var/lib/perfwatch: $(stat -c '%a %u' "$T/root/var/lib/perfwatch")"
	[ "$(stat -c '%a %u' "$T/root/var/tmp/perfwatch")" = "1777 $root_uid" ] ||
		fail "var/tmp/perfwatch: $(stat -c '%a %u' "$T/root/var/tmp/perfwatch")"
	[ "$(stat -c '%a' "$T/root/run/lock/perfwatch.lock")" = 444 ] ||
		fail "the lock: $(stat -c '%a' "$T/root/run/lock/perfwatch.lock")"
else
	skipped="$skipped systemd-sysusers/tmpfiles"
fi

# perfwatchd -n: a good file, a bad one with file:line, a cron value.
write_profile
write_conf "
[schedule]
cron = 30 2 * * 1-5"
out=$("$PERFWATCHD" -n -f "$CONF") || fail "perfwatchd -n on a good file"
expect_match "$out" "$CONF: configuration OK"
write_conf "
[schedule]
cron = 30 24 * * *
[triggers]
package_settle = soon"
rc=0
out=$("$PERFWATCHD" -n -f "$CONF" 2>&1) || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd -n on a bad file: exit $rc"
# The errors are on stderr, stdout has nothing (it had them all); the
# good file's "configuration OK" above is stdout's.
rc=0
"$PERFWATCHD" -n -f "$CONF" >"$T/n.out" 2>"$T/n.err" || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd -n on a bad file, stderr: exit $rc"
[ ! -s "$T/n.out" ] || fail "perfwatchd -n: errors on stdout: $(cat "$T/n.out")"
expect_match "$(cat "$T/n.err")" ": cron: hour: 24 is out of range 0-23"
cron_line=$(grep -n '^cron = ' "$CONF" | cut -d: -f1)
settle_line=$(grep -n '^package_settle = ' "$CONF" | cut -d: -f1)
expect_match "$out" "$CONF:$cron_line: cron: hour: 24 is out of range 0-23"
expect_match "$out" "$CONF:$settle_line: package_settle: expected a duration"
# The daemon refuses to start on it, with the same errors.
rc=0
timeout 10 "$PERFWATCHD" -d -f "$CONF" >"$T/start.out" 2>&1 || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd on a bad file: exit $rc"
grep -q "$CONF:$cron_line: cron: hour: 24" "$T/start.out" ||
	fail "$(cat "$T/start.out")"
# Workload values that every run would refuse: refused here, each at
# its line, by the rules the runs use.
write_conf "
[workload \"db.oltp\"]
threads = 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17
[workload \"disk.stream\"]
fsync_every = 512K
[workload \"sys.pipe\"]
table_size = 1000
[workload \"sys.pipx\"]
iterations = 3
[workload \"Sys.Pipe\"]
iterations = 3
[workload \"off\"]
enabled = no"
rc=0
out=$("$PERFWATCHD" -n -f "$CONF" 2>&1) || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd -n on bad workloads: exit $rc: $out"
line_of() { grep -n "^$1" "$CONF" | cut -d: -f1; }
expect_match "$out" "$CONF:$(line_of 'threads = '): threads: more than 16 counts"
expect_match "$out" "$CONF:$(line_of 'fsync_every = '): fsync_every: expected 0"
expect_match "$out" "$CONF:$(line_of 'table_size = '): key table_size does not apply to sys.pipe"
expect_match "$out" "$CONF:$(line_of '.workload "sys.pipx"'): [workload \"sys.pipx\"]: no command given"
# In another case it is no name of the battery's, nor a profile's command.
expect_match "$out" "$CONF:$(line_of '.workload "Sys.Pipe"'): [workload \"Sys.Pipe\"]: no command given, and it is not a workload of the battery (did you mean sys.pipe?)"
case $out in *'"off"'*) fail "a disabled section without a command: $out" ;; esac
rc=0
timeout 10 "$PERFWATCHD" -d -f "$CONF" >"$T/start.out" 2>&1 || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd on bad workloads: exit $rc"
grep -qF "$CONF:$(line_of 'threads = '): threads: more than 16" "$T/start.out" ||
	fail "$(cat "$T/start.out")"
write_conf "
[workload \"sys.pipe\"]
iterations = 3
[workload \"disk.stream\"]
fsync_every = 0
[workload \"mine\"]
command = true"
out=$("$PERFWATCHD" -n -f "$CONF") || fail "perfwatchd -n on good workloads: $out"
expect_match "$out" "$CONF: configuration OK"
# The profile the runs would measure: a misspelt name is found by -n, as
# every battery would stop on it (78); the name is looked for where the
# runs look, PERFWATCH_PROFILE_DIR first; a profile with a bad workload
# key is refused at its line.
sed "s#^profile = .*#profile = nighlty#" "$CONF" >"$T/prof.conf"
rc=0
out=$(PERFWATCH_PROFILE_DIR="$top/etc/profiles" "$PERFWATCHD" -n \
    -f "$T/prof.conf" 2>&1) || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd -n, profile nighlty: exit $rc: $out"
# At the line of profile, as every error of the file is.
expect_match "$out" "$T/prof.conf:$(line_of 'profile = '): [perfwatch] profile \"nighlty\" (did you mean nightly?) not found (looked in $top/etc/profiles, $T/state/profiles, "
# A profile file by a relative name: the daemon and its runs work in /,
# where it would be looked for, so -n refuses it at its line although a
# file of that name is here.
cp "$T/profile.conf" "$T/relprof.conf"
sed "s#^profile = .*#profile = ./relprof.conf#" "$CONF" >"$T/prof.conf"
rc=0
out=$(cd "$T" && "$PERFWATCHD" -n -f "$T/prof.conf" 2>&1) || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd -n, profile ./relprof.conf: exit $rc: $out"
expect_match "$out" "$T/prof.conf:$(line_of 'profile = '): [perfwatch] profile \"./relprof.conf\": a file is named by its absolute path"
sed "s#^profile = .*#profile = nightly#" "$CONF" >"$T/prof.conf"
out=$(PERFWATCH_PROFILE_DIR="$top/etc/profiles" "$PERFWATCHD" -n \
    -f "$T/prof.conf") || fail "perfwatchd -n, profile nightly: $out"
expect_match "$out" "$T/prof.conf: configuration OK"
printf '[workload "sys.pipe"]\nthreads = 2\n' >"$T/badprof.conf"
sed "s#^profile = .*#profile = $T/badprof.conf#" "$CONF" >"$T/prof.conf"
rc=0
out=$("$PERFWATCHD" -n -f "$T/prof.conf" 2>&1) || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd -n, a bad profile: exit $rc: $out"
expect_match "$out" "$T/badprof.conf:2: key threads does not apply to sys.pipe"
rc=0
"$PERFWATCHD" -n -f "$T/prof.conf" >"$T/n.out" 2>"$T/n.err" || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd -n, a bad profile, stderr: exit $rc"
[ ! -s "$T/n.out" ] || fail "perfwatchd -n: errors on stdout: $(cat "$T/n.out")"
expect_match "$(cat "$T/n.err")" "$T/badprof.conf:2: key threads does not apply to sys.pipe"
# A profile's [quiet] would be read by nobody: every run refuses it, and
# so does -n.
printf '[workload "sys.pipe"]\niterations = 3\n[quiet]\npolicy = skip\n' \
    >"$T/badprof.conf"
rc=0
out=$("$PERFWATCHD" -n -f "$T/prof.conf" 2>&1) || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatchd -n, a profile's [quiet]: exit $rc: $out"
expect_match "$out" "$T/badprof.conf:3: [quiet]: a profile holds [workload] sections only"
# A sink key with a bad value is that one error, not also "missing"; a
# port out of range is said to be one.
for sink in 'type = pager' 'type = email
to = nobody
smtp_url = smtp://h:25' 'type = email
to = ops@example.org
smtp_url = smtp://h:99999' 'type = email
to = ops@example.org
sendmail = maybe' 'type = webhook
url = gopher://h'; do
	printf '[sink "a"]\n%s\n' "$sink" >"$T/sink.conf"
	rc=0
	out=$("$PERFWATCHD" -n -f "$T/sink.conf" 2>&1) || rc=$?
	[ "$rc" -eq 78 ] || fail "perfwatchd -n on a bad sink: exit $rc: $out"
	[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] ||
		fail "more than one error for one mistake: $out"
	case $out in *missing*) fail "a bad value said missing: $out" ;; esac
done
expect_match "$out" "$T/sink.conf:3: url: expected a URL starting with http"
printf '[sink "a"]\ntype = email\nto = ops@example.org\nsmtp_url = smtp://h:99999\n' \
    >"$T/sink.conf"
out=$("$PERFWATCHD" -n -f "$T/sink.conf" 2>&1) && fail "port 99999 accepted"
expect_match "$out" "$T/sink.conf:4: smtp_url: expected a port from 1 to 65535"
rc=0
"$PERFWATCHD" -x >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 64 ] || fail "a bad option: exit $rc"
"$PERFWATCHD" -x 2>&1 | grep -qF "usage: perfwatchd [-dhnvV] [-f file]" ||
	fail "the usage line: $("$PERFWATCHD" -x 2>&1)"
expect_match "$("$PERFWATCHD" -V)" "perfwatchd "
# A word it does not take (a file without -f, say) is named, then the
# usage line, 64.
rc=0
"$PERFWATCHD" -n "$CONF" >"$T/word.out" 2>"$T/word.err" || rc=$?
[ "$rc" -eq 64 ] || fail "perfwatchd -n FILE: exit $rc"
[ ! -s "$T/word.out" ] || fail "perfwatchd -n FILE printed: $(cat "$T/word.out")"
expect_eq "$(cat "$T/word.err")" "perfwatchd: unexpected argument '$CONF'
usage: perfwatchd [-dhnvV] [-f file]"
# A -f file that is not there, without -d (the log is syslog then): said
# on standard error, as every other error of the configuration is, 78.
rc=0
timeout 10 "$PERFWATCHD" -f "$T/no-such.conf" >"$T/nofile.out" \
    2>"$T/nofile.err" || rc=$?
[ "$rc" -eq 78 ] || fail "a missing -f file: exit $rc"
expect_eq "$(cat "$T/nofile.err")" "$T/no-such.conf: No such file or directory"
# A state directory that cannot be created: 73, as perfwatchd(8) says.
touch "$T/plain"
write_conf
sed "s#^state_dir = .*#state_dir = $T/plain/state#" "$CONF" >"$T/nodir.conf"
rc=0
timeout 10 "$PERFWATCHD" -d -f "$T/nodir.conf" >"$T/nodir.out" 2>&1 || rc=$?
[ "$rc" -eq 73 ] || fail "an uncreatable state_dir: exit $rc"
# Without -f, a missing default file is every key at its default for -n
# as for the daemon (on a machine without one installed).
def=$("$PERFWATCHD" -h | sed -n 's/.*the configuration (default \(.*\))$/\1/p')
[ -n "$def" ] || fail "perfwatchd -h names no default file"
if [ -e "$def" ]; then
	skipped="$skipped perfwatchd-n-default($def exists)"
elif [ "$(id -u)" -eq 0 ] && ! getent passwd perfwatch >/dev/null; then
	# Root would drop to the default user, which this machine lacks.
	rc=0
	out=$("$PERFWATCHD" -n 2>&1) || rc=$?
	[ "$rc" -eq 78 ] || fail "perfwatchd -n without user perfwatch: exit $rc"
	expect_match "$out" "$def: [perfwatch] user perfwatch does not exist"
else
	# The default profile, nightly, from the tree (-n looks for it).
	export PERFWATCH_PROFILE_DIR="$top/etc/profiles"
	out=$("$PERFWATCHD" -n) || fail "perfwatchd -n without $def: exit $?: $out"
	expect_match "$out" "$def: not found; every key at its default"
	out=$("$PERFWATCHD" -n -v) || fail "perfwatchd -n -v without $def"
	unset PERFWATCH_PROFILE_DIR
	expect_match "$out" "state_dir = /var/lib/perfwatch"
fi
# As root, -n asks what the daemon's start asks of [perfwatch] user and
# group (rc.d's configtest relies on it): an account that does not exist
# is a bad configuration, not a daemon that stops at start.
if [ "$(id -u)" -eq 0 ]; then
	for key in user group; do
		sed "s#^$key = .*#$key = nosuch-pw-$key#" "$CONF" >"$T/acct.conf"
		grep -q "^$key = nosuch-pw-$key" "$T/acct.conf" ||
			fail "the test's config has no $key line"
		rc=0
		out=$("$PERFWATCHD" -n -f "$T/acct.conf" 2>&1) || rc=$?
		[ "$rc" -eq 78 ] || fail "perfwatchd -n, $key nosuch: exit $rc: $out"
		expect_match "$out" "[perfwatch] $key nosuch-pw-$key does not exist"
		rc=0
		timeout 10 "$PERFWATCHD" -d -f "$T/acct.conf" >"$T/acct.out" 2>&1 ||
			rc=$?
		[ "$rc" -eq 78 ] || fail "perfwatchd, $key nosuch: exit $rc"
	done
	sed -e 's#^allow_root = .*#allow_root = no#' "$CONF" >"$T/acct.conf"
	rc=0
	out=$("$PERFWATCHD" -n -f "$T/acct.conf" 2>&1) || rc=$?
	[ "$rc" -eq 78 ] || fail "perfwatchd -n, user root: exit $rc: $out"
	expect_match "$out" "workloads never run as root"
else
	skipped="$skipped perfwatchd-n-account(not root)"
fi
# A socket path that names a file other than a socket (a typo naming the
# database, say): refused with exit 1, and the file left as it was.
echo precious >"$T/precious"
sed "s#^socket = .*#socket = $T/precious#" "$CONF" >"$T/notsock.conf"
rc=0
timeout 10 "$PERFWATCHD" -d -f "$T/notsock.conf" >"$T/notsock.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "a socket path naming a file: exit $rc"
expect_eq "$(cat "$T/precious")" precious
grep -qF "$T/precious: exists and is not a socket" "$T/notsock.out" ||
	fail "$(cat "$T/notsock.out")"
# The manual's synopsis and exit statuses say what the daemon does.
grep -qx '.Op Fl dhnvV' "$top/man/perfwatchd.8" || fail "perfwatchd(8): no -V"
sed -n '/^.Sh EXIT STATUS/,/^.Sh /p' "$top/man/perfwatchd.8" >"$T/exit.man"
for code in 0 1 64 73 78; do
	grep -qw "$code" "$T/exit.man" || fail "perfwatchd(8) does not list exit $code"
done
[ -z "$skipped" ] || echo "skipped (not installed):$skipped"
pass
