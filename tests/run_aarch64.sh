#!/usr/bin/env bash
# tests/run_aarch64.sh [build/aarch64]: the arm64 pass of `make test` on an
# x86-64 host, the aarch64 cross-build's test programs under qemu-aarch64
# on three CPUs:
#   max           every feature qemu has (AES, PMULL, SHA3, SVE2): every row;
#   cortex-a53    AES and PMULL without SHA3;
#   max-masked    max with CYCLEBENCH_CPU_DISABLE=aes,pmull,sha3,sve2, so
#                 that dispatch falls to the neon and generic rows;
# and the kat-based CLI tests (tests/cli/) on max, where every row runs its
# vectors. tests/run.sh runs these side by side with the native ones
# (`--jobs` prints them, one "<label><TAB><command>" a line); alone, this
# script hands them to tests/run.sh, which prints the closing line.
#
# Programs that measure time run on max only, and test_harness not at all:
# it checks the timer against the host's clocks, which under emulation
# describe qemu, not a CPU (docs/arm64.md). test_variants runs on max only
# too: it calls each row directly, never through dispatch, and qemu runs a
# row's instructions the same whichever CPU it models, so on the other two
# it repeated max's comparisons (90 of the pass's 300 s). What those CPUs
# change, which rows run and which one dispatch picks, the other programs
# check on each of them.
set -u
cd "$(dirname "$0")/.."
if [ "${1:-}" != --jobs ]; then
    TEST_SET=aarch64 exec tests/run.sh "$(dirname "${1:-build/aarch64}")"
fi
dir=${2:-build/aarch64}
sysroot=/usr/aarch64-linux-gnu

# job <label> <command...>: one line for tests/run.sh.
job() { local label=$1; shift; printf '%s\t%s\n' "$label" "$(printf '%q ' "$@")"; }
# missing <what>: a job that fails, naming what is missing and the fix.
missing() { job "aarch64 pass" sh -c "echo 'FAIL aarch64 tests: $1'; exit 1"; exit 0; }

command -v qemu-aarch64 >/dev/null && [ -d "$sysroot/lib" ] ||
    missing "no qemu-aarch64 or $sysroot: run ci/install-deps.sh"
for f in "$dir/cyclebench" "$dir/tests/test_chacha"; do
    [ -x "$f" ] || missing "no $f: build it first (make ARCH=aarch64 test-programs)"
done

max_only="test_leak test_paired test_sampler test_variants"
not_emulated="test_harness"
cli_tests="adiantum_cli aead_cli aegis_cli aes_cli cgo_cli gcm_siv_cli hctr2_cli polyval_cli
           cli usage_errors
           emulated_cli cpu_disable keccak_cli ascon_cli"

# The CLI tests take a program to run: cyclebench under qemu on max.
wrapper=$dir/cyclebench-qemu
cat >"$wrapper" <<EOF
#!/bin/sh
QEMU_CPU=max QEMU_LD_PREFIX=$sysroot exec qemu-aarch64 "$(cd "$dir" && pwd)/cyclebench" "\$@"
EOF
chmod +x "$wrapper"

qemu() { # <cpu> <disabled features or -> <program>
    local env=(env "QEMU_CPU=$1" "QEMU_LD_PREFIX=$sysroot")
    [ "$2" = - ] || env+=("CYCLEBENCH_CPU_DISABLE=$2")
    echo "${env[@]}" qemu-aarch64 "$3"
}
for t in "$dir"/tests/test_*; do
    name=$(basename "$t")
    [ -e "tests/c/$name.c" ] || continue # stale: tests/run.sh says so natively
    case " $not_emulated " in *" $name "*) continue ;; esac
    job "aarch64 $name (qemu -cpu max)" $(qemu max - "$t")
    case " $max_only " in *" $name "*) continue ;; esac
    job "aarch64 $name (qemu -cpu cortex-a53)" $(qemu cortex-a53 - "$t")
    job "aarch64 $name (qemu -cpu max, aes pmull sha3 sve2 disabled)" \
        $(qemu max aes,pmull,sha3,sve2 "$t")
done
for t in $cli_tests; do
    job "aarch64 ${t}_test.sh (qemu -cpu max)" "tests/cli/${t}_test.sh" "$wrapper"
done
# make profile ARCH=aarch64: it runs qemu itself, so it takes the binary.
job "aarch64 profile_emulated.sh (qemu -cpu max)" \
    tests/cli/profile_emulated.sh "$dir/cyclebench"
