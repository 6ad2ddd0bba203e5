#!/bin/sh
# perfwatchd's replies are UTF-8 JSON whatever the text it quotes: an
# unknown command's name is quoted up to 64 bytes, which can cut a
# character in two; the reply still comes, with the cut repaired (U+FFFD).
set -eu
. "$(dirname "$0")/daemon.subr"

write_profile
write_conf_manual
start_daemon
# "a" and forty "é" (two bytes each): byte 64 falls inside the 32nd.
cmd=$(python3 -c 'print("a" + "\u00e9" * 40)')
request "{\"cmd\":\"$cmd\"}" '{"cmd":"status"}' >"$T/replies" ||
	fail "no reply: $(cat "$T/replies")"
python3 - "$T/replies" <<'EOF' || fail "replies: $(cat "$T/replies")"
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
assert len(lines) == 2, lines
e = json.loads(lines[0])
assert e["ok"] is False, e
assert e["error"].startswith("unknown cmd \"a" + "\u00e9" * 31 + "\ufffd\""), e
s = json.loads(lines[1])
assert s["ok"] is True and s["state"] == "idle", s
EOF
stop_daemon TERM
[ "$DSTATUS" -eq 0 ] || fail "perfwatchd exited $DSTATUS"
pass
