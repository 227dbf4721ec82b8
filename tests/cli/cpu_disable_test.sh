#!/usr/bin/env bash
# CYCLEBENCH_CPU_DISABLE takes CPU features away before anything is
# dispatched: with "all", list --json reports no features and all of them
# disabled, every row needing one is unsupported saying why, and kat still
# answers (generic); one name takes away that feature alone; an unknown
# name is bad input (exit 2, one line naming it, nothing on stdout).
set -u
. "$(dirname "$0")/cli_lib.sh"

"$bin" list --json >"$tmp/all.json" || fail "list --json"
CYCLEBENCH_CPU_DISABLE=all "$bin" list --json >"$tmp/none.json" ||
    fail "list --json with everything disabled"
check "all: no features left, every one reported disabled, every row needing one refused" -- \
    "$python" -c '
import json, sys
full = json.load(open(sys.argv[1]))
none = json.load(open(sys.argv[2]))
assert full["cpu"]["features"], "no features to take away here"
assert none["cpu"]["features"] == "", none["cpu"]
assert none["cpu"]["disabled"] == full["cpu"]["features"], none["cpu"]
had = set(full["cpu"]["features"].split())
for k in none["kernels"]:
    for isa in k["isas"]:
        if isa["requires"]:
            assert not isa["supported"], (k["name"], isa)
            # Where the CPU had what the row needs, the reason says who
            # took it away.
            if set(isa["requires"].split()) <= had:
                assert "CYCLEBENCH_CPU_DISABLE" in isa["reason"], (k["name"], isa)
' "$tmp/all.json" "$tmp/none.json"

first=$(sed -n 's/.*"features": "\([a-z0-9._]*\).*/\1/p' "$tmp/all.json" | head -1)
CYCLEBENCH_CPU_DISABLE=$first "$bin" list --json >"$tmp/one.json" ||
    fail "list --json with $first disabled"
check "$first alone is taken away" -- "$python" -c '
import json, sys
full = json.load(open(sys.argv[1]))["cpu"]["features"].split()
one = json.load(open(sys.argv[2]))["cpu"]
assert one["features"].split() == [f for f in full if f != sys.argv[3]], one
assert one["disabled"] == sys.argv[3], one
' "$tmp/all.json" "$tmp/one.json" "$first"

CYCLEBENCH_CPU_DISABLE=all expect_kat "kat answers with every feature taken away" \
    "$(printf '%0128d' 0)" \
    76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586 \
    chacha20 --key="$(printf '%064d' 0)" --nonce=0000000000000000
CYCLEBENCH_CPU_DISABLE=aes,nonesuch expect_usage "an unknown feature name" "$bin" list
check "the unknown name is named" -- grep -q "'nonesuch'" "$tmp/exit.err"
finish
