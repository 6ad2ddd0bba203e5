#!/bin/sh
# /api/changes of every metric is built by a child (`perfwatch changes
# --json`), not in the daemon's loop, and so is that of a metric name two
# workloads share: while one is being built, /api/runs
# and the control socket's status are answered; a second such request
# gets 503 with Retry-After; the answer, once built, is changes --json to
# the byte, and says its length, which HEAD does not, as it starts no
# build (nor takes the one slot); a client that goes away has its
# build killed and reaped (no process left, not even a zombie), and the
# next request is served; SIGTERM during a build stops the daemon at once.
#
# The order does not rest on timing: perfwatch is wrapped, and the
# wrapper of `changes` writes its pid and waits for $T/gate before it
# execs the real binary, so the build lasts exactly as long as the test
# wants.  Everything else goes straight to the real binary.
set -eu
. "$(dirname "$0")/daemon.subr"

command -v curl >/dev/null 2>&1 || fail "curl is not installed"
export PERFWATCH_DB="$DB"

cat >"$T/perfwatch-gated" <<EOF
#!/bin/sh
case " \$* " in
*" changes "*)
	echo \$\$ >>"$T/changes.pids"
	n=0
	while [ ! -e "$T/gate" ]; do
		n=\$((n + 1))
		[ "\$n" -le 600 ] || exit 3
		sleep 0.1
	done
	;;
esac
exec "$PERFWATCH" "\$@"
EOF
chmod 755 "$T/perfwatch-gated"

PORT=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')

# get PATH [CURL-ARGS]: fetch into $T/body and $T/headers; print the code.
get() {
	p=$1
	shift
	curl -sS --max-time 10 -o "$T/body" -D "$T/headers" \
	    -w '%{http_code}' "$@" "http://127.0.0.1:$PORT$p"
}

# header NAME: a header of the last reply, without its CR.
header() {
	grep -i "^$1:" "$T/headers" | head -n 1 | sed 's/^[^:]*: *//' |
	    tr -d '\r'
}

# builds: how many builds the wrapper has seen start.
builds() {
	if [ -f "$T/changes.pids" ]; then
		wc -l <"$T/changes.pids" | tr -d ' '
	else
		echo 0
	fi
}

# build_pid: the pid of the newest build.
build_pid() {
	tail -n 1 "$T/changes.pids"
}

# gone PID: no such process, not even a zombie waiting to be reaped.
gone() {
	! kill -0 "$1" 2>/dev/null && [ ! -e "/proc/$1" ]
}

# A step (+20% from q-11) and a spike (q-22) of box2, a flat metric, and
# a step (+30% from q-16) of another workload's metric of the same name.
awk 'BEGIN {
	print "run,time,workload,metric,value,unit,better,host,iteration"
	s = 11
	for (r = 1; r <= 30; r++) {
		level = r == 22 ? 160 : r >= 11 ? 120 : 100
		for (i = 1; i <= 5; i++) {
			s = (s * 1103515245 + 12345) % 2147483648
			u = s / 2147483648 - 0.5
			printf "q-%02d,%d,cp.demo,level,%.4f,ms,lower,box2,%d\n",
			    r, 1703000000 + r * 3600, level * (1 + 0.02 * u), i
			printf "q-%02d,%d,cp.demo,flat,%.4f,ms,lower,box2,%d\n",
			    r, 1703000000 + r * 3600, 50 * (1 + 0.02 * u), i
			printf "q-%02d,%d,cp.more,level,%.4f,ms,lower,box2,%d\n",
			    r, 1703000000 + r * 3600,
			    (r >= 16 ? 91 : 70) * (1 + 0.02 * u), i
		}
	}
}' >"$T/cp.csv"

write_profile
write_conf_manual
awk -v v="127.0.0.1:$PORT" '{ print } /^\[perfwatch\]$/ { print "http = " v }' \
    "$CONF" >"$CONF.new"
mv "$CONF.new" "$CONF"
mkdir -p "$T/state"
pwc import "$T/cp.csv" >/dev/null || fail "import"
pwc changes --json >"$T/changes.cli" || fail "changes --json"
grep -q '"run": "q-11"' "$T/changes.cli" || fail "no step at q-11"
PERFWATCH="$T/perfwatch-gated" start_daemon

# 1. A build held at the gate: the loop answers meanwhile.
curl -sS --max-time 60 -o "$T/all.body" -w '%{http_code}' \
    "http://127.0.0.1:$PORT/api/changes" >"$T/all.code" 2>"$T/all.err" &
CURL=$!
wait_until 10 "the build started" sh -c "[ -s '$T/changes.pids' ]" ||
	fail "no build started"
[ "$(get /api/runs)" = 200 ] || fail "/api/runs during a build"
pwc runs --json --limit 50 >"$T/runs.cli"
cmp -s "$T/body" "$T/runs.cli" || fail "/api/runs differs during a build"
[ "$(status_field 'd["ok"]')" = True ] ||
	fail "the control socket did not answer during a build"
[ "$(get '/api/changes?workload=cp.demo&metric=level')" = 200 ] ||
	fail "/api/changes of one metric during a build"
# The second of every metric: 503, and when to come back.
[ "$(get /api/changes)" = 503 ] || fail "a second build was not refused"
# Before any build has ended: 5 s.
[ "$(header Retry-After)" = 5 ] ||
	fail "503 with Retry-After '$(header Retry-After)', not 5"
python3 -c 'import json, sys; assert "retry" in json.load(sys.stdin)["error"]' \
    <"$T/body" || fail "503 is not JSON saying why"
[ "$(builds)" = 1 ] || fail "the refused request started a build"
# HEAD needs no build, and so no slot: 200, and none started.
[ "$(get /api/changes -I)" = 200 ] || fail "HEAD during a build"
[ "$(builds)" = 1 ] || fail "HEAD during a build started one"
# The first is still waiting: it could not have been answered.
kill -0 "$CURL" 2>/dev/null || fail "/api/changes answered before its build"
touch "$T/gate"
wait "$CURL" || fail "/api/changes: curl $(cat "$T/all.err")"
[ "$(cat "$T/all.code")" = 200 ] || fail "/api/changes: $(cat "$T/all.code")"
cmp -s "$T/all.body" "$T/changes.cli" ||
	fail "/api/changes differs from changes --json"
gone "$(build_pid)" || fail "the build was not reaped"

# GET says its length.  HEAD has the headers of the answer but not its
# making: no build starts (the wrapper counts them), and so no length,
# which only the build knows; the build slot is not taken, and so HEAD
# is 200 even while another build holds it.  Before, HEAD built the
# whole answer to say its length, and got 503 while a build ran.
[ "$(get /api/changes)" = 200 ] || fail "/api/changes once more"
glen=$(wc -c <"$T/body")
[ "$(header Content-Length)" = "$glen" ] ||
	fail "GET: Content-Length $(header Content-Length), body $glen"
n=$(builds)
[ "$(get /api/changes -I)" = 200 ] || fail "HEAD /api/changes"
[ "$(header Content-Type)" = application/json ] || fail "HEAD: type"
[ "$(header Cache-Control)" = no-store ] || fail "HEAD: Cache-Control"
[ -z "$(header Content-Length)" ] ||
	fail "HEAD: Content-Length $(header Content-Length) without a build"
[ "$(builds)" = "$n" ] || fail "HEAD /api/changes started a build"
[ "$(get '/api/changes?metric=level' -I)" = 200 ] ||
	fail "HEAD /api/changes?metric=level"
[ "$(builds)" = "$n" ] || fail "HEAD /api/changes?metric=level built it"
# A metric of one workload is built in the loop, and logged when it is:
# by its GET, not by its HEAD.
q='/api/changes?workload=cp.demo&metric=level'
loop_built() {
	grep -c "http: $q: .* change points, built in the loop" "$LOG" ||
	    true
}
k=$(loop_built)
[ "$(get "$q" -I)" = 200 ] || fail "HEAD $q"
[ -z "$(header Content-Length)" ] || fail "HEAD $q: a Content-Length"
[ "$(loop_built)" = "$k" ] || fail "HEAD $q read the history"
[ "$(get "$q")" = 200 ] || fail "GET $q"
[ "$(loop_built)" = $((k + 1)) ] || fail "GET $q: no line in the log"
# Still a 404 for a metric not there: the names are looked up.
[ "$(get '/api/changes?metric=nothere' -I)" = 404 ] ||
	fail "HEAD of a metric not there"

# A name that two workloads share is two whole histories: built by a
# child too, the loop answering meanwhile (it was read in the loop).
rm -f "$T/gate"
n=$(builds)
curl -sS --max-time 60 -o "$T/shared.body" -w '%{http_code}' \
    "http://127.0.0.1:$PORT/api/changes?metric=level" >"$T/shared.code" \
    2>"$T/shared.err" &
CURL=$!
wait_until 10 "the build started" sh -c "[ \$(wc -l <'$T/changes.pids') -gt $n ]" ||
	fail "/api/changes?metric=level of two workloads: no child built it"
[ "$(get /api/runs)" = 200 ] || fail "/api/runs during a build of level"
kill -0 "$CURL" 2>/dev/null || fail "metric=level answered before its build"
touch "$T/gate"
wait "$CURL" || fail "/api/changes?metric=level: curl $(cat "$T/shared.err")"
[ "$(cat "$T/shared.code")" = 200 ] ||
	fail "/api/changes?metric=level: $(cat "$T/shared.code")"
pwc changes --metric level --json >"$T/level.cli"
cmp -s "$T/shared.body" "$T/level.cli" ||
	fail "/api/changes?metric=level differs from changes --metric level"
grep -q '"workload": "cp.more"' "$T/level.cli" || fail "no cp.more in level"

# 2. The client goes away: its build is killed and reaped.
rm -f "$T/gate"
n=$(builds)
curl -sS --max-time 60 -o /dev/null "http://127.0.0.1:$PORT/api/changes" \
    2>/dev/null &
CURL=$!
wait_until 10 "the build started" sh -c "[ \$(wc -l <'$T/changes.pids') -gt $n ]" ||
	fail "no build started"
pid=$(build_pid)
# Come back in what the last build took (in the log), less what
# this one has run, 1 at least: not 5, the guess before any had ended.
last=$(sed -n 's/.*built in \([0-9]*\) s.*/\1/p' "$LOG" | tail -n 1)
[ -n "$last" ] || fail "no 'built in' in the log"
[ "$last" -ge 1 ] || last=1
[ "$(get /api/changes)" = 503 ] || fail "a second build was not refused"
ra=$(header Retry-After)
[ -n "$ra" ] && [ "$ra" -ge 1 ] && [ "$ra" -le "$last" ] ||
	fail "503 with Retry-After '$ra', not 1 to $last"
kill "$CURL"
wait "$CURL" 2>/dev/null || true
wait_until 10 "the build killed and reaped" gone "$pid" ||
	fail "the build of a client that went away is left: $(ps -o pid,stat,args -p "$pid" || true)"
grep -q "the client went away" "$LOG" || fail "no 'went away' in the log"
# And the next one is served, not refused.
touch "$T/gate"
[ "$(get /api/changes)" = 200 ] || fail "/api/changes after a client left"
cmp -s "$T/body" "$T/changes.cli" || fail "/api/changes differs after"

# 3. SIGTERM while a build is held: the daemon exits at once.
rm -f "$T/gate"
n=$(builds)
curl -sS --max-time 60 -o /dev/null "http://127.0.0.1:$PORT/api/changes" \
    2>/dev/null &
CURL=$!
wait_until 10 "the build started" sh -c "[ \$(wc -l <'$T/changes.pids') -gt $n ]" ||
	fail "no build started"
pid=$(build_pid)
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
[ "$DSTOP_TIME" -le 2 ] || fail "perfwatchd took $DSTOP_TIME s to stop"
wait_until 5 "the build gone" gone "$pid" || fail "the build outlived the daemon"
wait "$CURL" 2>/dev/null || true
pass
