#!/bin/sh
# make install to a DESTDIR with a PREFIX and a SYSCONFDIR of a
# packager's own (a SYSCONFDIR not under PREFIX, as /etc/opt is for
# /opt): the programs' compiled-in defaults, the manuals, the sample
# configuration and the service file all name the paths of that install
# (tests/install_check.sh), and make uninstall takes back all but the
# configuration.  Both are under $T, so that no file of this machine
# stands in for one the install did not write where it says.  Then the
# service files of each system (UNAME_S): systemd's on Linux only, and
# none where their directories are left empty; rc.d on FreeBSD only, in
# SYSCONFDIR/rc.d, where rc(8) reads it (/etc/rc.d for PREFIX=/usr, not
# /usr/etc/rc.d).
set -eu
. "$(dirname "$0")/lib.sh"
use_gmake
command -v cc >/dev/null 2>&1 || skip "no cc"

prefix=$T/opt/perfwatch
etc=$T/etc/opt
conf=$etc/perfwatch/perfwatch.conf

# mk ARGS...: the Makefile of the tree, built for that install, not the
# make that runs the tests (whose command-line variables MAKEFLAGS would
# hand down).
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$gmake" -C "$top" \
	    --no-print-directory BUILD="$T/build" PREFIX="$prefix" \
	    SYSCONFDIR="$etc" "$@"
}

mk -j2 DESTDIR="$T/root" install >"$T/out" 2>&1 ||
	fail "make install: $(tail -n 5 "$T/out")"
sh "$top/tests/install_check.sh" "$T/root" "$prefix" "$etc" \
    >"$T/check" 2>&1 || fail "$(cat "$T/check")"

# perfwatchd's default configuration is the installed one: -h says so,
# and -n without -f names it (not found there, outside the DESTDIR: the
# defaults are checked, or as root the account they name).
"$T/root$prefix/sbin/perfwatchd" -h >"$T/out" 2>&1 ||
	fail "perfwatchd -h: $(cat "$T/out")"
expect_match "$(cat "$T/out")" "-f file    the configuration (default $conf)"
"$T/root$prefix/sbin/perfwatchd" -n >"$T/out" 2>&1 || true
case $(cat "$T/out") in
"$conf: "*) ;;
*) fail "perfwatchd -n does not name $conf: $(cat "$T/out")" ;;
esac

mk DESTDIR="$T/root" uninstall >"$T/out" 2>&1 ||
	fail "make uninstall: $(tail -n 5 "$T/out")"
sh "$top/tests/install_check.sh" -u "$T/root" "$prefix" "$etc" \
    >"$T/check" 2>&1 || fail "$(cat "$T/check")"

# The service files of the system installed for (UNAME_S, uname -s by
# default): systemd's unit, sysusers.d and tmpfiles.d files on Linux
# alone, where systemd may run, and none there when a packager empties
# their directories; FreeBSD's rc.d script on FreeBSD alone.
# service_files DESTDIR: what is installed under DESTDIR but the
# programs, what is shared under PREFIX and the configuration.
p=.$prefix
service_files() {
	(cd "$1" && find . ! -type d ! -path "$p/bin/*" ! -path "$p/sbin/*" \
	    ! -path "$p/share/*" ! -path ".$etc/perfwatch/*" | sort |
	    tr '\n' ' ')
}
for os in Linux FreeBSD NetBSD OpenBSD DragonFly 'Linux SYSTEMDDIR='; do
	rm -rf "$T/os"
	case $os in
	*=*) set -- UNAME_S=Linux SYSTEMDDIR= SYSUSERSDIR= TMPFILESDIR= ;;
	*) set -- UNAME_S="$os" ;;
	esac
	mk DESTDIR="$T/os" "$@" install >"$T/out" 2>&1 ||
		fail "make install $*: $(tail -n 5 "$T/out")"
	case $os in
	Linux) want="$p/lib/systemd/system/perfwatchd.service \
$p/lib/sysusers.d/perfwatch.conf $p/lib/tmpfiles.d/perfwatch.conf " ;;
	FreeBSD) want=".$etc/rc.d/perfwatchd " ;;
	*) want= ;;
	esac
	got=$(service_files "$T/os")
	[ "$got" = "$want" ] ||
		fail "make install $*: service files \"$got\", not \"$want\""
	[ -x "$T/os$prefix/sbin/perfwatchd" ] ||
		fail "make install $*: no perfwatchd"
done

# make uninstall where systemd's directories are empty removes nothing
# outside the install: not DESTDIR/perfwatchd.service, nor
# DESTDIR/perfwatch.conf.
mk DESTDIR="$T/os" UNAME_S=NetBSD install >"$T/out" 2>&1 ||
	fail "make install UNAME_S=NetBSD: $(tail -n 5 "$T/out")"
: >"$T/os/perfwatchd.service"
: >"$T/os/perfwatch.conf"
mk DESTDIR="$T/os" UNAME_S=NetBSD uninstall >"$T/out" 2>&1 ||
	fail "make uninstall UNAME_S=NetBSD: $(tail -n 5 "$T/out")"
[ ! -e "$T/os$prefix/sbin/perfwatchd" ] ||
	fail "make uninstall UNAME_S=NetBSD left perfwatchd"
for f in perfwatchd.service perfwatch.conf; do
	[ -e "$T/os/$f" ] || fail "make uninstall UNAME_S=NetBSD removed /$f"
done

# FreeBSD's script starts the installed daemon on the installed
# configuration.
mk DESTDIR="$T/os" UNAME_S=FreeBSD install >"$T/out" 2>&1 ||
	fail "make install UNAME_S=FreeBSD: $(tail -n 5 "$T/out")"
rc="$T/os$etc/rc.d/perfwatchd"
[ -x "$rc" ] || fail "the rc.d script is not executable"
grep -qF "command=\"$prefix/sbin/\${name}\"" "$rc" ||
	fail "the rc.d script runs another perfwatchd: $(grep 'command=' "$rc")"
grep -qF ":=$conf}" "$rc" ||
	fail "the rc.d script reads another configuration: $(grep '_config' "$rc")"

# With PREFIX=/usr the configuration goes to /etc, and the script to
# /etc/rc.d: it went to /usr/etc/rc.d, which rc(8) never reads.  (The
# programs are compiled again for /usr.)
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$gmake" -C "$top" \
    --no-print-directory BUILD="$T/build" PREFIX=/usr UNAME_S=FreeBSD \
    DESTDIR="$T/usr" install >"$T/out" 2>&1 ||
	fail "make install UNAME_S=FreeBSD PREFIX=/usr: $(tail -n 5 "$T/out")"
[ ! -e "$T/usr/usr/etc" ] ||
	fail "PREFIX=/usr installed $(cd "$T/usr" && find ./usr/etc ! -type d)"
rc="$T/usr/etc/rc.d/perfwatchd"
[ -x "$rc" ] || fail "PREFIX=/usr: no executable /etc/rc.d/perfwatchd"
grep -qF 'command="/usr/sbin/${name}"' "$rc" ||
	fail "the rc.d script runs another perfwatchd: $(grep 'command=' "$rc")"
grep -qF ':=/etc/perfwatch/perfwatch.conf}' "$rc" ||
	fail "the rc.d script reads another configuration: $(grep '_config' "$rc")"
pass
