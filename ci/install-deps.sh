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

# make test's arm64 pass on an x86-64 host (docs/arm64.md): the cross
# compiler, qemu-user, and the libraries cyclebench links, for arm64
# (Debian's multiarch; libgcrypt is left out: its -dev package cannot be
# installed for two architectures at once, and a cross build does without
# it). A native aarch64 host needs none of these: the sets above are its.
cross_packages=()
if [ "$(uname -m)" = x86_64 ]; then
    cross_packages=(
        gcc-aarch64-linux-gnu
        g++-aarch64-linux-gnu
        qemu-user
        libssl-dev:arm64
        libsodium-dev:arm64
        libbenchmark-dev:arm64
        libpfm4-dev:arm64
        libjansson-dev:arm64
    )
fi

case "${1:-all}" in
bench) packages=("${bench_packages[@]}") ;;
all) packages=("${bench_packages[@]}" "${tool_packages[@]}" "${cross_packages[@]}") ;;
*) echo "ci/install-deps.sh: unknown set '$1': use bench, or nothing for all" >&2; exit 2 ;;
esac

# installed <package[:arch]>: installed for that architecture (by default
# this machine's), or for all. With a second architecture, dpkg-query
# lists a package once per architecture.
installed() {
    local name=${1%%:*} arch=${1#*:}
    [ "$arch" = "$1" ] && arch=$(dpkg --print-architecture)
    dpkg-query -W -f='${Status} ${Architecture}\n' "$name" 2>/dev/null |
        grep -Eq "^install ok installed ($arch|all)$"
}

missing=() foreign=
for p in "${packages[@]}"; do
    installed "$p" && continue
    missing+=("$p")
    case $p in *:arm64) foreign=arm64 ;; esac
done
[ ${#missing[@]} -eq 0 ] && exit 0

# An :arm64 package needs dpkg to know the architecture (once; adding it
# again changes nothing).
add_arch=
if [ -n "$foreign" ] && ! dpkg --print-foreign-architectures | grep -qx "$foreign"; then
    add_arch="dpkg --add-architecture $foreign && "
fi
command="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
    echo "cyclebench: missing packages: ${missing[*]}; run as root: ${add_arch}apt-get update && $command" >&2
    exit 1
fi
echo "ci/install-deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
[ -n "$add_arch" ] && dpkg --add-architecture "$foreign"
# A fresh machine's package lists may be empty (or lack the architecture
# just added): update once first.
apt-get update -qq
$command
