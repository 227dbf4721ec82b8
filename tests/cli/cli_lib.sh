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
# Hex on stdin to bytes on stdout. A kat that refuses its input exits
# without reading it, and xargs then reports printf's SIGPIPE: not an error.
unhex() { sed 's/../\\x&/g' | xargs -0 printf '%b' 2>/dev/null; }

finish() {
    echo "# counts: $passed $failed $skipped"
    [ "$failed" -eq 0 ]
}

# expect_usage <name> <command...>: exit status 2, one line on stderr,
# nothing on stdout.
expect_usage() {
    local name=$1; shift
    "$@" >"$tmp/usage.out" 2>"$tmp/usage.err" </dev/null
    local status=$? lines
    lines=$(wc -l <"$tmp/usage.err")
    if [ $status -eq 2 ] && [ ! -s "$tmp/usage.out" ] && [ "$lines" -eq 1 ]; then
        ok "$name: $(cat "$tmp/usage.err")"
    else
        fail "$name: status $status, stdout $(wc -c <"$tmp/usage.out") bytes, stderr $lines lines: $(head -c 300 "$tmp/usage.err")"
    fi
}

# expect_kat <name> <input hex> <want hex> <args...>: kat's output.
expect_kat() {
    local name=$1 input=$2 want=$3; shift 3
    local got
    got=$(printf '%s' "$input" | unhex | "$bin" kat "$@" | hex)
    [ "$got" = "$want" ] && ok "$name" || fail "$name: got $got"
}

# expect_status <name> <status> <input hex> <args...>: kat exits with that
# status, one line on stderr, nothing on stdout.
expect_status() {
    local name=$1 want=$2 input=$3; shift 3
    printf '%s' "$input" | unhex | "$bin" kat "$@" >"$tmp/out" 2>"$tmp/err"
    local status=$? lines
    lines=$(wc -l <"$tmp/err")
    if [ $status -eq "$want" ] && [ ! -s "$tmp/out" ] && [ "$lines" -eq 1 ]; then
        ok "$name: $(cat "$tmp/err")"
    else
        fail "$name: status $status, stdout $(wc -c <"$tmp/out") bytes, stderr $lines lines: $(head -c 300 "$tmp/err")"
    fi
}
