#!/usr/bin/env bash
# Installs the Debian packages cyclebench builds and runs with (chromium
# for the report's browser test, ansible-core for make fleet). Quiet and
# quick when everything is there; installs with apt-get only as root;
# otherwise prints the exact command to run.
set -eu

packages=(
    build-essential
    libbenchmark-dev
    libpfm4-dev
    linux-perf
    python3-matplotlib
    python3-scipy
    python3-pytest
    libssl-dev
    libsodium-dev
    valgrind
    chromium
    ansible-core
)

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
