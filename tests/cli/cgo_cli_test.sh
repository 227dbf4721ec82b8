#!/usr/bin/env bash
# The CGO kernels on the command line, on every supported ISA: C tor's relay,
# relay-originate and client-originate vectors through `kat` (the client's
# three hops as one kat per hop, piped), the relay vectors backwards through
# the client's operations, the state carried from cell to cell of one kat,
# the x4 kernel's four circuits; then every bad input refused with one line,
# exit 2 and nothing on stdout. (ET, PRF, UIV+ and its update are internal
# layers, tested in tests/test_cgo.c.)
set -u
. "$(dirname "$0")/cli_lib.sh"
python=/usr/bin/python3 # Debian's, with nothing from a virtualenv

# One vector a line:
#   relay <op> <key> <tprime> <cmd> <in> <out>
#   originate <key> <tprime> <cmd> <in> <out> <key after> <tprime after>
#   client <target> <cmd> <in> <out> <key1> <tprime1> <key2> <tprime2> <key3> <tprime3>
# (a key is the 64 bytes of UIV+ keys then the nonce; cmd in decimal).
"$python" - tests/vectors/cgo_vectors.json >"$tmp/vectors" <<'EOF' || fail "reading cgo_vectors.json"
import json, sys
d = json.load(open(sys.argv[1]))
key = lambda s: s["keys"] + s["nonce"]
for t in d["relay"]:
    op = "relay-backward" if t["inbound"] else "relay-forward"
    print("relay", op, key(t["state_in"]), t["state_in"]["tprime"], int(t["cmd"], 16),
          t["tag"] + t["msg"], t["t_out"] + t["msg_out"])
for t in d["relay_originate"]:
    print("originate", key(t["state_in"]), t["state_in"]["tprime"], int(t["cmd"], 16),
          "a5" * 16 + t["msg"], t["t_out"] + t["msg_out"],
          key(t["state_out"]), t["state_out"]["tprime"])
for t in d["client_originate"]:
    hops = " ".join(key(s) + " " + s["tprime"] for s in t["state_in"])
    print("client", t["target_hop"], int(t["cmd"], 16), "00" * 16 + t["msg"],
          t["t_out"] + t["msg_out"], hops)
EOF

# kat_hex <input hex> <kat args...>: the output as hex.
kat_hex() {
    local input=$1; shift
    printf '%s' "$input" | unhex | "$bin" kat "$@" | hex
}

vectors_at() { # <isa>: every vector through kat; prints failures
    local isa=$1 n=0 bad=0 kind
    while read -r kind rest; do
        set -- $rest
        case "$kind" in
        relay)
            got=$(kat_hex "$5" "tor-cgo-$1@$isa" --key="$2" --tprime="$3" --cmd="$4")
            [ "$got" = "$6" ] || { bad=$((bad + 1)); echo "  $1 vector: got ${got:0:64}"; }
            # The client's operations undo the relay's.
            client=client-${1#relay-}
            got=$(kat_hex "$6" "tor-cgo-$client@$isa" --key="$2" --tprime="$3" --cmd="$4")
            [ "$got" = "$5" ] || { bad=$((bad + 1)); echo "  $client of the $1 vector: got ${got:0:64}"; }
            n=$((n + 1)) ;;
        originate)
            got=$(kat_hex "$4" "tor-cgo-relay-originate@$isa" --key="$1" --tprime="$2" --cmd="$3")
            [ "$got" = "$5" ] || { bad=$((bad + 1)); echo "  relay-originate vector: got ${got:0:64}"; }
            # Two cells in one kat: the second on the state the first left,
            # which the vector gives.
            two=$(kat_hex "$4$4" "tor-cgo-relay-originate@$isa" --key="$1" --tprime="$2" --cmd="$3")
            second=$(kat_hex "$4" "tor-cgo-relay-originate@$isa" --key="$6" --tprime="$7" --cmd="$3")
            [ "$two" = "$5$second" ] || { bad=$((bad + 1)); echo "  relay-originate: 2 cells do not carry the state"; }
            n=$((n + 1)) ;;
        client)
            local target=$1 cmd=$2 cell=$3 want=$4; shift 4
            local keys=("$1" "$3" "$5") tprimes=("$2" "$4" "$6")
            local h=$((target - 1))
            cell=$(kat_hex "$cell" "tor-cgo-client-originate@$isa" --key="${keys[$h]}" --tprime="${tprimes[$h]}" --cmd="$cmd")
            for ((h = target - 2; h >= 0; h--)); do
                cell=$(kat_hex "$cell" "tor-cgo-client-forward@$isa" --key="${keys[$h]}" --tprime="${tprimes[$h]}" --cmd="$cmd")
            done
            [ "$cell" = "$want" ] || { bad=$((bad + 1)); echo "  client-originate to hop $target: got ${cell:0:64}"; }
            n=$((n + 1)) ;;
        esac
    done <"$tmp/vectors"
    [ "$n" -eq 17 ] && [ "$bad" -eq 0 ] && ok "kat tor-cgo-*@$isa: C tor's 7 relay, 4 relay-originate and 6 three-hop client-originate vectors, and the relay ones inverted" ||
        fail "kat tor-cgo-*@$isa: $bad failures in $n vectors"
}

x4_at() { # <isa>: four circuits, one key for all and one key each
    local isa=$1 key tprime cmd in out
    read -r _ _ key tprime cmd in out < <(grep '^relay relay-forward' "$tmp/vectors" | tail -1)
    got=$(kat_hex "$in$in$in$in" "tor-cgo-relay-forward-x4@$isa" --key="$key" --tprime="$tprime" --cmd="$cmd")
    [ "$got" = "$out$out$out$out" ] && ok "kat tor-cgo-relay-forward-x4@$isa: the relay vector on four circuits" ||
        fail "kat tor-cgo-relay-forward-x4@$isa: got ${got:0:64}"
    local keys="" want="" cells=""
    for i in 1 2 3 4; do
        k=$(head -c 80 /dev/urandom | hex)
        c=$(head -c 1018 /dev/urandom | hex)
        keys=$keys$k cells=$cells$c
        want=$want$(kat_hex "$c" "tor-cgo-relay-forward@$isa" --key="$k")
    done
    got=$(kat_hex "$cells" "tor-cgo-relay-forward-x4@$isa" --key="$keys")
    [ -n "$got" ] && [ "$got" = "$want" ] && ok "kat tor-cgo-relay-forward-x4@$isa: four circuits' keys, two cells each" ||
        fail "kat tor-cgo-relay-forward-x4@$isa with four keys differs from four single runs"
}

"$bin" list >"$tmp/list" || fail "list"
for kernel in tor-cgo-relay-forward tor-cgo-relay-backward tor-cgo-relay-originate \
    tor-cgo-relay-forward-x4 tor-cgo-client-forward tor-cgo-client-backward \
    tor-cgo-client-originate tor1-relay-forward tor1-relay-originate; do
    n=$(grep -c "^$kernel " "$tmp/list")
    [ "$n" -ge 1 ] && ok "list shows $kernel at $n ISAs" || fail "list lacks $kernel"
done
while read -r kernel isa support; do
    [ "$kernel" = tor-cgo-relay-forward ] || continue
    if [ "$support" != supported ]; then
        skip "kat tor-cgo-*@$isa: unsupported on this CPU"
        expect_usage_on "tor-cgo-relay-forward@$isa refused on this CPU" "" "$bin" kat tor-cgo-relay-forward@"$isa" --key="$(printf '%0160d' 0)"
        continue
    fi
    vectors_at "$isa"
    x4_at "$isa"
done <"$tmp/list"

key=$(printf '%0160d' 0)
cell=$(printf '%01018d' 0)
expect_usage_on "a 79-byte key" "$cell" "$bin" kat tor-cgo-relay-forward --key="${key:2}"
expect_usage_on "an 81-byte key" "$cell" "$bin" kat tor-cgo-relay-forward --key="${key}00"
expect_usage_on "no key" "$cell" "$bin" kat tor-cgo-client-forward
expect_usage_on "x4: a 160-byte key" "$cell$cell$cell$cell" "$bin" kat tor-cgo-relay-forward-x4 --key="$key$key"
expect_usage_on "--tprime of 15 bytes" "$cell" "$bin" kat tor-cgo-relay-forward --key="$key" --tprime="${key:0:30}"
expect_usage_on "--tprime of 17 bytes" "$cell" "$bin" kat tor-cgo-relay-backward --key="$key" --tprime="${key:0:34}"
expect_usage_on "--cmd=256" "$cell" "$bin" kat tor-cgo-relay-forward --key="$key" --cmd=256
expect_usage_on "--cmd=-1" "$cell" "$bin" kat tor-cgo-relay-originate --key="$key" --cmd=-1
expect_usage_on "--cmd=relay" "$cell" "$bin" kat tor-cgo-client-originate --key="$key" --cmd=relay
expect_usage_on "an empty payload" "" "$bin" kat tor-cgo-relay-forward --key="$key"
expect_usage_on "508 bytes" "${cell:2}" "$bin" kat tor-cgo-relay-forward --key="$key"
expect_usage_on "510 bytes" "${cell}00" "$bin" kat tor-cgo-client-backward --key="$key"
expect_usage_on "1017 bytes" "$cell${cell:2}" "$bin" kat tor-cgo-relay-originate --key="$key"
expect_usage_on "x4: 3 payloads" "$cell$cell$cell" "$bin" kat tor-cgo-relay-forward-x4 --key="$key"
expect_usage_on "x4: 4 x 508 bytes" "${cell:2}${cell:2}${cell:2}${cell:2}" "$bin" kat tor-cgo-relay-forward-x4 --key="$key"
expect_usage_on "tor-cgo takes no --iv" "$cell" "$bin" kat tor-cgo-relay-forward --key="$key" --iv="${key:0:32}"
expect_usage_on "tor1 takes no --cmd" "$cell" "$bin" kat tor1-relay-forward --key="${key:0:32}" --cmd=2
expect_usage_on "a POLYVAL key of 15 bytes" "$cell" "$bin" kat polyval --key="${key:0:30}"

finish
