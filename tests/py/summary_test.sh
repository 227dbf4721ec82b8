#!/usr/bin/env bash
# tools/cyclebench/summary.py's same-moment ratios from bench's pair rounds,
# on recorded runs: tests/py/test_summary.py under pytest. Nothing here
# runs a benchmark, so $1 (the binary) is unused.
set -u
. "$(dirname "$0")/pytest_lib.sh"
run_pytest "$root/tests/py/test_summary.py"
