#!/usr/bin/env bash
# ci/install-deps.sh [bench]: installs the Debian packages cyclebench builds
# and runs with. Quiet and quick when everything is there; installs with
# apt-get only as root; otherwise prints the exact command to run.
# "bench" asks only for what building, `make bench` and the charts need,
# so a machine without the tools of the other commands still benches.
set -eu

bench_packages=(
    build-essential
    libbenchmark-dev
    libpfm4-dev
    libssl-dev
    libsodium-dev
    libgcrypt20-dev
    python3-matplotlib
    python3-scipy
)
# The tools of the other commands and the tests: perf, gdb and llvm-mca
# for make profile, valgrind for make ctgrind, chromium for the report's
# browser test, ansible-core for make fleet, clang-14 and its libFuzzer
# runtime for make fuzz (and its bounded pass in make test).
tool_packages=(
    linux-perf
    gdb
    llvm-19
    python3-pytest
    valgrind
    chromium
    ansible-core
    clang-14
    libclang-rt-14-dev
)

case "${1:-all}" in
bench) packages=("${bench_packages[@]}") ;;
all) packages=("${bench_packages[@]}" "${tool_packages[@]}") ;;
*) echo "ci/install-deps.sh: unknown set '$1': use bench, or nothing for all" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

command="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
    echo "cyclebench: missing packages: ${missing[*]}; run as root: apt-get update && $command" >&2
    exit 1
fi
echo "ci/install-deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine's package lists may be empty: update once first.
apt-get update -qq
$command
