#!/usr/bin/env bash
# tests/run_aarch64.sh [build/aarch64]: the arm64 pass of `make test` on an
# x86-64 host. Runs the aarch64 cross-build's test programs under
# qemu-aarch64 on three CPUs:
#   max           every feature qemu has (AES, PMULL, SHA3, SVE2): every row;
#   cortex-a53    AES and PMULL without SHA3;
#   max-masked    max with CYCLEBENCH_CPU_DISABLE=aes,pmull,sha3,sve2, so
#                 that dispatch falls to the neon and generic rows;
# and the kat-based CLI tests (tests/cli/) on max, where every row runs its
# vectors. Prints each program's lines but its "ok" ones, then one
# "# counts: passed failed skipped" line that tests/run.sh adds up.
#
# Programs that measure time run on max only, and test_harness not at all:
# it checks the timer against the host's clocks, which under emulation
# describe qemu, not a CPU (docs/arm64.md).
set -u
dir=${1:-build/aarch64}
cd "$(dirname "$0")/.."
sysroot=/usr/aarch64-linux-gnu
jobs=${JOBS:-$(nproc 2>/dev/null || echo 1)}
# A program that takes longer has hung (qemu-user can deadlock in fork).
limit=300

passed=0 failed=0 skipped=0
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

if ! command -v qemu-aarch64 >/dev/null || [ ! -d "$sysroot/lib" ]; then
    fail "aarch64 tests: no qemu-aarch64 or $sysroot: run ci/install-deps.sh"
    echo "# counts: $passed $failed $skipped"
    exit 1
fi
for f in "$dir/cyclebench" "$dir/tests/test_chacha"; do
    [ -x "$f" ] || { fail "no $f: build it first (make ARCH=aarch64 test-programs)"
                     echo "# counts: $passed $failed $skipped"; exit 1; }
done

timed="test_leak test_paired test_sampler"
not_emulated="test_harness"
cli_tests="adiantum_cli aead_cli aegis_cli aes_cli cgo_cli hctr2_cli polyval_cli cli usage_errors
           emulated_cli cpu_disable"

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# The CLI tests take a program to run: cyclebench under qemu on max.
wrapper=$logs/cyclebench
cat >"$wrapper" <<EOF
#!/bin/sh
QEMU_CPU=max QEMU_LD_PREFIX=$sysroot exec qemu-aarch64 "$(cd "$dir" && pwd)/cyclebench" "\$@"
EOF
chmod +x "$wrapper"

# One job a line: <name> <qemu cpu> <disabled features or -> <command...>
list=$logs/jobs
for t in "$dir"/tests/test_*; do
    name=$(basename "$t")
    case " $not_emulated " in *" $name "*) continue ;; esac
    echo "$name max - qemu-aarch64 $t" >>"$list"
    case " $timed " in *" $name "*) continue ;; esac
    echo "$name cortex-a53 - qemu-aarch64 $t" >>"$list"
    echo "$name max-masked aes,pmull,sha3,sve2 qemu-aarch64 $t" >>"$list"
done
for t in $cli_tests; do
    echo "${t}_test.sh max - tests/cli/${t}_test.sh $wrapper" >>"$list"
done

run_job() { # <logs> <limit> <sysroot> <name> <cpu> <disabled> <command...>
    local logs=$1 limit=$2 sysroot=$3 name=$4 cpu=$5 disabled=$6
    shift 6
    local cpu_name=${cpu%-masked} status
    if [ "$disabled" = - ]; then
        QEMU_CPU=$cpu_name QEMU_LD_PREFIX=$sysroot timeout "$limit" "$@" \
            >"$logs/$name@$cpu" 2>&1
    else
        CYCLEBENCH_CPU_DISABLE=$disabled QEMU_CPU=$cpu_name QEMU_LD_PREFIX=$sysroot \
            timeout "$limit" "$@" >"$logs/$name@$cpu" 2>&1
    fi
    status=$?
    echo "$status" >"$logs/$name@$cpu.status"
}
export -f run_job
xargs -P "$jobs" -L 1 bash -c 'run_job "$@"' _ "$logs" "$limit" "$sysroot" <"$list"

while read -r name cpu _; do
    log=$logs/$name@$cpu
    status=$(cat "$log.status" 2>/dev/null || echo "?")
    case $cpu in
    max-masked) label="max, aes pmull sha3 sve2 disabled" ;;
    *) label=$cpu ;;
    esac
    echo "== aarch64 $name (qemu -cpu $label)"
    grep -v '^# counts:' "$log" | grep -Ev '^ok ' || true
    counts=$(grep '^# counts:' "$log" | tail -1)
    if [ -z "$counts" ]; then
        [ "$status" = 124 ] && fail "$name on $cpu ran past ${limit} s" ||
            fail "$name on $cpu exited $status without a summary"
        continue
    fi
    set -- $counts
    passed=$((passed + $3)); failed=$((failed + $4)); skipped=$((skipped + $5))
    echo "   $3 passed, $4 failed, $5 skipped"
    [ $(($3 + $4 + $5)) -eq 0 ] && fail "$name on $cpu reported no cases"
    [ "$status" != 0 ] && [ "$4" -eq 0 ] && fail "$name on $cpu exited $status"
done <"$list"
echo "# counts: $passed $failed $skipped"
[ "$failed" -eq 0 ]
