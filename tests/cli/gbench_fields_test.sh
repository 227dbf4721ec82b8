#!/usr/bin/env bash
# Google Benchmark's own fields in `cyclebench bench`'s results, read as its
# tools read them: iterations the calls timed, real_time and cpu_time the
# median time per call in time_unit (aggregates over repetitions of those),
# so that the logic of Google Benchmark's tools/compare.py finds two runs of
# the same code a few percent apart, whatever either run's sampling time.
# No speed is asserted: the machine is shared.
source "$(dirname "$0")/cli_lib.sh"
python=/usr/bin/python3

# passed_if <log> <start of the line a pass ends with> <name>: a check
# whose Python wrote its log; on a failure, the log with it.
passed_if() {
    if grep -q "^$2" "$1"; then
        ok "$3: $(tail -1 "$1")"
    else
        fail "$3: $(tail -1 "$1")"
        sed 's/^/     /' "$1"
    fi
}

# The same code twice, sampling 0.05 to 0.1 s and then 0.4 s per
# repetition: results whose real_time were the sampling time would differ
# at least 4x.
run_pair() {
    local i=0
    for times in "0.05 0.1" "0.4 0.4"; do
        set -- $times
        "$bin" bench --kernel=chacha20,lioness-x4 --isa=generic --sizes=64,4096 \
            --benchmark_repetitions=3 --benchmark_min_time=$1 --max-time=$2 \
            --no-system-tune --counters= --benchmark_format=json \
            >"$tmp/run$i.json" 2>"$tmp/run$i.err" || return 1
        i=$((i + 1))
    done
}
run_pair
status=$?
"$bin" list --json >"$tmp/list.json"
if [ $status -ne 0 ]; then
    fail "two short runs exit 0 (status $status): $(tail -1 "$tmp"/run*.err)"
    finish
    exit
fi

# real_time from the counters: the median TSC ticks per byte, times the
# bytes of one call (batch messages of the size), at the run's tsc_hz.
"$python" - "$tmp/run0.json" "$tmp/list.json" >"$tmp/fields" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
batch = {k["name"]: k["batch"] for k in json.load(open(sys.argv[2]))["kernels"]}
hz = float(d["context"]["tsc_hz"])
runs, aggregates = 0, {}
for b in d["benchmarks"]:
    assert b["time_unit"] == "ns", b
    name, size = b["run_name"].split("@")[0], int(b["run_name"].split("/")[1])
    per_call = b["tsc_cycles_per_byte"] * size * batch[name] / hz * 1e9
    if b["run_type"] == "iteration":
        runs += 1
        assert abs(b["real_time"] - per_call) <= 1e-3 * per_call, (b["name"], b["real_time"], per_call)
        assert b["cpu_time"] == b["real_time"], b
        assert b["iterations"] >= b["samples"] * b["calls_per_sample"], b
        assert 0 < b["sampling_cpu_seconds"] and 0.05 <= b["sampling_seconds"] <= 0.2, b
        assert abs(b["bytes_per_second"] * b["real_time"] * 1e-9
                   / (size * batch[name]) - 1) < 1e-3, b
        aggregates.setdefault(b["run_name"], []).append(b["real_time"])
    elif b["aggregate_name"] == "cv":
        # A ratio, the same whichever unit the per-call times are in.
        assert abs(b["real_time"] - b["tsc_cycles_per_byte"]) < 1e-9, b
    else:
        assert b["iterations"] == 3, b
        # Mean, median and stddev of the three, to 0.1% of the time per
        # call they are taken over: the stddev of three equal medians is 0
        # ticks, and in ns a few ps where each repetition's rate of the
        # TSC differs in its last digits.
        scale = max(aggregates[b["run_name"]])
        assert abs(b["real_time"] - per_call) <= 1e-3 * scale, (b["name"], b["real_time"], per_call)
# The library's median of the repetitions is the median of their real_time.
for b in d["benchmarks"]:
    if b.get("aggregate_name") == "median":
        times = sorted(aggregates[b["run_name"]])
        assert abs(b["real_time"] / times[1] - 1) < 1e-9, (b, times)
assert runs == 12, runs
print(f"{runs} repetitions and their aggregates")
EOF
passed_if "$tmp/fields" '12 repetitions' \
    "real_time is the median ns per call, iterations the calls timed"

# The logic of Google Benchmark's tools/gbench/report.py, restated:
# benchmarks are paired by name (and time_unit), entries of one name by
# position; a change is (new - old) / |old| of real_time and of cpu_time;
# the U test is scipy's two-sided Mann-Whitney U over all entries of a name
# (repetitions; aggregates have names of their own), run when each side has
# at least 2. Every change must be the change of the median ticks per byte
# (to 0.1%), and the medians' changes small: a few percent on a quiet
# machine; here, where others share the CPU, under 100%, which results
# whose real_time were the sampling time (4x longer in the second run)
# could not keep.
"$python" - "$tmp/run0.json" "$tmp/run1.json" >"$tmp/compare" 2>&1 <<'EOF'
import json, sys
from scipy.stats import mannwhitneyu
old, new = (json.load(open(p))["benchmarks"] for p in sys.argv[1:3])

def change(a, b):
    return (b - a) / abs(a) if a else 0.0

def by_name(entries):
    named = {}
    for e in entries:
        named.setdefault(e["name"], []).append(e)
    return named

lhs, rhs = by_name(old), by_name(new)
worst, tested = 0.0, 0
for name, left in lhs.items():
    right = [e for e in rhs.get(name, []) if e["time_unit"] == left[0]["time_unit"]]
    if name.endswith(("_stddev", "_cv")) or not right:
        continue
    for a, b in zip(left, right):
        ticks = change(a["tsc_cycles_per_byte"], b["tsc_cycles_per_byte"])
        for field in ("real_time", "cpu_time"):
            c = change(a[field], b[field])
            print(f"{name} {field} {a[field]:.1f} -> {b[field]:.1f} {c:+.4f}")
            assert abs(c - ticks) < 1e-3, f"{name} {field} {c:+.4f}, ticks {ticks:+.4f}"
            if name.endswith("_median"):
                worst = max(worst, abs(c))
    if len(left) >= 2 and len(right) >= 2:
        p = mannwhitneyu([e["real_time"] for e in left],
                         [e["real_time"] for e in right],
                         alternative="two-sided").pvalue
        tested += 1
        print(f"{name} U test over {len(left)} vs {len(right)}: p = {p:.3f}")
assert worst < 1.0, f"compare.py would report a median changing {worst:+.2%}"
assert tested == 4, f"U test ran on {tested} benchmarks, not 4"
print(f"largest change of a median {worst:.2%}; U test on {tested} benchmarks")
EOF
passed_if "$tmp/compare" 'largest change' \
    "compare.py's logic on two runs of the same code"

finish
