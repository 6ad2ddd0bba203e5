#!/bin/sh
# The manuals read by the two formatters a distribution checks them
# with: mandoc -Tlint reports nothing, style messages included, and
# man-db's groff (as lintian runs it) renders each without a warning.
# Two kinds of mandoc's style messages are about the machine, not the
# page, and are left out: a manual of .Xr not installed here, and
# mandoc.db not knowing one.  A formatter that is not installed is said
# to be skipped.
set -eu
. "$(dirname "$0")/lib.sh"
top=${PERFWATCH_TOP:?}

skipped=""
if command -v mandoc >/dev/null 2>&1; then
	for f in "$top"/man/*.[158]; do
		rc=0
		mandoc -Tlint -Wstyle "$f" >"$T/lint.all" 2>&1 || rc=$?
		grep -v -e ': STYLE: referenced manual not found: ' \
		    -e '^mandoc: outdated mandoc.db lacks ' \
		    "$T/lint.all" >"$T/lint.out" || true
		# Exit 1 is style messages only: those of the machine, when
		# nothing is left once they are left out.
		[ "$rc" -le 1 ] && [ ! -s "$T/lint.out" ] ||
			fail "mandoc -Tlint ${f##*/}: exit $rc: $(cat "$T/lint.out")"
		# A quote opened inside another: Ql, Dq and the like
		# enclose the rest of their line, the next Ql too, so that
		# ".Pq Ql a No or Ql b" read "(‘a or ‘b’’)"; neither
		# formatter warns of it.
		# (The text without its overstrikes, on one line.)
		LC_ALL=C.UTF-8 mandoc -Tutf8 "$f" |
		    LC_ALL=C.UTF-8 sed "s/.$(printf '\b')//g" |
		    tr '\n' ' ' >"$T/text"
		# shellcheck disable=SC1112 # mandoc's quotes, meant
		nested=$(LC_ALL=C.UTF-8 grep -Eo '‘[^’]*‘[^’]*’|“[^”]*“[^”]*”' \
		    "$T/text" || true)
		[ -z "$nested" ] ||
			fail "${f##*/}: a quote inside a quote: $nested"
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
