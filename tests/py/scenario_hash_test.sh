#!/usr/bin/env bash
# make scenario NAME=hash's table, notes and chart on committed fixtures:
# tests/py/test_scenario_hash.py under pytest (tests/py/pytest_lib.sh).
# Nothing here runs a benchmark, so $1 (the binary) is unused.
set -u
. "$(dirname "$0")/pytest_lib.sh"
run_pytest "$root/tests/py/test_scenario_hash.py"
