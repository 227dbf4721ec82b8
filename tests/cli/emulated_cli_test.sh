#!/usr/bin/env bash
# Under an emulator nothing timed is a speed: where `list --json` names
# one (qemu-aarch64 running the aarch64 build in tests/run_aarch64.sh),
# run, bench and leak refuse with exit 2, one line naming it and nothing on
# stdout, after checking their arguments; kat still answers. On the
# binary's own CPU, list names no emulator. run --calls, which times
# nothing, works in both places.
set -u
. "$(dirname "$0")/cli_lib.sh"

"$bin" list --json >"$tmp/list.json" || fail "list --json"
emulator=$(sed -n 's/.*"emulator": "\([^"]*\)".*/\1/p' "$tmp/list.json" | head -1)

# run --calls times nothing, so it runs here and under an emulator alike:
# the self-test, N calls, what they were and where the objects sit.
if "$bin" run chacha20@generic --size=100 --calls=2 >"$tmp/calls.json" 2>"$tmp/calls.err"; then
    ok "run --calls makes its calls${emulator:+ under $emulator}"
else
    fail "run --calls: $(cat "$tmp/calls.err")"
fi
calls_field() { "$python" -c "import json,sys; r=json.load(open(sys.argv[1])); print($1)" "$tmp/calls.json"; }
check "run --calls says what it called, untimed" -- test \
    "$(calls_field 'r["kernel"], r["isa"], r["calls"], r["bytes_per_call"], r["timed"], r["emulator"]')" = \
    "chacha20 generic 2 100 False ${emulator:-None}"
check "run --calls names the program's code range and libc's" -- test \
    "$(calls_field 'r["objects"][0]["name"] == "" and int(r["objects"][0]["code"][0][0], 16) < int(r["objects"][0]["code"][0][1], 16), any("libc.so" in o["name"] for o in r["objects"])')" = \
    "True True"
expect_usage "run --calls with --vs" "$bin" run chacha20@generic --calls=2 --vs=chacha12@generic
expect_usage "run --calls at auto" "$bin" run chacha20 --isa=auto --calls=2
expect_usage "run --calls with --seconds" "$bin" run chacha20@generic --calls=2 --seconds=1
expect_usage "run --calls=0" "$bin" run chacha20@generic --calls=0

if [ -z "$emulator" ]; then
    check "list --json names no emulator on $(uname -m)" -- \
        grep -q '"emulator": null' "$tmp/list.json"
    expect_usage "bench --emulated on the binary's own CPU" "$bin" bench \
        --emulated --kernel=chacha20 --isa=generic --sizes=64 \
        --results-dir="$tmp/native-results"
    check "bench --emulated refused wrote nothing" -- \
        sh -c "[ -z \"\$(ls -A '$tmp/native-results' 2>/dev/null)\" ]"
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
# bench --emulated times anyway, and its results say under what: the
# tools then show none of it as a speed (tests/py/test_report.py).
if "$bin" bench --emulated --kernel=chacha20 --isa=generic --sizes=64 \
    --benchmark_min_time=0.01 --max-time=0.05 --results-dir="$tmp/emulated" \
    >"$tmp/out" 2>"$tmp/err"; then
    ok "bench --emulated runs under $emulator"
else
    fail "bench --emulated under $emulator: $(tail -1 "$tmp/err")"
fi
check "its results name the emulator" -- \
    grep -qF "\"emulator\": \"$emulator\"" "$tmp/emulated/latest.json"
# Bad arguments are still named first.
expect_usage "run with a bad --size, emulated" "$bin" run chacha20 --size=x
check "the bad --size is what is named" -- lacks emulator "$tmp/exit.err"
# ChaCha20's keystream for the zero key and nonce (the first block of
# draft-strombergson-chacha-test-vectors' TC1).
expect_kat "kat answers under the emulator" "$(printf '%0128d' 0)" \
    76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586 \
    chacha20 --key="$(printf '%064d' 0)" --nonce=0000000000000000
finish
