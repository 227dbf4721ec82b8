#!/usr/bin/env bash
# tools/cyclebench/table_order.py (the summary's contradicted-order line) on synthetic
# results: tests/py/test_table_order.py under pytest. Nothing here runs a
# benchmark, so $1 (the binary) is unused.
set -u
. "$(dirname "$0")/pytest_lib.sh"
run_pytest "$root/tests/py/test_table_order.py"
