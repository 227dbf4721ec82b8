#!/usr/bin/env bash
# The Python's kernel registry against the C's (`cyclebench list --json`
# and `cyclebench list`), and the committed snapshot results are read with
# when no binary is at hand: tests/py/test_registry.py under pytest
# (tests/py/pytest_lib.sh). $1 is the cyclebench binary.
set -u
. "$(dirname "$0")/pytest_lib.sh"
export CYCLEBENCH_BIN
CYCLEBENCH_BIN=$(realpath "${1:-build/cyclebench}")
run_pytest "$root/tests/py/test_registry.py"
