#!/bin/sh
# A workload's own work_dir is where it measures, instead of [perfwatch]
# work_dir: moved to another filesystem, the machine it measures changed.
# The snapshot held only [perfwatch] work_dir's filesystem, so env diff
# said "0 changes" between a run on ext4 and one on tmpfs, and an alert
# caused by the move said the machine did not change.  It now holds the
# fs.* fields of such a directory as workload.<name>.fs.*, only when it
# is on another filesystem than work_dir: one on the same adds nothing,
# and the snapshot stays the one a run without the key records; one
# that cannot be looked at is left out, with a warning.
set -eu
. "$(dirname "$0")/lib.sh"

command -v findmnt >/dev/null 2>&1 || skip "no findmnt"
[ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ] ||
	skip "/dev/shm is not a tmpfs"
[ "$(stat -c %d /dev/shm)" != "$(stat -c %d "$T")" ] ||
	skip "$T is on /dev/shm's filesystem"
S=$(mktemp -d /dev/shm/pw-it.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T" "$S"' EXIT INT TERM

mkdir -p "$T/work" "$T/dpkg"
dpkg_stanza grep 3.8-5 >"$T/dpkg/status"
cat >"$T/perfwatch.conf" <<EOC
[perfwatch]
work_dir = $T/work
profile = $T/profile.conf
[quiet]
$QUIET_ANY_LOAD
[triggers]
dpkg_admin_dir = $T/dpkg
EOC
# profile [WORK_DIR]: the profile, tiny in WORK_DIR if one is given.
profile() {
	{
		printf '[workload "other"]\ncommand = true\nmeasure = time\n'
		printf 'iterations = 1\n'
		printf '[workload "tiny"]\ncommand = true\nmeasure = time\n'
		printf 'iterations = 1\n'
		[ $# -eq 0 ] || printf 'work_dir = %s\n' "$1"
	} >"$T/profile.conf"
}
run() {
	label=$1
	shift
	pw -c "$T/perfwatch.conf" run --no-check --label "$label" "$@" \
	    >"$T/$label.out" 2>&1 || fail "run $label: $(cat "$T/$label.out")"
}
snapshot_of() {
	sqlite3 "$PERFWATCH_DB" "SELECT snapshot FROM runs WHERE label = '$1'"
}

profile
run plain
# On work_dir's filesystem: nothing added, the same snapshot (and hash).
profile "$T/own"
run same
expect_eq "$(snapshot_of same)" "$(snapshot_of plain)"
expect_eq "$(pw -c "$T/perfwatch.conf" env diff plain same)" \
    "from plain to same: 0 changes"

# On tmpfs: its filesystem, as findmnt has it (the last, uppermost, of
# two mounted on one another, as a container may have /dev/shm).
profile "$S/own"
run shm
mount=$(findmnt -n -o TARGET -T "$S" | tail -n 1)
device=$(findmnt -n -o SOURCE -T "$S" | tail -n 1)
out=$(pw -c "$T/perfwatch.conf" env diff same shm)
printf '%s\n' "$out" >"$T/diff.out"
expect_match "$out" "from same to shm: 4 changes"
expect_match "$out" "workload.tiny.fs.type     (unset) → tmpfs"
expect_match "$out" "workload.tiny.fs.mount    (unset) → $mount"
expect_match "$out" "workload.tiny.fs.device   (unset) → $device"
expect_match "$out" "workload.tiny.fs.options  (unset) → rw"
pw -c "$T/perfwatch.conf" env diff --json same shm >"$T/diff.json"
python3 - "$T/diff.json" "$mount" "$device" <<'EOPY' ||
import json, sys
d = json.load(open(sys.argv[1]))
got = {c["key"]: (c["change"], c["old"], c["new"])
    for c in d["changes"]["fields"]}
opts = got.pop("workload.tiny.fs.options")
assert opts[:2] == ("added", None) and opts[2].startswith("rw"), opts
assert got == {
    "workload.tiny.fs.type": ("added", None, "tmpfs"),
    "workload.tiny.fs.mount": ("added", None, sys.argv[2]),
    "workload.tiny.fs.device": ("added", None, sys.argv[3]),
}, got
assert d["changes"]["packages"] == [], d
EOPY
	fail "env diff --json same shm: $(cat "$T/diff.json")"

# env's "now" takes the configured profile's work directories as a run
# does: no change from the last run, and env show has the fields.
expect_eq "$(pw -c "$T/perfwatch.conf" env diff shm)" \
    "from shm to now: 0 changes"
pw -c "$T/perfwatch.conf" env show >"$T/show.out"
expect_eq "$(awk '$1 == "workload.tiny.fs.type" { print $2 }' \
    "$T/show.out")" tmpfs
# A run of another workload alone records them too: the runs of one
# profile describe the same machine whichever of its workloads they run.
run other --workload other
expect_eq "$(snapshot_of other)" "$(snapshot_of shm)"

# Back on work_dir's filesystem: the fields go, the snapshot is the first.
profile "$T/own"
run back
expect_match "$(pw -c "$T/perfwatch.conf" env diff shm back)" \
    "workload.tiny.fs.type     tmpfs → (unset)"
expect_eq "$(snapshot_of back)" "$(snapshot_of plain)"

# A workload's directory that cannot be looked at (under a file here; a
# directory this user may not search is the same) is left out, said: it
# stopped every run of the profile, this one of another workload alone
# too ("machine snapshot: ...: Not a directory", exit 70), and env show.
: >"$T/afile"
profile "$T/afile/own"
run notdir --workload other
expect_match "$(cat "$T/notdir.out")" "workload tiny: work_dir $T/afile/own: Not a directory; its filesystem is left out of the machine snapshot"
expect_eq "$(snapshot_of notdir)" "$(snapshot_of plain)"
pw -c "$T/perfwatch.conf" env show >/dev/null 2>"$T/show.err" ||
	fail "env show: $(cat "$T/show.err")"

# env show of a configuration that names no profile, where the default
# one is not installed, says nothing of it: it needed none before.  (On
# a machine where perfwatch is installed the default is found, and this
# holds either way.)  One that names a profile not found says so.
printf '[perfwatch]\nwork_dir = %s\n' "$T/work" >"$T/noprof.conf"
PERFWATCH_PROFILE_DIR="$T/none" pw -c "$T/noprof.conf" env show \
    >/dev/null 2>"$T/noprof.err" || fail "env show: $(cat "$T/noprof.err")"
expect_eq "$(cat "$T/noprof.err")" ""
printf 'profile = nosuch-profile\n' >>"$T/noprof.conf"
PERFWATCH_PROFILE_DIR="$T/none" pw -c "$T/noprof.conf" env show \
    >/dev/null 2>"$T/noprof.err" || fail "env show: $(cat "$T/noprof.err")"
expect_eq "$(cat "$T/noprof.err")" "perfwatch: profile \"nosuch-profile\" not found: the snapshot leaves out the filesystems of its workloads' work_dir"
pass
