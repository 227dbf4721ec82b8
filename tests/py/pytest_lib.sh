# Shared by the Python tests' wrappers (sourced): run_pytest <test file>
# runs it under pytest with Debian's python3, the tools' packages
# (tools/cyclebench, plots/, profiles/) importable, and prints one "ok"/"FAIL"/"SKIP" line per
# test and the "# counts:" line tests/run.sh reads; its status is pytest's.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
python=/usr/bin/python3 # Debian's, with matplotlib, scipy and pytest
export PYTHONPATH="$root:$root/tools"

run_pytest() {
    local log base status summary passed failed errors skipped
    log=$(mktemp)
    # A base directory of its own: tests/run.sh runs programs side by side,
    # and pytest's shared one is pruned by whichever run starts next.
    base=$(mktemp -d)
    PYTHONDONTWRITEBYTECODE=1 "$python" -m pytest -p no:cacheprovider -q -rA \
        --basetemp="$base" "$@" >"$log" 2>&1
    status=$?
    rm -rf "$base"
    # pytest -rA ends with one line per test ("PASSED tests/...::name") and
    # a summary ("45 passed, 1 failed, 2 skipped in 9.8s").
    sed -n -e 's/^PASSED [^:]*::/ok   /p' -e 's/^\(FAILED\|ERROR\) [^:]*::/FAIL /p' \
        -e 's/^SKIPPED \[[0-9]*\] [^:]*:[0-9]*: /SKIP /p' "$log"
    summary=$(tail -1 "$log")
    count() { grep -o "[0-9]* $1" <<<"$summary" | cut -d' ' -f1; }
    passed=$(count passed) failed=$(count failed) errors=$(count error)
    skipped=$(count skipped)
    failed=$((${failed:-0} + ${errors:-0}))
    if [ $status -ne 0 ]; then
        echo "pytest exited $status: $summary"
        [ $failed -gt 0 ] || failed=1
        grep -v -e '^PASSED ' "$log" | tail -60
    fi
    rm -f "$log"
    echo "# counts: ${passed:-0} $failed ${skipped:-0}"
    [ $failed -eq 0 ]
}
