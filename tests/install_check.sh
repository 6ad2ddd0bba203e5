#!/bin/sh
# What `make install` put under a DESTDIR: every file in its place, the
# service file, the manuals and the sample configuration naming the
# installed daemon and files, the defaults the sample shows those of the
# installed daemon, and binaries whose compiled-in paths are those of the
# PREFIX installed to (make install compiles again a build made for
# another PREFIX).  Run by `make check-build`, `make distcheck` and
# tests/integration/install_paths.sh.
#
# With -u, after `make uninstall`: nothing is left under DESTDIR but the
# configuration (which a person may have edited) and empty directories.
#
# usage: install_check.sh [-u] DESTDIR PREFIX SYSCONFDIR
set -eu
uninstalled=0
if [ "${1:-}" = -u ]; then
	uninstalled=1
	shift
fi
if [ $# -ne 3 ]; then
	echo "usage: install_check.sh [-u] DESTDIR PREFIX SYSCONFDIR" >&2
	exit 64
fi
root=$1 prefix=$2 etc=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/pw-install.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
	echo "install_check ($prefix): $*" >&2
	exit 1
}

if [ "$uninstalled" -eq 1 ]; then
	[ -d "$root" ] || fail "no $root"
	left=$(find "$root" ! -type d ! -path "$root$etc/perfwatch/*")
	[ -z "$left" ] || fail "make uninstall left: $left"
	[ -f "$root$etc/perfwatch/perfwatch.conf" ] ||
		fail "make uninstall removed the configuration"
	[ ! -e "$root$prefix/share/doc/perfwatch" ] ||
		fail "make uninstall left $prefix/share/doc/perfwatch"
	echo "install_check: $prefix uninstalled"
	exit 0
fi

for f in bin/perfwatch sbin/perfwatchd; do
	[ -x "$root$prefix/$f" ] || fail "$prefix/$f is not installed"
done
for f in man1/perfwatch.1 man5/perfwatch.conf.5 man8/perfwatchd.8; do
	[ -f "$root$prefix/share/man/$f" ] || fail "no manual $f"
done
for f in perfwatch.conf profiles/quick.conf profiles/nightly.conf \
    profiles/full.conf; do
	[ -f "$root$etc/perfwatch/$f" ] || fail "no $etc/perfwatch/$f"
	[ -f "$root$prefix/share/perfwatch/$f" ] ||
		fail "no $prefix/share/perfwatch/$f"
done
# The licence, which one of the examples (tigerbeetle-otava.csv, under
# the Apache License 2.0) must go with, that licence's text and the
# NOTICE of the work it comes from, and the README, as the tree has
# them.
for f in LICENSE LICENSE.Apache-2.0 NOTICE README.md; do
	doc="$root$prefix/share/doc/perfwatch/$f"
	[ -f "$doc" ] || fail "no $prefix/share/doc/perfwatch/$f"
	[ "$(stat -c %a "$doc" 2>/dev/null || stat -f %Lp "$doc")" = 644 ] ||
		fail "$prefix/share/doc/perfwatch/$f is not mode 0644"
	cmp -s "$doc" "$(dirname "$0")/../$f" ||
		fail "$prefix/share/doc/perfwatch/$f is not the tree's $f"
done
# bash-completion loads a command's completion by the command's name.
for f in perfwatch perfwatchd; do
	[ -f "$root$prefix/share/bash-completion/completions/$f" ] ||
		fail "no bash completion for $f"
done

# The installed programs need the libraries they use, not cmocka, the
# unit tests' (a package built from them would depend on it).
if command -v readelf >/dev/null 2>&1; then
	for f in bin/perfwatch sbin/perfwatchd; do
		needed=$(readelf -d "$root$prefix/$f" | grep NEEDED) ||
			fail "readelf -d $prefix/$f: no NEEDED entries"
		case $needed in
		*libcmocka*) fail "$prefix/$f needs libcmocka (the unit tests' only)" ;;
		esac
	done
fi

# The service file starts the daemon that was installed, on the
# configuration that was installed.  systemd's files are Linux's only,
# the rc.d script FreeBSD's only.
os=$(uname -s)
if [ "$os" != Linux ]; then
	for d in systemd/system sysusers.d tmpfiles.d; do
		[ ! -e "$root$prefix/lib/$d" ] ||
			fail "systemd's $prefix/lib/$d installed on $os"
	done
fi
# FreeBSD's goes beside the configuration, where rc(8) reads it.
if [ "$os" != FreeBSD ] && [ -e "$root$etc/rc.d/perfwatchd" ]; then
	fail "FreeBSD's rc.d script installed on $os"
fi
case $os in
FreeBSD)
	rc="$root$etc/rc.d/perfwatchd"
	[ -x "$rc" ] || fail "no rc.d script"
	grep -qF "command=\"$prefix/sbin/\${name}\"" "$rc" ||
		fail "the rc.d script runs another perfwatchd"
	grep -qF ":=$etc/perfwatch/perfwatch.conf}" "$rc" ||
		fail "the rc.d script reads another configuration"
	;;
Linux)
	unit="$root$prefix/lib/systemd/system/perfwatchd.service"
	[ -f "$unit" ] || fail "no systemd unit"
	want="ExecStart=$prefix/sbin/perfwatchd -f $etc/perfwatch/perfwatch.conf"
	grep -qxF "$want" "$unit" ||
		fail "the unit says $(grep '^ExecStart=' "$unit"), not $want"
	[ -f "$root$prefix/lib/sysusers.d/perfwatch.conf" ] ||
		fail "no sysusers.d snippet"
	# tmpfiles.d makes the sample's state_dir the daemon's own, and its
	# work_dir as perfwatchd does, shared by every user's runs by hand,
	# as /var/tmp: with perfwatch's 0750, another user's run failed
	# there, "Permission denied".
	tmpfiles="$root$prefix/lib/tmpfiles.d/perfwatch.conf"
	[ -f "$tmpfiles" ] || fail "no tmpfiles.d snippet"
	sample="$root$etc/perfwatch/perfwatch.conf"
	sampled() {
		sed -n "/^\[perfwatch\]\$/,/^\[[a-z]*\]\$/s/^#$1 = //p" \
		    "$sample"
	}
	for want in "$(sampled state_dir) 0750 perfwatch perfwatch -" \
	    "$(sampled work_dir) 1777 root root -"; do
		grep -qxF "d $want" "$tmpfiles" ||
			fail "tmpfiles.d: no line \"d $want\" in $(grep '^d ' "$tmpfiles")"
	done
	# Installed from the source, these take effect when someone does what
	# a package's postinst would: perfwatchd(8) and the README say what.
	for f in "share/man/man8/perfwatchd.8" "share/doc/perfwatch/README.md"
	do
		for cmd in systemd-sysusers "systemd-tmpfiles --create" \
		    "daemon-reload"; do
			tr '\n' ' ' <"$root$prefix/$f" | grep -qF "$cmd" ||
				fail "$f does not say to run $cmd after make install"
		done
	done
	;;
esac

# The paths compiled into perfwatch: where it looks for a profile.
rc=0
PERFWATCH_DB="$T/x.db" "$root$prefix/bin/perfwatch" \
    -c "$root$etc/perfwatch/perfwatch.conf" run --profile no-such-profile \
    >"$T/out" 2>&1 || rc=$?
[ "$rc" -eq 78 ] || fail "perfwatch run --profile no-such-profile: exit $rc"
grep -qF "$etc/perfwatch/profiles and $prefix/share/perfwatch/profiles)" \
    "$T/out" || fail "perfwatch looks elsewhere: $(cat "$T/out")"
cp "$T/out" "$T/out.profile"
# The installed configuration is one the installed daemon accepts.  As
# root, -n also asks for the account the daemon becomes, which a build
# machine lacks until the package's sysusers creates it: that answer (78)
# comes only after every key was read and found good.
rc=0
"$root$prefix/sbin/perfwatchd" -n -f "$root$etc/perfwatch/perfwatch.conf" \
    >"$T/out" 2>&1 || rc=$?
if [ "$rc" -ne 0 ]; then
	[ "$rc" -eq 78 ] && [ "$(id -u)" -eq 0 ] &&
	    ! getent passwd perfwatch >/dev/null &&
	    [ "$(cat "$T/out")" = "$root$etc/perfwatch/perfwatch.conf: \
[perfwatch] user perfwatch does not exist; create it (systemd-sysusers, pw \
useradd) or name another" ] || fail "perfwatchd -n: exit $rc: $(cat "$T/out")"
fi
# The installed manuals name the files where this install put them.
man="$root$prefix/share/man"
grep -qF "$etc/perfwatch/perfwatch.conf" "$man/man8/perfwatchd.8" ||
	fail "perfwatchd(8) does not name $etc/perfwatch/perfwatch.conf"
grep -qF "$prefix/share/perfwatch/perfwatch.conf" "$man/man5/perfwatch.conf.5" ||
	fail "perfwatch.conf(5) does not name the sample in $prefix/share/perfwatch"
grep -qF "$prefix/share/perfwatch/examples/" "$man/man1/perfwatch.1" ||
	fail "perfwatch(1) does not name the examples in $prefix/share/perfwatch"
grep -qF "$prefix/share/bash-completion/completions/perfwatch" \
    "$man/man1/perfwatch.1" || fail "perfwatch(1) names another completion"
# ... and the directories where perfwatch run looked for its profile
# above, those compiled in (not the one beside the configuration): the
# run's entry of perfwatch(1) and perfwatchd(8), whose runs look there
# too.  perfwatch(1) said "the installed examples", perfwatchd(8) named
# none of them.
sed -n 's/.*(looked for [^ ]* in \(.*\))$/\1/p' "$T/out.profile" |
    awk '{ gsub(/, | and /, "\n"); print }' | grep -v "^$root" \
    >"$T/dirs" || true
[ "$(wc -l <"$T/dirs")" -eq 2 ] ||
	fail "perfwatch run looked in: $(cat "$T/out.profile")"
while read -r d; do
	for f in man1/perfwatch.1 man8/perfwatchd.8; do
		grep -qF "$d" "$man/$f" ||
			fail "$f does not name $d, where a profile is looked for"
	done
done <"$T/dirs"
for f in man1/perfwatch.1 man5/perfwatch.conf.5 man8/perfwatchd.8; do
	other=$(grep -o '[^ ]*/etc/perfwatch/[^ ]*' "$man/$f" |
	    grep -v "^$etc/perfwatch/" || true)
	[ -z "$other" ] || fail "$f names $other, not under $etc/perfwatch"
done

# The sample configuration, the one in SYSCONFDIR and the pristine copy
# beside the examples, names its files (a sink's credentials) under this
# SYSCONFDIR, as the manuals do.
for f in "$etc/perfwatch/perfwatch.conf" \
    "$prefix/share/perfwatch/perfwatch.conf"; do
	other=$(grep -o '[^ ]*/etc/perfwatch/[^ ]*' "$root$f" |
	    grep -v "^$etc/perfwatch/" || true)
	[ -z "$other" ] || fail "$f names $other, not under $etc/perfwatch"
	grep -qxF "#credentials = $etc/perfwatch/smtp-credentials" "$root$f" ||
		fail "$f does not name $etc/perfwatch/smtp-credentials"
done
# Each default the sample shows (a "#key = value" line of a section the
# daemon reads, before the examples of named sections) is the one the
# installed daemon uses: perfwatchd -n -v prints every value.  The
# sample shows Linux's state_dir, socket and lock, and says in words
# where the BSDs keep them.  As root, -n wants [perfwatch] user to
# exist: a copy of the sample names nobody, whose user and group are
# then not compared.
sample="$root$etc/perfwatch/perfwatch.conf"
skip_keys=
case $(uname -s) in
Linux) ;;
*) skip_keys="[perfwatch] state_dir|[perfwatch] socket|[quiet] lock" ;;
esac
# A copy of the installed profiles beside it, where the account that
# perfwatchd -n as root reads them as can (a DESTDIR under a private
# directory is not such a place, as the system's is).
chmod 755 "$T"
mkdir "$T/conf"
cp -R "$root$etc/perfwatch/profiles" "$T/conf/profiles"
chmod -R a+rX "$T/conf"
if [ "$(id -u)" -eq 0 ] && ! getent passwd perfwatch >/dev/null; then
	sed -e 's/^#user = perfwatch$/user = nobody/' \
	    -e "s/^#group = perfwatch\$/group = $(id -gn nobody)/" \
	    "$sample" >"$T/conf/perfwatch.conf"
	skip_keys="$skip_keys|[perfwatch] user|[perfwatch] group"
else
	cp "$sample" "$T/conf/perfwatch.conf"
fi
"$root$prefix/sbin/perfwatchd" -n -v -f "$T/conf/perfwatch.conf" \
    >"$T/dump" 2>&1 || fail "perfwatchd -n -v: $(cat "$T/dump")"
differ=$(awk -v skip="$skip_keys" '
BEGIN {
	n = split(skip, s, "|")
	for (i = 1; i <= n; i++)
		skipped[s[i]] = 1
}
FNR == 1 { file++; sec = "" }
/^\[[a-z]+\]$/ { sec = $0; next }
file == 1 && /^#\[/ { examples = 1 }
file == 1 && !examples && sec != "" && /^#[a-z_]+ = / {
	k = substr($0, 2)
	sub(/ = .*/, "", k)
	if (!((sec " " k) in skipped)) {
		want[sec " " k] = substr($0, 2)
		keys[++nk] = sec " " k
	}
	next
}
file == 2 && sec != "" && / = / {
	k = $0
	sub(/ = .*/, "", k)
	got[sec " " k] = $0
}
END {
	if (nk == 0)
		print "no default found in the sample"
	for (i = 1; i <= nk; i++)
		if (got[keys[i]] != want[keys[i]])
			printf "%s: the sample says \"%s\", perfwatchd \"%s\"; ",
			    keys[i], want[keys[i]], got[keys[i]]
}' "$sample" "$T/dump")
[ -z "$differ" ] ||
	fail "the sample's defaults are not the daemon's: ${differ%; }"
echo "install_check: $prefix ok"
