#!/bin/sh
# notify pending names a row with no alert (an outbox row's alert is
# nullable) "-", as its JSON's null: the table and the CSV printed 0,
# an alert number no alert has.
set -eu
. "$(dirname "$0")/lib.sh"

printf 'run,time,workload,metric,value,unit,better\nr1,1700000000,w,m,1,s,lower\n' \
    >"$T/h.csv"
pw import "$T/h.csv" >/dev/null
sqlite3 "$PERFWATCH_DB" "INSERT INTO outbox (alert, sink, payload, created,
    next_attempt) VALUES (NULL, 'log', '{}', 1796660000, 1796660000)"
expect_eq "$(pw notify pending --all --csv | sed -n 2p | cut -d, -f1-3)" \
    "1,-,log"
expect_eq "$(pw notify pending --all | awk 'NR == 2 { print $1, $2, $3 }')" \
    "1 - log"
expect_eq "$(pw notify pending --all --json | python3 -c 'import json, sys
print(json.load(sys.stdin)[0]["alert"])')" None
pass
