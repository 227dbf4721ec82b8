#!/usr/bin/env bash
# `make fleet` end to end on an inventory of local hosts (no ssh): two
# builds and two short benches, one narrowed, and one host that fails;
# tests/py/test_fleet.py under pytest (tests/py/pytest_lib.sh).
set -u
. "$(dirname "$0")/pytest_lib.sh"
FLEET_TEST_BUILD=$(cd "$(dirname "${1:-build/cyclebench}")" && pwd)
export FLEET_TEST_BUILD
run_pytest "$root/tests/py/test_fleet.py"
