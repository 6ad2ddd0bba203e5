#!/bin/sh
# `make dist`: pack what git tracks at HEAD into BUILD/NAME.tar.gz, under
# NAME/, less the paths .gitattributes marks export-ignore.  The tarball
# is the same bytes for the same commit (git archive stamps every member
# with the commit's time, and compresses with gzip -n, which leaves out
# its own name and time).
#
# usage: sh scripts/dist.sh BUILD NAME
set -eu
if [ $# -ne 2 ] || [ -z "$2" ]; then
	echo "usage: sh scripts/dist.sh BUILD NAME" >&2
	exit 64
fi
build=$1 name=$2
case $name in
perfwatch-[0-9]*) ;;
*)
	echo "make dist: \"$name\": no version read from common/perfwatch.h" >&2
	exit 65
	;;
esac
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "make dist: not a git checkout: the tarball is made of what git" \
	    "tracks at HEAD" >&2
	exit 69
fi
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "make dist: warning: uncommitted changes are not in the" \
	    "tarball; it is HEAD ($(git rev-parse --short HEAD))" >&2
fi
mkdir -p "$build"
out="$build/$name.tar.gz"
git archive --format=tar.gz -9 --prefix="$name/" -o "$out.tmp" HEAD
mv "$out.tmp" "$out"
files=$(tar -tzf "$out" | grep -vc '/$')
size=$(wc -c <"$out" | tr -d ' ')
if command -v sha256sum >/dev/null 2>&1; then
	sum=$(sha256sum "$out" | cut -d' ' -f1)
else
	sum=$(sha256 -q "$out")	# FreeBSD
fi
echo "$out: $files files, $size bytes, commit $(git rev-parse --short HEAD)"
echo "sha256 $sum"
