#!/usr/bin/env bash
# `make report` on the committed result fixtures and a second machine
# derived from them: tests/py/test_report.py under pytest
# (tests/py/pytest_lib.sh), including the page loaded in headless Chromium.
# No benchmark runs, so $1 (the binary) is unused.
set -u
. "$(dirname "$0")/pytest_lib.sh"
run_pytest "$root/tests/py/test_report.py"
