#!/bin/sh
# The main job behind `make run`: a local state directory under var/,
# the bundled example history imported, and what perfwatch makes of it.
set -eu
BUILD=${BUILD:-build}
pw="$BUILD/bin/perfwatch"
state=var
mkdir -p "$state"
export PERFWATCH_DB="$state/perfwatch.db"

echo "== perfwatch import etc/examples/bonnie-linux-vs-sco.csv"
"$pw" import --replace etc/examples/bonnie-linux-vs-sco.csv
echo
echo "== perfwatch show redhat-6.2-ext2-1"
"$pw" show redhat-6.2-ext2-1
echo
echo "== perfwatch history --metric write_kps --limit 10"
"$pw" history --metric write_kps --limit 10
echo
echo "(database: $PERFWATCH_DB)"
