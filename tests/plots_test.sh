#!/usr/bin/env bash
# plots/ (`make plots`, `make scenario`, `make compare`) on the committed
# result fixtures: tests/test_plots.py under pytest (tests/pytest_run.sh).
# Nothing here runs a benchmark, so $1 (the binary) is unused.
exec "$(dirname "$0")/pytest_run.sh" tests/test_plots.py
