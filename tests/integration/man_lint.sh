#!/bin/sh
# The manuals read by the two formatters a distribution checks them
# with: mandoc -Tlint reports nothing at warning level or above, and
# man-db's groff (as lintian runs it) renders each without a warning.
# A formatter that is not installed is said to be skipped.
set -eu
. "$(dirname "$0")/lib.sh"
top=${PERFWATCH_TOP:?}

skipped=""
if command -v mandoc >/dev/null 2>&1; then
	for f in "$top"/man/*.[158]; do
		rc=0
		mandoc -Tlint -Wwarning "$f" >"$T/lint.out" 2>&1 || rc=$?
		[ "$rc" -eq 0 ] && [ ! -s "$T/lint.out" ] ||
			fail "mandoc -Tlint ${f##*/}: exit $rc: $(cat "$T/lint.out")"
	done
else
	skipped="$skipped mandoc"
fi
if command -v man >/dev/null 2>&1 && man --help 2>&1 | grep -q -- --warnings
then
	for f in "$top"/man/*.[158]; do
		LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 \
		    -l -Tutf8 -Z "$f" 2>"$T/groff.err" >/dev/null ||
			fail "man -l ${f##*/}: $(cat "$T/groff.err")"
		[ ! -s "$T/groff.err" ] ||
			fail "man --warnings ${f##*/}: $(cat "$T/groff.err")"
	done
else
	skipped="$skipped man-db"
fi
[ -z "$skipped" ] || echo "skipped (not installed):$skipped"
pass
