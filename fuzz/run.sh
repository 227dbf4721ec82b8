#!/usr/bin/env bash
# fuzz/run.sh --bin-dir=DIR --out=DIR [--kernel=REGEX] [--seconds=N] [--bounded]
# Runs make fuzz's targets (docs/fuzz.md): one per kernel, as
# `fuzz-kernel --list` walks the registry, whose name REGEX matches, and
# the command-line parser's ("cli") unless a REGEX leaves it out; each for
# N seconds (default 60). --bounded is make test's pass instead: every
# kernel in one target (`--kernel=all`, the input's first byte choosing)
# for 35 s, then the parser's for 8 s. A target's corpus is
# OUT/<target>/corpus, grown from the seeds in tests/fuzz/; its log and any
# artefact are in OUT/<target>/. One line per target: "ok" with its
# executions and their rate, or "FAIL" with what was found and the one
# command that replays it; then the counts line tests/run.sh adds up.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/cli/cli_lib.sh"

bin_dir= out= regex= seconds=60 bounded=
for arg in "$@"; do
    case $arg in
    --bin-dir=*) bin_dir=${arg#*=} ;;
    --out=*) out=${arg#*=} ;;
    --kernel=*) regex=${arg#*=} ;;
    --seconds=*) seconds=${arg#*=} ;;
    --bounded) bounded=1 ;;
    *) echo "fuzz/run.sh: unexpected '$arg' (usage: see its first lines)" >&2; exit 2 ;;
    esac
done
if [ -z "$bin_dir" ] || [ -z "$out" ] || ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz/run.sh: needs --bin-dir=DIR --out=DIR, and SECONDS a whole number from 1" >&2
    exit 2
fi

kernels=$("$bin_dir/fuzz-kernel" --list 2>/dev/null) || {
    echo "fuzz/run.sh: $bin_dir/fuzz-kernel --list failed: build it (make fuzz)" >&2
    exit 2
}
targets=()
if [ -n "$bounded" ]; then
    targets=(all cli)
else
    for k in $kernels cli; do
        if [ -z "$regex" ] || grep -qE -- "$regex" <<<"$k"; then
            targets+=("$k")
        fi
    done
fi
if [ ${#targets[@]} -eq 0 ]; then
    echo "fuzz/run.sh: no target matches KERNEL='$regex': they are" $kernels cli >&2
    exit 2
fi

# stat <log> <name>: one of libFuzzer's -print_final_stats figures.
stat() { sed -n "s/^stat::$2: *//p" "$1" | tail -1; }

for t in "${targets[@]}"; do
    dir=$out/$t
    mkdir -p "$dir/corpus"
    if [ "$t" = cli ]; then
        run=("$bin_dir/fuzz-cli")
        seeds=$root/tests/fuzz/cli
    else
        run=("$bin_dir/fuzz-kernel" "--kernel=$t")
        seeds=$root/tests/fuzz/kernel
    fi
    time=$seconds
    [ -n "$bounded" ] && time=$([ "$t" = cli ] && echo 8 || echo 35)
    rm -f "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-*
    "${run[@]}" -max_total_time="$time" -max_len=1024 -timeout=20 \
        -print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" "$seeds" \
        >"$dir/log" 2>&1
    status=$?
    runs=$(stat "$dir/log" number_of_executed_units)
    rate=$(stat "$dir/log" average_exec_per_sec)
    artefact=$(ls -t "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-* 2>/dev/null | head -1)
    if [ $status -eq 0 ] && [ -n "$runs" ] && [ -z "$artefact" ]; then
        ok "fuzz $t: $runs executions in $time s, $rate per second, nothing found"
    else
        what=$(grep -m1 -E '^cyclebench fuzz:|^SUMMARY:|ERROR:' "$dir/log" || tail -1 "$dir/log")
        fail "fuzz $t (status $status): $what; replay: ${run[*]} ${artefact:-(no artefact: see $dir/log)}"
    fi
done
finish
