#!/bin/sh
# A library that pkg-config cannot find stops the build before anything
# is compiled, with a line naming the package that has it (the
# "# pkg-config:" notes of deps/debian.txt, deps/freebsd.txt on
# FreeBSD).  cmocka, which only the unit tests use, stops only them: a
# package built without its tests needs no libcmocka-dev.  The Makefile
# asks $(PKG_CONFIG), as a cross build sets it, never pkg-config itself.
set -eu
. "$(dirname "$0")/lib.sh"
use_gmake
command -v pkg-config >/dev/null 2>&1 || skip "no pkg-config"
case $(uname -s) in
FreeBSD) list=deps/freebsd.txt jansson=jansson cmocka=cmocka ;;
*) list=deps/debian.txt jansson=libjansson-dev cmocka=libcmocka-dev ;;
esac

# The Makefile is GNU make's, which a BSD make (FreeBSD's own make) cannot
# read: the FreeBSD list must carry gmake, or `make deps` there is a
# parse error and nothing says what to install.  FreeBSD's make is a
# bmake; elsewhere the list installs one (bmake), so a BSD make missing
# is a failure, not a check quietly left out.
case $(uname -s) in
FreeBSD) bsdmake=/usr/bin/make ;;
*)
	bsdmake=bmake
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$top/$list" | grep -qx bmake ||
		fail "$list does not list bmake"
	;;
esac
command -v "$bsdmake" >/dev/null 2>&1 ||
	fail "no $bsdmake: make deps installs it (listed in $list)"
rc=0
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$bsdmake" -C "$top" -n all \
    >"$T/bmake.out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "$bsdmake reads the Makefile: is gmake still needed?"
sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$top/deps/freebsd.txt" |
    grep -qx gmake || fail "deps/freebsd.txt does not list gmake"

# A search path with the modules of this machine, one taken out at a
# time, behind a pkg-config that notes its calls.
mkdir -p "$T/pc"
pkg-config --variable pc_path pkg-config | tr ':' '\n' >"$T/dirs"
while read -r d; do
	for f in "$d"/*.pc; do
		[ -e "$f" ] || continue
		[ -e "$T/pc/${f##*/}" ] || ln -s "$f" "$T/pc/${f##*/}"
	done
done <"$T/dirs"
[ -e "$T/pc/jansson.pc" ] && [ -e "$T/pc/cmocka.pc" ] ||
	fail "no jansson.pc or cmocka.pc on the search path: $(cat "$T/dirs")"
mkdir "$T/aside"
cat >"$T/pkg-config" <<EOF
#!/bin/sh
echo "\$*" >>"$T/pc.log"
PKG_CONFIG_LIBDIR="$T/pc" exec pkg-config "\$@"
EOF
chmod +x "$T/pkg-config"

# mk ARGS...: the Makefile of the tree, not the make that runs the tests
# (whose command-line variables MAKEFLAGS would hand down).
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$gmake" -C "$top" \
	    --no-print-directory BUILD="$T/build" PKG_CONFIG="$T/pkg-config" "$@"
}

mv "$T/pc/jansson.pc" "$T/aside/"
rc=0
mk all >"$T/out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "make all without jansson.pc succeeded"
expect_match "$(cat "$T/out")" "perfwatch: $T/pkg-config finds no jansson: \
install $jansson (listed in $list; make deps installs the list)"
[ -z "$(find "$T/build" -name '*.o')" ] ||
	fail "compiled without jansson: $(find "$T/build" -name '*.o' | head -n 3)"
grep -q 'jansson' "$T/pc.log" || fail "the Makefile did not ask PKG_CONFIG"
mv "$T/aside/jansson.pc" "$T/pc/"

# Without cmocka: the programs would build, a unit test would not.
mv "$T/pc/cmocka.pc" "$T/aside/"
mk -n all >"$T/out" 2>&1 || fail "make -n all without cmocka: $(cat "$T/out")"
case $(cat "$T/out") in
*pkgcheck*) fail "make all checks for cmocka: $(grep pkgcheck "$T/out")" ;;
esac
grep -q -- "-o $T/build/bin/perfwatch " "$T/out" ||
	fail "make -n all would not link perfwatch: $(tail -n 3 "$T/out")"
rc=0
mk "$T/build/tests/test_common" >"$T/out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "a unit test built without cmocka.pc"
expect_match "$(cat "$T/out")" "perfwatch: $T/pkg-config finds no cmocka: \
install $cmocka (listed in $list"
[ ! -e "$T/build/tests/unit/test_common.o" ] || fail "test_common.o compiled"
mv "$T/aside/cmocka.pc" "$T/pc/"

# No pkg-config at all.
rc=0
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$gmake" -C "$top" \
    --no-print-directory BUILD="$T/build" PKG_CONFIG="$T/no-pkg-config" \
    all >"$T/out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "make all without pkg-config succeeded"
case $list in
*debian*) want=pkg-config ;;
*) want=pkgconf ;;
esac
expect_match "$(cat "$T/out")" "perfwatch: no $T/no-pkg-config: install $want"
pass
