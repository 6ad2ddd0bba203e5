#!/bin/sh
# A name mistyped is answered with the name meant: each place that
# refuses an unknown workload, metric, host, profile or sink name says
# "did you mean" with the nearest one or two (name_hint), the
# configuration's at its file:line, and the refusal changes nothing.
set -eu
. "$(dirname "$0")/lib.sh"

# conf_says NAME TEXT WANT: perfwatchd -n -f of a file holding TEXT exits
# 78 and says WANT ({F} the file), or starts with it if WANT ends in ...
conf_says() {
	printf '%b' "$2" >"$T/$1.conf"
	rc=0
	out=$("$PERFWATCHD" -n -f "$T/$1.conf" 2>&1) || rc=$?
	[ "$rc" -eq 78 ] || fail "$1: perfwatchd -n: exit $rc: $out"
	want=$(printf '%s' "$3" | sed "s|{F}|$T/$1.conf|g")
	case $want in
	*...) expect_eq "${out%"${out#"${want%...}"}"}" "${want%...}" ;;
	*) expect_eq "$out" "$want" ;;
	esac
}

# [workload "NAME"] of a battery workload mistyped, without a command.
nb='no command given, and it is not a workload of the battery'
conf_says bonie '[workload "disk.bonie"]\niterations = 3\n' \
    "{F}:1: [workload \"disk.bonie\"]: $nb (did you mean disk.bonnie?)"
conf_says swapped \
    '[schedule]\njitter = 1m\n\n[workload "sys.ppie"]\nwarmup = 1\n' \
    "{F}:4: [workload \"sys.ppie\"]: $nb (did you mean sys.pipe?)"
conf_says case '[workload "sys.EXECL"]\nwarmup = 1\n' \
    "{F}:1: [workload \"sys.EXECL\"]: $nb (did you mean sys.execl?)"
# Three as near (sys.fcopy256, 1024, 4096): none named.
conf_says tie '[workload "sys.fcopy"]\nwarmup = 1\n' \
    "{F}:1: [workload \"sys.fcopy\"]: $nb"
conf_says shell '[workload "sys.shell"]\nwarmup = 1\n' \
    "{F}:1: [workload \"sys.shell\"]: $nb \
(did you mean sys.shell1 or sys.shell8?)"
conf_says far '[workload "sys.nothing"]\nwarmup = 1\n' \
    "{F}:1: [workload \"sys.nothing\"]: $nb"

# A store of three runs, made here: sys.pipe (lps), sys.spawn (forks),
# disk.bonnie (block_write, block_read).
{
	echo 'run,time,workload,metric,value,unit,better'
	for r in 1 2 3; do
		t=$((1700000000 + r * 3600))
		echo "r$r,$t,sys.pipe,lps,$((1000 + r)),lps,higher"
		echo "r$r,$t,sys.spawn,forks,$((500 + r)),ops,higher"
		echo "r$r,$t,disk.bonnie,block_write,$((90 + r)),MiB/s,higher"
		echo "r$r,$t,disk.bonnie,block_read,$((80 + r)),MiB/s,higher"
	done
} | pw import - >/dev/null || fail "import"
cp "$PERFWATCH_DB" "$T/before.db"

# cli_says EXIT WANT ARGS...: perfwatch ARGS exits EXIT, prints nothing
# on stdout, and says WANT on stderr (its first line, if WANT ends in
# ..., starts with it); the store is as it was.
cli_says() {
	code=$1
	want=$2
	shift 2
	rc=0
	pw "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq "$code" ] || fail "perfwatch $*: exit $rc: $(cat "$T/err")"
	[ ! -s "$T/out" ] || fail "perfwatch $*: printed $(cat "$T/out")"
	case $want in
	*...)
		got=$(head -1 "$T/err")
		expect_eq "${got%"${got#"${want%...}"}"}" "${want%...}" ;;
	*) expect_eq "$(cat "$T/err")" "$want" ;;
	esac
	cmp -s "$PERFWATCH_DB" "$T/before.db" ||
		fail "perfwatch $*: store changed"
}

# history and changes take one name each, exactly.
nm='perfwatch: no metric matches'
cli_says 65 "$nm workload sys.ppie (did you mean sys.pipe?)" \
    history --workload sys.ppie
cli_says 65 "$nm workload sys.pipe metric lsp (did you mean lps?)" \
    history --workload sys.pipe --metric lsp
cli_says 65 "$nm workload diskbonnie (did you mean disk.bonnie?) \
metric block_write" history --workload diskbonnie --metric block_write
cli_says 65 "$nm metric block (did you mean block_read or block_write?)" \
    changes --metric block
cli_says 65 "$nm metric BLOCK_READ (did you mean block_read?)" \
    history --metric BLOCK_READ
cli_says 65 "$nm workload net.tcp" history --workload net.tcp
# A metric of another workload is no hint for this one.
cli_says 65 "$nm workload sys.pipe metric forks" \
    history --workload sys.pipe --metric forks

# check takes globs; a glob matching nothing is no typo of one name.
nd="no metric in $PERFWATCH_DB matches it"
cli_says 65 "perfwatch: --workload sys.spwan: $nd (did you mean \
sys.spawn?); its workloads are disk.bonnie, sys.pipe, sys.spawn" \
    check r3 --workload sys.spwan
cli_says 65 "perfwatch: --metric blockwrite: $nd (did you mean \
block_write?); its metrics are block_read, block_write, lps, forks" \
    check r3 --metric blockwrite
cli_says 65 "perfwatch: --metric x*: $nd; its metrics are block_read, \
block_write, lps, forks" check r3 --metric 'x*'

# notify test SINK: the configuration's sinks.
cat >"$T/sinks.conf" <<EOC
[sink "mail"]
type = email
to = ops@example.org
sendmail = yes
[sink "hook"]
type = webhook
url = http://127.0.0.1:9/x
EOC
cli_says 78 \
    'perfwatch: no sink "mial" in the configuration (did you mean mail?)' \
    -c "$T/sinks.conf" notify test mial
cli_says 78 'perfwatch: no sink "pager" in the configuration' \
    -c "$T/sinks.conf" notify test pager

# A profile mistyped, for perfwatch run and for perfwatchd -n: the
# profiles of the directories looked in, two as near in the order of
# their names; one the configuration names, at its line.  The run
# records nothing.
mkdir -p "$T/profiles"
printf '[workload "quick"]\ncommand = echo lps 1 lps\n' \
    >"$T/profiles/alpha.conf"
cp "$T/profiles/alpha.conf" "$T/profiles/alpine.conf"
cp "$T/profiles/alpha.conf" "$T/profiles/beta.conf"
echo 'not a profile' >"$T/profiles/README"
export PERFWATCH_PROFILE_DIR="$T/profiles"
cli_says 78 "perfwatch: profile \"alpah\" (did you mean alpha?) not found \
(looked for alpah.conf in $T/profiles, ..." run --profile alpah
cli_says 78 "perfwatch: profile \"alp\" (did you mean alpha or alpine?) \
not found (looked for alp.conf in $T/profiles, ..." run --profile alp
cli_says 78 "perfwatch: profile \"gamma\" not found (looked for \
gamma.conf in $T/profiles, ..." run --profile gamma
conf_says profile "[perfwatch]\nstate_dir = $T/state\nuser = $(id -un)
group = $(id -gn)\nallow_root = yes\nprofile = btea\n" \
    "{F}:6: [perfwatch] profile \"btea\" (did you mean beta?) not found \
(looked in $T/profiles, $T/state/profiles, ..."
# And perfwatch run, at the same line (it said "perfwatch:" only).
cli_says 78 "$T/profile.conf:6: [perfwatch] profile \"btea\" (did you mean \
beta?) not found (looked for btea.conf in $T/profiles, ..." \
    -c "$T/profile.conf" run
unset PERFWATCH_PROFILE_DIR

# --host of runs, history and changes: the hosts of the store.  A store
# of its own, of runs on build-01, build-02 and db-west.
export PERFWATCH_DB="$T/hosts.db"
{
	echo 'run,time,workload,metric,value,unit,better,host'
	for h in build-01 build-02 db-west; do
		echo "$h-r1,1700000000,sys.pipe,lps,1000,lps,higher,$h"
	done
} | pw import - >/dev/null || fail "import of hosts"
cp "$PERFWATCH_DB" "$T/before.db"
nh='perfwatch: no host'
cli_says 65 "$nh biuld-01 in the store (did you mean build-01?)" \
    runs --host biuld-01
cli_says 65 "$nh build-03 in the store (did you mean build-01 or \
build-02?)" history --host build-03 --workload sys.pipe
cli_says 65 "$nh DB-WEST in the store (did you mean db-west?)" \
    changes --host DB-WEST
cli_says 65 "$nh dbwest in the store (did you mean db-west?)" \
    history --host dbwest --metric lps
cli_says 65 "$nh mail-01 in the store" runs --host mail-01

pass
