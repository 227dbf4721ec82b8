#!/usr/bin/env bash
# The summary's two-speed benchmarks on recorded runs:
# tests/py/test_two_speeds.py under pytest. Nothing here runs a benchmark,
# so $1 (the binary) is unused.
set -u
. "$(dirname "$0")/pytest_lib.sh"
run_pytest "$root/tests/py/test_two_speeds.py"
