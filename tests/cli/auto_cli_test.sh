#!/usr/bin/env bash
# --isa=auto end to end: kat at auto gives every fixed level's bytes and
# says on stderr what it chose; run and bench record the choice; leak and
# the ctgrind driver refuse auto, and so does a message refused before
# anything is measured. No speed is asserted: the machine is shared.
set -u
. "$(dirname "$0")/cli_lib.sh"
python=/usr/bin/python3

lioness_key=$(sed -n 's/^key=//p' tests/vectors/lioness_compat.txt | head -1)
key32=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
nonce12=000000000000004a00000000
nonce24=404142434445464748494a4b4c4d4e4f5051525354555657
tweak17=$(head -c 17 /dev/urandom | od -An -tx1 | tr -d ' \n')
nh_key=$(head -c 1072 /dev/urandom | od -An -tx1 | tr -d ' \n')

# kernel, its batch (messages per call), then its options.
cases=(
    "lioness 1 --key=$lioness_key"
    "lioness-x4 4 --key=$lioness_key"
    "chacha20-poly1305 1 --key=$key32 --nonce=$nonce12 --aad=feedface"
    "xchacha20-poly1305 1 --key=$key32 --nonce=$nonce24"
    "tor1-relay-originate 1 --key=000102030405060708090a0b0c0d0e0f"
    "adiantum 1 --key=$key32 --tweak=$tweak17"
    "adiantum20 1 --key=$key32 --decrypt"
    "adiantum8 1 --key=$key32 --tweak=$key32"
    "aes128-hctr2 1 --key=000102030405060708090a0b0c0d0e0f --tweak=$tweak17"
    "aes256-hctr2 1 --key=$key32 --tweak=$key32 --decrypt"
    "nh 1 --key=$nh_key"
    "chacha20 1 --key=$key32 --nonce=0001020304050607"
    "chacha20-x2 2 --key=$key32 --nonce=0001020304050607"
    "blake2b 1"
    "blake2b-x4 4"
)

# The ISAs of kernel this CPU runs.
supported() { "$bin" list | awk -v k="$1" '$1 == k && $3 == "supported" { print $2 }'; }

for c in "${cases[@]}"; do
    set -- $c
    kernel=$1 batch=$2; shift 2
    for len in 509 1537; do
        head -c $((len * batch)) /dev/urandom >"$tmp/msg"
        "$bin" kat "$kernel" --isa=auto "$@" <"$tmp/msg" >"$tmp/auto.out" 2>"$tmp/auto.err"
        status=$?
        if [ $status -ne 0 ] || [ "$(wc -l <"$tmp/auto.err")" -ne 1 ] ||
            ! grep -q "^auto: .*(measured at $len B)$" "$tmp/auto.err"; then
            fail "kat $kernel --isa=auto at $len B: status $status, stderr $(head -c 300 "$tmp/auto.err")"
            continue
        fi
        ok "kat $kernel --isa=auto at $len B says $(cat "$tmp/auto.err")"
        # Generic is supported everywhere: a list with no level for the
        # kernel compares nothing, and is a failure.
        isas=$(supported "$kernel")
        if [ -z "$isas" ]; then
            fail "kat $kernel@auto at $len B: list names no supported level to compare with"
            continue
        fi
        same=1
        for isa in $isas; do
            "$bin" kat "$kernel" --isa="$isa" "$@" <"$tmp/msg" >"$tmp/fixed.out" 2>"$tmp/fixed.err"
            status=$?
            if [ $status -ne 0 ] || ! cmp -s "$tmp/auto.out" "$tmp/fixed.out"; then
                same=0
                fail "kat $kernel@auto differs from @$isa at $len B (status $status): $(head -c 200 "$tmp/fixed.err")"
            fi
        done
        [ $same -eq 1 ] && ok "kat $kernel@auto gives every supported level's output at $len B ($(echo $isas))"
    done
done

# The parts a composite's line names, and the operand form: kat exits 0
# and says, in one line on stderr, which row it chose for each part.
head -c 509 /dev/urandom >"$tmp/cell"
# expect_choice <name> <stderr pattern> <kat args...>, on the cell.
expect_choice() {
    local name=$1 pattern=$2 status; shift 2
    "$bin" kat "$@" <"$tmp/cell" >"$tmp/choice.out" 2>"$tmp/choice.err"
    status=$?
    if [ $status -eq 0 ] && [ "$(wc -l <"$tmp/choice.err")" -eq 1 ] &&
        grep -Eq "$pattern" "$tmp/choice.err"; then
        ok "$name: $(cat "$tmp/choice.err")"
    else
        fail "$name: status $status, stderr $(head -c 300 "$tmp/choice.err")"
    fi
}
expect_choice "lioness@auto names its ChaCha20 and BLAKE2b rows" \
    '^auto: chacha20=[a-z0-9_-]+ \(at 469 B\) blake2b=[a-z0-9_-]+ \(at 469 B\) \(measured at 509 B\)$' \
    lioness@auto --key="$lioness_key"
cp "$tmp/choice.out" "$tmp/ct"
"$bin" kat lioness --isa=auto --decrypt --key="$lioness_key" <"$tmp/ct" >"$tmp/pt" 2>/dev/null
status=$?
check "kat lioness --isa=auto --decrypt undoes it (status $status)" -- \
    sh -c "[ $status -eq 0 ] && cmp -s '$tmp/pt' '$tmp/cell'"
expect_choice "tor-relay-cell@auto names its AES row" \
    '^auto: aes128-ctr=[a-z0-9_-]+ \(measured at 509 B\)$' \
    tor-relay-cell --isa=auto --key=000102030405060708090a0b0c0d0e0f
# tor-relay-cell is tor1-relay-originate's old name: one row in list, the
# same output by either name.
listed_once() { ! "$bin" list | awk '$1 == "tor-relay-cell"' | grep -q .; }
check "list shows the tor-relay-cell alias as no row of its own" -- listed_once
same_by_either_name() {
    "$bin" kat tor-relay-cell --key=000102030405060708090a0b0c0d0e0f <"$tmp/cell" >"$tmp/alias.out" &&
        "$bin" kat tor1-relay-originate --key=000102030405060708090a0b0c0d0e0f <"$tmp/cell" >"$tmp/name.out" &&
        cmp -s "$tmp/alias.out" "$tmp/name.out"
}
check "kat tor-relay-cell gives tor1-relay-originate's output" -- same_by_either_name
expect_choice "adiantum@auto names its XChaCha12, NH, Poly1305 and AES rows, each at the length a 509-byte message gives it" \
    '^auto: xchacha12=[a-z0-9_-]+ \(at 493 B\) nh=[a-z0-9_-]+ \(at 493 B\) poly1305=[a-z0-9_-]+ \(at 32 B\) aes256-ctr=[a-z0-9_-]+ \(at 16 B\) \(measured at 509 B\)$' \
    adiantum --isa=auto --key="$key32"
expect_choice "aes256-hctr2@auto names its XCTR and POLYVAL rows" \
    '^auto: aes256-xctr=[a-z0-9_-]+ polyval=[a-z0-9_-]+ \(measured at 509 B\)$' \
    aes256-hctr2 --isa=auto --key="$key32"
expect_choice "aes128-gcm, which has no parts, takes its own table's fastest row" \
    '^auto: aes128-gcm=[a-z0-9_-]+ ' \
    aes128-gcm --isa=auto --key=000102030405060708090a0b0c0d0e0f --iv=000000000000000000000000

# Refusals: one line, exit 2, nothing on stdout, nothing measured.
head -c 40 /dev/urandom >"$tmp/short"
"$bin" kat lioness --isa=auto --key="$lioness_key" <"$tmp/short" >"$tmp/out" 2>"$tmp/err"
status=$?
if [ $status -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
    ! grep -q '^auto:' "$tmp/err"; then
    ok "a 40-byte cell is refused before auto measures: $(cat "$tmp/err")"
else
    fail "kat lioness --isa=auto on 40 bytes: status $status, $(cat "$tmp/err")"
fi
expect_usage "auto given twice" "$bin" kat lioness@auto --isa=auto --key="$lioness_key"
expect_usage "leak takes no auto" "$bin" leak lioness --isa=auto --seconds=0.1
expect_usage "leak takes no @auto" "$bin" leak lioness@auto --seconds=0.1
expect_usage "run at auto refuses a size the kernel refuses" "$bin" run lioness --isa=auto --size=40
expect_usage "bench refuses an unknown ISA still" "$bin" bench --isa=automatic
driver=$(dirname "$bin")/ctgrind-driver
if [ -x "$driver" ]; then
    expect_usage "the ctgrind driver takes no auto" "$driver" lioness --isa=auto
else
    skip "ctgrind driver not built ($driver)"
fi

# run: the result names auto and what it chose.
"$bin" run lioness-x4 --isa=auto --size=509 --seconds=0.05 >"$tmp/run.json" 2>"$tmp/run.err"
status=$?
"$python" - "$tmp/run.json" >"$tmp/py" 2>&1 <<'EOF'
import json, re, sys
r = json.load(open(sys.argv[1]))
assert r["isa"] == "auto", r["isa"]
assert re.fullmatch(r"chacha20-x2=\S+ \(at 469 B\) blake2b-x4=\S+ \(at 469 B\) \(measured at 509 B\)",
                    r["auto"]), r["auto"]
EOF
checked=$?
[ $status -eq 0 ] && [ $checked -eq 0 ] && ok "run lioness-x4 --isa=auto records $(sed -n 's/^  "auto": //p' "$tmp/run.json")" ||
    fail "run lioness-x4 --isa=auto: status $status, $(cat "$tmp/py" "$tmp/run.err" | head -c 400)"

# bench: a composite's @auto row beside its rows; --isa=auto alone; the
# choice in the context and the label; nothing measured when the filter
# leaves no @auto benchmark.
quick=(--benchmark_min_time=0.01 --max-time=0.05 --no-system-tune)
bench_json() { # <name> <python check> <bench args...>
    local name=$1 code=$2; shift 2
    rm -rf "$tmp/results"
    "$bin" bench "${quick[@]}" --results-dir="$tmp/results" "$@" >/dev/null 2>"$tmp/bench.err"
    local status=$?
    if [ $status -ne 0 ]; then
        fail "$name: bench exited $status: $(tail -3 "$tmp/bench.err")"
        return
    fi
    if "$python" -c "
import json, re, sys
d = json.load(open('$tmp/results/latest.json'))
ctx = d['context']
names = {b['name'].split('_')[0] for b in d['benchmarks']}
labels = {b['name']: b.get('label', '') for b in d['benchmarks']}
$code" >"$tmp/py" 2>&1; then ok "$name"; else fail "$name: $(tail -3 "$tmp/py")"; fi
}
bench_json "bench --kernel=tor-relay-cell (an alias) runs tor1-relay-originate@auto beside its rows, once, and records the choice" "
assert 'tor1-relay-originate@auto/509' in names, names
assert 'tor1-relay-originate@generic/509' in names, names
assert not [n for n in names if n.startswith('tor-relay-cell')], names
assert re.fullmatch(r'aes128-ctr=\S+ \(measured at 509 B\)', ctx['auto']), ctx['auto']
assert labels['tor1-relay-originate@auto/509'] == ctx['auto'], labels
assert float(ctx['auto_calibration_seconds']) > 0, ctx['auto_calibration_seconds']
assert 'tor1-relay-originate=' in ctx['dispatch'], ctx['dispatch']
" --kernel=tor-relay-cell --sizes=509
bench_json "bench --isa=auto runs each kernel at auto alone, at each size" "
assert names == {'blake2b@auto/64', 'blake2b@auto/4096', 'lioness@auto/64', 'lioness@auto/4096'}, names
assert 'blake2b=' in ctx['auto'] and 'chacha20=' in ctx['auto'], ctx['auto']
assert '(measured at 64 B); ' in ctx['auto'] and ctx['auto'].endswith('(measured at 4096 B)'), ctx['auto']
" --isa=auto --kernel=blake2b,lioness --sizes=64,4096
bench_json "bench runs adiantum@auto and aes128-hctr2@auto, each naming its parts" "
assert names == {'adiantum@auto/4096', 'aes128-hctr2@auto/4096'}, names
label = labels['adiantum@auto/4096']
assert re.fullmatch(r'xchacha12=\S+ \(at 4080 B\) nh=\S+ \(at 4080 B\) poly1305=\S+ \(at 128 B\) aes256-ctr=\S+ \(at 16 B\) \(measured at 4096 B\)', label), label
label = labels['aes128-hctr2@auto/4096']
assert re.fullmatch(r'aes128-xctr=\S+ polyval=\S+ \(measured at 4096 B\)', label), label
" --kernel=adiantum,aes128-hctr2 --sizes=4096 --benchmark_filter=@auto
bench_json "a filter without @auto benchmarks measures nothing" "
assert names == {'lioness@generic/509'}, names
assert ctx['auto'] == '' and float(ctx['auto_calibration_seconds']) == 0, ctx
" --kernel=lioness --sizes=509 --benchmark_filter=@generic

finish
