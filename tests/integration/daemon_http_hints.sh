#!/bin/sh
# The dashboard's 404 for a metric, workload or host= the store does not
# have names the one likely meant (name_hint), as the command's refusal
# does: on a metric's page (/metric) in its text, under /api/history and
# /api/changes in the JSON error, whose one key is still "error".
#
# The store has sys.pipe (lps) and disk.bonnie (block_read, block_write)
# on the hosts build-01, build-02 and db-west, one run each.
set -eu
. "$(dirname "$0")/daemon.subr"
. "$(dirname "$0")/http.subr"

http_conf
{
	echo 'run,time,workload,metric,value,unit,better,host'
	for h in build-01 build-02 db-west; do
		echo "$h-r1,1700000000,sys.pipe,lps,1000,lps,higher,$h"
		echo "$h-r1,1700000000,disk.bonnie,block_read,80,MiB/s,higher,$h"
		echo "$h-r1,1700000000,disk.bonnie,block_write,90,MiB/s,higher,$h"
	done
} >"$T/hosts.csv"
pwc import "$T/hosts.csv" >/dev/null || fail "import"
start_daemon

# api_says PATH WANT: GET PATH is 404 with the JSON {"error": WANT}.
api_says() {
	c=$(get "$1")
	[ "$c" = 404 ] || fail "$1: $c, not 404: $(head -c 300 "$T/body")"
	[ "$(json_keys "$T/body")" = error ] ||
		fail "$1: keys $(json_keys "$T/body" | tr '\n' ' ')"
	got=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["error"])' "$T/body")
	expect_eq "$got" "$2"
}

# page_says PATH WANT: GET PATH is a 404 page whose sentence is WANT.
page_says() {
	c=$(get "$1")
	[ "$c" = 404 ] || fail "$1: $c, not 404: $(head -c 300 "$T/body")"
	got=$(sed -n 's|^<p>\(.*\)</p>$|\1|p' "$T/body" | head -1)
	expect_eq "$got" "$2"
}

nh='no host in the store named'
api_says '/api/history?metric=lps&host=biuld-01' \
    "$nh biuld-01 (did you mean build-01?)"
api_says '/api/changes?host=build-03' \
    "$nh build-03 (did you mean build-01 or build-02?)"
api_says '/api/changes?metric=lps&host=DB-WEST' \
    "$nh DB-WEST (did you mean db-west?)"
api_says '/api/history?metric=lps&host=mail-01' "$nh mail-01"
page_says '/metric?name=lps&host=dbwest' \
    "$nh <code>dbwest</code> (did you mean <code>db-west</code>?)"

api_says '/api/history?metric=lsp' \
    "no metric in the store named lsp (did you mean lps?)"
api_says '/api/history?metric=block&workload=disk.bonnie' \
    "no metric of workload disk.bonnie named block \
(did you mean block_read or block_write?)"
api_says '/api/changes?workload=sys.ppie' \
    "no metric of workload sys.ppie (did you mean sys.pipe?)"
api_says '/api/changes?workload=diskbonnie&metric=block_read' \
    "no metric of workload diskbonnie (did you mean disk.bonnie?) named \
block_read"
# A metric of another workload is no hint for this one.
api_says '/api/history?metric=block_read&workload=sys.pipe' \
    "no metric of workload sys.pipe named block_read"
api_says '/api/history?metric=nosuch' "no metric in the store named nosuch"
page_says '/metric?name=LPS' \
    "no metric in the store named <code>LPS</code> (did you mean \
<code>lps</code>?)"
page_says '/metric?name=lps&workload=sys.ppie' \
    "no metric of workload sys.ppie (did you mean sys.pipe?) named \
<code>lps</code>"
# Escaped as the name is.
page_says '/metric?name=lps%3C&workload=sys.pipe' \
    "no metric of workload sys.pipe named <code>lps&lt;</code> (did you \
mean <code>lps</code>?)"

stop_daemon
[ "$DSTATUS" = 0 ] || fail "perfwatchd exited $DSTATUS"
pass
