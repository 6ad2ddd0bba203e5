#!/bin/sh
# The configuration files perfwatch ships, through the real daemon's
# check (perfwatchd -n), as a sysadmin would first use them:
#  - etc/perfwatch.conf as installed, and with every "#key = value" and
#    "#[section]" line uncommented, as its head invites: both load, and
#    the second is taken whole, examples of the named sections included;
#  - each value the sample shows for the sections that come once is the
#    daemon's own default, as perfwatchd -n -v prints it, and the sample
#    shows every key it prints there;
#  - each profile of etc/profiles, named by [perfwatch] profile, loads
#    and its workloads pass the checks a run makes.
# As root, the daemon's check also wants [perfwatch] user to exist (the
# packages make it); it runs as nobody here, which skips that.
set -eu
. "$(dirname "$0")/lib.sh"

top=${PERFWATCH_TOP:?}
export PERFWATCH_PROFILE_DIR="$top/etc/profiles"
as_user=
if [ "$(id -u)" -eq 0 ]; then
	need_nobody
	as_user=$NOBODY
	chmod 755 "$T"
fi

# check FILE: perfwatchd -n -v on FILE; its output in $T/check.out.
check() {
	_rc=0
	$as_user "$PERFWATCHD" -n -v -f "$1" >"$T/check.out" 2>"$T/check.err" ||
	    _rc=$?
	[ "$_rc" -eq 0 ] ||
		fail "$1: perfwatchd -n exited $_rc: $(cat "$T/check.err")"
	expect_eq "$(head -n 1 "$T/check.out")" "# $1: configuration OK"
}

# key_values: "section.key = value" for each "key = value" line of the
# sections that come once ([perfwatch] ... [detect]) of standard input,
# "#key = value" lines too, sorted.
key_values() {
	sed -n -e 's/^#\{0,1\}\(\[[a-z]*\]\)$/\1/p' \
	    -e 's/^#\{0,1\}\([a-z_]* = .*\)/\1/p' \
	    -e 's/^#\{0,1\}\[[a-z]* ".*/[named]/p' |
	    awk '/^\[/ { s = substr($0, 2, length($0) - 2); next }
		s != "" && s != "named" { print s "." $0 }' | LC_ALL=C sort
}

# The sample as installed: every line a comment or a header.
cp "$top/etc/perfwatch.conf" "$T/sample.conf"
check "$T/sample.conf"
# What it shows for the sections that come once, against what perfwatchd
# takes when they are not written: the same keys, the same values.  The
# three paths that differ on the BSDs are said in the sample's comments.
key_values <"$T/sample.conf" >"$T/shown"
sed 1d "$T/check.out" | key_values >"$T/dumped"
case $(uname -s) in
Linux) ;;
*)	grep -v '^perfwatch\.state_dir \|^perfwatch\.socket \|^quiet\.lock ' \
	    "$T/shown" >"$T/x" && mv "$T/x" "$T/shown"
	grep -v '^perfwatch\.state_dir \|^perfwatch\.socket \|^quiet\.lock ' \
	    "$T/dumped" >"$T/x" && mv "$T/x" "$T/dumped" ;;
esac
[ "$(wc -l <"$T/shown")" -ge 30 ] ||
	fail "the sample shows only $(wc -l <"$T/shown") keys"
diff "$T/shown" "$T/dumped" >"$T/diff" ||
	fail "the sample's values (<) are not perfwatchd's defaults (>):" \
	    "$(cat "$T/diff")"

# Uncommented whole: it loads, and every section and key of it is
# taken (the -v dump has them).
sed 's/^#\([a-z[]\)/\1/' "$top/etc/perfwatch.conf" >"$T/uncommented.conf"
check "$T/uncommented.conf"
for s in $(sed -n 's/^\[\([a-z]*\) "\([^"]*\)"\]$/\1:\2/p' \
    "$T/uncommented.conf"); do
	grep -qxF "[${s%%:*} \"${s#*:}\"]" "$T/check.out" ||
		fail "[${s%%:*} \"${s#*:}\"] of the sample is not in:" \
		    "$(cat "$T/check.out")"
done
grep -qxF 'destroy_data = yes' "$T/check.out" ||
	fail "the sample's device example is not taken: $(cat "$T/check.out")"

# Each profile, as the battery the daemon runs.
n=0
for p in "$top"/etc/profiles/*.conf; do
	n=$((n + 1))
	printf '[perfwatch]\nprofile = %s\n' "$p" >"$T/with-profile.conf"
	check "$T/with-profile.conf"
	# And by its name, as the sample's profile = nightly names one.
	name=$(basename "$p" .conf)
	printf '[perfwatch]\nprofile = %s\n' "$name" >"$T/by-name.conf"
	check "$T/by-name.conf"
done
[ "$n" -ge 3 ] || fail "only $n profiles in $top/etc/profiles"
pass
