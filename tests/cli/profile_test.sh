#!/usr/bin/env bash
# `make profile` and `make diff` end to end on short runs; the driver they
# record (`cyclebench run`); their errors, none of which may leave output
# that looks current; and the perf output parsers on committed fixtures
# (tests/py/test_perf_parse.py), with the prediction's loop finder, llvm-mca
# parser and arithmetic (tests/py/test_mca.py) and the aarch64 profile's
# parts (tests/py/test_emulated.py). perf missing is a failure (CI
# installs linux-perf); perf refused by the kernel (perf_event_paranoid,
# seccomp) skips the perf runs with the reason, and gdb refused (ptrace)
# skips the check of counted bytes per iteration.
set -u
. "$(dirname "$0")/cli_lib.sh"
bin=$(realpath "$bin")
root=$(cd "$(dirname "$0")/../.." && pwd)
supported() { "$bin" list | grep -q "^$1 $2 supported$"; }

export PYTHONPATH="$root:$root/tools" # the tools' packages, as make runs them
profile() { "$python" -m profiles --bin="$bin" --out="$tmp/out" "$@"; }
diff_() { "$python" -m profiles.diff --bin="$bin" --out="$tmp/out" "$@"; }

# expect_error <name> <status> <stderr pattern> <command...>: that exit
# status, one stderr line matching the pattern, nothing on stdout.
expect_error() {
    local name=$1 want=$2 pattern=$3; shift 3
    "$@" >"$tmp/stdout" 2>"$tmp/stderr"
    local status=$? lines
    lines=$(wc -l <"$tmp/stderr")
    if [ $status -eq "$want" ] && [ ! -s "$tmp/stdout" ] && [ "$lines" -eq 1 ] &&
        grep -q -- "$pattern" "$tmp/stderr"; then
        ok "$name: $(cat "$tmp/stderr")"
    else
        fail "$name: status $status (want $want), stdout $(wc -c <"$tmp/stdout") bytes, stderr $lines lines: $(head -c 400 "$tmp/stderr")"
    fi
}

# The parsers, the loop finder and predict's arithmetic, on real perf and
# llvm-mca output.
if "$python" -m pytest -q -rs -p no:cacheprovider --basetemp="$tmp/pytest-base" \
    "$root/tests/py/test_perf_parse.py" \
    "$root/tests/py/test_mca.py" "$root/tests/py/test_emulated.py" \
    >"$tmp/pytest" 2>&1; then
    status=0
else
    status=$?
fi
summary=$(tail -1 "$tmp/pytest")
n_passed=$(grep -o '[0-9]* passed' <<<"$summary" | cut -d' ' -f1)
n_failed=$(grep -o '[0-9]* failed' <<<"$summary" | cut -d' ' -f1)
n_skipped=$(grep -o '[0-9]* skipped' <<<"$summary" | cut -d' ' -f1)
passed=$((passed + ${n_passed:-0})); failed=$((failed + ${n_failed:-0}))
skipped=$((skipped + ${n_skipped:-0}))
echo "     test_perf_parse.py, test_mca.py, test_emulated.py: $summary"
sed -n 's/^SKIPPED \[[0-9]*\] [^:]*:[0-9]*: /SKIP /p' "$tmp/pytest"
if [ $status -ne 0 ]; then
    [ -n "$n_failed" ] || failed=$((failed + 1))
    echo "FAIL test_perf_parse.py, test_mca.py, test_emulated.py (pytest exit $status):"; tail -40 "$tmp/pytest"
fi

# The driver: one JSON object on stdout.
"$bin" run memcpy --size=64 --seconds=0.05 >"$tmp/run.json" 2>/dev/null
check "run memcpy exits 0 with a JSON result" -- "$python" -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k in ["kernel", "isa", "size", "calls", "tsc_hz", "core_tsc_ratio",
          "core_clock_source", "tsc_cycles_per_byte", "core_cycles_per_byte",
          "monotonic_start", "monotonic_end", "on_cpu_fraction"]:
    assert k in d, k
assert d["kernel"] == "memcpy" and d["size"] == 64 and d["calls"] > 0
assert d["core_clock_source"] in ("pmu", "estimated")
assert d["monotonic_end"] > d["monotonic_start"]
assert d["stage_names"] == [] and "stages" not in d
' "$tmp/run.json"
"$bin" run lioness@generic --seconds=0.05 --stages >"$tmp/stages.json" 2>/dev/null
check "run lioness --stages times its five stages" -- "$python" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["size"] == 509 and d["isa"] == "generic"
assert len(d["stages"]) == 5 == len(d["stage_names"])
assert abs(sum(s["percent"] for s in d["stages"]) - 100) < 0.1
assert all(s["tsc_ticks_per_call"] > 0 for s in d["stages"])
' "$tmp/stages.json"
expect_error "run: no kernel" 2 "run needs a kernel" "$bin" run
expect_error "run: unknown kernel" 2 "unknown kernel 'chacha21'" "$bin" run chacha21
expect_error "run: unknown ISA" 2 "no ISA 'mmx'" "$bin" run chacha20 --isa=mmx
expect_error "run: ISA given twice" 2 "give the ISA once" "$bin" run chacha20@avx2 --isa=sse2
expect_error "run: below the kernel's minimum" 2 "needs a message of at least 41 bytes" "$bin" run lioness --size=40
expect_error "run: size not a number" 2 "size must be" "$bin" run chacha20 --size=lots
expect_error "run: seconds zero" 2 "seconds must be" "$bin" run chacha20 --seconds=0
expect_error "run: seconds not a number" 2 "seconds must be" "$bin" run chacha20 --seconds=3s
expect_error "run: unknown option" 2 "unexpected '--rounds=8'" "$bin" run chacha20 --rounds=8
unsupported=$("$bin" list | awk '$1 == "chacha20" && $3 == "unsupported" { print $2; exit }')
if [ -n "$unsupported" ]; then
    expect_error "run: chacha20@$unsupported unsupported here" 2 "cannot run here (the CPU lacks" \
        "$bin" run "chacha20@$unsupported"
fi

# The Makefile passes its variables through (make -n: commands, joined).
dry_run() { make -n -s -C "$root" "$@" 2>/dev/null | tr -d '\\' | tr '\n' ' ' | tr -s ' ' >"$tmp/make"; }
dry_run profile KERNEL=lioness ISA=avx2 SIZE=100 SECONDS=2 OUT=o CALLGRAPH=fp
check "make profile runs profiles with KERNEL, ISA, SIZE, SECONDS, OUT" -- \
    grep -q "profiles 'lioness' --isa=avx2 --call-graph=fp --bin=build/cyclebench --out=o --size=100 --seconds=2" "$tmp/make"
dry_run diff A=chacha20@avx2 B=chacha8@avx2
check "make diff runs profiles.diff with A and B" -- \
    grep -q "profiles.diff 'chacha20@avx2' 'chacha8@avx2' --bin=build/cyclebench --out=out" "$tmp/make"
dry_run profile KERNEL=lioness ISA=auto
check "make profile passes ISA=auto to the driver" -- \
    grep -q "profiles 'lioness' --isa=auto " "$tmp/make"
dry_run profile KERNEL=chacha20 MCPU=znver4
check "make profile passes MCPU" -- grep -q "profiles 'chacha20' .*--mcpu=znver4" "$tmp/make"
expect_error "profile: no kernel names the make variable" 2 "make profile KERNEL=" profile ""
expect_error "diff: one side missing" 2 "make diff A=" diff_ chacha20 ""

# perf itself.
if ! command -v "${PERF:-perf}" >/dev/null; then
    fail "perf is not installed: apt-get install linux-perf (ci/install-deps.sh does)"
    finish
fi
# Only a refusal of perf_event_open (kernel.perf_event_paranoid, or a
# container's seccomp profile) excuses the profile runs, visibly. perf
# says so in one of these ways; any other failure of perf is a failure.
permission_refused='permission|not permitted|is limited|perf_event_paranoid'
if ! "${PERF:-perf}" record -q -e cpu-clock -o "$tmp/probe.data" -- true >/dev/null 2>"$tmp/probe.err"; then
    why="$(grep -v '^Error:$' "$tmp/probe.err" | head -1)"
    if grep -Eqi "$permission_refused" "$tmp/probe.err"; then
        skip "profile and diff runs: perf_event_open is not permitted here ($why; kernel.perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid))"
    else
        fail "perf record -- true failed, and not for want of permission: $why"
    fi
    finish
fi

# Errors, and no stale output after them.
mkdir -p "$tmp/out/profiles/memcpy" "$tmp/out/plots"
echo old >"$tmp/out/profiles/memcpy/breakdown.csv"
echo old >"$tmp/out/plots/memcpy-breakdown.png"
cat >"$tmp/sparse-perf" <<'EOF'
#!/usr/bin/env bash
# perf that takes one sample every 100 s (its -F dropped): a run that
# collects none.
[ "$1" = record ] || exec perf "$@"
args=()
while shift && [ $# -gt 0 ]; do
    if [ "$1" = -F ]; then shift; else args+=("$1"); fi
done
exec perf record -c 100000000000 "${args[@]}"
EOF
cat >"$tmp/denied-perf" <<'EOF'
#!/bin/sh
# perf as an unprivileged user sees it under kernel.perf_event_paranoid=3.
if [ "$1" = record ]; then
    printf 'Error:\nAccess to performance monitoring and observability operations is limited.\n' >&2
    exit 255
fi
exec perf "$@"
EOF
chmod +x "$tmp/sparse-perf" "$tmp/denied-perf"
PERF="$tmp/sparse-perf" expect_error "profile: a run with no samples" 5 "no samples" \
    profile memcpy --seconds=0.2
check "  ... leaves no old breakdown or plot behind" -- \
    test ! -e "$tmp/out/profiles/memcpy" -a ! -e "$tmp/out/plots/memcpy-breakdown.png"
PERF="$tmp/denied-perf" expect_error "profile: perf not permitted" 4 "perf_event_paranoid" \
    profile memcpy --seconds=0.2
PERF="$tmp/no-such-perf" expect_error "profile: perf missing" 3 "apt-get install linux-perf" \
    profile memcpy --seconds=0.2
expect_error "profile: unknown kernel" 2 "unknown kernel 'chacha21'" profile chacha21 --seconds=0.2
check "  ... makes no output directory" -- test ! -e "$tmp/out/profiles/chacha21"
expect_error "profile: unknown ISA" 2 "no ISA 'mmx'" profile lioness --isa=mmx --seconds=0.2
check "  ... makes no output directory" -- test ! -e "$tmp/out/profiles/lioness@mmx"
if [ -n "$unsupported" ]; then
    expect_error "profile: unsupported ISA" 2 "cannot run here (the CPU lacks" \
        profile chacha20 --isa="$unsupported" --seconds=0.2
fi
expect_error "diff: unknown kernel" 2 "unknown kernel 'chacha21'" diff_ chacha20@sse2 chacha21@sse2 --seconds=0.2
check "  ... writes no diff" -- test -z "$(ls "$tmp/out/diff" 2>/dev/null)"
# Refused before perf runs or anything is made: `run --check` asks the
# driver first (a later --out wins over the helpers' own).
expect_error "profile: below the kernel's minimum size" 2 "at least 41 bytes" \
    profile lioness --size=40 --seconds=0.2 --out="$tmp/refused"
check "  ... makes no directory at all" -- test ! -e "$tmp/refused"
expect_error "diff: unknown kernel as B" 2 "unknown kernel 'chacha21'" \
    diff_ chacha20@sse2 chacha21@sse2 --seconds=0.2 --out="$tmp/refused"
check "  ... refused before A is profiled: nothing written" -- test ! -e "$tmp/refused"
check "run --check: a good request exits 0 and prints nothing" -- \
    bash -c '[ -z "$("$1" run chacha20@sse2 --size=64 --check 2>&1)" ]' _ "$bin"
expect_error "run --check: unknown kernel" 2 "unknown kernel 'chacha21'" \
    "$bin" run chacha21 --check

# No prediction possible: one line naming the fix, and the profile itself
# completes and exits 0.
# expect_profile_without_prediction <name> <stderr pattern> <command...>
expect_profile_without_prediction() {
    local name=$1 pattern=$2; shift 2
    "$@" >"$tmp/stdout" 2>"$tmp/stderr"
    local status=$? lines
    lines=$(wc -l <"$tmp/stderr")
    if [ $status -eq 0 ] && [ "$lines" -eq 1 ] && grep -q -- "$pattern" "$tmp/stderr" &&
        grep -q '^  prediction:    no prediction' "$tmp/stdout" &&
        "$python" -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert d["predicted_cycles_per_byte"] is None and d["mcpu"] is None and d["rows"]' \
            "$tmp/out/profiles/memcpy/breakdown.json"; then
        ok "$name: $(cat "$tmp/stderr")"
    else
        fail "$name: status $status, stderr $lines lines: $(head -c 400 "$tmp/stderr")"
    fi
}
LLVM_MCA="$tmp/no-such-llvm-mca" expect_profile_without_prediction \
    "profile: llvm-mca missing" "apt-get install llvm-19" profile memcpy --seconds=0.2
expect_profile_without_prediction "profile: unknown llvm-mca model" "no model 'pentium-9000'.*-mcpu=help" \
    profile memcpy --seconds=0.2 --mcpu=pentium-9000
GDB="$tmp/no-such-gdb" profile chacha20 --size=4096 --seconds=0.2 >"$tmp/stdout" 2>"$tmp/stderr"
status=$?
check "profile without gdb exits 0 (got $status: $(head -c 300 "$tmp/stderr"))" -- [ $status -eq 0 ]
check "  ... predicts cycles per iteration only, saying why" -- "$python" - \
    "$tmp/out/profiles/chacha20/breakdown.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["predicted_cycles_per_byte"] is None and d["mcpu"]
e = d["mca"][0]
assert e["cycles_per_iteration"] > 0 and e["bytes_per_iteration"] is None
assert any("apt-get install gdb" in n for n in d["prediction_notes"]), d["prediction_notes"]
EOF

# The pipeline end to end: LIONESS at 509 bytes.
isa=generic
supported lioness avx2 && isa=avx2
profile lioness --isa=$isa --seconds=1 >"$tmp/listing" 2>"$tmp/stderr"
status=$?
check "profile lioness@$isa exits 0 (got $status: $(head -c 300 "$tmp/stderr"))" -- [ $status -eq 0 ]
dir="$tmp/out/profiles/lioness@$isa"
for f in perf.data report.txt breakdown.csv breakdown.json; do
    check "  ... writes $f" -- test -s "$dir/$f"
done
check "  ... leaves no temporary directory" -- test -z "$(ls -A "$tmp/out/profiles" | grep '^\.')"
check "  ... breakdown rows present, percentages sum to 100 +- 1, stages beside them" -- \
    "$python" - "$dir" "$isa" <<'EOF'
import csv, json, sys
d, isa = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(f"{d}/breakdown.csv")))
assert rows, "no rows"
assert list(rows[0])[:4] == ["symbol", "self_percent", "samples", "cycles_per_byte"]
total = sum(float(r["self_percent"]) for r in rows)
assert abs(total - 100) <= 1, total
symbols = [r["symbol"] for r in rows]
if isa == "avx2":
    for want in ("blake2b_compress_avx2", "chacha_stream_xor_avx2"):
        assert want in symbols, (want, symbols)
b = json.load(open(f"{d}/breakdown.json"))
assert b["event"] and b["event_note"] and b["cycles_per_byte_clock"]
assert b["core_clock_source"] in ("pmu", "estimated")
assert abs(sum(r["cycles_per_byte"] for r in b["rows"]) - b["core_cycles_per_byte"]) < 0.01
assert len(b["stages"]) == 5 and len(b["stage_vs_perf"]) == 3
parts = {p["part"] for p in b["parts"]}
assert {"BLAKE2b compression", "ChaCha stream"} <= parts, parts
EOF
profile lioness --isa=auto --seconds=0.3 >"$tmp/listing-auto" 2>"$tmp/stderr"
status=$?
check "profile lioness --isa=auto exits 0 (got $status: $(head -c 300 "$tmp/stderr"))" -- [ $status -eq 0 ]
check "  ... says what auto ran, in lioness@auto/" -- "$python" - \
    "$tmp/out/profiles/lioness@auto/breakdown.json" "$tmp/listing-auto" <<'EOF'
import json, re, sys
b = json.load(open(sys.argv[1]))
assert b["name"] == "lioness@auto" and b["isa"] == "auto", (b["name"], b["isa"])
ran = [n for n in b["notes"] if n.startswith("--isa=auto ran ")]
assert ran and re.search(r"chacha20=\S+ \(at 469 B\) blake2b=\S+ \(at 469 B\) \(measured at 509 B\)", ran[0]), b["notes"]
assert "note:          --isa=auto ran chacha20=" in open(sys.argv[2]).read()
EOF
png="$tmp/out/plots/lioness@$isa-breakdown.png"
check "  ... draws a non-empty PNG" -- test -s "$png"
check "  ... which is a PNG" -- [ "$(head -c 4 "$png" | od -An -c | tr -d ' ')" = '211PNG' ]
check "  ... prints a listing with its hottest symbol" -- grep -q '% .* blake2b_compress_' "$tmp/listing"
if perf stat -x, -e cycles -- true 2>&1 | grep -q '^[0-9]'; then
    check "  ... header names hardware cycles" -- grep -q '^  sampled event: hardware' "$tmp/listing"
else
    check "  ... header says it fell back to cpu-clock" -- grep -q '^  sampled event: cpu-clock' "$tmp/listing"
fi
check "  ... prints the stage timing beside perf's split" -- grep -q 'blake2b H(K2,R)' "$tmp/listing"
check "  ... writes llvm-mca's output" -- grep -q '^Block RThroughput:' "$dir/mca.txt"
check "  ... prints the prediction beside the measurement" -- \
    grep -q "^  prediction:    measured .* core cycles/byte .*, predicted .* on .*: .*% of the model's bound" "$tmp/listing"
if grep -q 'gdb may not trace here' "$tmp/listing"; then
    skip "  ... bytes per iteration: $(grep -o 'gdb may not trace here.*' "$tmp/listing")"
else
    check "  ... predicts blake2b's and chacha's loops from counted bytes per iteration" -- \
        "$python" - "$dir" "$isa" <<'EOF'
import json, os, sys
d, isa = sys.argv[1], sys.argv[2]
b = json.load(open(f"{d}/breakdown.json"))
assert b["mcpu"] and b["bottleneck"], (b["mcpu"], b["bottleneck"])
symbols = [e["symbol"] for e in b["mca"]]
if isa == "avx2":
    assert symbols[:2] == ["blake2b_compress_avx2", "chacha_stream_xor_avx2"], symbols
for e in b["mca"]:
    # Every LIONESS call runs each loop a whole number of times, and the
    # bytes per iteration are the call's 509 over them.
    n = e["iterations_per_call"]
    assert n >= 1 and n == int(n), e
    assert abs(e["bytes_per_iteration"] * n - 509) < 1e-6, e
    assert e["cycles_per_iteration"] > 0 and e["instructions"] > 10
    assert abs(e["predicted_cycles_per_byte"] -
               e["cycles_per_iteration"] / e["bytes_per_iteration"]) < 1e-3
    assert 0 < e["loop_share_percent"] <= 100.5
    assert e["bottleneck"]["summary"] and e["bottleneck"]["busiest_ports"]
    assert os.path.exists(f"{d}/{e['mca_input']}")
assert abs(b["predicted_cycles_per_byte"] -
           sum(e["predicted_cycles_per_byte"] for e in b["mca"])) < 1e-3
EOF
fi

# make diff on two ChaCha ISAs.
a=chacha20@ssse3
supported chacha20 avx2 && a=chacha20@avx2
diff_ "$a" chacha20@sse2 --seconds=0.5 >"$tmp/diff.out" 2>"$tmp/stderr"
status=$?
check "diff $a chacha20@sse2 exits 0 (got $status: $(head -c 300 "$tmp/stderr"))" -- [ $status -eq 0 ]
txt="$tmp/out/diff/${a}_vs_chacha20@sse2.txt"
check "  ... writes the .txt and .html" -- test -s "$txt" -a -s "${txt%.txt}.html"
check "  ... aligns the two hottest symbols side by side" -- \
    test "$(grep -c ' | ' "$txt" 2>/dev/null)" -gt 100
check "  ... names both symbols" -- grep -q "chacha_stream_xor_${a#*@}" "$txt"
check "  ... strips addresses" -- test -z "$(grep -E '\b[0-9a-f]{4,} <' "$txt")"
check "  ... summarises each side" -- "$python" - "$txt" "${a#*@}" <<'EOF'
import re, sys
text, isa = open(sys.argv[1]).read(), sys.argv[2]
def row(label):
    m = re.search(rf"^{re.escape(label)}\s+(\S+).*?\s+(\S+)(?: \(est\.\))?$", text, re.M)
    assert m, label
    return m.group(1), m.group(2)
a, b = row("instructions")
assert int(a) > 50 and int(b) > 50
for label in ("  xmm", "  loads", "  stores", "  shuffles/permutes", "  rotates",
              "cycles/byte, whole kernel", "predicted cycles/iteration",
              "predicted cycles/byte", "share of the model's bound"):
    row(label)
assert float(row("predicted cycles/iteration")[0]) > 0
for tag in ("A", "B"):
    assert re.search(rf"^{tag} chacha20@\S+ bottleneck on \S+: \S+-bound", text, re.M), tag
if isa == "avx2":
    ymm_a, ymm_b = row("  ymm")
    assert int(ymm_a) > 0 and int(ymm_b) == 0, (ymm_a, ymm_b)
EOF

finish
