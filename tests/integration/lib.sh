# Shared by the integration tests: a private temporary directory and
# database, and small assertions.  Sourced, not run.
: "${PERFWATCH:?run through tests/run.sh}"
T=$(mktemp -d "${TMPDIR:-/tmp}/pw-it.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT INT TERM
export PERFWATCH_DB="$T/perfwatch.db"
# Each test measures under its own lock, not the machine's: a battery
# running beside the tests neither holds them up nor is held up by them.
export PERFWATCH_LOCK="$T/measure.lock"
export HOME="$T/home"
unset XDG_STATE_HOME

# The [quiet] keys of a test that measures whatever the machine's load:
# its runs are busy only when another run holds its lock, not because
# something else (another test suite, a build) keeps the CPUs busy.  The
# shortest look there is (a tenth of a second, not one), as nothing here
# is judged by it: the suite's hundreds of runs each spent a second
# looking, then a fifth.
QUIET_ANY_LOAD='policy = annotate
look = 0.1
max_load = 1024
max_cpu_busy = 100
max_runnable = 1024
max_swap_pages = 1000000000
min_mem_available = 0
max_throttle_events = 1000000000'

pw() {
	"$PERFWATCH" "$@"
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

pass() {
	echo "ok: $(basename "$0")"
}

# spoil_page DB NAME: overwrite the root page of the table or index NAME
# of the SQLite file DB with 0xff bytes, so that reading it fails
# ("database disk image is malformed") while the rest of the file reads.
spoil_page() {
	page=$(sqlite3 "$1" "SELECT rootpage FROM sqlite_master
	    WHERE name = '$2'")
	[ -n "$page" ] || fail "spoil_page: no table or index $2 in $1"
	size=$(sqlite3 "$1" 'PRAGMA page_size')
	python3 - "$1" "$page" "$size" <<'EOPY'
import sys
path, page, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "r+b") as f:
    f.seek((page - 1) * size)
    f.write(b"\xff" * size)
EOPY
}

# skip REASON: this machine cannot run the test (exit 77, which
# tests/run.sh counts as skipped, neither passed nor failed).
skip() {
	echo "skip: $(basename "$0"): $*"
	exit 77
}

# expect_match TEXT FIXED-STRING
expect_match() {
	case "$1" in
	*"$2"*) ;;
	*) fail "expected \"$2\" in: $1" ;;
	esac
}

# expect_eq GOT WANT
expect_eq() {
	[ "$1" = "$2" ] || fail "expected \"$2\", got \"$1\""
}

# json_as_printed FILE: FILE is a JSON document written as every --json
# writes one (cli_json_print): a member a line, two spaces of indent, the
# text as it is (no \u escapes of UTF-8), a line feed at the end.
json_as_printed() {
	python3 -c 'import json, sys
t = open(sys.argv[1], encoding="utf-8").read()
sys.exit(t != json.dumps(json.loads(t), indent=2, ensure_ascii=False) + "\n")' "$1"
}

# json_keys FILE: every key of the JSON document in FILE, at any depth,
# one a line, sorted, each once.
json_keys() {
	python3 -c 'import json, sys
keys = set()
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            keys.add(k)
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(json.load(open(sys.argv[1], encoding="utf-8")))
print("\n".join(sorted(keys)))' "$1"
}

# step_history RUNS FIRST LAST SEED [rate]: a CSV history of RUNS runs
# r-01 ... of sys.pipe time on host box, five iterations a run about 1%
# apart (a fixed generator, so every test sees the same numbers), 15%
# slower from run FIRST to LAST; with "rate", a steady second metric.
step_history() {
	awk -v runs="$1" -v first="$2" -v last="$3" -v s="$4" \
	    -v rate="${5:-}" 'BEGIN {
		print "run,time,workload,metric,value,unit,better,host,iteration"
		for (r = 1; r <= runs; r++) {
			level = (r >= first && r <= last) ? 115 : 100
			t = 1700000000 + r * 86400
			for (i = 1; i <= 5; i++) {
				s = (s * 1103515245 + 12345) % 2147483648
				v = level * (1 + 0.02 * (s / 2147483648 - 0.5))
				printf "r-%02d,%d,sys.pipe,time,%.4f,s,lower,box,%d\n",
				    r, t, v, i
				if (rate != "")
					printf "r-%02d,%d,sys.pipe,rate,%.4f,ops/s,higher,box,%d\n",
					    r, t, 1000 + (i % 3), i
			}
		}
	}'
}

# tiny_stream_profile FILE: a profile of one small disk.stream (1 MiB,
# two iterations, no warm-up nor settle), for the benches' tests, whose
# runs of it must be short.
tiny_stream_profile() {
	cat >"$1" <<EOS
[workload "disk.stream"]
size = 1M
fsync_every = 1M
iterations = 2
warmup = 0
settle = 0
EOS
}

# wait_file -e|-s FILE PID WHAT: wait up to 30 s until `test -e` (or -s)
# FILE holds; if it never does, kill PID and fail naming WHAT.
wait_file() {
	_i=0
	until [ "$1" "$2" ]; do
		_i=$((_i + 1))
		[ "$_i" -lt 300 ] || { kill "$3"; fail "$4: never started"; }
		sleep 0.1
	done
}

# hold_store_lock DB READY SECONDS: hold DB's write lock (BEGIN
# IMMEDIATE) for SECONDS, creating the file READY once it is held; run
# it in the background and wait for READY (wait_file).  It execs python,
# so that $! is the process to kill to let the lock go.
hold_store_lock() {
	exec python3 - "$1" "$2" "$3" <<'EOPY'
import sqlite3, sys, time
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("BEGIN IMMEDIATE")
open(sys.argv[2], "w").close()
time.sleep(float(sys.argv[3]))
con.execute("ROLLBACK")
EOPY
}

# The tests that run the project's own Makefile: $gmake is GNU make
# (gmake where there is one, as on FreeBSD), $top the checkout.
use_gmake() {
	top=${PERFWATCH_TOP:?}
	gmake=make
	command -v gmake >/dev/null 2>&1 && gmake=gmake
	return 0
}

# wait_grep TEXT FILE PID WHAT: wait up to 60 s until FILE holds the fixed
# string TEXT; if it never does, kill PID and fail naming WHAT and what
# FILE holds.
wait_grep() {
	_i=0
	until grep -qF -- "$1" "$2" 2>/dev/null; do
		_i=$((_i + 1))
		[ "$_i" -lt 600 ] || { kill "$3"; fail "$4: no \"$1\" in 60 s: $(cat "$2" 2>/dev/null)"; }
		sleep 0.1
	done
}

# empty_store DB: a database with no run in it, as perfwatchd leaves it
# when the first run it started was skipped: a run that the [quiet]
# policy skips (no machine has all of its memory available) makes the
# database and adds nothing to it.
empty_store() {
	printf '[perfwatch]\nwork_dir = %s\n[quiet]\npolicy = skip\nlook = 0.2\nmin_mem_available = 100\n' \
	    "$T" >"$T/empty-store.conf"
	printf '[workload "t"]\ncommand = true\nmeasure = time\niterations = 1\n' \
	    >"$T/empty-store.profile"
	_rc=0
	"$PERFWATCH" -c "$T/empty-store.conf" -D "$1" run \
	    --profile "$T/empty-store.profile" >/dev/null 2>&1 || _rc=$?
	[ "$_rc" -eq 75 ] || fail "empty_store: the skipped run exited $_rc"
	[ -f "$1" ] || fail "empty_store: no $1"
}

# from_terminal CMD [ARG...]: exec CMD with SIGINT, SIGQUIT and SIGHUP
# (and SIGPIPE, SIGXFSZ, which python ignores) at their default actions,
# as a terminal's foreground job has them.  A command a test starts with
# & has SIGINT and SIGQUIT ignored (a shell without job control does
# that), one run under nohup SIGHUP, and a shell cannot undo it (POSIX:
# a signal ignored on entry cannot be trapped or reset), while perfwatch
# leaves an ignored SIGINT or SIGHUP ignored, as the shell asks.
from_terminal() {
	exec python3 -c 'import os, signal, sys
for s in ("SIGINT", "SIGQUIT", "SIGHUP", "SIGPIPE", "SIGXFSZ"):
    if hasattr(signal, s):
        signal.signal(getattr(signal, s), signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}

# dpkg_stanza NAME VERSION [ARCH]: a package's record in dpkg's status
# file, installed (ARCH amd64 unless given).
dpkg_stanza() {
	cat <<EOS
Package: $1
Status: install ok installed
Priority: optional
Section: utils
Installed-Size: 100
Maintainer: Nobody <nobody@example.org>
Architecture: ${3:-amd64}
Version: $2
Description: package $1 for perfwatch's tests

EOS
}

# dpkg_runs: two runs of a one-workload profile, run-a and run-b, each
# recorded against the dpkg database the test wrote in $T/dpkg-a or
# $T/dpkg-b, under the configuration $T/a.conf or $T/b.conf.
dpkg_runs() {
	mkdir -p "$T/work"
	cat >"$T/profile.conf" <<EOS
[workload "tiny"]
command = true
measure = time
iterations = 1
EOS
	for x in a b; do
		cat >"$T/$x.conf" <<EOS
[perfwatch]
work_dir = $T/work
[quiet]
$QUIET_ANY_LOAD
[triggers]
dpkg_admin_dir = $T/dpkg-$x
EOS
		pw -c "$T/$x.conf" run --no-check --profile "$T/profile.conf" \
		    --label "run-$x" >"$T/run-$x.out" 2>&1 ||
			fail "run $x: $(cat "$T/run-$x.out")"
	done
}

# dpkg_write: standard input as $T/dpkg/status, written as dpkg writes it
# (status-new, renamed over status).
dpkg_write() {
	cat >"$T/dpkg/status-new"
	mv "$T/dpkg/status-new" "$T/dpkg/status"
}

# in_a_gigabyte CMD [ARG...]: CMD with at most a gigabyte of address space
# (ulimit -v), so that one that asks for far more dies of it; no limit
# under a sanitizer, whose shadow memory alone takes more than that.
in_a_gigabyte() {
	_limit=1000000
	if ldd "$PERFWATCH" 2>/dev/null | grep -q 'libasan\|libtsan'; then
		_limit=unlimited
	fi
	sh -c 'ulimit -v "$1"; shift; exec "$@"' sh "$_limit" "$@"
}

# no_raw FILE: FILE holds no ESC or BEL byte: control characters from
# the store or a command's output are printed escaped, never raw, where
# a terminal would obey them.
no_raw() {
	if LC_ALL=C grep -q "$(printf '[\033\007]')" "$1"; then
		fail "$1: printed raw: $(od -c "$1" | head)"
	fi
}

# need_nobody: skip unless this is root with setpriv(1); then NOBODY is
# the command words that run a program as user nobody, in nobody's
# group and no other (as_nobody runs perfwatch so).
need_nobody() {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	getent passwd nobody >/dev/null || fail "no user nobody"
	command -v setpriv >/dev/null 2>&1 || skip "no setpriv"
	NOBODY="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
}

# as_nobody ARG...: perfwatch as user nobody (after need_nobody).
as_nobody() {
	$NOBODY "$PERFWATCH" "$@"
}
