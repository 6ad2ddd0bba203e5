#!/bin/sh
# The libraries pkg-config did not find, each with the package that has
# it, so that a build on a machine without, say, libjansson-dev says so
# rather than failing later on a missing header or a link line without
# any library.  The package comes from the "# pkg-config: NAME" note of
# its line in deps/debian.txt (deps/freebsd.txt on FreeBSD).  Always
# exits 1: the Makefile runs it only when something is missing.
#
# usage: sh scripts/pkgcheck.sh PKG_CONFIG MODULE...
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
pc=$1
shift
case "$(uname -s)" in
FreeBSD) list=deps/freebsd.txt ;;
*) list=deps/debian.txt ;;
esac

# The package whose line in the list carries "# pkg-config: $1".
package_of() {
	sed -n "s/^\([^#[:space:]][^#[:space:]]*\).*# pkg-config: $1\$/\1/p" \
	    "$here/$list"
}

if ! command -v "$pc" >/dev/null 2>&1; then
	echo "perfwatch: no $pc: install $(package_of pkg-config)" \
	    "(listed in $list; make deps installs the list)" >&2
	exit 1
fi
for m in "$@"; do
	p=$(package_of "$m")
	echo "perfwatch: $pc finds no $m: install ${p:-the package of $m.pc}" \
	    "(listed in $list; make deps installs the list)" >&2
done
exit 1
