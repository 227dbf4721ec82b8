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
        if [ "$status" -ne 0 ] && [ "$4" -eq 0 ]; then
            echo "FAIL $name exited $status"
            failed=$((failed + 1))
        fi
    fi
    rm -f "$log"
}

for t in "$build"/tests/test_*; do
    [ -x "$t" ] && tally "$(basename "$t")" "$t"
done
for t in "$build"/asan-tests/test_*; do
    [ -x "$t" ] && tally "asan $(basename "$t")" "$t"
done
for t in tests/cli/*_test.sh tests/py/*_test.sh; do
    [ -x "$t" ] && tally "$(basename "$t")" "$t" "$build/cyclebench"
done

echo "$skipped skipped (each SKIP line above says why)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
