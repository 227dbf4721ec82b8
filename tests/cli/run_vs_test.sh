#!/usr/bin/env bash
# run --vs: two kernels timed in turn. What it refuses before measuring,
# and what its result must hold whatever the host does: the order of its
# quantiles, the number of pairs, the names. No speed is asserted beyond
# bounds the shared machine's noise cannot reach: a kernel against itself
# is within a factor of two (a ratio of unlike figures, per call against
# per byte or ticks against cycles, is not), and the direction of a ratio
# comes from two kernels tens of times apart, timed both ways round: the
# ratio must invert when the sides swap, which neither an inverted ratio
# nor one taken without regard to order (slower over faster) does.
set -u
. "$(dirname "$0")/cli_lib.sh"

expect_usage "run --vs: an unknown kernel" \
    "$bin" run chacha20@generic --vs=nonesuch
expect_usage "run --vs: an unknown ISA of the other kernel" \
    "$bin" run chacha20@generic --vs=chacha20@nonesuch
expect_usage "run --vs: the other kernel at auto" \
    "$bin" run chacha20@generic --vs=chacha20@auto
expect_usage "run --vs: the first kernel at auto" \
    "$bin" run chacha20@auto --vs=chacha20@generic
expect_usage "run --vs: with --stages" \
    "$bin" run lioness@generic --stages --vs=lioness@generic
expect_usage "run --vs: given twice" \
    "$bin" run chacha20@generic --vs=chacha20@generic --vs=chacha20@generic
expect_usage "run --vs: empty" "$bin" run chacha20@generic --vs=
# The other kernel's own checks at the run's size: HCTR2 needs 16 bytes.
expect_usage "run --vs: a size the other kernel refuses" \
    "$bin" run chacha20@generic --vs=aes128-hctr2@generic --size=8
unsupported=$("$bin" list | awk '$3 == "unsupported" { print $1 "@" $2; exit }')
if [ -n "$unsupported" ]; then
    expect_usage "run --vs: an ISA this CPU lacks ($unsupported)" \
        "$bin" run chacha20@generic --vs="$unsupported"
else
    skip "run --vs: an ISA this CPU lacks: every ISA is supported here"
fi

# One kernel against itself.
"$bin" run chacha20@generic --vs=chacha20@generic --size=4096 \
    --seconds=0.3 >"$tmp/self.json" 2>"$tmp/self.err"
status=$?
check "run --vs: exits 0, nothing on stderr" -- \
    sh -c "[ $status -eq 0 ] && [ ! -s '$tmp/self.err' ]"
check "run --vs: the result holds together" -- $python - "$tmp/self.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
assert (r["kernel"], r["isa"], r["vs"], r["vs_isa"], r["size"]) == \
    ("chacha20", "generic", "chacha20", "generic", 4096), r
q = r["ratio"]
assert r["pairs"] >= 10, r
assert q["min"] <= q["q1"] <= q["median"] <= q["q3"] <= q["max"], q
assert q["ci95_low"] <= q["median"] <= q["ci95_high"], q
assert r["tsc_cycles_per_byte"] > 0 and r["vs_tsc_cycles_per_byte"] > 0, r
assert 0.5 < q["median"] < 2, q
# Each pair is two blocks of block_seconds: the run lasted at least that.
assert r["seconds"] >= 2 * r["block_seconds"] * r["pairs"] * 0.9, r
EOF

# Two kernels of different speeds: the ratio is the first over the second.
# ChaCha20 in portable C costs several ticks a byte, a copy a fraction: tens
# of times apart, so that no neighbour's noise turns either order round.
"$bin" run chacha20@generic --vs=memcpy@generic --size=4096 \
    --seconds=0.3 >"$tmp/two.json" 2>/dev/null
"$bin" run memcpy@generic --vs=chacha20@generic --size=4096 \
    --seconds=0.3 >"$tmp/swapped.json" 2>/dev/null
check "run --vs: the ratio is the first kernel's time over the second's" -- \
    $python - "$tmp/two.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
a, b, q = r["tsc_cycles_per_byte"], r["vs_tsc_cycles_per_byte"], r["ratio"]
assert (r["kernel"], r["vs"]) == ("chacha20", "memcpy"), r
assert a > b and q["median"] > 1, r
assert q["min"] <= a / b <= q["max"], r
EOF
check "run --vs: the sides swapped, the ratio inverts" -- \
    $python - "$tmp/two.json" "$tmp/swapped.json" <<'EOF'
import json, sys
r, s = (json.load(open(p)) for p in sys.argv[1:])
assert (s["kernel"], s["vs"]) == ("memcpy", "chacha20"), s
assert s["tsc_cycles_per_byte"] < s["vs_tsc_cycles_per_byte"], s
# Below 1 now; and the product near 1: the same two figures, the other
# way up (a factor of four leaves room for the noise of two runs).
assert s["ratio"]["median"] < 1 < r["ratio"]["median"], (r, s)
assert 0.25 < r["ratio"]["median"] * s["ratio"]["median"] < 4, (r, s)
EOF
finish
