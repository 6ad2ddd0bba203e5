#!/bin/sh
# No child of perfwatchd holds a client's connection.  A dashboard client
# and a control-socket client connect; then the daemon starts children
# while they are connected: a read of the package list (a fork that runs
# a function, no exec) and a run of a workload that sleeps (an exec, and
# its own children).  None of them has a socket among its descriptors,
# and a dashboard reply on a connection opened before the fork ends with
# an EOF the client sees while the fork is still alive.  Before, the
# package-list child held every connection of the daemon: the client
# waited for an EOF that came only when the child ended.
#
# The fork lives exactly as long as the test wants: the package database
# is replaced by a FIFO, which the child's read blocks on until the test
# opens it for writing (a reader blocked in open(2) is what lets the
# test's non-blocking open for writing succeed) and then until the test
# closes it.
set -eu
. "$(dirname "$0")/daemon.subr"

if [ ! -d /proc/self/fd ] || [ "$(uname -s)" != Linux ]; then
	skip "reads the children's descriptors in /proc/PID/fd (Linux)"
fi
command -v mkfifo >/dev/null 2>&1 || skip "needs mkfifo(1)"

PORT=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')

dpkg_stanza coreutils 9.1-1 >"$T/dpkg/status"
SLOW=60
write_profile slow
write_conf "
[schedule]
cron = none
[triggers]
packages = yes
package_settle = 0
dpkg_admin_dir = $T/dpkg
kernel = no"
# The dashboard, in [perfwatch].
awk -v v="127.0.0.1:$PORT" '{ print } /^\[perfwatch\]$/ { print "http = " v }' \
    "$CONF" >"$T/conf.tmp"
mv "$T/conf.tmp" "$CONF"
start_daemon
wait_until 15 "the package list at start" \
    grep -q "packages: 1 packages (dpkg)" "$LOG" ||
	fail "the daemon did not read the package list"

timeout 120 python3 - "$DPID" "$PORT" "$SOCK" "$T" "$PERFWATCH" "$CONF" \
    <<'EOF' || fail "a child of the daemon held a client's connection"
import errno, os, socket, subprocess, sys, time

dpid, port, sock, t, perfwatch, conf = sys.argv[1:]
fifo = os.path.join(t, "dpkg", "status")
daemon_exe = os.readlink("/proc/%s/exe" % dpid)


def bad(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def wait_for(what, cond, limit=20):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.1)
    bad("gave up after %ds waiting for %s" % (limit, what))


def children(pid):
    out = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                st = f.read()
        except OSError:
            continue
        # The fields after the command's closing parenthesis.
        fields = st[st.rindex(")") + 2:].split()
        if fields[1] == str(pid):
            out.append(int(p))
    return out


def descendants(pid):
    out = [pid]
    for c in children(pid):
        out += descendants(c)
    return out


def sockets(pid):
    found = []
    try:
        fds = os.listdir("/proc/%d/fd" % pid)
    except OSError:
        return found
    for fd in fds:
        try:
            target = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if target.startswith("socket:"):
            found.append("%s -> %s" % (fd, target))
    return found


# A dashboard connection and a control-socket connection, both open
# before any child below is started.
web = socket.create_connection(("127.0.0.1", int(port)))
ctl = socket.socket(socket.AF_UNIX)
ctl.connect(sock)

# The package database becomes a FIFO: the daemon sees the change and,
# package_settle being 0, forks a child to read the list at once.
tmp = fifo + "-new"
os.mkfifo(tmp)
os.rename(tmp, fifo)


def reader_waits():
    try:
        return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as e:
        if e.errno == errno.ENXIO:
            return None
        raise


wfd = wait_for("the package-list child to open the FIFO", reader_waits)
# It is past its start now, blocked reading what the test will write.


def the_fork():
    """The daemon's one child still running perfwatchd: not an exec'd
    child caught between its fork and its exec."""
    forks = []
    for p in children(dpid):
        try:
            if os.readlink("/proc/%d/exe" % p) == daemon_exe:
                forks.append(p)
        except OSError:
            pass
    return forks if len(forks) == 1 else None


forks = wait_for("one forked child of perfwatchd", the_fork)
held = sockets(forks[0])
if held:
    bad("the package-list child (pid %d) holds sockets: %s" %
        (forks[0], ", ".join(held)))

# A reply on the connection opened before the fork: the daemon closes
# it after an HTTP/1.0 reply, and the client sees the EOF while the
# child lives on.
web.sendall(b"GET /api/runs HTTP/1.0\r\n\r\n")
web.settimeout(15)
reply = b""
try:
    while True:
        b = web.recv(65536)
        if not b:
            break
        reply += b
except socket.timeout:
    bad("no EOF after the reply while the package-list child lives "
        "(%d bytes read)" % len(reply))
if not reply.startswith(b"HTTP/1.0 200") and \
        not reply.startswith(b"HTTP/1.1 200"):
    bad("unexpected reply: %r" % reply[:80])
if not os.path.exists("/proc/%d" % forks[0]):
    bad("the package-list child ended before the EOF was seen")

# Let the child read a list and end.  A file takes the FIFO's place
# first: the next read of the list (and the run's own) opens the file.
stanza = ("Package: coreutils\nStatus: install ok installed\n"
          "Architecture: amd64\nVersion: 9.1-1\n\n")
with open(tmp, "w") as f:
    f.write(stanza)
os.rename(tmp, fifo)
with os.fdopen(wfd, "w") as f:
    f.write(stanza)
def ended(pid):
    # Reaped between a look and a read is ended too (it was, once).
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ")[1][0] == "Z"
    except FileNotFoundError:
        return True
wait_for("the package-list child to end", lambda: ended(forks[0]))

# A run (exec'd, with a workload that sleeps) while both clients are
# still connected: neither it nor any process under it holds a socket.
web = socket.create_connection(("127.0.0.1", int(port)))
subprocess.run([perfwatch, "-c", conf, "trigger", "--workload", "slow"],
               check=True, stdout=subprocess.DEVNULL, timeout=20)


def the_workload():
    for p in children(dpid):
        try:
            cmd = open("/proc/%d/cmdline" % p).read().split("\0")
        except OSError:
            continue
        if "run" in cmd:
            procs = descendants(p)
            for q in procs:
                try:
                    c = open("/proc/%d/cmdline" % q).read()
                except OSError:
                    continue
                if c.startswith("sleep"):
                    return p, procs
    return None


run, procs = wait_for("the run's sleeping workload", the_workload, 30)
for q in procs:
    held = sockets(q)
    if held:
        bad("pid %d of the run (pid %d) holds sockets: %s" %
            (q, run, ", ".join(held)))
print("ok: the children held no socket (fork %d, run %d, %d processes)" %
      (forks[0], run, len(procs)))
web.close()
ctl.close()
EOF
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
