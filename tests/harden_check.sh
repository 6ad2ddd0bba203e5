#!/bin/sh
# The installed programs of a build with Debian's hardening flags carry
# them: position independent, RELRO and BIND_NOW (LDFLAGS reached the
# link), stack protector and fortified libc calls (CFLAGS and CPPFLAGS
# reached the compiler).  Run by `make check-build` on what `make
# install` put under a DESTDIR.
#
# usage: harden_check.sh PROGRAM...
set -eu
if [ $# -eq 0 ]; then
	echo "usage: harden_check.sh PROGRAM..." >&2
	exit 64
fi
command -v readelf >/dev/null 2>&1 || {
	echo "harden_check: no readelf" >&2
	exit 1
}
fail() {
	echo "harden_check: $*" >&2
	exit 1
}
for f in "$@"; do
	[ -f "$f" ] || fail "no $f"
	readelf -h "$f" | grep -q 'Type:.*DYN' ||
		fail "$f is not position independent: $(readelf -h "$f" |
		    grep 'Type:')"
	readelf -lW "$f" | grep -q 'GNU_RELRO' || fail "$f: no GNU_RELRO segment"
	readelf -dW "$f" | grep -Eq '\(BIND_NOW\)|\(FLAGS\).*NOW|\(FLAGS_1\).*NOW' ||
		fail "$f: no BIND_NOW (LDFLAGS -Wl,-z,now)"
	syms=$(readelf --dyn-syms -W "$f")
	case $syms in
	*__stack_chk_fail*) ;;
	*) fail "$f: no stack protector (CFLAGS -fstack-protector-strong)" ;;
	esac
	printf '%s\n' "$syms" | grep -Eq ' __[a-z_]+_chk(@|$)' ||
		fail "$f: no fortified call (CPPFLAGS -D_FORTIFY_SOURCE)"
done
echo "harden_check: $# programs hardened"
