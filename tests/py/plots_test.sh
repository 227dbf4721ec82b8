#!/usr/bin/env bash
# `make plots`, `make scenario`, `make compare` and the bench summary
# (tools/cyclebench) on the committed result fixtures: tests/py/test_plots.py
# under pytest (tests/py/pytest_lib.sh). Nothing here runs a benchmark, so
# $1 (the binary) is unused.
set -u
. "$(dirname "$0")/pytest_lib.sh"
run_pytest "$root/tests/py/test_plots.py"
