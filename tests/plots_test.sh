#!/usr/bin/env bash
# plots/ (`make plots`, `make scenario`, `make compare`) on the committed
# result fixtures: tests/test_plots.py under pytest with Debian's python3,
# one "ok"/"FAIL"/"SKIP" line per test and the "# counts:" line run.sh
# reads. Nothing here runs a benchmark, so $1 (the binary) is unused.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
python=/usr/bin/python3 # Debian's, with matplotlib, scipy and pytest
log=$(mktemp)
trap 'rm -f "$log"' EXIT

PYTHONDONTWRITEBYTECODE=1 "$python" -m pytest -p no:cacheprovider -q -rA \
    "$root/tests/test_plots.py" >"$log" 2>&1
status=$?

# pytest -rA ends with one line per test ("PASSED tests/...::name") and a
# summary ("45 passed, 1 failed, 2 skipped in 9.8s").
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
echo "# counts: ${passed:-0} $failed ${skipped:-0}"
[ $failed -eq 0 ]
