#!/bin/sh
# env show and env diff line their columns up by what a terminal shows:
# a package named "café" (five bytes, four columns) or "fonts-日本"
# (twelve bytes, eight columns) pushed the columns after it left when
# they were padded by bytes.
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/dpkg-a" "$T/dpkg-b"
{
	dpkg_stanza café 1.0-1
	dpkg_stanza fonts-日本 2.0~ü1 all
	dpkg_stanza zlib1g 1:1.2.13
} >"$T/dpkg-a/status"
{
	dpkg_stanza café 1.1-1			# upgraded
	dpkg_stanza zlib1g 1:1.2.13		# fonts-日本 removed
	dpkg_stanza ñandú 3.0-1			# installed
} >"$T/dpkg-b/status"

dpkg_runs

# The package lines of env show: name, version and arch each in a column.
pw env show --packages run-a >"$T/show.out"
got=$(grep '^  ' "$T/show.out")
want="  café        1.0-1     amd64
  fonts-日本  2.0~ü1    all
  zlib1g      1:1.2.13  amd64"
expect_eq "$got" "$want"

# The package lines of env diff: the versions start in one column.
pw env diff run-a run-b >"$T/diff.out"
got=$(grep -E '^(upgraded|removed|installed) ' "$T/diff.out")
want="upgraded    café        1.0-1 → 1.1-1
removed     fonts-日本  2.0~ü1
installed   ñandú       3.0-1"
expect_eq "$got" "$want"
pass
