/* The Keccak implementation table and the sponge over a permutation: bytes
 * are XORed into and read from the lanes little-endian, whatever the
 * host's byte order. */
#include <string.h>

#include "keccak.h"

/* Iota's round constants, FIPS 202 Section 3.2.5, for rounds 0-23. */
const uint64_t keccak_round_constants[24] = {
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull,
    0x8000000080008000ull, 0x000000000000808bull, 0x0000000080000001ull,
    0x8000000080008081ull, 0x8000000000008009ull, 0x000000000000008aull,
    0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
    0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull,
    0x8000000000008003ull, 0x8000000000008002ull, 0x8000000000000080ull,
    0x000000000000800aull, 0x800000008000000aull, 0x8000000080008081ull,
    0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};

const keccak_impl keccak_impls[] = {
#if defined(__x86_64__)
    { { "avx512", CPU_AVX512F | CPU_AVX512VL }, keccak_permute_avx512,
      keccak_absorb_blocks_avx512, keccak_kt_leaves_avx512, 8 },
    /* avx2's one state is generic's permutation (keccak_avx2.c says why);
     * its leaves run four at a time. */
    { { "avx2", CPU_AVX2 }, keccak_permute_generic, NULL,
      keccak_kt_leaves_avx2, 4 },
#elif defined(__aarch64__)
    { { "sha3", CPU_ARM_SHA3 | CPU_NEON }, keccak_permute_sha3, NULL,
      keccak_kt_leaves_sha3, 2 },
    /* neon's one state is generic's permutation (keccak_neon.c says why);
     * its leaves run two at a time. */
    { { "neon", CPU_NEON }, keccak_permute_generic, NULL,
      keccak_kt_leaves_neon, 2 },
#endif
    { { "generic", 0 }, keccak_permute_generic, NULL, NULL, 0 },
    { { NULL, 0 }, NULL, NULL, NULL, 0 },
};

void keccak_init(keccak_sponge *s, const keccak_impl *impl, size_t rate,
                 unsigned rounds)
{
    memset(s->a, 0, sizeof s->a);
    s->rate = rate;
    s->pos = 0;
    s->rounds = rounds;
    s->permute = impl->permute;
    s->absorb_blocks = impl->absorb_blocks;
}

static void xor_byte(keccak_sponge *s, size_t i, uint8_t b)
{
    s->a[i / 8] ^= (uint64_t)b << (8 * (i % 8));
}

void keccak_absorb(keccak_sponge *s, const uint8_t *in, size_t len)
{
    while (len) {
        /* Whole blocks from a block's start, where the row can keep the
         * state in registers across them. */
        if (s->absorb_blocks && s->pos == 0 && len >= s->rate) {
            size_t blocks = len / s->rate;
            s->absorb_blocks(s->a, in, blocks, s->rate, s->rounds);
            in += blocks * s->rate, len -= blocks * s->rate;
            continue;
        }
        /* Whole lanes where the position and the rest allow. */
        while (s->pos % 8 == 0 && len >= 8 && s->pos + 8 <= s->rate) {
            uint64_t w = 0;
            for (unsigned i = 0; i < 8; i++)
                w |= (uint64_t)in[i] << (8 * i);
            s->a[s->pos / 8] ^= w;
            s->pos += 8, in += 8, len -= 8;
        }
        if (len && s->pos < s->rate) {
            xor_byte(s, s->pos++, *in++);
            len--;
        }
        if (s->pos == s->rate) {
            s->permute(s->a, s->rounds);
            s->pos = 0;
        }
    }
}

void keccak_finish(keccak_sponge *s, uint8_t domain)
{
    xor_byte(s, s->pos, domain);
    xor_byte(s, s->rate - 1, 0x80);
    s->permute(s->a, s->rounds);
    s->pos = 0;
}

void keccak_squeeze(keccak_sponge *s, uint8_t *out, size_t len)
{
    while (len) {
        if (s->pos == s->rate) {
            s->permute(s->a, s->rounds);
            s->pos = 0;
        }
        /* Whole lanes where the position and the rest allow, as absorb
         * reads them, rather than a turn of the loop a byte. */
        while (s->pos % 8 == 0 && len >= 8 && s->pos + 8 <= s->rate) {
            uint64_t w = s->a[s->pos / 8];
            for (unsigned i = 0; i < 8; i++)
                out[i] = (uint8_t)(w >> (8 * i));
            s->pos += 8, out += 8, len -= 8;
        }
        if (len && s->pos < s->rate) {
            *out++ = (uint8_t)(s->a[s->pos / 8] >> (8 * (s->pos % 8)));
            s->pos++, len--;
        }
    }
}

void sha3_256(const keccak_impl *impl, uint8_t out[32], const uint8_t *in,
              size_t len)
{
    keccak_sponge s;
    keccak_init(&s, impl, KECCAK_RATE_256, KECCAK_ROUNDS);
    keccak_absorb(&s, in, len);
    keccak_finish(&s, 0x06);
    keccak_squeeze(&s, out, 32);
}

void shake256(const keccak_impl *impl, uint8_t *out, size_t out_len,
              const uint8_t *in, size_t len)
{
    keccak_sponge s;
    keccak_init(&s, impl, KECCAK_RATE_256, KECCAK_ROUNDS);
    keccak_absorb(&s, in, len);
    keccak_finish(&s, 0x1f);
    keccak_squeeze(&s, out, out_len);
}

void turboshake(const keccak_impl *impl, unsigned security, uint8_t domain,
                uint8_t *out, size_t out_len, const uint8_t *in, size_t len)
{
    keccak_sponge s;
    keccak_init(&s, impl, security == 128 ? KECCAK_RATE_128 : KECCAK_RATE_256,
                TURBOSHAKE_ROUNDS);
    keccak_absorb(&s, in, len);
    keccak_finish(&s, domain);
    keccak_squeeze(&s, out, out_len);
}

/* KangarooTwelve reads S = M || C || length_encode(|C|) in 8192-byte
 * chunks. S is never built: a chunk is fed from the three pieces it
 * spans, so a long message is read in place and no allocation is made. */
typedef struct kt_string {
    const uint8_t *piece[3];
    size_t len[3];
    size_t total;
} kt_string;

/* length_encode(x) (RFC 9861, Section 3.3): x big-endian without leading
 * zero bytes (none for 0), then the count of those bytes. */
static size_t length_encode(uint64_t x, uint8_t out[9])
{
    size_t n = 0;
    while (n < 8 && x >> (8 * n))
        n++;
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(x >> (8 * (n - 1 - i)));
    out[n] = (uint8_t)n;
    return n + 1;
}

static void kt_absorb(keccak_sponge *s, const kt_string *S, size_t from,
                      size_t n)
{
    for (size_t p = 0; p < 3 && n; p++) {
        if (from >= S->len[p]) {
            from -= S->len[p];
            continue;
        }
        size_t take = S->len[p] - from < n ? S->len[p] - from : n;
        keccak_absorb(s, S->piece[p] + from, take);
        n -= take;
        from = 0;
    }
}

void kangarootwelve(const keccak_impl *impl, unsigned security, uint8_t *out,
                    size_t out_len, const uint8_t *in, size_t len,
                    const uint8_t *custom, size_t custom_len)
{
    static const uint8_t final_node_mark[8] = { 0x03 };
    static const uint8_t final_node_end[2] = { 0xff, 0xff };
    size_t rate = security == 128 ? KECCAK_RATE_128 : KECCAK_RATE_256;
    size_t cv_len = security == 128 ? 32 : 64;
    uint8_t enc_c[9], enc_n[9];
    kt_string S = { { in, custom, enc_c },
                    { len, custom_len, length_encode(custom_len, enc_c) },
                    0 };
    S.total = S.len[0] + S.len[1] + S.len[2];
    keccak_sponge node;
    keccak_init(&node, impl, rate, TURBOSHAKE_ROUNDS);
    kt_absorb(&node, &S, 0, S.total < KT_LEAF_BYTES ? S.total : KT_LEAF_BYTES);
    if (S.total <= KT_LEAF_BYTES) {
        keccak_finish(&node, 0x07);
        keccak_squeeze(&node, out, out_len);
        return;
    }
    /* The final node: S_0, the mark, the leaves' chaining values as they
     * are computed (one batch at most is held), their count, FF FF. */
    keccak_absorb(&node, final_node_mark, sizeof final_node_mark);
    size_t leaves = 0, at = KT_LEAF_BYTES;
    /* Whole leaves of the message, side by side where the row can. A last
     * group of fewer than `lanes` (but two or more) runs as a whole batch
     * that ends on it and starts on leaves already hashed, S_0's bytes
     * included, whose chaining values are dropped: a batch costs the same
     * however many of its lanes count, and seven of 64 KiB's eight leaves
     * would otherwise go one by one. */
    while (impl->leaves && at + 2 * KT_LEAF_BYTES <= len) {
        size_t whole = (len - at) / KT_LEAF_BYTES,
               n = whole < impl->lanes ? whole : impl->lanes,
               back = impl->lanes - n;
        uint8_t cvs[KECCAK_MAX_LANES * 64];
        if (back * KT_LEAF_BYTES > at)
            break; /* the message does not reach back that far */
        impl->leaves(in + at - back * KT_LEAF_BYTES, security, cvs);
        keccak_absorb(&node, cvs + back * cv_len, n * cv_len);
        at += n * KT_LEAF_BYTES;
        leaves += n;
    }
    for (; at < S.total; at += KT_LEAF_BYTES) {
        size_t n = S.total - at < KT_LEAF_BYTES ? S.total - at : KT_LEAF_BYTES;
        keccak_sponge leaf;
        uint8_t cv[64];
        keccak_init(&leaf, impl, rate, TURBOSHAKE_ROUNDS);
        kt_absorb(&leaf, &S, at, n);
        keccak_finish(&leaf, 0x0b);
        keccak_squeeze(&leaf, cv, cv_len);
        keccak_absorb(&node, cv, cv_len);
        leaves++;
    }
    keccak_absorb(&node, enc_n, length_encode(leaves, enc_n));
    keccak_absorb(&node, final_node_end, sizeof final_node_end);
    keccak_finish(&node, 0x06);
    keccak_squeeze(&node, out, out_len);
}
