#!/usr/bin/env bash
# `make ctgrind` and `make leak-table` (leak/): the tests' leak controls
# and the kernels' expected verdicts under valgrind's memcheck, the reports
# and the table, and their errors: tests/py/test_ctgrind.py under pytest
# (tests/py/pytest_lib.sh). $1 is the cyclebench binary; the driver and the
# controls are built beside it.
set -u
. "$(dirname "$0")/pytest_lib.sh"
export CYCLEBENCH_BIN
CYCLEBENCH_BIN=$(realpath "${1:-build/cyclebench}")
run_pytest "$root/tests/py/test_ctgrind.py"
