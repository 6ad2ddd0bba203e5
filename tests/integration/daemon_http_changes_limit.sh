#!/bin/sh
# A build of /api/changes (every metric) that hangs is killed after
# http_timeout: its whole process group goes, the waiting client gets
# 504 with a JSON error that names http_timeout, the daemon logs it once,
# and the next request starts a build of its own and is served.  Before,
# the build had no limit: its client waited as long as the child hung,
# and every other request for every metric got 503 meanwhile.
#
# perfwatch is wrapped: the wrapper of `changes` starts a sleep of its
# own (a grandchild in the build's group) and waits on it, unless
# $T/gate exists, when it execs the real binary.  http_timeout is 2 s.
set -eu
. "$(dirname "$0")/daemon.subr"

command -v curl >/dev/null 2>&1 || fail "curl is not installed"
export PERFWATCH_DB="$DB"

cat >"$T/perfwatch-hangs" <<EOF
#!/bin/sh
case " \$* " in
*" changes "*)
	echo \$\$ >>"$T/changes.pids"
	if [ ! -e "$T/gate" ]; then
		sleep 300 &
		echo \$! >"$T/sleep.pid"
		wait
		exit 3
	fi
	;;
esac
exec "$PERFWATCH" "\$@"
EOF
chmod 755 "$T/perfwatch-hangs"

PORT=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')

# get PATH: fetch into $T/body and $T/headers; print the code.
get() {
	curl -sS --max-time 60 -o "$T/body" -D "$T/headers" \
	    -w '%{http_code}' "http://127.0.0.1:$PORT$1"
}

# gone PID: no such process, not even a zombie waiting to be reaped.
gone() {
	! kill -0 "$1" 2>/dev/null && [ ! -e "/proc/$1" ]
}

printf '%s\n' "run,time,workload,metric,value,unit,better,host,iteration" \
    "r1,1703000000,cp.demo,flat,50,ms,lower,box2,1" \
    "r2,1703003600,cp.demo,flat,51,ms,lower,box2,1" >"$T/cp.csv"
write_profile
write_conf_manual
awk -v v="127.0.0.1:$PORT" '{ print } /^\[perfwatch\]$/ {
	print "http = " v; print "http_timeout = 2" }' "$CONF" >"$CONF.new"
mv "$CONF.new" "$CONF"
mkdir -p "$T/state"
pwc import "$T/cp.csv" >/dev/null || fail "import"
pwc changes --json >"$T/changes.cli" || fail "changes --json"
PERFWATCH="$T/perfwatch-hangs" start_daemon

# 1. A build that hangs: the client waits, then gets 504.
curl -sS --max-time 60 -o "$T/all.body" -w '%{http_code}' \
    "http://127.0.0.1:$PORT/api/changes" >"$T/all.code" 2>"$T/all.err" &
CURL=$!
wait_until 10 "the build and its sleep started" test -s "$T/sleep.pid" ||
	fail "no build started"
pid=$(cat "$T/changes.pids")
spid=$(cat "$T/sleep.pid")
wait "$CURL" || fail "/api/changes: curl $(cat "$T/all.err")"
[ "$(cat "$T/all.code")" = 504 ] ||
	fail "a build that hangs: $(cat "$T/all.code"), not 504"
python3 - "$T/all.body" <<'EOF' || fail "504 is not JSON naming http_timeout: $(cat "$T/all.body")"
import json, sys
e = json.load(open(sys.argv[1]))["error"]
assert "within 2 s (http_timeout)" in e, e
EOF
wait_until 10 "the build killed and reaped" gone "$pid" ||
	fail "the build is left: $(ps -o pid,stat,args -p "$pid" || true)"
wait_until 10 "the build's sleep killed" gone "$spid" ||
	fail "the build's group is left: $(ps -o pid,stat,args -p "$spid" || true)"
[ "$(grep -c 'api/changes: perfwatch changes (pid [0-9]*) killed' "$LOG")" = 1 ] ||
	fail "the kill is not logged once"

# 2. The next request starts a build of its own and is answered.
touch "$T/gate"
[ "$(get /api/changes)" = 200 ] || fail "/api/changes after a build was killed"
cmp -s "$T/body" "$T/changes.cli" || fail "/api/changes differs from changes --json"
[ "$(wc -l <"$T/changes.pids" | tr -d ' ')" = 2 ] ||
	fail "not one build per request: $(cat "$T/changes.pids")"
[ "$(grep -c 'api/changes: perfwatch changes (pid [0-9]*) killed' "$LOG")" = 1 ] ||
	fail "a build that ended was logged as killed"
kill -0 "$DPID" || fail "perfwatchd died"
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
