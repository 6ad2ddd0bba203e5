#!/bin/sh
# A sink of type log of your own takes the built-in log sink's place
# (perfwatch.conf(5)): `notify test` goes through it, not through both.
# It used to list and test the built-in "log" beside one of another
# name, logging every test twice.  The built-in one still stands by for
# rows queued for it before, and a test through it by name still works.
set -eu
. "$(dirname "$0")/lib.sh"

printf '[sink "audit"]\ntype = log\n' >"$T/own.conf"
: >"$T/none.conf"

expect_eq "$(pw -c "$T/own.conf" notify test --list)" "audit (log)"
expect_eq "$(pw -c "$T/own.conf" notify test --list --json |
    python3 -c 'import json, sys; print(json.load(sys.stdin))')" \
    "[{'sink': 'audit', 'type': 'log'}]"
pw -c "$T/own.conf" notify test --json >"$T/own.json" 2>"$T/own.err" ||
	fail "notify test: $(cat "$T/own.err")"
expect_eq "$(python3 -c 'import json, sys
print(" ".join(r["sink"] + ":" + r["outcome"] for r in json.load(open(sys.argv[1]))))' \
    "$T/own.json")" "audit:delivered"
pw -c "$T/own.conf" notify test log --json >"$T/log.json" 2>"$T/log.err" ||
	fail "notify test log: $(cat "$T/log.err")"
expect_eq "$(python3 -c 'import json, sys
print(" ".join(r["sink"] + ":" + r["outcome"] for r in json.load(open(sys.argv[1]))))' \
    "$T/log.json")" "log:delivered"

# Without one, the built-in sink is there as ever.
expect_eq "$(pw -c "$T/none.conf" notify test --list)" "log (log)"
pass
