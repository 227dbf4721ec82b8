#!/usr/bin/env bash
# make profile ARCH=aarch64's command end to end (profiles/emulated.py):
# the aarch64 build's calls counted under qemu-aarch64, the hot loops of
# our chacha20@neon and of OpenSSL's arm64 assembly in libcrypto.so.3 found
# and given to llvm-mca for ARM cores; nothing timed. Its errors: one line,
# exit 2, nothing written. Takes the aarch64 cyclebench itself (not a
# wrapper): tests/run_aarch64.sh runs it on an x86-64 host. Not named
# *_test.sh, so that tests/run.sh does not also run it on the native build.
set -u
. "$(dirname "$0")/cli_lib.sh"
bin=$(realpath "$bin")
root=$(cd "$(dirname "$0")/../.." && pwd)
export PYTHONPATH="$root:$root/tools"
export QEMU_LD_PREFIX=${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}
profile() { "$python" -m profiles.emulated --bin="$bin" --out="$tmp/out" "$@"; }
field() { # <json> <python expression over r>
    "$python" -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"
}

# Ours: 4+1 blocks (320 bytes) a batch. After a message's first batch the
# first double round is column 0's quarter-round and the diagonal round
# in line (chacha_pre.h), and nine double rounds loop inside.
if profile chacha20@neon --size=4096 --mcpu=cortex-a53,neoverse-n1 \
    >"$tmp/ours.txt" 2>"$tmp/ours.err"; then
    ok "chacha20@neon profiled under qemu"
else
    fail "chacha20@neon under qemu: $(cat "$tmp/ours.err")"
fi
json=$tmp/out/profiles/aarch64/chacha20@neon/prediction.json
check "its prediction.json says nothing was timed" -- \
    test "$(field "$json" 'r["timed"], r["arch"], r["unit"].endswith("not measured")')" = \
    "False aarch64 True"
check "the hot loop is chacha_stream_xor_neon's batch loop, rounds unrolled x9" -- \
    test "$(field "$json" 'r["loops"][0]["symbol"], "+0x288 x9" in r["loops"][0]["loop"]')" = \
    "chacha_stream_xor_neon True"
# 4096 bytes: 12 batches of 320, the last 256 bytes after the loop.
check "12 iterations a 4096-byte call, counted" -- \
    test "$(field "$json" 'r["loops"][0]["iterations_per_call"]')" = 12.0
check "a prediction for each model asked, none dropping an instruction" -- \
    test "$(field "$json" 'sorted(m for m, p in r["loops"][0]["models"].items() if p["predicted_cycles_per_byte"] > 0 and not p["dropped_instructions"])')" = \
    "['cortex-a53', 'neoverse-n1']"
check "the listing says predicted, not measured" -- \
    grep -q "nothing timed; cycles are llvm-mca's predictions, not measurements" "$tmp/ours.txt"
check "mca.txt and the loop's input are written" -- \
    test -s "$tmp/out/profiles/aarch64/chacha20@neon/mca.txt" -a \
    -s "$tmp/out/profiles/aarch64/chacha20@neon/mca-chacha_stream_xor_neon.s"

# OpenSSL's own arm64 assembly, found in the stripped libcrypto.so.3 by
# what ran: its 6xNEON+2xIALU loop takes 512 bytes an iteration.
if profile openssl:chacha20 --size=8192 --mcpu=neoverse-n1 \
    >"$tmp/openssl.txt" 2>"$tmp/openssl.err"; then
    ok "openssl:chacha20 profiled under qemu"
else
    fail "openssl:chacha20 under qemu: $(cat "$tmp/openssl.err")"
fi
json=$tmp/out/profiles/aarch64/openssl:chacha20/prediction.json
check "OpenSSL's hot loop is in libcrypto.so.3, 512 bytes an iteration" -- \
    test "$(field "$json" 'r["loops"][0]["symbol"].startswith("libcrypto.so.3+0x"), r["loops"][0]["bytes_per_iteration"]')" = \
    "True 512.0"

# Errors: one line, exit 2, nothing written.
expect_error() { # <name> <stderr pattern> <args...>
    local name=$1 pattern=$2; shift 2
    rm -rf "$tmp/out"
    profile "$@" >"$tmp/stdout" 2>"$tmp/stderr"
    local status=$?
    if [ $status -eq 2 ] && [ ! -s "$tmp/stdout" ] &&
        [ "$(wc -l <"$tmp/stderr")" -eq 1 ] && grep -q -- "$pattern" "$tmp/stderr" &&
        [ ! -e "$tmp/out" ]; then
        ok "$name: $(cat "$tmp/stderr")"
    else
        fail "$name: exit $status, stderr: $(cat "$tmp/stderr"), out: $(ls -R "$tmp/out" 2>/dev/null | head -3)"
    fi
}
expect_error "an unknown kernel" "unknown kernel" no-such-kernel --mcpu=neoverse-n1
expect_error "an ISA the kernel lacks" "avx2" chacha20@avx2 --mcpu=neoverse-n1
expect_error "an x86 model" "cortex-a53" chacha20@neon --mcpu=znver4
expect_error "no kernel" "no kernel given" ''
finish
