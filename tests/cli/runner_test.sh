#!/usr/bin/env bash
# tests/run.sh itself, on programs made here: one that hangs is killed at
# the timeout and counted as failed with one line naming it; a malformed
# counts line is a failure with a message, not a crash of the runner; a
# test binary whose source is gone is not run; each program's wall time and
# the slowest-ten list are printed; the closing line adds up the rest.
source "$(dirname "$0")/cli_lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)

# made <name> <body>: an executable shell script $tmp/<name>.
made() { printf '#!/bin/sh\n%s\n' "$2" >"$tmp/$1"; chmod +x "$tmp/$1"; }
made hangs 'echo "ok   started"; sleep 1000; echo "# counts: 1 0 0"'
made malformed 'echo "# counts: 3 x 0"'
made passes 'echo "ok   one"; echo "ok   two"; echo "# counts: 2 0 0"'
made skips 'echo "SKIP no such CPU feature"; echo "# counts: 0 0 1"'
mkdir -p "$tmp/build/tests"
made build/tests/test_no_such_source 'echo "# counts: 5 0 0"'

started=$(date +%s)
TEST_TIMEOUT=3 "$root/tests/run.sh" "$tmp/build" "$tmp/hangs" "$tmp/malformed" \
    "$tmp/passes" "$tmp/skips" "$tmp/build/tests/test_no_such_source" \
    >"$tmp/out" 2>&1
status=$?
took=$(($(date +%s) - started))

check "the run fails (exit 1)" -- [ "$status" -eq 1 ]
check "a hung program is killed at the timeout, named in one line" -- \
    grep -qx 'FAIL hangs: killed after 3 s, the timeout (TEST_TIMEOUT sets it)' "$tmp/out"
# The hung program sleeps 1000 s: ending at all says it was killed; the
# bound is the timeout, the kill's grace and room for a slow machine.
check "the run ends soon after the timeout (took ${took} s)" -- [ "$took" -lt 60 ]
check "a malformed counts line is a failure with the line quoted" -- \
    grep -qF "FAIL malformed: malformed counts line '# counts: 3 x 0'" "$tmp/out"
check "a binary whose source is gone is not run, and says so" -- \
    grep -qF "stale: $tmp/build/tests/test_no_such_source not run: no tests/c/test_no_such_source.c builds it" "$tmp/out"
check "each program's block carries its wall time" -- \
    grep -qE '^== passes \([0-9]+\.[0-9] s\)$' "$tmp/out"
check "the slowest-ten list comes before the closing line" -- \
    grep -qE '^slowest ten \(wall seconds' "$tmp/out"
check "the slowest is the one that hung" -- \
    sh -c "grep -A1 '^slowest ten' '$tmp/out' | tail -1 | grep -q ' hangs\$'"
check "the closing line adds up passes, and the two failures" -- \
    grep -qx '2 passed, 2 failed' "$tmp/out"
check "skips are added up" -- grep -qx '1 skipped (each SKIP line above says why)' "$tmp/out"
check "ok lines are not repeated" -- lacks '^ok ' "$tmp/out"
# What the runner printed, to read when a check above failed (indented, so
# that its closing line is not taken for this run's).
[ "$failed" -eq 0 ] || sed 's/^/     | /' "$tmp/out"
finish
