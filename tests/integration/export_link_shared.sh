#!/bin/sh
# export -o through a symbolic link follows it as the kernel would for an
# open (fs.protected_symlinks): in a directory all may write and sticky
# (/tmp), only a link of this user or of the directory's owner.  root's
# export replaced the file another user's link there named (realpath()
# and rename() are no open the kernel checks), with the labels of a store
# that user could write: a line of /etc/crontab.
set -eu
. "$(dirname "$0")/lib.sh"

need_nobody
printf 'run,time,workload,metric,value,unit,better\nr1,1700000000,w,m,1,s,lower\n' \
    >"$T/h.csv"
pw import "$T/h.csv" >/dev/null
chmod 755 "$T"
mkdir -m 1777 "$T/shared"
mkdir "$T/victim"
echo "root's own" >"$T/victim/target"

$NOBODY ln -s "$T/victim/target" "$T/shared/x.csv"
rc=0
pw export -o "$T/shared/x.csv" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 73 ] || fail "export through nobody's link exited $rc: $(cat "$T/err")"
expect_eq "$(cat "$T/victim/target")" "root's own"
expect_match "$(cat "$T/err")" "$T/shared/x.csv: a symbolic link of another user"
[ -z "$(find "$T/victim" "$T/shared" -name '*.csv.*')" ] ||
	fail "a temporary file was left"

# root's own link there is followed; so is nobody's where the directory
# is not writable by all.
ln -s "$T/victim/target" "$T/shared/mine.csv"
pw export -o "$T/shared/mine.csv" || fail "export through root's link: $?"
expect_match "$(head -n 1 "$T/victim/target")" "run,time,workload"
[ -L "$T/shared/mine.csv" ] || fail "root's link is no longer a link"
mkdir "$T/own"
chown nobody "$T/own"
echo old >"$T/victim/target2"
$NOBODY ln -s "$T/victim/target2" "$T/own/y.csv"
pw export -o "$T/own/y.csv" || fail "export through a link in nobody's directory: $?"
expect_match "$(head -n 1 "$T/victim/target2")" "run,time,workload"
pass
