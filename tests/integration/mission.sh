#!/bin/sh
# The mission, end to end, with nothing but perfwatchd at work: a package
# upgrade slows the machine, and the daemon alone finds it and mails it.
#
# A history of thirty nights near 1000 lps is imported; perfwatchd then
# measures the machine once as it is (the last good run, libfoo1 1.0-1).
# Then libfoo1 is upgraded in a dpkg database of the test's own, and the
# benchmark (a command workload whose speed depends on that version, as a
# library's would) drops to 776.  With no command given, the daemon must:
# see the upgrade and run the battery once it settles (trigger package),
# judge the run a regression and suspect it, re-run the workload at once
# (trigger rerun), confirm it there, and mail it to a real SMTP server on
# loopback, naming the package that changed between the last good and the
# first bad run; the log has the alert too, as it always does.  Then
# `perfwatch check --latest` exits 1 for `git bisect run`-style use, and
# `perfwatch alerts` lists the alert.
set -eu
. "$(dirname "$0")/daemon.subr"
. "$(dirname "$0")/notify.subr"
trap 'daemon_cleanup; notify_cleanup' EXIT
export PERFWATCH_DB="$DB"	# lib.sh's would win over state_dir

{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.0-1; } | dpkg_write

# The benchmark: its throughput follows the installed libfoo1.
cat >"$T/app.sh" <<EOF
#!/bin/sh
v=\$(awk '/^Package: libfoo1\$/ { p = 1 }
    p && /^Version:/ { print \$2; exit }' "$T/dpkg/status")
case \$v in
1.0-1)	echo "throughput 1001 lps higher" ;;
*)	echo "throughput 776 lps higher" ;;
esac
EOF
chmod 755 "$T/app.sh"
cat >"$T/profile.conf" <<EOF
[workload "app.pipe"]
command = $T/app.sh
iterations = 3
EOF

port=$(free_port)
start_smtp "$T/smtp" "$port"
write_conf_packages 1s "rerun_suspected = yes
[detect]
baseline_runs = 30
[sink \"ops\"]
type = email
to = ops@example.org
from = perfwatch@example.org
smtp_url = smtp://127.0.0.1:$port
starttls = none"
mkdir -p "$T/state"
host=$(uname -n)
history_csv "$host" app.pipe throughput 30 0 \
    "$(($(date +%s) - 40 * 86400))" >"$T/history.csv"
pwc import "$T/history.csv" >"$T/import.out" 2>&1 ||
	fail "import: $(cat "$T/import.out")"

start_daemon
wait_packages 2
# The machine as it is, measured once: the last good run.
pwc trigger >"$T/trigger.out" 2>&1 || fail "trigger: $(cat "$T/trigger.out")"
wait_until 30 "the first run" runs_at_least 1 \
    "trigger <> 'import' AND status = 'complete'" ||
	fail "the asked-for run did not complete"
good=$(sql "SELECT label FROM runs WHERE trigger <> 'import'")
[ "$(sql "SELECT count(*) FROM alerts")" -eq 0 ] ||
	fail "an alert before anything changed"

# The upgrade.  From here on nobody asks the daemon for anything.
{ dpkg_stanza coreutils 9.1-1; dpkg_stanza libfoo1 1.1-1; } | dpkg_write
wait_until 60 "the rerun" runs_at_least 1 \
    "trigger = 'rerun' AND status = 'complete'" ||
	fail "no rerun after the package run"
wait_until 30 "the email" test -e "$T/smtp/msg-1.eml" ||
	fail "no email: $(cat "$T/smtp/log")"

# The runs: the package run first bad, the rerun confirming it.
bad=$(sql "SELECT label FROM runs WHERE trigger = 'package'")
[ -n "$bad" ] || fail "no package run"
[ "$(count_runs "trigger = 'package'")" -eq 1 ] || fail "not one package run"
detail=$(sql "SELECT trigger_detail FROM runs WHERE trigger = 'package'")
expect_match "$detail" "libfoo1 1.0-1"
expect_match "$detail" "1.1-1"
rerun=$(sql "SELECT label FROM runs WHERE trigger = 'rerun'")
[ "$(sql "SELECT state FROM alerts")" = confirmed ] ||
	fail "alerts: $(sql "SELECT id, state FROM alerts")"

pwc alerts --json >"$T/alerts.json" || fail "alerts --json"
"$PY" - "$T/alerts.json" "$good" "$bad" <<'EOPY'
import json, sys
alerts = json.load(open(sys.argv[1]))
good, bad = sys.argv[2:4]
assert len(alerts) == 1, alerts
a = alerts[0]
assert a["state"] == "confirmed", a
assert a["workload"] == "app.pipe" and a["metric"] == "throughput", a
assert a["direction"] == "regression", a
assert -23 < a["change_pct"] < -22, a
assert a["last_good_run"] == good and a["first_bad_run"] == bad, a
assert "libfoo1" in a["attribution"]["summary"], a
EOPY

# The email: the regression, the package, the two runs.
"$PY" - "$T/smtp/msg-1.eml" "$host" "$good" "$bad" <<'EOPY'
import email, email.policy, re, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read(),
                             policy=email.policy.default)
host, good, bad = sys.argv[2:5]
subject = str(m["Subject"])
assert re.fullmatch(r"\[perfwatch\] %s: app\.pipe throughput -22\.\d%% "
                    r"\(confirmed\)" % re.escape(host), subject), subject
body = m.get_content().replace("\r\n", "\n")
lines = body.split("\n")
head = ("What changed on the machine from %s (last good) to %s (first bad):"
        % (good, bad))
assert head in lines, body
i = lines.index(head)
diff = [l for l in lines[i + 1:i + 6] if l.strip()]
assert re.fullmatch(r"\s+upgraded\s+libfoo1\s+1\.0-1 → 1\.1-1", diff[0]), diff
assert "coreutils" not in body, body
assert "  perfwatch env diff %s %s\n" % (good, bad) in body, body
EOPY
# Exactly one email: the suspicion was not mailed (min_state confirmed).
sleep 1
[ "$(count_files "$T"/smtp/msg-*.eml)" -eq 1 ] || fail "not one email"
# The log, always: both changes of the alert, the package named.
grep -q "notify: alert #1 on $host: app.pipe throughput -22\.[0-9]% suspected" \
    "$LOG" || fail "the log has no suspected line"
line="notify: alert #1 on $host: app.pipe throughput -22\.[0-9]% confirmed"
line="$line (was suspected); last good $good, first bad $bad;"
line="$line machine: libfoo1 1.0-1 → 1.1-1"
grep -q "$line" "$LOG" || fail "the log has no confirmed line naming libfoo1"

# The verdict of the newest run, as git bisect run would read it.
rc=0
pwc check --latest >"$T/check.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "check --latest exit $rc: $(cat "$T/check.out")"
expect_match "$(cat "$T/check.out")" "run $rerun"
expect_match "$(cat "$T/check.out")" "regression"

stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
