#!/bin/sh
# What a sysadmin meets when a configuration file is wrong, through the
# real binaries: each bad input below is refused by perfwatchd -n and by
# perfwatch -c with exit 78 and one line, "file:line: what is wrong", the
# same from both; and perfwatch, refused, has made no database (nothing
# half done).  Each row: a name, the file (printf %b), the message ({F}
# is the file's path).  There is no include directive, so no row for a
# missing included file.
set -eu
. "$(dirname "$0")/lib.sh"

long=$(printf '%0300d' 0 | tr 0 k)
long40=$(printf '%040d' 0 | tr 0 k)
value=$(printf '%04097d' 0 | tr 0 v)

# Every row is tried; each wrong one is said, then the test fails.
n=0
bad=0
wrong() {
	echo "FAIL: $*" >&2
	bad=$((bad + 1))
}
while IFS='|' read -r name text want; do
	[ -n "$name" ] || continue
	n=$((n + 1))
	f="$T/$name.conf"
	printf '%b' "$text" | sed "s/@LONG@/$long/; s/@VALUE@/$value/" >"$f"
	want=$(printf '%s\n' "$want" | sed "s|{F}|$f|g; s/@LONG40@/$long40/")

	rc=0
	"$PERFWATCHD" -n -f "$f" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 78 ] || wrong "$name: perfwatchd -n exited $rc"
	[ ! -s "$T/out" ] || wrong "$name: perfwatchd -n said: $(cat "$T/out")"
	[ "$(cat "$T/err")" = "$want" ] || wrong "$name: perfwatchd -n said" \
	    "\"$(cat "$T/err")\", expected \"$want\""

	rc=0
	pw -c "$f" -D "$T/$name.db" runs >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 78 ] || wrong "$name: perfwatch exited $rc"
	[ "$(cat "$T/err")" = "$want" ] || wrong "$name: perfwatch said" \
	    "\"$(cat "$T/err")\", expected \"$want\""
	[ ! -e "$T/$name.db" ] || wrong "$name: perfwatch made $T/$name.db"
done <<'EOF'
unknown_key|[schedule]\njiter = 1m\n|{F}:2: jiter: unknown key in [schedule]; did you mean jitter?
unknown_key_elsewhere|[schedule]\nmax_load = 1\n|{F}:2: max_load: unknown key in [schedule]; it is a key of [quiet]
unknown_key_far|[schedule]\nfrobnicate = 1\n|{F}:2: frobnicate: unknown key in [schedule]
bad_unit|[schedule]\njitter = 15x\n|{F}:2: jitter: expected a duration such as 90s, 10m, 2h or 1d, got "15x"
bad_size_unit|[workload "disk.stream"]\nsize = 4Q\n|{F}:2: size: expected a size such as 4096, 512M or 2G or a multiple of RAM such as 2x, got "4Q"
bad_bool|[triggers]\nkernel = maybe\n|{F}:2: kernel: expected yes, no, true, false, on, off, 1 or 0, got "maybe"
bad_enum|[quiet]\npolicy = later\n|{F}:2: policy: expected wait, skip or annotate, got "later"
out_of_range_duration|[schedule]\njitter = 2d\n|{F}:2: jitter: expected a duration from 0s to 1d, got "2d"
out_of_range_int|[detect]\nbaseline_runs = 2\n|{F}:2: baseline_runs: expected an integer from 3 to 1000, got "2"
out_of_range_number|[detect]\nfdr = 0.9\n|{F}:2: fdr: expected a number from 0.0001 to 0.5, got "0.9"
duplicate_key|[schedule]\njitter = 1m\n\njitter = 2m\n|{F}:4: jitter: duplicate key (first at line 2)
duplicate_section|[schedule]\njitter = 1m\n[schedule]\n|{F}:3: [schedule]: duplicate section (first at line 1)
unknown_section|[schedul]\njitter = 1m\n|{F}:1: [schedul]: unknown section; did you mean [schedule]?
unknown_section_far|[alerts]\nto = a@example.org\n|{F}:1: [alerts]: unknown section
section_without_name|[workload]\n|{F}:1: [workload]: expected a name, as in [workload "name"]
key_before_section|jitter = 1m\n|{F}:1: jitter: expected a [section] header before the first key
value_too_long|[workload "x"]\ncommand = @VALUE@\n|{F}:2: command: value too long, expected at most 4096 bytes
control_character|[quiet]\npolicy = wa\001it\n|{F}:2: expected text, found a control character (0x01) at byte 12 of the line
not_utf8_value|[perfwatch]\nprofile = qu\0377ick\n|{F}:2: expected UTF-8 text, found an invalid byte (0xff) at byte 13 of the line
not_utf8_latin1|[git "src"]\npath = /srv/src\nbranch = caf\0351\n|{F}:3: expected UTF-8 text, found an invalid byte (0xe9) at byte 13 of the line
not_utf8_command|[workload "x"]\ncommand = echo caf\0351 au lait\n|{F}:2: expected UTF-8 text, found an invalid byte (0xe9) at byte 19 of the line
not_utf8_overlong|[perfwatch]\nuser = \0300\0257\n|{F}:2: expected UTF-8 text, found an invalid byte (0xc0) at byte 8 of the line
not_utf8_key|[perfwatch]\nprof\0351le = quick\n|{F}:2: expected UTF-8 text, found an invalid byte (0xe9) at byte 5 of the line
not_utf8_section|[workload "caf\0351"]\ncommand = true\n|{F}:1: expected UTF-8 text, found an invalid byte (0xe9) at byte 15 of the line
unterminated_quote|[perfwatch]\nprofile = "quick\n|{F}:2: profile: found a quote that is not closed; expected a value without quotes, as in "profile = quick"
quoted_value|[git "src"]\npath = /srv/src\nbranch = "main"\n|{F}:3: branch: expected a value without quotes, as in "branch = main": a value is the rest of its line, quotes and all
quoted_single|[detect]\nbaseline = 'release'\n|{F}:2: baseline: expected a value without quotes, as in "baseline = release": a value is the rest of its line, quotes and all
quoted_enum|[perfwatch]\nlog_level = "debug"\n|{F}:2: log_level: expected a value without quotes, as in "log_level = debug": a value is the rest of its line, quotes and all
unterminated_header|[workload "x]\ncommand = true\n|{F}:1: [workload "x]: expected a '"' to close the name, as in [workload "name"]
missing_equals|[schedule]\njitter 1m\n|{F}:2: expected key = value, found no '=' in "jitter 1m"
missing_equals_bare|[schedule]\n# the next line is a key alone\ncatch_up\n|{F}:3: expected key = value, found no '=' in "catch_up"
key_too_long|[schedule]\n@LONG@ = 1\n|{F}:2: @LONG40@...: unknown key in [schedule]
key_with_dashes|[schedule]\ncatch-up = no\n|{F}:2: "catch-up": expected key = value, the key made of letters, digits and '_'; did you mean catch_up?
EOF
[ "$n" -ge 32 ] || fail "only $n cases were read"
[ "$bad" -eq 0 ] || fail "$bad of the answers to $n bad files were wrong"

# Valid UTF-8 stays valid: a comment and a command in French are taken,
# and so is a comment line in Latin-1, which nothing reads.
printf '[workload "y"]\ncommand = true\n' >"$T/prof.conf"
printf '[perfwatch]\nuser = %s\ngroup = %s\nallow_root = yes\nprofile = %s\n' \
    "$(id -un)" "$(id -gn)" "$T/prof.conf" >"$T/utf8.conf"
printf '# r\303\251sum\303\251\n# r\351sum\351\n[workload "x"]\ncommand = echo caf\303\251\n' \
    >>"$T/utf8.conf"
"$PERFWATCHD" -n -f "$T/utf8.conf" >"$T/out" 2>"$T/err" ||
	fail "a UTF-8 file was refused: $(cat "$T/err")"
expect_eq "$(cat "$T/out")" "$T/utf8.conf: configuration OK"
pass
