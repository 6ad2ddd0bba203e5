#!/bin/sh
# The keys of the other listings' --json are named in perfwatch(1): each
# key of baseline list and show, compare, changes, notify pending and
# notify flush is a word of its command's entry or of DESCRIPTION's list
# of the keys every command shares.  baseline list's in_use and
# compare's index values were named nowhere.  (check, show, runs,
# history and alerts have tests of their own.)
set -eu
. "$(dirname "$0")/lib.sh"
top=${PERFWATCH_TOP:?}

# Two groups of runs with a step between them, an alert checked, a
# pinned baseline.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better"
	for (r = 1; r <= 30; r++)
		for (i = 1; i <= 5; i++)
			printf "r%02d,%d,w,m,%.1f,s,lower\n", r,
			    1700000000 + r * 3600,
			    (r >= 25 ? 120 : 100) + ((i * 7 + r * 3) % 5) * 0.3
}' >"$T/step.csv"
pw import "$T/step.csv" >/dev/null || fail "import"
pw check r25 >/dev/null || [ $? -eq 1 ] || fail "check r25"
pw baseline set early r01 r02 r03 >/dev/null || fail "baseline set"

awk '/^\.Bl -tag -width change_pct/ { on = 1 } on; on && /^\.El/ { exit }' \
    "$top/man/perfwatch.1" >"$T/common"
[ -s "$T/common" ] || fail "perfwatch(1) has no list of the common keys"

# keys_named CMD WORDS...: perfwatch WORDS --json, every key of it a
# word of CMD's entry or of the common keys.
keys_named() {
	cmd=$1
	shift
	pw "$@" --json >"$T/out.json" || [ $? -eq 1 ] ||
		fail "perfwatch $* --json"
	json_keys "$T/out.json" >"$T/keys"
	[ -s "$T/keys" ] || fail "perfwatch $* --json has no key"
	awk -v c="$cmd" '/^\.It Ic / { on = $3 == c; next } /^\.Sh / { on = 0 }
	    on' "$top/man/perfwatch.1" | cat - "$T/common" >"$T/entry"
	while read -r k; do
		grep -qw -- "$k" "$T/entry" ||
			fail "perfwatch(1) $cmd does not name the --json key" \
			    "$k of perfwatch $*"
	done <"$T/keys"
}
keys_named baseline baseline list
keys_named baseline baseline show early
keys_named compare compare 'r0*' 'r2*'
keys_named changes changes
keys_named notify notify pending --all
# notify flush: the log sink's rows of the alert delivered and nothing
# left, so no next retry, null; its time RFC 3339 as every other, with
# no epoch seconds beside it.
keys_named notify notify flush
python3 - "$T/out.json" <<'EOF' || fail "notify flush --json: $(cat "$T/out.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["delivered"] >= 1 and len(d["rows"]) == d["delivered"], d
assert d["next_due"] is None and "next_due_epoch" not in d, d
EOF
# show --json of a run without the index's tests has "index": null, as
# every key without a value; it was left out.
pw show --json r01 | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert "index" in d and d["index"] is None, sorted(d)
' || fail "show --json r01: no index key"
pass
