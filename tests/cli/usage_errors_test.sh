#!/usr/bin/env bash
# Bad input on the command line costs nothing: one line on stderr naming
# the fix, exit status 2 and nothing on stdout, before anything is tuned,
# calibrated or measured. The rule for every command: an option may be
# given once, and a value echoed in a message is quoted with its control
# characters escaped. And a results write that fails on a full disk leaves
# the previous results whole, with one line and exit status 1.
source "$(dirname "$0")/cli_lib.sh"

# Every bench below would sample for 5 s per benchmark if it measured.
slow=(--benchmark_min_time=5 --kernel=memcpy --isa=generic --sizes=64)
bench_usage() { local name=$1; shift; expect_usage "bench: $name" "$bin" bench "${slow[@]}" "$@"; }

started=$(date +%s)
: >"$tmp/file"
mkdir "$tmp/dir"
bench_usage "--results-dir names a file" --results-dir="$tmp/file"
bench_usage "--results-dir under a file" --results-dir="$tmp/file/sub"
bench_usage "--results-dir where no directory can be made" --results-dir=/proc/x
bench_usage "--results-dir empty" --results-dir=
bench_usage "--benchmark_out in a missing directory" --benchmark_out=/nonexistent/x.json
bench_usage "--benchmark_out names a directory" --benchmark_out="$tmp/dir"
bench_usage "negative repetitions" --benchmark_repetitions=-3
bench_usage "no repetitions" --benchmark_repetitions=0
bench_usage "repetitions not a number" --benchmark_repetitions=many
expect_usage "bench: zero minimum time" "$bin" bench --kernel=memcpy --benchmark_min_time=0
expect_usage "bench: negative minimum time" "$bin" bench --kernel=memcpy --benchmark_min_time=-1
bench_usage "a filter that matches nothing" --benchmark_filter=nomatch
bench_usage "a filter that is no regex" '--benchmark_filter=('
expect_usage "bench: --kernel and --isa that select nothing" "$bin" bench --kernel=memcpy --isa=aesni
bench_usage "unknown output format" --benchmark_format=xml
bench_usage "unknown time unit" --benchmark_time_unit=xs
bench_usage "a boolean flag's unknown word" --benchmark_list_tests=maybe
bench_usage "unknown colour" --benchmark_color=maybe
bench_usage "unknown Google Benchmark flag" --benchmark_nosuch=1
bench_usage "an operand" memcpy
bench_usage "--sizes given twice" --sizes=8
bench_usage "--benchmark_filter given twice" --benchmark_filter=a --benchmark_filter=b
bench_usage "--no-system-tune given twice" --no-system-tune --no-system-tune
bench_usage "--benchmark_repetitions given twice" --benchmark_repetitions=2 --benchmark_repetitions=3
expect_usage "kat: --isa given twice" "$bin" kat chacha20 --isa=mmx --isa=generic
expect_usage "kat: --key given twice" "$bin" kat chacha20 --key="$(printf '%064d' 0)" \
    --key="$(printf '%064d' 1)" --nonce=000000000000000000000000
expect_usage "leak: --size given twice" "$bin" leak chacha20 --size=64 --size=128

# Control characters in values: escaped, so each message stays one line.
newline=$'avx2\nx'
expect_usage "bench: a newline in --isa" "$bin" bench "${slow[@]:0:2}" --isa="$newline"
expect_usage "bench: a newline in --kernel" "$bin" bench --kernel=$'memcpy\n'
expect_usage "bench: a newline in --cpu" "$bin" bench "${slow[@]}" --cpu=$'0\n'
bench_usage "a newline in --benchmark_filter" --benchmark_filter=$'a\nb'
bench_usage "a newline in --results-dir" --results-dir="$tmp/file/"$'a\nb'
expect_usage "kat: a newline in --isa" "$bin" kat chacha20 --isa="$newline"
expect_usage "kat: a newline in both ISAs" "$bin" kat chacha20@generic --isa="$newline"
if grep -q '\\x0a' "$tmp/exit.err"; then
    ok "a newline is echoed as \\x0a"
else
    fail "a newline is echoed as \\x0a: $(cat "$tmp/exit.err")"
fi

elapsed=$(($(date +%s) - started))
if [ $elapsed -lt 30 ]; then
    ok "nothing was measured: the bad inputs took ${elapsed} s in all"
else
    fail "the bad inputs took ${elapsed} s: something was measured first"
fi

# A full disk. A tmpfs of its own, mounted as root or else in a user
# namespace: a first run's results, then a disk filled to leave room for
# the new run's first three files (its JSON, CSV, and JSON again as
# latest.json) but not the fourth.
cat >"$tmp/full.sh" <<'EOF'
bin=$1 dir=$2
mount -t tmpfs -o size=512k tmpfs "$dir" || { echo "SKIP cannot mount a tmpfs"; exit 0; }
trap 'umount "$dir"' EXIT
quick=(--kernel=memcpy --isa=generic --sizes=64 --benchmark_min_time=0.01
       --max-time=0.05 --no-system-tune --counters= --results-dir="$dir/results")
"$bin" bench "${quick[@]}" >/dev/null 2>&1 || { echo "FAIL a first run"; exit 0; }
mkdir "$dir/before"
cp "$dir"/results/latest.* "$dir/before/"
pages() { echo $((($(stat -c %s "$1") + 4095) / 4096)); }
gap=$((2 * $(pages "$dir/before/latest.json") + $(pages "$dir/before/latest.csv")))
dd if=/dev/zero of="$dir/gap" bs=4096 count=$gap 2>/dev/null
dd if=/dev/zero of="$dir/filler" bs=4096 2>/dev/null
rm "$dir/gap"
"$bin" bench "${quick[@]}" >/dev/null 2>"$dir/err"
status=$?
last=$(tail -1 "$dir/err")
left=$(ls -A "$dir/results" | tr '\n' ' ')
if [ $status -eq 1 ] && cmp -s "$dir/results/latest.json" "$dir/before/latest.json" &&
   cmp -s "$dir/results/latest.csv" "$dir/before/latest.csv" &&
   [ "$(ls "$dir/results" | wc -l)" -eq 4 ] &&
   [[ $last == "cyclebench: cannot write "*"No space left on device" ]]; then
    echo "ok   a full disk: exit 1, '$last', the previous latest.* whole, nothing else left"
else
    echo "FAIL a full disk: status $status, last line '$last', results dir: $left"
fi
EOF
mkdir "$tmp/full"
if "$bin" list --json | grep -q '"emulator": "'; then
    # Under qemu bench times nothing (emulated_cli_test.sh checks that it
    # refuses); the native pass writes and checks results.
    echo "SKIP bench refuses to run under an emulator" >"$tmp/full.out"
elif [ "$(id -u)" -eq 0 ]; then
    bash "$tmp/full.sh" "$bin" "$tmp/full" >"$tmp/full.out" 2>&1
elif unshare --user --map-root-user --mount true 2>/dev/null; then
    unshare --user --map-root-user --mount bash "$tmp/full.sh" "$bin" "$tmp/full" >"$tmp/full.out" 2>&1
else
    echo "SKIP cannot mount a tmpfs: neither root nor user namespaces" >"$tmp/full.out"
fi
line=$(tail -1 "$tmp/full.out")
case $line in
ok*) ok "${line:5}" ;;
SKIP*) skip "disk full: ${line:5}" ;;
*) fail "disk full: $(tail -3 "$tmp/full.out" | tr '\n' ' ')" ;;
esac

finish
