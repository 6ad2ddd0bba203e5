# Shared by the integration tests: a private temporary directory and
# database, and small assertions.  Sourced, not run.
: "${PERFWATCH:?run through tests/run.sh}"
T=$(mktemp -d "${TMPDIR:-/tmp}/pw-it.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT INT TERM
export PERFWATCH_DB="$T/perfwatch.db"
export HOME="$T/home"
unset XDG_STATE_HOME

pw() {
	"$PERFWATCH" "$@"
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

pass() {
	echo "ok: $(basename "$0")"
}

# expect_match TEXT FIXED-STRING
expect_match() {
	case "$1" in
	*"$2"*) ;;
	*) fail "expected \"$2\" in: $1" ;;
	esac
}
