#!/usr/bin/env bash
# Under an emulator nothing timed is a speed: where `list --json` names
# one (qemu-aarch64 running the aarch64 build in tests/run_aarch64.sh),
# run, bench and leak refuse with exit 2, one line naming it and nothing on
# stdout, after checking their arguments; kat still answers. On the
# binary's own CPU, list names no emulator.
set -u
. "$(dirname "$0")/cli_lib.sh"

"$bin" list --json >"$tmp/list.json" || fail "list --json"
emulator=$(sed -n 's/.*"emulator": "\([^"]*\)".*/\1/p' "$tmp/list.json" | head -1)
if [ -z "$emulator" ]; then
    check "list --json names no emulator on $(uname -m)" -- \
        grep -q '"emulator": null' "$tmp/list.json"
    finish
fi

refused() { # <name> <command...>: exit 2, one line naming the emulator
    local name=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    local status=$?
    if [ $status -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
        grep -qF "$emulator" "$tmp/err"; then
        ok "$name refused under $emulator"
    else
        fail "$name under $emulator: exit $status, stdout $(wc -c <"$tmp/out") bytes, stderr: $(cat "$tmp/err")"
    fi
}
refused "run" "$bin" run chacha20 --size=64
refused "run --vs" "$bin" run chacha20@generic --vs=chacha12@generic --size=64
refused "bench" "$bin" bench --kernel=chacha20 --isa=generic --sizes=64 \
    --results-dir="$tmp/results"
refused "leak" "$bin" leak chacha20 --size=64
# (Checking --results-dir makes the directory; nothing goes into it.)
check "bench wrote no results" -- sh -c "[ -z \"\$(ls -A '$tmp/results' 2>/dev/null)\" ]"
# Bad arguments are still named first.
expect_usage "run with a bad --size, emulated" "$bin" run chacha20 --size=x
check "the bad --size is what is named" -- lacks emulator "$tmp/exit.err"
# ChaCha20's keystream for the zero key and nonce (the first block of
# draft-strombergson-chacha-test-vectors' TC1).
expect_kat "kat answers under the emulator" "$(printf '%0128d' 0)" \
    76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586 \
    chacha20 --key="$(printf '%064d' 0)" --nonce=0000000000000000
finish
