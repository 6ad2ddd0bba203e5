#!/bin/sh
# make install to a DESTDIR with a PREFIX and a SYSCONFDIR of a
# packager's own (a SYSCONFDIR not under PREFIX, as /etc/opt is for
# /opt): the programs' compiled-in defaults, the manuals, the sample
# configuration and the service file all name the paths of that install
# (tests/install_check.sh), and make uninstall takes back all but the
# configuration.  Both are under $T, so that no file of this machine
# stands in for one the install did not write where it says.
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
pass
