#!/bin/sh
# A receiver that has answered 2xx has the alert, whatever becomes of
# the rest of its answer.  One sends its status, headers and "thanks",
# then stalls with more of the body promised; another sends a body that
# never ends.  Both are delivered: the first when the sink's timeout
# ends the wait for the rest (the answer says so), the second as soon
# as 512 bytes of its answer are read, the rest left unread.  Before,
# both were failures to retry at the timeout: the receiver got the alert
# again at every retry until max_age.  A 404 whose body stalls is still
# refused for good, and a receiver that says nothing at all still times
# out.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/notify.subr"

p_stall=$(free_port)
start_webhook "$T/stall" "$p_stall" --stall
p_endless=$(free_port)
start_webhook "$T/endless" "$p_endless" --endless
p_gone=$(free_port)
start_webhook "$T/gone" "$p_gone" --stall --status 404 --reply "no such hook"
p_mute=$(free_port)
start_webhook "$T/mute" "$p_mute" --hang 250
: >"$T/sinks.conf"
for s in stall endless gone mute; do
	eval "port=\$p_$s"
	printf '[sink "%s"]\ntype = webhook\nurl = http://127.0.0.1:%s/h\n'\
'timeout = 3s\n' "$s" "$port" >>"$T/sinks.conf"
done

for s in stall endless gone mute; do
	rc=0
	start=$(date +%s)
	pwt -c "$T/sinks.conf" notify test "$s" --json >"$T/$s.json" \
	    2>"$T/$s.err" || rc=$?
	echo "$rc $(($(date +%s) - start))" >"$T/$s.rc"
	[ "$(count_files "$T/$s"/req-*.body)" -eq 1 ] ||
		fail "$s: not one request: $(cat "$T/$s.err")"
done
"$PY" - "$T" <<'EOPY'
import json, re, sys
t = sys.argv[1]
def res(s):
    rc, secs = (int(x) for x in open("%s/%s.rc" % (t, s)).read().split())
    r = json.load(open("%s/%s.json" % (t, s)))
    assert len(r) == 1, r
    return rc, secs, r[0]
rc, secs, r = res("stall")
assert rc == 0 and r["outcome"] == "delivered", (rc, r)
assert re.match(r"HTTP 200: thanks \(the rest of the answer not read: "
                r"Operation timed out after 3\d{3} milliseconds", r["answer"]), r
rc, secs, r = res("endless")
assert rc == 0 and r["outcome"] == "delivered", (rc, r)
assert r["answer"].startswith("HTTP 200: thanksand more and more "), r
# Cut by perfwatch at 512 bytes, not by the timeout.
assert "(the rest" not in r["answer"] and len(r["answer"]) < 600, r
rc, secs, r = res("gone")
assert rc == 1 and r["outcome"] == "failed", (rc, r)
assert r["answer"].startswith("HTTP 404: no such hook (the rest"), r
rc, secs, r = res("mute")
assert rc == 1 and r["outcome"] == "retry", (rc, r)
assert "timed out after 3" in r["answer"], r
EOPY
pass
