#!/usr/bin/env bash
# `cyclebench leak` from the command line: the final line's form and the
# exit status that goes with its verdict, and bad input (one line, exit 2,
# nothing on stdout). The verdicts themselves are machine-dependent and
# asserted only on the controls, in tests/test_leak.c.
set -u
. "$(dirname "$0")/cli_lib.sh"

line='^leak [a-z0-9:-]+@[a-z0-9-]+ \(secret=(key|input), [0-9]+( x [0-9]+)? B\): max \|t\| = [0-9.]+ over [0-9,]+ measurements: (leak|possible leak, measure longer|no leak found)$'

# run_leak <name> <args...>: the last line has the form, and the status
# agrees with the verdict (0 only for "no leak found").
run_leak() {
    local name=$1; shift
    "$bin" leak "$@" >"$tmp/out" 2>"$tmp/err"
    local status=$? last
    last=$(tail -1 "$tmp/out")
    if ! grep -Eq "$line" <<<"$last"; then
        fail "$name: last line '$last' (status $status, stderr $(head -c 200 "$tmp/err"))"
    elif [[ $last == *"no leak found" ]] && [ $status -ne 0 ]; then
        fail "$name: no leak found but status $status"
    elif [[ $last != *"no leak found" ]] && [ $status -ne 1 ]; then
        fail "$name: '$last' but status $status"
    else
        ok "$name: $last"
    fi
}

run_leak "chacha20@generic, input" chacha20@generic --measurements=20000
run_leak "aes128-ctr, key, best ISA" aes128-ctr --secret=key --measurements=20000
run_leak "memcpy, --isa=generic, --seconds" memcpy --isa=generic --seconds=0.3
run_leak "lioness-x4: four cells a call" lioness-x4 --size=41 --measurements=20000
if grep -q "measurements: " "$tmp/out" && grep -q "^leak lioness-x4@[a-z0-9-]* (secret=input, 4 x 41 B)" "$tmp/out"; then
    ok "a batch kernel says how many messages a call takes"
else
    fail "a batch kernel's line: $(tail -1 "$tmp/out")"
fi
# The verdict on a real kernel is the host's (a busy neighbour can make
# ChaCha20 a "possible leak", exit 1): run_leak accepts whichever status
# goes with it, and the count is asserted apart from it.
run_leak "chacha20@generic, --measurements=15000" chacha20@generic --measurements=15000
if grep -q "over 15,000 measurements: " "$tmp/out"; then
    ok "--measurements stops at that count, with thousands separated"
else
    fail "--measurements=15000: $(tail -1 "$tmp/out")"
fi
if "$bin" --help | grep -q "cyclebench leak <kernel>"; then
    ok "--help lists leak"
else
    fail "--help does not list leak"
fi

expect_usage "no kernel" "$bin" leak
expect_usage "unknown kernel" "$bin" leak chacha21
expect_usage "unknown ISA" "$bin" leak chacha20 --isa=avx9
expect_usage "ISA given twice" "$bin" leak chacha20@generic --isa=avx2
expect_usage "--measurements=0" "$bin" leak chacha20 --measurements=0
expect_usage "--measurements=-5" "$bin" leak chacha20 --measurements=-5
expect_usage "--seconds=0" "$bin" leak chacha20 --seconds=0
expect_usage "--seconds=-1" "$bin" leak chacha20 --seconds=-1
expect_usage "--seconds=abc" "$bin" leak chacha20 --seconds=abc
expect_usage "--secret=nonce" "$bin" leak chacha20 --secret=nonce
expect_usage "--secret=key on a kernel without a key" "$bin" leak memcpy --secret=key
expect_usage "--size=0" "$bin" leak chacha20 --size=0
expect_usage "--size under LIONESS's minimum" "$bin" leak lioness --size=40
expect_usage "a CBC partial block" "$bin" leak aes128-cbc --size=8
expect_usage "an unknown option" "$bin" leak chacha20 --frobnicate
if grep -q "avx512f" <<<"$("$bin" list | head -1)"; then
    skip "an unsupported ISA: this CPU has AVX-512"
else
    expect_usage "an ISA this CPU lacks" "$bin" leak chacha20 --isa=avx512
fi
finish
