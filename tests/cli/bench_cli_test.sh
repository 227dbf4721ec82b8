#!/usr/bin/env bash
# `cyclebench bench` end to end: short real runs whose results files must
# parse and carry the context that makes them trustworthy, external kernels
# timed through the same path, an interrupted run leaving nothing behind,
# and bad flags giving one line on stderr and exit status 2. No speed is
# asserted: the machine is shared.
set -u
. "$(dirname "$0")/cli_lib.sh"

quick=(--benchmark_min_time=0.01 --max-time=0.25 --no-system-tune)

# A short real run of memcpy with software PMU events.
"$bin" bench --kernel=memcpy --sizes=64 "${quick[@]}" --benchmark_repetitions=2 \
    --counters=perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES --results-dir="$tmp/results" \
    --benchmark_out="$tmp/out.csv" --benchmark_out_format=csv >"$tmp/stdout" 2>"$tmp/stderr"
status=$?
check "short memcpy run exits 0 (got $status)" -- [ $status -eq 0 ]
check "progress [n/N] is shown" -- grep -q '^\[1/[0-9]*\] memcpy@' "$tmp/stderr"
check "progress estimates the time left" -- \
    grep -q '^\[2/[0-9]*\] memcpy@.* elapsed, about [0-9]*:[0-9][0-9] left)$' "$tmp/stderr"
if grep -q 'built as DEBUG' "$tmp/stderr"; then
    check "the library's DEBUG warning is explained once" -- \
        [ "$(grep -c "cyclebench: that warning is about Google Benchmark's own" "$tmp/stderr")" -eq 1 ]
else
    skip "DEBUG warning note: this libbenchmark is a release build"
fi
check "console table is printed" -- grep -q '^memcpy@[a-z0-9]*/64_median' "$tmp/stdout"
check "timestamped JSON and CSV exist" -- \
    compgen -G "$tmp/results/[0-9]*T[0-9]*Z.json" >/dev/null
check "latest.json equals the timestamped JSON" -- \
    cmp -s "$tmp/results/latest.json" "$(ls "$tmp"/results/[0-9]*Z.json)"
check "latest.csv has the counters as columns" -- \
    grep -q '"tsc_cycles_per_byte"' "$tmp/results/latest.csv"
check "--benchmark_out writes the CSV asked for" -- grep -q '^"memcpy@' "$tmp/out.csv"
check "no temporary files are left" -- [ "$(ls -A "$tmp/results" | grep -c tmp)" -eq 0 ]

"$python" - "$tmp/results/latest.json" >"$tmp/py" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ctx = d["context"]
keys = ["run_id", "sampling", "order", "pairing",
        "cpu_model", "cpu_features", "tsc_hz", "core_tsc_ratio",
        "core_clock_source", "pmu_events_opened", "pmu_events_unavailable",
        "turbo", "pinned_cpu", "compiler", "cflags", "git_commit"]
missing = [k for k in keys if k not in ctx]
assert not missing, f"context lacks {missing}"
assert float(ctx["tsc_hz"]) > 1e8, ctx["tsc_hz"]
assert float(ctx["core_tsc_ratio"]) > 0, ctx["core_tsc_ratio"]
assert ctx["core_clock_source"] in ("pmu", "estimated"), ctx["core_clock_source"]
assert int(ctx["pinned_cpu"]) >= 0
assert "perf::PAGE-FAULTS" in ctx["pmu_events_opened"], ctx["pmu_events_opened"]
assert "--no-system-tune" in ctx["turbo"] or "nothing" in ctx["turbo"], ctx["turbo"]
runs = [b for b in d["benchmarks"] if b["run_type"] == "iteration"]
assert runs, "no iteration runs"
for b in runs:
    assert b["name"].startswith("memcpy@") and b["name"].endswith("/64"), b["name"]
    for c in ["tsc_cycles_per_byte", "core_cycles_per_byte", "ns_per_byte",
              "bytes_per_second", "perf::PAGE-FAULTS_per_byte",
              "perf::CONTEXT-SWITCHES"]:
        assert c in b, f"{b['name']} lacks {c}"
    for c in ["tsc_cycles_per_byte", "core_cycles_per_byte", "ns_per_byte"]:
        assert b[c] > 0, f"{b['name']} {c} = {b[c]}"
    # The sampler's statistics: quartiles and CI around the median, the
    # sample count at least the minimum, a 0/1 verdict on the precision.
    q1, med, q3 = (b[f"tsc_cycles_per_byte{s}"] for s in ("_q1", "", "_q3"))
    lo, hi = b["tsc_cycles_per_byte_ci95_low"], b["tsc_cycles_per_byte_ci95_high"]
    assert 0 < q1 <= med <= q3 and lo <= med <= hi, (q1, med, q3, lo, hi)
    assert b["samples"] >= 24 and b["calls_per_sample"] >= 1, b["samples"]
    assert b["precision_reached"] in (0, 1), b["precision_reached"]
    if b["precision_reached"]:
        assert lo >= med * 0.995 and hi <= med * 1.005, (lo, med, hi)
    assert b["iterations"] >= b["samples"] * b["calls_per_sample"], b["iterations"]
assert ctx["run_id"] in sys.argv[1] or sys.argv[1].endswith("latest.json")
assert "95% CI" in ctx["sampling"], ctx["sampling"]
assert "capped at 0.25 s per benchmark" in ctx["sampling"], ctx["sampling"]
aggregates = {b["aggregate_name"] for b in d["benchmarks"] if b["run_type"] == "aggregate"}
assert {"median", "cv"} <= aggregates, aggregates
# One set of counters on every benchmark, whatever its blocks did: Google
# Benchmark's CSV reporter aborts on a run with a counter the first lacked.
assert len({frozenset(b) for b in runs}) == 1, [sorted(b) for b in runs]
assert "level_low_tsc_cycles_per_byte" in runs[0], sorted(runs[0])
# memcpy has no peer: no pair rounds, and the context says why
assert "pair_rounds" not in d and ctx["pairing"].startswith("none: no kernel"), ctx["pairing"]
EOF
check "results JSON parses and has the context keys and counters: $(tail -1 "$tmp/py")" -- \
    [ ! -s "$tmp/py" ]
check "a run of one kernel with no peer times no pair round" -- \
    lacks '^pair round' "$tmp/stderr"

# Pair rounds: ours against its peer at the same moments, in --pair-rounds
# rounds, at the run's sizes nearest 576 and 16384, ours at the first row
# of its table the filter leaves in the run (sse2 before generic).
"$bin" bench --kernel=chacha20,openssl:chacha20 --sizes=64,576,16384 \
    '--benchmark_filter=^(chacha20@(generic|sse2)|openssl:chacha20@external)/' \
    "${quick[@]}" --counters= --pair-rounds=2 --results-dir="$tmp/rounds" \
    --benchmark_out="$tmp/rounds-out.json" >/dev/null 2>"$tmp/rounds.err"
status=$?
check "bench --pair-rounds=2 exits 0 (got $status)" -- [ $status -eq 0 ]
check "  ... says when each round runs" -- \
    [ "$(grep -c '^pair round [12]/2: 2 pairs' "$tmp/rounds.err")" -eq 2 ]
check "  ... records every pair in every round, in both JSON files" -- \
    "$python" - "$tmp/rounds/latest.json" "$tmp/rounds-out.json" <<'EOF'
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    rounds = d["pair_rounds"]
    pairs = {}
    for r in rounds:
        pairs.setdefault((r["kernel"], r["isa"], r["vs"], r["vs_isa"], r["size"]),
                         []).append(r)
    assert set(pairs) == {("chacha20", "sse2", "openssl:chacha20", "external", s)
                          for s in (576, 16384)}, sorted(pairs)
    benchmarks = len(d["benchmarks"])
    for pair in pairs.values():
        assert [r["round"] for r in pair] == [0, 1], pair
        # one before the first benchmark, one after the last
        assert [r["after_benchmarks"] for r in pair] == [0, benchmarks], pair
        for r in pair:
            q = r["ratio"]
            assert r["pairs"] >= 10, r
            assert q["min"] <= q["q1"] <= q["median"] <= q["q3"] <= q["max"], q
            assert q["ci95_low"] <= q["median"] <= q["ci95_high"], q
            assert r["tsc_cycles_per_byte"] > 0 and r["vs_tsc_cycles_per_byte"] > 0, r
    assert d["context"]["pairing"].startswith("2 rounds of 2 pairs"), d["context"]
EOF

"$bin" bench --kernel=chacha20,openssl:chacha20 --sizes=576 \
    '--benchmark_filter=^(chacha20@generic|openssl:chacha20@external)/' \
    "${quick[@]}" --counters= --pair-rounds=0 --results-dir="$tmp/norounds" \
    >/dev/null 2>"$tmp/norounds.err"
check "bench --pair-rounds=0 times no round" -- lacks '^pair round' "$tmp/norounds.err"
check "  ... and records none, saying so" -- "$python" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert "pair_rounds" not in d and d["context"]["pairing"] == "none (--pair-rounds=0)", d["context"]
' "$tmp/norounds/latest.json"

# External kernels: each passes its self-test against our kernel, or it
# would be skipped, and runs through the same code path.
externals=openssl:chacha20,openssl:blake2b512,sodium:chacha20,sodium:blake2b,gcrypt:chacha20,gcrypt:blake2b512
"$bin" bench --kernel=$externals --sizes=509 "${quick[@]}" --benchmark_repetitions=1 \
    --counters= --benchmark_format=json >"$tmp/ext.json" 2>"$tmp/ext.err"
status=$?
"$python" -c '
import json, sys
names = {b["name"] for b in json.load(open(sys.argv[1]))["benchmarks"]}
want = {k + "@external/509" for k in sys.argv[2].split(",")}
assert names == want, names' "$tmp/ext.json" $externals 2>"$tmp/py"
check "external kernels' run exits 0 (got $status)" -- [ $status -eq 0 ]
check "  ... times every one: $(tail -1 "$tmp/py")" -- [ ! -s "$tmp/py" ]
check "  ... skips none: $(grep -m1 '^skip' "$tmp/ext.err")" -- lacks '^skip' "$tmp/ext.err"

# The run order: at each size, ours and the peers that compute the same
# thing back to back, so a comparison shares the moment's conditions.
"$bin" bench --kernel=memcpy,chacha20,openssl:chacha20 --sizes=64,576 \
    '--benchmark_filter=^(chacha20@avx2|openssl:chacha20@external|memcpy@generic)/' \
    "${quick[@]}" --counters= --benchmark_format=json >"$tmp/order.json" 2>/dev/null
check "benchmarks run grouped: a kernel and its peers at one size together" -- \
    "$python" -c '
import json, sys
names = [b["name"] for b in json.load(open(sys.argv[1]))["benchmarks"]]
groups = [(n.split("@")[0].replace("openssl:", ""), n.split("/")[1]) for n in names]
assert len(names) == 6, names
runs = [g for i, g in enumerate(groups) if i == 0 or groups[i - 1] != g]
assert len(runs) == len(set(groups)), names
' "$tmp/order.json"

# --benchmark_min_time passes through: each benchmark samples that long.
"$bin" bench --kernel=memcpy --isa=generic --sizes=64 --benchmark_min_time=0.3 \
    --no-system-tune --counters= --benchmark_format=json >"$tmp/min.json" 2>/dev/null
check "--benchmark_min_time=0.3 samples at least 0.3 s" -- "$python" -c '
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
assert b["sampling_seconds"] >= 0.3, b
' "$tmp/min.json"
"$bin" bench --kernel=memcpy --isa=generic --sizes=4096 --no-system-tune \
    --counters= --benchmark_format=json >"$tmp/one.json" 2>/dev/null
check "with no --benchmark_min_time, a run of one samples a quarter of its 2 s cap" -- \
    "$python" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert "sampling at least 0.5 s" in d["context"]["sampling"], d["context"]
assert 0.5 <= d["benchmarks"][0]["sampling_seconds"] <= 2.2, d["benchmarks"][0]
' "$tmp/one.json"
check "with no --max-time, a run of one benchmark is capped at the most, 2 s" -- \
    "$python" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert "capped at 2 s per benchmark" in d["context"]["sampling"], d["context"]
assert d["benchmarks"][0]["sampling_seconds"] <= 2.2, d["benchmarks"][0]
' "$tmp/min.json"

# A variant this CPU lacks is listed as skipped, with the reason.
if "$bin" list | grep -q '^chacha20 avx512 unsupported'; then
    "$bin" bench --kernel=chacha20 --isa=avx512 "${quick[@]}" >/dev/null 2>"$tmp/err"
    status=$?
    check "an unsupported ISA is listed as skipped (status $status)" -- \
        grep -q '^skip chacha20@avx512: unsupported on this CPU' "$tmp/err"
else
    skip "unsupported ISA listing: this CPU has AVX-512"
fi

# Every kernel at 8 bytes skips dozens (each with its reason, more than
# 8 KiB of them): the results' skipped list holds whole entries only, so
# that the summary never reads a reason cut short.
"$bin" bench --sizes=8 --max-time=0.01 --pair-rounds=0 --no-system-tune \
    --counters= --results-dir="$tmp/many-skips" >/dev/null 2>"$tmp/skips.err"
check "the skipped list at 8 bytes: whole entries, as many as stderr's" -- \
    "$python" -c '
import json, sys
skipped = json.load(open(sys.argv[1]))["context"]["skipped"]
lines = sum(1 for l in open(sys.argv[2]) if l.startswith("skip "))
assert skipped.endswith(")") and skipped.count("(") == skipped.count(")"), skipped[-120:]
entries = skipped.count("), ") + 1
assert entries == lines and lines > 50, (entries, lines)
' "$tmp/many-skips/latest.json" "$tmp/skips.err"

# Interrupted mid-run: no results file, whole or partial. (SIGTERM: a
# background job of a script starts with SIGINT ignored.)
"$bin" bench --kernel=memcpy --sizes=64 --benchmark_min_time=5 --no-system-tune \
    --counters= --results-dir="$tmp/interrupted" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
status=$?
check "SIGTERM ends the run (status $status)" -- [ $status -eq 143 ]
check "  ... and leaves no results files: $(ls -A "$tmp/interrupted" 2>/dev/null | paste -sd" ")" -- \
    [ -z "$(ls -A "$tmp/interrupted" 2>/dev/null)" ]

# expect_usage_error <name> <args...>: exit 2, one stderr line, no stdout.
expect_usage_error() {
    local name=$1; shift
    expect_usage "$name" "$bin" "$@"
}
expect_usage_error "unknown counter" bench --counters=cycles,no-such-event
expect_usage_error "empty counter name" bench --counters=cycles,,instructions
expect_usage_error "sizes not numbers" bench --sizes=abc
expect_usage_error "size zero" bench --sizes=64,0
expect_usage_error "unknown kernel" bench --kernel=chacha21
expect_usage_error "unknown ISA" bench --isa=mmx
expect_usage_error "CPU out of range" bench --cpu=4096
expect_usage_error "CPU not a number" bench --cpu=one
expect_usage_error "unknown option" bench --rounds=7
expect_usage_error "unknown Google Benchmark flag" bench --benchmark_nosuch=1
expect_usage_error "malformed Google Benchmark value" bench --benchmark_repetitions=many
expect_usage_error "malformed minimum time" bench --benchmark_min_time=soon
# (on a short run, so that a value let through costs a second, not a sweep)
short=(--kernel=memcpy --isa=generic --sizes=64 "${quick[@]}" --counters=)
expect_usage_error "pair rounds not a number" bench --pair-rounds=x "${short[@]}"
expect_usage_error "pair rounds negative" bench --pair-rounds=-1 "${short[@]}"
expect_usage_error "pair rounds above the most" bench --pair-rounds=11 \
    "${short[@]}" --results-dir="$tmp/refused"
check "  ... nothing written for it" -- \
    sh -c "[ -z \"\$(ls -A '$tmp/refused' 2>/dev/null)\" ]"
expect_usage_error "zero time cap" bench --max-time=0
expect_usage_error "negative time cap" bench --max-time=-1
expect_usage_error "unknown output format" bench --benchmark_out_format=xml
expect_usage_error "unknown subcommand" benchmark

# --decrypt: CBC decryption is timed on a real ciphertext, a stream cipher
# is skipped visibly (its decryption is the same operation), and the
# results say which direction they hold.
"$bin" bench --decrypt --kernel=aes128-cbc,chacha20 --isa=generic --sizes=64 \
    "${quick[@]}" --benchmark_repetitions=1 --results-dir="$tmp/decrypt" \
    >/dev/null 2>"$tmp/decrypt.err"
check "bench --decrypt exits 0" -- [ $? -eq 0 ]
check "bench --decrypt skips chacha20 visibly" -- \
    grep -q '^skip chacha20@generic/64: no separate decryption' "$tmp/decrypt.err"
check "bench --decrypt records direction and times CBC" -- "$python" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["context"]["direction"] == "decrypt"
assert any(b["name"].startswith("aes128-cbc@generic/64") for b in d["benchmarks"])
' "$tmp/decrypt/latest.json"

finish
