# Shared by the shell tests (sourced): counters, result lines, hex helpers
# and a scratch directory removed at exit. Each test ends with
# `finish`, which prints the "# counts:" line tests/run.sh adds up.
bin=${1:-build/cyclebench}
passed=0 failed=0 skipped=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok()    { passed=$((passed + 1)); echo "ok   $1"; }
fail()  { failed=$((failed + 1)); echo "FAIL $1"; }
skip()  { skipped=$((skipped + 1)); echo "SKIP $1"; }
hex()   { od -An -v -tx1 | tr -d ' \n'; }
# Hex on stdin to bytes on stdout.
unhex() { sed 's/../\\x&/g' | xargs -0 printf '%b'; }

finish() {
    echo "# counts: $passed $failed $skipped"
    [ "$failed" -eq 0 ]
}
