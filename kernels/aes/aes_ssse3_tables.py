#!/usr/bin/python3
"""The constants of the ssse3 AES (aes_ssse3.c) and of the neon one
(aes_neon.c, TBL in place of PSHUFB): writes aes_ssse3_tables.h.

The vector-permute technique (Hamburg, CHES 2009): AES's S-box is an
inversion in GF(2^8) and an affine map. In a tower field GF(2^8) =
GF(16)[t]/(t^2 + a t + a), a byte is two GF(16) nibbles, and its inverse
follows from nibble inverses and sums alone, so every lookup is PSHUFB on a
register indexed by a nibble: no memory is indexed by a secret and nothing
branches on one. The basis change into the tower field and every affine or
MixColumns map that follows are GF(2)-linear, so each is two nibble
lookups xored.

Here x = k + i t (k, i in GF(16); k the low nibble, i the high), N = x x^16
its norm over GF(16) = k^2 + a i k + a i^2, and with j = i + k:

    io = j + 1 / (1/i + a/k) = N / (k + a i)
    jo = i + 1 / (1/j + a/k) = N / (k + a j)

while x^-1 = (k + a i)/N + (i/N) t, which is linear in 1/io and 1/jo. So a
table of io and a table of jo, xored, give any linear map of x^-1. "1/0"
is 0x80: PSHUFB reads a byte with its top bit set as zero, so infinity
survives the additions above (infinity + finite = infinity, 1/infinity =
0) and the cases x = 0, i = 0, k = 0 and j = 0 need no branch; main()
checks every byte.

The state stays in the tower basis from one round to the next (the round
keys are converted to match, the affine constant 0x63 folded into them),
and ShiftRows is never applied: each round's MixColumns rotations are
conjugated by the ShiftRows taken so far, and one shuffle at the end puts
the bytes in place (none for AES-192, whose 12 rounds are 3 times
ShiftRows' period of 4).

Run with no argument to write the header, with --check to compare it with
what is there (tests/aes_ssse3_tables_test.sh).
"""
import functools
import operator
import os
import sys

HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "aes_ssse3_tables.h")
INF = 0x80


# GF(2^8), AES's polynomial x^8 + x^4 + x^3 + x + 1

def mul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a = (a << 1) ^ (0x11b if a & 0x80 else 0)
        b >>= 1
    return r


def power(a, n):
    r = 1
    for _ in range(n):
        r = mul(r, a)
    return r


def inverse(a):
    return power(a, 254) if a else 0


def affine_linear(b):
    """SubBytes' affine map without its constant 0x63."""
    r = 0
    for i in range(8):
        bit = 0
        for s in (0, 4, 5, 6, 7):
            bit ^= b >> ((i + s) % 8) & 1
        r |= bit << i
    return r


def sbox(x):
    return affine_linear(inverse(x)) ^ 0x63


INV_SBOX = [0] * 256
for _x in range(256):
    INV_SBOX[sbox(_x)] = _x


# The tower field

def order(a):
    n, r = 1, a
    while r != 1:
        r, n = mul(r, a), n + 1
    return n


SUBFIELD = [y for y in range(256) if power(y, 16) == y]
BETA = min(y for y in SUBFIELD if y and order(y) == 15)
NIBBLE = [0] * 16  # nibble -> element of GF(16) in GF(2^8): bit m is beta^m
for _n in range(16):
    for _m in range(4):
        if _n >> _m & 1:
            NIBBLE[_n] ^= power(BETA, _m)
NIBBLE_OF = {y: n for n, y in enumerate(NIBBLE)}


def trace16(y):
    return y ^ power(y, 2) ^ power(y, 4) ^ power(y, 8)


# t^2 + a t + a is irreducible over GF(16) when Tr(1/a) = 1.
A = NIBBLE[min(n for n in range(1, 16) if trace16(inverse(NIBBLE[n])) == 1)]
T = min(x for x in range(256) if mul(x, x) ^ mul(A, x) ^ A == 0)
assert T not in SUBFIELD


def from_tower(w):
    """The byte w = (i << 4) | k of the tower basis as a field element."""
    return NIBBLE[w & 15] ^ mul(NIBBLE[w >> 4], T)


TO_TOWER = [0] * 256
for _w in range(256):
    TO_TOWER[from_tower(_w)] = _w
assert sorted(TO_TOWER) == list(range(256))


def linear(f):
    """f on bytes must be GF(2)-linear; returns it as a list."""
    table = [f(x) for x in range(256)]
    for x in range(256):
        for y in range(256):
            assert table[x ^ y] == table[x] ^ table[y]
    return table


# x^-1 = p c1 + q c2 with p = 1/io, q = 1/jo (module docstring).
A_INV = inverse(A)
C1 = 1 ^ mul(T, A_INV) ^ mul(T, mul(A_INV, A_INV))
C2 = mul(T, mul(A_INV, A_INV))


def nibble_inverse(n):
    return NIBBLE_OF[inverse(NIBBLE[n])] if n else INF


def output_pair(f):
    """Tables of io and of jo whose xor is f(x^-1), f linear."""
    def side(c):
        return [f(mul(inverse(NIBBLE[n]), c)) if n else 0 for n in range(16)]
    return side(C1), side(C2)


def lo_hi(f):
    """The two nibble tables of a linear byte map f."""
    return [f(n) for n in range(16)], [f(n << 4) for n in range(16)]


TABLES = {
    "inv": [nibble_inverse(n) for n in range(16)],
    "a_over": [NIBBLE_OF[mul(A, inverse(NIBBLE[n]))] if n else INF
               for n in range(16)],
}
_tower = linear(lambda x: TO_TOWER[x])
_inv_affine = [0] * 256
for _x in range(256):
    _inv_affine[affine_linear(_x)] = _x
_dec_basis = linear(lambda x: TO_TOWER[_inv_affine[x]])
TABLES["enc_in_lo"], TABLES["enc_in_hi"] = lo_hi(lambda x: _tower[x])
TABLES["dec_in_lo"], TABLES["dec_in_hi"] = lo_hi(lambda x: _dec_basis[x])
TABLES["sub_io"], TABLES["sub_jo"] = output_pair(affine_linear)
TABLES["sub2_io"], TABLES["sub2_jo"] = output_pair(
    lambda v: mul(2, affine_linear(v)))
TABLES["enc1_io"], TABLES["enc1_jo"] = output_pair(
    lambda v: _tower[affine_linear(v)])
TABLES["enc2_io"], TABLES["enc2_jo"] = output_pair(
    lambda v: _tower[mul(2, affine_linear(v))])
for _c in (9, 11, 13, 14):
    TABLES[f"dec{_c}_io"], TABLES[f"dec{_c}_jo"] = output_pair(
        lambda v, c=_c: _dec_basis[mul(c, v)])
TABLES["inv_io"], TABLES["inv_jo"] = output_pair(lambda v: v)
# The inverse affine map's constant 5, in the tower basis: added to the
# decryption round keys.
TABLES["dec_five"] = [_tower[5]] * 16


# Positions: byte r + 4c of a state is row r, column c. pshufb(v, m)[p] =
# v[m[p]], and a permutation is such a list.

def compose(f, g):
    """The mask of pshufb(pshufb(v, g), f): v[g[f[p]]]."""
    return [g[f[p]] for p in range(16)]


def invert(f):
    r = [0] * 16
    for p in range(16):
        r[f[p]] = p
    return r


IDENTITY = list(range(16))
SHIFT_ROWS = [r + 4 * ((c + r) % 4) for c in range(4) for r in range(4)]
INV_SHIFT_ROWS = invert(SHIFT_ROWS)
ROT = {k: [(r + k) % 4 + 4 * c for c in range(4) for r in range(4)]
       for k in (1, 3)}


def placements(shift, n):
    """tau[r]: after r rounds, byte p of the register holds byte tau[r][p]
    of the state. A round leaves its bytes where SubBytes found them, so
    tau[r-1][p] = shift[tau[r][p]]."""
    tau = [IDENTITY]
    for _ in range(n):
        tau.append(compose(tau[-1], invert(shift)))
    return tau


ENC_TAU = placements(SHIFT_ROWS, 4)
DEC_TAU = placements(INV_SHIFT_ROWS, 4)
assert ENC_TAU[4] == IDENTITY and DEC_TAU[4] == IDENTITY


def conjugate(rot, tau):
    """The rotation within columns of the state, on the register."""
    return compose(compose(tau, rot), invert(tau))


MASKS = {"shift_rows": SHIFT_ROWS, "rot1": ROT[1], "rot3": ROT[3]}
# Indexed by the round modulo 4 (the placement tau of its output).
ROUND_MASKS = {
    "enc_rot1": [conjugate(ROT[1], ENC_TAU[r]) for r in range(4)],
    "enc_rot3": [conjugate(ROT[3], ENC_TAU[r]) for r in range(4)],
    "enc_place": ENC_TAU[:4],
    "enc_unplace": [invert(ENC_TAU[r]) for r in range(4)],
    "dec_rot1": [conjugate(ROT[1], DEC_TAU[r]) for r in range(4)],
    "dec_place": DEC_TAU[:4],
    "dec_unplace": [invert(DEC_TAU[r]) for r in range(4)],
}


# A model of aes_ssse3.c, op for op, checked against FIPS-197 below.

def pshufb(table, idx):
    # aes_neon.c looks up with TBL, which reads an index of 16 or more as
    # 0 where PSHUFB reads one with its top bit set as 0: the two agree on
    # nibbles and on "1/0" plus a nibble, and check() runs every lookup of
    # both ciphers through here, so no other index may occur.
    assert all(i < 16 or INF <= i < INF + 16 for i in idx), \
        f"an index where TBL and PSHUFB differ: {idx}"
    return [0 if i & 0x80 else table[i & 15] for i in idx]


def xor(*vs):
    return [functools.reduce(operator.xor, t) for t in zip(*vs)]


def lookup(lo_table, hi_table, v):
    return xor(pshufb(lo_table, [b & 15 for b in v]),
               pshufb(hi_table, [b >> 4 for b in v]))


def invert_state(w):
    """The nibble steps of aes_ssse3.c's inversion: (io, jo)."""
    t = TABLES
    hi = [b >> 4 for b in w]
    lo = [b & 15 for b in w]
    ak = pshufb(t["a_over"], lo)
    j = xor(lo, hi)
    iak = xor(pshufb(t["inv"], hi), ak)
    jak = xor(pshufb(t["inv"], j), ak)
    return xor(pshufb(t["inv"], iak), j), xor(pshufb(t["inv"], jak), hi)


def pair(name, io, jo):
    return xor(pshufb(TABLES[name + "_io"], io),
               pshufb(TABLES[name + "_jo"], jo))


def expand(key):
    nk = len(key) // 4
    rounds = nk + 6
    w = [list(key[4 * i:4 * i + 4]) for i in range(nk)]
    rcon = 1
    for i in range(nk, 4 * (rounds + 1)):
        t = list(w[-1])
        if i % nk == 0:
            t = [sbox(b) for b in t[1:] + t[:1]]
            t[0] ^= rcon
            rcon = mul(rcon, 2)
        elif nk > 6 and i % nk == 4:
            t = [sbox(b) for b in t]
        w.append([a ^ b for a, b in zip(w[i - nk], t)])
    return [sum(w[4 * r:4 * r + 4], []) for r in range(rounds + 1)]


def mix_column_bytes(v, coeffs):
    return [mul(coeffs[0], v[p]) ^ mul(coeffs[1], v[ROT[1][p]]) ^
            mul(coeffs[2], v[ROT[1][ROT[1][p]]]) ^ mul(coeffs[3], v[ROT[3][p]])
            for p in range(16)]


def enc_schedule(rk):
    """aes_expand_ssse3's k->enc from the FIPS-197 schedule rk."""
    nr = len(rk) - 1
    out = [[_tower[b] for b in rk[0]]]
    for r in range(1, nr):
        out.append(pshufb([_tower[b ^ 0x63] for b in rk[r]], ENC_TAU[r % 4]))
    out.append([b ^ 0x63 for b in rk[nr]])
    return out


def dec_schedule(rk):
    nr = len(rk) - 1
    dk = [rk[nr]] + [mix_column_bytes(rk[nr - r], (14, 11, 13, 9))
                     for r in range(1, nr)] + [rk[0]]
    assert _inv_affine[0x63] == 5  # the inverse affine map's constant
    five = TABLES["dec_five"]
    out = [xor([_dec_basis[b] for b in dk[0]], five)]
    for r in range(1, nr):
        out.append(pshufb(xor([_dec_basis[b] for b in dk[r]], five),
                          DEC_TAU[r % 4]))
    out.append(dk[nr])
    return out


def encrypt(ek, block):
    nr = len(ek) - 1
    w = xor(lookup(TABLES["enc_in_lo"], TABLES["enc_in_hi"], block), ek[0])
    for r in range(1, nr):
        io, jo = invert_state(w)
        a = pair("enc1", io, jo)
        a2 = pair("enc2", io, jo)
        rot1, rot3 = ROUND_MASKS["enc_rot1"][r % 4], ROUND_MASKS["enc_rot3"][r % 4]
        x = xor(a2, pshufb(a, rot1))              # 2a + b
        y = xor(x, pshufb(a, rot3))               # 2a + b + d
        w = xor(pshufb(x, rot1), y, ek[r])        # + 2b + c
    io, jo = invert_state(w)
    s = pshufb(pair("sub", io, jo), ROUND_MASKS["enc_unplace"][nr % 4])
    return xor(s, ek[nr])


def decrypt(dk, block):
    nr = len(dk) - 1
    w = xor(lookup(TABLES["dec_in_lo"], TABLES["dec_in_hi"], block), dk[0])
    for r in range(1, nr):
        io, jo = invert_state(w)
        rot = ROUND_MASKS["dec_rot1"][r % 4]
        x = pair("dec9", io, jo)
        x = xor(pshufb(x, rot), pair("dec13", io, jo))
        x = xor(pshufb(x, rot), pair("dec11", io, jo))
        w = xor(pshufb(x, rot), pair("dec14", io, jo), dk[r])
    io, jo = invert_state(w)
    s = pshufb(pair("inv", io, jo), ROUND_MASKS["dec_unplace"][nr % 4])
    return xor(s, dk[nr])


def check():
    """Every byte through the S-box and its inverse, then FIPS-197 C."""
    for x in range(256):
        io, jo = invert_state([TO_TOWER[x]] * 16)
        assert pair("sub", io, jo)[0] ^ 0x63 == sbox(x), f"S({x:#04x})"
        assert pair("sub2", io, jo)[0] == mul(2, sbox(x) ^ 0x63), \
            f"2 S({x:#04x})"
        w = lookup(TABLES["enc_in_lo"], TABLES["enc_in_hi"], [x] * 16)
        assert pair("sub", *invert_state(w))[0] ^ 0x63 == sbox(x), \
            f"S({x:#04x}) through the input tables"
        w = lookup(TABLES["dec_in_lo"], TABLES["dec_in_hi"], [x] * 16)
        w = xor(w, TABLES["dec_five"])
        assert pair("inv", *invert_state(w))[0] == INV_SBOX[x], \
            f"S^-1({x:#04x})"
    plain = [0x11 * i for i in range(16)]
    for key_len, want in ((16, "69c4e0d86a7b0430d8cdb78070b4c55a"),
                          (24, "dda97ca4864cdfe06eaf70a0ec0d7191"),
                          (32, "8ea2b7ca516745bfeafc49904b496089")):
        rk = expand(bytes(range(key_len)))
        got = encrypt(enc_schedule(rk), plain)
        assert bytes(got).hex() == want, \
            f"FIPS-197 C, AES-{8 * key_len}: {bytes(got).hex()}"
        assert decrypt(dec_schedule(rk), got) == plain, \
            f"FIPS-197 C, AES-{8 * key_len} decryption"


def c_values(values):
    return "{ " + ", ".join(f"0x{v:02x}" for v in values) + " }"


def header():
    flat = {**TABLES, **MASKS}
    fields = [f"    _Alignas(16) uint8_t {n}[16];" for n in flat]
    fields += [f"    _Alignas(16) uint8_t {n}[4][16];" for n in ROUND_MASKS]
    rows = [f"    .{n} = {c_values(v)}," for n, v in flat.items()]
    for n, masks in ROUND_MASKS.items():
        rows.append(f"    .{n} = {{")
        rows += [f"        {c_values(m)}," for m in masks]
        rows.append("    },")
    fields, rows = "\n".join(fields), "\n".join(rows)
    return f"""/* Generated by aes_ssse3_tables.py, which derives every value and says
 * why: edit that and run it, not this. A nibble's bit m is the coefficient
 * of b^m, b = 0x{BETA:02x} in AES's field (of order 15: it spans the subfield
 * GF(16)); the tower's t = 0x{T:02x} is a root of t^2 + a t + a, a = 0x{A:02x}.
 * The lookup tables are named by what they give (enc1: a middle round's
 * SubBytes in the tower basis, enc2 twice that, sub the standard S-box less
 * 0x63, dec9 9 times the inverse in the decryption basis, ...); _io and _jo
 * are the two halves of an inversion's result, _lo and _hi of a byte. */
#ifndef CYCLEBENCH_AES_SSSE3_TABLES_H
#define CYCLEBENCH_AES_SSSE3_TABLES_H

#include <stdint.h>

typedef struct aes_ssse3_tables {{
{fields}
}} aes_ssse3_tables;

static const aes_ssse3_tables aes_ssse3_t = {{
{rows}
}};

#endif
"""


def main(argv):
    try:
        check()
    except AssertionError as e:
        print(f"aes_ssse3_tables.py: the model fails: {e}", file=sys.stderr)
        return 1
    text = header()
    if argv[1:] == ["--check"]:
        with open(HEADER) as f:
            if f.read() != text:
                print(f"{os.path.relpath(HEADER)} is not what "
                      f"aes_ssse3_tables.py writes: run it", file=sys.stderr)
                return 1
        return 0
    if argv[1:]:
        print("usage: aes_ssse3_tables.py [--check]", file=sys.stderr)
        return 2
    with open(HEADER, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
