#!/bin/sh
# The main job behind `make run`: a development configuration and state
# under var/, then the quick battery measured and judged once.
set -eu
BUILD=${BUILD:-build}
top=$(pwd)
pw="$top/$BUILD/bin/perfwatch"
state="$top/var"
mkdir -p "$state/work"
conf="$state/perfwatch.conf"
if [ ! -f "$conf" ]; then
	cat >"$conf" <<EOF
# Development configuration written by \`make run\`; edit freely.
[perfwatch]
state_dir = $state
work_dir = $state/work
profile = quick

[quiet]
policy = annotate
EOF
fi
export PERFWATCH_PROFILE_DIR="$top/etc/profiles"

echo "== perfwatch -c $conf run   (the quick battery: about 2-3 minutes)"
"$pw" -c "$conf" run
echo
echo "== perfwatch -c $conf history --workload sys.pipe --limit 5"
"$pw" -c "$conf" history --workload sys.pipe --limit 5
echo
echo "(configuration: $conf; database: $state/perfwatch.db)"
