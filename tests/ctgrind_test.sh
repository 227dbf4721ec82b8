#!/usr/bin/env bash
# `make ctgrind` and `make leak-table` (leak/): the tests' leak controls
# and the kernels' expected verdicts under valgrind's memcheck, the reports
# and the table, and their errors: tests/test_ctgrind.py under pytest
# (tests/pytest_run.sh). $1 is the cyclebench binary; the driver and the
# controls are built beside it.
CYCLEBENCH_BIN=$(realpath "${1:-build/cyclebench}") \
    exec "$(dirname "$0")/pytest_run.sh" tests/test_ctgrind.py
