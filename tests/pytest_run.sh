#!/usr/bin/env bash
# pytest_run.sh <test file.py>: one pytest file under Debian's python3, one
# "ok"/"FAIL"/"SKIP" line per test and the "# counts:" line run.sh reads.
# Sourced by no one: the *_test.sh wrappers exec it.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
python=/usr/bin/python3 # Debian's, with matplotlib, scipy and pytest
log=$(mktemp)
trap 'rm -f "$log"' EXIT

PYTHONDONTWRITEBYTECODE=1 "$python" -m pytest -p no:cacheprovider -q -rA \
    "$root/$1" >"$log" 2>&1
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
