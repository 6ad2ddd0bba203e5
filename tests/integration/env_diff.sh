#!/bin/sh
# Two runs recorded against two dpkg admin directories: `env diff` names
# exactly the packages that changed, with both versions, and nothing else
# of the machine (it did not change between the two runs).
set -eu
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/dpkg-a" "$T/dpkg-b"
{
	dpkg_stanza auditd 1:3.0.9-1
	dpkg_stanza fonts-x 2.1-1 all
	dpkg_stanza grep 3.8-5
	dpkg_stanza libc6 2.36-9+deb12u4
	dpkg_stanza sed 4.9-1
	dpkg_stanza zlib1g 1:1.2.13.dfsg-1
} >"$T/dpkg-a/status"
{
	dpkg_stanza auditd 1:3.1-1			# upgraded (epoch kept)
	dpkg_stanza fonts-x 2.1-1 amd64		# the same version, another arch
	dpkg_stanza grep 3.8-5
	dpkg_stanza htop 3.2.2-2			# installed
	dpkg_stanza libc6 2.36-9+deb12u4
	dpkg_stanza zlib1g 1:1.2.11.dfsg-4		# downgraded
} >"$T/dpkg-b/status"				# sed removed

dpkg_runs

out=$(pw env diff run-a run-b)
printf '%s\n' "$out" >"$T/diff.out"
expect_match "$out" "auditd"
expect_match "$out" "1:3.0.9-1"
expect_match "$out" "1:3.1-1"
expect_match "$out" "htop"
expect_match "$out" "sed"
expect_match "$out" "zlib1g"
expect_match "$out" "fonts-x  2.1-1 (all) → 2.1-1 (amd64)"
for p in grep libc6; do
	if grep -q "$p" "$T/diff.out"; then
		fail "unchanged package $p in the diff: $out"
	fi
done

# The JSON form says exactly what happened to each, and only to those.
pw env diff --json run-a run-b | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["from"]["run"] == "run-a" and d["to"]["run"] == "run-b", d
assert d["changes"]["fields"] == [], d["changes"]["fields"]
got = {c["name"]: (c["change"], c["old"], c["new"]) for c in d["changes"]["packages"]}
assert got == {
    "auditd": ("upgraded", "1:3.0.9-1", "1:3.1-1"),
    "fonts-x": ("changed", "2.1-1", "2.1-1"),
    "htop": ("installed", None, "3.2.2-2"),
    "sed": ("removed", "4.9-1", None),
    "zlib1g": ("downgraded", "1:1.2.13.dfsg-1", "1:1.2.11.dfsg-4"),
}, got
# old_arch is in every change, null unless the arch moved.
arch = {c["name"]: c["old_arch"] for c in d["changes"]["packages"]}
assert arch == {"auditd": None, "fonts-x": "all", "htop": None,
    "sed": None, "zlib1g": None}, arch
'

# Each run is named as runs --json names it, run, host and time (a label
# alone is ambiguous in a store of several hosts), in an object as the
# attribution of alerts --json names its two: they were the labels
# "from" and "to" beside "from_host" and "to_host", and no time.  "now"
# is this machine, which has no label nor stored host: its time is when
# it was looked at.
pw runs --json >"$T/runs.json"
host=$(python3 -c '
import json, sys
print(json.load(open(sys.argv[1]))[0]["host"])' "$T/runs.json")
[ -n "$host" ] || fail "runs --json gave no host"
pw env diff --json run-a run-b >"$T/ab.json"
python3 - "$T/runs.json" "$T/ab.json" <<'EOPY' || fail "env diff --json's runs: $(cat "$T/ab.json")"
import json, sys
runs = {r["run"]: r for r in json.load(open(sys.argv[1]))}
d = json.load(open(sys.argv[2]))
assert list(d) == ["from", "to", "changes"], list(d)
for side, label in (("from", "run-a"), ("to", "run-b")):
    r = runs[label]
    want = {"run": label, "host": r["host"], "time": r["time"]}
    assert d[side] == want, (side, d[side], want)
EOPY
before=$(date -u +%Y-%m-%dT%H:%M:%SZ)
pw env diff --json run-a >"$T/now.json"
after=$(date -u +%Y-%m-%dT%H:%M:%SZ)
python3 - "$T/runs.json" "$T/now.json" "$before" "$after" <<'EOPY' || fail "env diff --json to now: $(cat "$T/now.json")"
import json, sys
runs = {r["run"]: r for r in json.load(open(sys.argv[1]))}
d = json.load(open(sys.argv[2]))
r = runs["run-a"]
assert d["from"] == {"run": "run-a", "host": r["host"], "time": r["time"]}, d
to = d["to"]
assert list(to) == ["run", "host", "time"], to
assert to["run"] is None and to["host"] is None, to
assert sys.argv[3] <= to["time"] <= sys.argv[4], (to, sys.argv[3:])
EOPY
# Both printed as every --json is (cli_json_print), env show's members in
# the order they were set, its host beside its run, as DESCRIPTION has
# it: they were sorted (host, package_count, run).
pw env diff --json run-a run-b >"$T/diff.json"
json_as_printed "$T/diff.json" || fail "env diff --json: $(cat "$T/diff.json")"
pw env show --json --packages run-a >"$T/show.json"
json_as_printed "$T/show.json" || fail "env show --json: $(cat "$T/show.json")"
python3 -c '
import json, sys
k = list(json.load(open(sys.argv[1])))
assert k.index("host") == k.index("run") + 1, k
' "$T/show.json" || fail "env show --json: the run and its host apart"
# A package is an object with env diff'"'"'s keys, not [name, version, arch].
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = {x["name"]: x for x in d["packages"]}
assert p["fonts-x"] == {"name": "fonts-x", "version": "2.1-1",
    "arch": "all"}, p
assert p["auditd"]["version"] == "1:3.0.9-1", p
assert d["package_count"] == len(p) == 6, d
' "$T/show.json" || fail "env show --json: packages: $(cat "$T/show.json")"
pw env show --json run-a | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["run"] == "run-a" and d["host"] == sys.argv[1], d
' "$host"
pw env show --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["run"] is None and d["host"] is None, d
'

# The CSV form: a row a change, a field each.
pw env diff --csv run-a run-b | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
assert rows[0] == ["type", "name", "change", "old", "new", "arch",
    "old_arch"], rows[0]
assert rows[1:] == [
    ["package", "auditd", "upgraded", "1:3.0.9-1", "1:3.1-1", "amd64", ""],
    ["package", "fonts-x", "changed", "2.1-1", "2.1-1", "amd64", "all"],
    ["package", "htop", "installed", "", "3.2.2-2", "amd64", ""],
    ["package", "sed", "removed", "4.9-1", "", "amd64", ""],
    ["package", "zlib1g", "downgraded", "1:1.2.13.dfsg-1", "1:1.2.11.dfsg-4",
     "amd64", ""],
], rows[1:]
'
pw env show --csv --packages run-b | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
assert rows[0] == ["type", "name", "value", "arch"], rows[0]
f = {r[1]: r[2] for r in rows[1:] if r[0] == "field"}
p = {r[1]: (r[2], r[3]) for r in rows[1:] if r[0] == "package"}
assert f.get("kernel.release") and f.get("fs.type"), f
assert p == {"auditd": ("1:3.1-1", "amd64"),
    "fonts-x": ("2.1-1", "amd64"), "grep": ("3.8-5", "amd64"),
    "htop": ("3.2.2-2", "amd64"), "libc6": ("2.36-9+deb12u4", "amd64"),
    "zlib1g": ("1:1.2.11.dfsg-4", "amd64")}, p
'

# One run: from it to this machine now, which has dpkg-b's packages under
# b.conf: nothing since run-b, and from run-a what the two runs differ by.
out=$(pw -c "$T/b.conf" env diff run-b)
expect_match "$out" "from run-b to now: 0 changes"
pw -c "$T/b.conf" env diff --json run-a >"$T/now-a.json"
pw env diff --json run-a run-b >"$T/a-b.json"
python3 -c '
import json, sys
now, ab = (json.load(open(f)) for f in sys.argv[1:3])
assert now["to"]["run"] is None and now["from"]["run"] == "run-a", now
assert now["changes"] == ab["changes"], (now["changes"], ab["changes"])
' "$T/now-a.json" "$T/a-b.json"

# The snapshot of a run is shown, with its packages on request.
pw env show --packages run-b >"$T/show.out"
grep -q "htop" "$T/show.out" || fail "env show --packages lacks htop"
grep -q "kernel.release" "$T/show.out" || fail "env show lacks kernel.release"

# This machine now, before any run has made the work directory: the
# filesystem of the directory it will be made in, and a note that says so.
cat >"$T/later.conf" <<EOF2
[perfwatch]
work_dir = $T/not/yet
EOF2
pw -c "$T/later.conf" env show --json >"$T/now.json" 2>"$T/now.err" ||
	fail "env show of this machine: $(cat "$T/now.err")"
expect_match "$(cat "$T/now.err")" "the work directory $T/not/yet does not exist yet; the filesystem shown is that of $T"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = d["fields"]
assert f.get("fs.type") and f.get("kernel.release"), f
' "$T/now.json"
[ ! -e "$T/not" ] || fail "env show made $T/not"

# The snapshot's helpers run on the workloads' fixed PATH: a compiler
# first in the caller's PATH (a toolset enabled in one shell) does not
# make that shell's machine another one.
mkdir -p "$T/bin"
printf '#!/bin/sh\necho "cc (Fake toolset) 99.1"\n' >"$T/bin/cc"
chmod 755 "$T/bin/cc"
cc_of() {
	python3 -c 'import json, sys
print(json.load(sys.stdin)["fields"].get("cc", "(none)"))'
}
plain=$(pw env show --json | cc_of)
tool=$(PATH="$T/bin:$PATH" pw env show --json | cc_of)
expect_eq "$tool" "$plain"
case $tool in
*Fake*) fail "the caller's PATH chose the compiler: $tool" ;;
esac

# A dpkg_admin_dir set names the package database: dpkg's there, or
# none when its status file is missing, said.  Guessing, such a run
# recorded 0 packages from rpm (whose empty /var/lib/rpm an rpm tool
# leaves on Debian), and the diff said dpkg -> rpm and every package
# removed, with no word.  An empty one is dpkg's, with no package, as
# perfwatchd watches it.
cat >"$T/gone.conf" <<EOF2
[perfwatch]
work_dir = $T/work
[quiet]
$QUIET_ANY_LOAD
[triggers]
dpkg_admin_dir = $T/dpkg-gone
EOF2
pw -c "$T/gone.conf" run --no-check --profile "$T/profile.conf" \
    --label gone >"$T/gone.out" 2>&1 ||
	fail "a run without its package database: $(cat "$T/gone.out")"
expect_match "$(cat "$T/gone.out")" "$T/dpkg-gone/status: No such file or directory (dpkg_admin_dir): the machine snapshot records no package list"
expect_match "$(pw env show gone | grep '^packages')" "0 (none)"
expect_match "$(pw env diff run-a gone)" "pkg.manager  dpkg → none"
mkdir -p "$T/dpkg-empty"
: >"$T/dpkg-empty/status"
sed "s#dpkg-gone#dpkg-empty#" "$T/gone.conf" >"$T/empty.conf"
expect_match "$(pw -c "$T/empty.conf" env show | grep '^packages')" "0 (dpkg)"
pass
