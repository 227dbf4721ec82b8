#!/usr/bin/env bash
# tests/run.sh [BUILD_DIR [PROGRAM...]]: runs every test program (plain and
# sanitized, from tests/c/), the CLI tests (tests/cli/), the Python tests'
# wrappers (tests/py/) and, on an x86-64 host, the aarch64 cross-build's
# programs under qemu (tests/run_aarch64.sh; TEST_SET=aarch64 runs those
# alone), or only the PROGRAMs named, then prints the one closing line CI
# reads: "N passed, N failed".
#
# Programs run side by side, TEST_JOBS at a time (default: the CPU count),
# longest first by the times of the last run (BUILD_DIR/test-times). Each
# prints its block when it ends, with its wall time; a slowest-ten list
# comes before the closing line. A program still running after
# TEST_TIMEOUT seconds (default 300) is killed, with what it started, and
# counted as failed with the reason. A test binary whose source is gone is
# not run: the build leaves it behind, but nothing tests it any more.
set -u
build=${1:-build}
shift $(($# > 0))
cd "$(dirname "$0")/.."
timeout_s=${TEST_TIMEOUT:-300}
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case "$timeout_s$jobs" in
*[!0-9]*) echo "tests/run.sh: TEST_TIMEOUT and TEST_JOBS take whole numbers" \
    "(got '$timeout_s', '$jobs')" >&2; exit 2 ;;
esac
[ "$jobs" -ge 1 ] || jobs=1

passed=0 failed=0 skipped=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

names=() commands=()
# add <name> <command...>: one program to run.
add() { names+=("$1"); shift; commands+=("$(printf '%q ' "$@")"); }

# runnable <file>: true when it can run; otherwise a failure naming it (a
# test that lost its executable bit, a build that made no test programs).
runnable() {
    if [ -x "$1" ]; then
        return 0
    elif [ -e "$1" ]; then
        echo "FAIL $1 is not executable: chmod +x it"
    else
        echo "FAIL no $1: build the tests first (make test)"
    fi
    failed=$((failed + 1))
    return 1
}

# stale <program>: true for a test binary (a tests/ or asan-tests/
# test_*) that no source in tests/c/ builds any more, saying so.
stale() {
    local src
    case $1 in
    */tests/test_* | */asan-tests/test_*) src=tests/c/$(basename "$1").c ;;
    *) return 1 ;;
    esac
    [ -e "$1" ] && [ ! -e "$src" ] || return 1
    echo "stale: $1 not run: no $src builds it any more"
}

# program <label> <file> [args...]: one program to run, unless stale.
program() {
    stale "$2" || { runnable "$2" && add "$@"; }
}
# The arm64 pass on an x86-64 host: the aarch64 cross-build's programs
# under qemu (tests/run_aarch64.sh lists them).
aarch64() {
    local label command
    while IFS=$'\t' read -r label command; do
        names+=("$label"); commands+=("$command")
    done < <(tests/run_aarch64.sh --jobs "$build/aarch64")
}
if [ $# -gt 0 ]; then
    for t in "$@"; do program "$(basename "$t")" "$t"; done
elif [ "${TEST_SET:-all}" = aarch64 ]; then
    aarch64
else
    for t in "$build"/tests/test_*; do program "$(basename "$t")" "$t"; done
    for t in "$build"/asan-tests/test_*; do
        program "asan $(basename "$t")" "$t"
    done
    for t in tests/cli/*_test.sh tests/py/*_test.sh; do
        program "$(basename "$t")" "$t" "$build/cyclebench"
    done
    [ "$(uname -m)" != x86_64 ] || aarch64
fi

# Longest first, by the last run's times: two CPUs finish together when
# the long programs do not start last.
# Without them (a fresh build), the programs known to take longest start
# first, in this order.
times_file=$build/test-times
long=("ctgrind_test.sh" "profile_test.sh" "fuzz_test.sh" "fleet_test.sh"
      "plots_test.sh" "aarch64 test_variants (qemu -cpu max)"
      "asan test_variants" "report_test.sh"
      "aarch64 cgo_cli_test.sh (qemu -cpu max)" "aarch64 test_leak (qemu -cpu max)")
order=()
for i in "${!names[@]}"; do
    t=$(awk -v n="${names[$i]}" -F'\t' '$2 == n { print $1 }' \
        "$times_file" 2>/dev/null | tail -1)
    if [ -z "$t" ]; then
        t=0 rank=1000
        for l in "${long[@]}"; do
            [ "$l" = "${names[$i]}" ] && t=$rank
            rank=$((rank - 1))
        done
    fi
    order+=("$t"$'\t'"$i")
done
mapfile -t order < <(printf '%s\n' "${order[@]}" | sort -t$'\t' -k1,1 -rn | cut -f2)

# run_one <index>: runs that program under the timeout; its output in
# work/<index>.log, its exit status and seconds in work/<index>.done.
run_one() {
    local i=$1 start status
    start=$(date +%s.%N)
    # timeout puts the program in a process group of its own and signals
    # all of it, valgrind and python children too.
    eval "timeout --kill-after=10 $timeout_s ${commands[$i]}" \
        >"$work/$i.log" 2>&1 </dev/null
    status=$?
    echo "$status $(echo "$(date +%s.%N) - $start" | bc)" >"$work/$i.done"
}

# report <index>: adds up one finished program's counts and prints its
# block: everything but its ok lines.
report() {
    local i=$1 name=${names[$1]} status secs counts log=$work/$1.log
    read -r status secs <"$work/$i.done"
    printf '%s\t%s\n' "$secs" "$name" >>"$work/times"
    echo "== $name ($(printf '%.1f' "$secs") s)"
    grep -v '^# counts:' "$log" | grep -Ev '^ok ' || true
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        echo "FAIL $name: killed after ${timeout_s} s, the timeout" \
            "(TEST_TIMEOUT sets it)"
        failed=$((failed + 1))
        return
    fi
    counts=$(grep '^# counts:' "$log" | tail -1)
    if [ -z "$counts" ]; then
        echo "FAIL $name exited $status without a summary"
        tail -20 "$log"
        failed=$((failed + 1))
        return
    fi
    if ! [[ $counts =~ ^'# counts: '([0-9]+)' '([0-9]+)' '([0-9]+)$ ]]; then
        echo "FAIL $name: malformed counts line '$counts':" \
            "want '# counts: PASSED FAILED SKIPPED'"
        failed=$((failed + 1))
        return
    fi
    local p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]} s=${BASH_REMATCH[3]}
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    echo "   $p passed, $f failed, $s skipped"
    if [ $((p + f + s)) -eq 0 ]; then
        echo "FAIL $name reported no cases"
        failed=$((failed + 1))
    fi
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $name exited $status"
        failed=$((failed + 1))
    fi
}

declare -A running=()
# reap: waits for one program to end and reports it.
reap() {
    local pid
    wait -n -p pid "${!running[@]}"
    report "${running[$pid]}"
    unset "running[$pid]"
}
for i in "${order[@]}"; do
    while [ ${#running[@]} -ge "$jobs" ]; do reap; done
    run_one "$i" &
    running[$!]=$i
done
while [ ${#running[@]} -gt 0 ]; do reap; done

if [ -s "$work/times" ]; then
    echo "slowest ten (wall seconds, $jobs at a time):"
    sort -t$'\t' -k1,1 -rn "$work/times" | head -10 |
        awk -F'\t' '{ printf "  %7.1f  %s\n", $1, $2 }'
    cp "$work/times" "$times_file" 2>/dev/null || true
fi
echo "$skipped skipped (each SKIP line above says why)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
