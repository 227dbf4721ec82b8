#!/usr/bin/env bash
# The sweeps and pairs kept in docs/results/ and the README's headline
# table made from the pairs: tests/py/test_sweep.py under pytest (tests/py/pytest_lib.sh).
# No benchmark runs, so $1 (the binary) is unused.
set -u
. "$(dirname "$0")/pytest_lib.sh"
run_pytest "$root/tests/py/test_sweep.py"
