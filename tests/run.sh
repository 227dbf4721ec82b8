#!/usr/bin/env bash
# Runs every test binary (plain and sanitized, from tests/c/), the CLI
# tests (tests/cli/) and the Python tests' wrappers (tests/py/), then
# prints the one closing line CI reads: "N passed, N failed".
set -u
build=${1:-build}
cd "$(dirname "$0")/.."

passed=0 failed=0 skipped=0
tally() { # <name> <command...>: run one test program, add up its counts
    local name=$1; shift
    local log counts status
    log=$(mktemp)
    echo "== $name"
    "$@" >"$log" 2>&1
    status=$?
    grep -v '^# counts:' "$log" | grep -Ev '^ok ' || true
    counts=$(grep '^# counts:' "$log" | tail -1)
    if [ -z "$counts" ]; then
        echo "FAIL $name exited $status without a summary"
        tail -20 "$log"
        failed=$((failed + 1))
    else
        set -- $counts
        passed=$((passed + $3)); failed=$((failed + $4)); skipped=$((skipped + $5))
        echo "   $3 passed, $4 failed, $5 skipped"
        if [ $(($3 + $4 + $5)) -eq 0 ]; then
            echo "FAIL $name reported no cases"
            failed=$((failed + 1))
        fi
        if [ "$status" -ne 0 ] && [ "$4" -eq 0 ]; then
            echo "FAIL $name exited $status"
            failed=$((failed + 1))
        fi
    fi
    rm -f "$log"
}

# runnable <file>: true when it can run; otherwise a failure naming it (a
# test that lost its executable bit, a build that made no test programs).
runnable() {
    if [ -x "$1" ]; then
        return 0
    elif [ -e "$1" ]; then
        echo "FAIL $1 is not executable: chmod +x it"
    else
        echo "FAIL no $1: build the tests first (make test)"
    fi
    failed=$((failed + 1))
    return 1
}

for t in "$build"/tests/test_*; do
    runnable "$t" && tally "$(basename "$t")" "$t"
done
for t in "$build"/asan-tests/test_*; do
    runnable "$t" && tally "asan $(basename "$t")" "$t"
done
for t in tests/cli/*_test.sh tests/py/*_test.sh; do
    runnable "$t" && tally "$(basename "$t")" "$t" "$build/cyclebench"
done

# The arm64 pass on an x86-64 host: the aarch64 cross-build under qemu.
if [ "$(uname -m)" = x86_64 ]; then
    tally "aarch64 under qemu (tests/run_aarch64.sh)" tests/run_aarch64.sh "$build/aarch64"
fi

echo "$skipped skipped (each SKIP line above says why)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
