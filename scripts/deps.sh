#!/bin/sh
# Install perfwatch's build and test dependencies from deps/<os>.txt.
# Does nothing when everything is already present.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)

list() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"
}

case "$(uname -s)" in
FreeBSD)
	echo "perfwatch: on FreeBSD, install the dependencies with:"
	echo "  pkg install $(list "$here/deps/freebsd.txt" | tr '\n' ' ')"
	exit 0
	;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "perfwatch: not a Debian system; install the equivalents of:" >&2
	list "$here/deps/debian.txt" >&2
	exit 0
fi

missing=""
for p in $(list "$here/deps/debian.txt"); do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = "installed" ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "perfwatch: installing:$missing"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing
