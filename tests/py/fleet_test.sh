#!/usr/bin/env bash
# `make fleet` end to end on an inventory of local hosts (no ssh): two
# builds and two short benches, one narrowed, and one host that fails;
# tests/py/test_fleet.py under pytest (tests/py/pytest_lib.sh).
set -u
. "$(dirname "$0")/pytest_lib.sh"
run_pytest "$root/tests/py/test_fleet.py"
