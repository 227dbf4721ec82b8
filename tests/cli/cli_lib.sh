# Shared by the shell tests (sourced): counters, result lines, checks,
# expected exit statuses and kat outputs, hex helpers and a scratch
# directory removed at exit. Each test ends with `finish`, which prints the
# "# counts:" line tests/run.sh adds up and exits with the verdict.
bin=${1:-build/cyclebench}
python=/usr/bin/python3 # Debian's, with nothing from a virtualenv
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

# The architecture the binary was built for (x86_64, aarch64), from list
# --json: a test that names ISA rows names this architecture's.
# gcrypt_built: this binary has libgcrypt. A build without it (the arm64
# cross build: Debian's libgcrypt20-dev is for one architecture at a time)
# lists its gcrypt kernels as unsupported, saying why.
gcrypt_built() { ! "$bin" list --json 2>/dev/null | grep -q 'this build has no libgcrypt'; }
# says_no_libgcrypt <kernel>: list --json gives that reason for it.
says_no_libgcrypt() {
    "$bin" list --json | "$python" -c '
import json, sys
d = json.load(sys.stdin)
ks = d["kernels"] if isinstance(d, dict) else d
k = [k for k in ks if k["name"] == sys.argv[1]]
sys.exit(not (k and all(not i["supported"] and "no libgcrypt" in i["reason"]
                        for i in k[0]["isas"])))' "$1"
}
# gcrypt_listed <kernel...>: each listed as supported where libgcrypt is
# built in, else each saying why not.
gcrypt_listed() {
    local k
    for k in "$@"; do
        if gcrypt_built; then
            grep -q "^$k external supported$" "$tmp/list" &&
                ok "list has $k, supported" || fail "list lacks '$k external supported'"
        else
            check "$k is unsupported in a build without libgcrypt, saying so" -- \
                says_no_libgcrypt "$k"
        fi
    done
}

bin_arch() {
    "$bin" list --json | sed -n 's/.*"arch": "\([a-z0-9_]*\)".*/\1/p' | head -1
}

finish() {
    echo "# counts: $passed $failed $skipped"
    [ "$failed" -eq 0 ]
    exit
}

# check <name> -- <command> [args...]: ok when the command exits 0. It runs
# that one command and nothing else: a compound condition is a function or
# `sh -c '...'`. Written `check NAME -- [ a ] && [ b ]`, the shell would
# hand check [ a ] alone and run [ b ] outside it, unasserted; such lines
# are refused below before any test runs.
check() {
    local name=$1
    if [ $# -lt 3 ] || [ "$2" != -- ]; then
        fail "$name: malformed check: write check NAME -- COMMAND [ARGS...]"
        return 1
    fi
    shift 2
    if "$@"; then
        ok "$name"
    else
        fail "$name"
        return 1
    fi
}

# lacks <pattern> <file>: no line of the file matches (grep's pattern).
lacks() { ! grep -q -- "$1" "$2"; }

# The lines of a test script where a check goes on, outside quotes, with
# && or || (continuation lines joined): each is a condition that escapes it.
escaping_checks() {
    awk '
    function unquoted(s,    out, q, i, c) {
        for (i = 1; i <= length(s); i++) {
            c = substr(s, i, 1)
            if (q == "" && c == "\\") i++
            else if (q == "" && (c == "\"" || c == "\047")) q = c
            else if (q == "") out = out c
            else if (c == q) q = ""
            else if (c == "\\" && q == "\"") i++
        }
        return out
    }
    pending != "" { pending = pending " " $0 }
    pending == "" && /^[ \t]*check[ \t]/ { pending = $0; start = FNR }
    pending != "" {
        if (pending ~ /\\$/) { sub(/\\$/, "", pending); next }
        if (unquoted(pending) ~ /&&|\|\|/) print start
        pending = ""
    }' "$1"
}
for line in $(escaping_checks "$0"); do
    fail "$(basename "$0"):$line: a condition after && or || escapes its check: make the check's command a function"
done

# expect_exit <name> <status> <command...>: that exit status, nothing on
# stdout and one line on stderr (shown, and left in $tmp/exit.err). Stdin is
# the file $STDIN, or empty.
expect_exit() {
    local name=$1 want=$2; shift 2
    "$@" <"${STDIN:-/dev/null}" >"$tmp/exit.out" 2>"$tmp/exit.err"
    local status=$? lines
    lines=$(wc -l <"$tmp/exit.err")
    if [ $status -eq "$want" ] && [ ! -s "$tmp/exit.out" ] && [ "$lines" -eq 1 ]; then
        ok "$name: $(cat "$tmp/exit.err")"
    else
        fail "$name: status $status (want $want), stdout $(wc -c <"$tmp/exit.out") bytes, stderr $lines lines: $(head -c 300 "$tmp/exit.err")"
    fi
}

# expect_usage <name> <command...>: a usage error, exit status 2.
expect_usage() {
    local name=$1; shift
    expect_exit "$name" 2 "$@"
}

# expect_usage_on <name> <input hex> <command...>: the same, with that
# input on stdin (a message the command must refuse before reading it all).
expect_usage_on() {
    local name=$1 input=$2; shift 2
    printf '%s' "$input" | unhex >"$tmp/usage.in"
    STDIN=$tmp/usage.in expect_exit "$name" 2 "$@"
}

# kat_hex <input hex> <kat args...>: kat's output in hex on stdout, and its
# exit status as this function's; its stderr is left in $tmp/kat.err.
kat_hex() {
    printf '%s' "$1" | unhex >"$tmp/kat.in"
    shift
    "$bin" kat "$@" <"$tmp/kat.in" >"$tmp/kat.out" 2>"$tmp/kat.err"
    local status=$?
    hex <"$tmp/kat.out"
    return $status
}

# expect_kat <name> <input hex> <want hex> <kat args...>: kat exits 0 and
# writes exactly want (which may be empty).
expect_kat() {
    local name=$1 input=$2 want=$3 got status; shift 3
    got=$(kat_hex "$input" "$@")
    status=$?
    if [ $status -eq 0 ] && [ "$got" = "$want" ]; then
        ok "$name"
    else
        fail "$name: status $status, got '$got': $(head -c 200 "$tmp/kat.err")"
    fi
}

# expect_status <name> <status> <input hex> <kat args...>: kat exits with
# that status, nothing on stdout, one line on stderr.
expect_status() {
    local name=$1 want=$2
    printf '%s' "$3" | unhex >"$tmp/kat.in"
    shift 3
    STDIN=$tmp/kat.in expect_exit "$name" "$want" "$bin" kat "$@"
}
