/* The CGO implementation table; the layers (ET, PRF, UIV+ and its update)
 * composed from a row's AES and POLYVAL functions, which the generic row
 * times and the tests check every row's own UIV+ against; and the six
 * operations of a hop, the same for every row. */
#include "cgo.h"

#include <string.h>

#include "../kernel.h"

#define CGO_VAES_AVX512                                                       \
    (CPU_VAES | CPU_VPCLMULQDQ | CPU_AVX512 | CPU_AESNI | CPU_PCLMUL | CPU_SSE41)
#define CGO_VAES_AVX2                                                         \
    (CPU_VAES | CPU_VPCLMULQDQ | CPU_AVX2 | CPU_AESNI | CPU_PCLMUL | CPU_SSE41)
#define CGO_ROW(name, required, aes, polyval, isa)                            \
    { { name, required }, aes, polyval, cgo_uiv_encrypt_##isa,                \
      cgo_uiv_decrypt_##isa, cgo_uiv_encrypt_x4_##isa }

/* Each row's features are those of the AES and POLYVAL rows it pairs. */
const cgo_impl cgo_impls[] = {
#if defined(__x86_64__)
    CGO_ROW("vaes-avx512", CGO_VAES_AVX512, "vaes-avx512", "vpclmul-avx512",
            vaes_avx512),
    CGO_ROW("vaes-avx2", CGO_VAES_AVX2, "vaes-avx2", "vpclmul-avx2",
            vaes_avx2),
    CGO_ROW("aesni", CPU_AESNI | CPU_PCLMUL | CPU_SSE41, "aesni", "pclmul",
            aesni),
    /* Without AES instructions but constant-time: the vector-permute AES
     * with the portable POLYVAL. */
    CGO_ROW("ssse3", CPU_SSSE3, "ssse3", "generic", composed),
#elif defined(__aarch64__)
    CGO_ROW("ce", CPU_ARM_AES | CPU_ARM_PMULL, "ce", "ce", ce),
    /* Without AES instructions but constant-time: the TBL AES with the
     * portable POLYVAL. */
    CGO_ROW("neon", CPU_NEON, "neon", "generic", composed),
#endif
    CGO_ROW("generic", 0, "generic", "generic", composed),
    { { NULL, 0 }, NULL, NULL, NULL, NULL, NULL },
};

void cgo_pair(cgo_impl *row, const char *aes_isa, const char *polyval_isa)
{
    row->aes_isa = aes_isa;
    row->polyval_isa = polyval_isa;
    row->encrypt = cgo_uiv_encrypt_composed;
    row->decrypt = cgo_uiv_decrypt_composed;
    row->encrypt_x4 = cgo_uiv_encrypt_x4_composed;
    for (const cgo_impl *c = cgo_impls; c->v.isa; c++)
        if (!strcmp(c->aes_isa, aes_isa) &&
            !strcmp(c->polyval_isa, polyval_isa)) {
            row->encrypt = c->encrypt;
            row->decrypt = c->decrypt;
            row->encrypt_x4 = c->encrypt_x4;
        }
}

const char *const cgo_stage_names[CGO_STAGES] = {
    "polyval of the tweak (H, command, X_R)",
    "aes block of ET",
    "polyval of the PRF input",
    "ctr: the PRF stream over X_R",
    "rekey: UIV+ update",
    "glue: copies, T', the recognized check",
};

/* Layers */

static void xor_block(uint8_t *out, const uint8_t *a, const uint8_t *b)
{
    for (int i = 0; i < 16; i++)
        out[i] = a[i] ^ b[i];
}

/* data ^= ks over len bytes, eight at a time where it can. */
static void xor_into(uint8_t *data, const uint8_t *ks, size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t d, k;
        memcpy(&d, data + i, 8);
        memcpy(&k, ks + i, 8);
        d ^= k;
        memcpy(data + i, &d, 8);
    }
    for (; i < len; i++)
        data[i] ^= ks[i];
}

/* KB, KU, K, B from keys, by u's rows; on every cell, as the keys
 * change with each. K only encrypts (the PRF's counter blocks), so it
 * gets the encryption schedule alone. */
static void set_keys(cgo_uiv *u, const uint8_t keys[CGO_UIV_KEY_BYTES])
{
    aes_setup(u->aes, &u->kb, keys, CGO_AES_KEY_BYTES);
    u->pv->init(&u->ku, keys + 16);
    aes_setup_encrypt(u->aes, &u->k, keys + 32, CGO_AES_KEY_BYTES);
    memcpy(u->b, keys + 48, 16);
}

void cgo_uiv_setup(cgo_uiv *u, const cgo_impl *impl,
                   const uint8_t keys[CGO_UIV_KEY_BYTES])
{
    u->aes = (const aes_impl *)isa_table_find(&aes_impls[0].v,
                                              sizeof aes_impls[0],
                                              impl->aes_isa);
    u->pv = polyval_find(impl->polyval_isa);
    set_keys(u, keys);
}

void cgo_et_mask(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                 const uint8_t *x_r, uint8_t mask[16])
{
    uint8_t tweak[16 * CGO_TWEAK_BLOCKS] = { 0 };
    memcpy(tweak, h, 16);
    tweak[16] = cmd;
    memcpy(tweak + 17, x_r, CGO_X_R_BYTES);
    memset(mask, 0, 16);
    u->pv->update(&u->ku, mask, tweak, CGO_TWEAK_BLOCKS);
}

static void et_block(const cgo_uiv *u, const uint8_t mask[16],
                     uint8_t block[16], int decrypt)
{
    xor_block(block, block, mask);
    (decrypt ? u->aes->decrypt : u->aes->encrypt)(&u->kb, block, block, 1);
    xor_block(block, block, mask);
}

void cgo_et_encrypt(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                    const uint8_t *x_r, uint8_t block[16])
{
    uint8_t mask[16];
    cgo_et_mask(u, h, cmd, x_r, mask);
    et_block(u, mask, block, 0);
}

void cgo_et_decrypt(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                    const uint8_t *x_r, uint8_t block[16])
{
    uint8_t mask[16];
    cgo_et_mask(u, h, cmd, x_r, mask);
    et_block(u, mask, block, 1);
}

/* The PRF's counter block for input: POLYVAL(B, input), low six bits of
 * its last byte cleared. */
static void prf_counter(const cgo_uiv *u, const uint8_t input[16],
                        uint8_t ctr[16])
{
    u->pv->mul(ctr, input, u->b);
    ctr[15] &= 0xc0;
}

/* data ^= len bytes of the stream from counter block ctr + offset. The
 * counter blocks differ from ctr in the last byte only, whose low six bits
 * are clear: or-ing in the block number is the increment, and nothing
 * branches on the (secret) counter. ECB over them is CTR. */
static void prf_stream_xor(const cgo_uiv *u, const uint8_t ctr[16],
                           unsigned offset, uint8_t *data, size_t len)
{
    uint8_t blocks[64][16];
    size_t n = (len + 15) / 16;
    for (size_t j = 0; j < n; j++) {
        memcpy(blocks[j], ctr, 16);
        blocks[j][15] |= (uint8_t)(offset + j);
    }
    u->aes->encrypt(&u->k, blocks[0], blocks[0], n);
    xor_into(data, blocks[0], len);
}

void cgo_prf_xor(const cgo_uiv *u, const uint8_t input[16], unsigned offset,
                 uint8_t *data, size_t len)
{
    uint8_t ctr[16];
    prf_counter(u, input, ctr);
    prf_stream_xor(u, ctr, offset, data, len);
}

void cgo_uiv_update(cgo_uiv *u, uint8_t nonce[16])
{
    uint8_t fresh[CGO_KEY_BYTES] = { 0 };
    cgo_prf_xor(u, nonce, CGO_PRF_T1_OFFSET, fresh, sizeof fresh);
    set_keys(u, fresh);
    memcpy(nonce, fresh + CGO_UIV_KEY_BYTES, 16);
    /* Key material: not left on the stack. */
    explicit_bzero(fresh, sizeof fresh);
}

/* UIV+ composed: the generic row's, and the reference of the others. */

/* Encryption is ET then the PRF; decryption the PRF, then ET with the
 * tweak of the X_R it leaves. */
static void uiv_composed(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                         uint8_t *out, const uint8_t *in, uint64_t *ticks,
                         int decrypt)
{
    uint64_t last = cgo_stamp_start(ticks);
    uint8_t mask[16], ctr[16];
    if (out != in)
        memmove(out, in, CGO_PAYLOAD_BYTES);
    cgo_stamp(ticks, CGO_STAGE_GLUE, &last);
    for (int step = 0; step < 2; step++) {
        if (step == decrypt) {
            cgo_et_mask(u, h, cmd, out + CGO_TAG_BYTES, mask);
            cgo_stamp(ticks, CGO_STAGE_TWEAK, &last);
            et_block(u, mask, out, decrypt);
            cgo_stamp(ticks, CGO_STAGE_BLOCK, &last);
        } else {
            prf_counter(u, out, ctr);
            cgo_stamp(ticks, CGO_STAGE_PRF, &last);
            prf_stream_xor(u, ctr, 0, out + CGO_TAG_BYTES, CGO_X_R_BYTES);
            cgo_stamp(ticks, CGO_STAGE_CTR, &last);
        }
    }
}

void cgo_uiv_encrypt_composed(const cgo_uiv *u, const uint8_t h[16],
                              uint8_t cmd, uint8_t *out, const uint8_t *in,
                              uint64_t *ticks)
{
    uiv_composed(u, h, cmd, out, in, ticks, 0);
}

void cgo_uiv_decrypt_composed(const cgo_uiv *u, const uint8_t h[16],
                              uint8_t cmd, uint8_t *out, const uint8_t *in,
                              uint64_t *ticks)
{
    uiv_composed(u, h, cmd, out, in, ticks, 1);
}

void cgo_uiv_encrypt_x4_composed(const cgo_uiv *const u[CGO_X4],
                                 const uint8_t *const h[CGO_X4],
                                 const uint8_t cmd[CGO_X4],
                                 uint8_t *const out[CGO_X4],
                                 const uint8_t *const in[CGO_X4])
{
    for (int i = 0; i < CGO_X4; i++)
        cgo_uiv_encrypt_composed(u[i], h[i], cmd[i], out[i], in[i], NULL);
}

/* A hop's operations */

void cgo_hop_setup(cgo_hop *hop, const cgo_impl *impl,
                   const uint8_t key[CGO_KEY_BYTES], const uint8_t *tprime)
{
    hop->impl = impl;
    cgo_uiv_setup(&hop->uiv, impl, key);
    memcpy(hop->nonce, key + CGO_UIV_KEY_BYTES, 16);
    if (tprime)
        memcpy(hop->tprime, tprime, 16);
    else
        memset(hop->tprime, 0, 16);
}

static void rekey(cgo_hop *hop, uint64_t *ticks)
{
    uint64_t last = cgo_stamp_start(ticks);
    cgo_uiv_update(&hop->uiv, hop->nonce);
    cgo_stamp(ticks, CGO_STAGE_REKEY, &last);
}

/* out = in with the nonce in its first 16 bytes. */
static void with_nonce(const cgo_hop *hop, uint8_t *out, const uint8_t *in,
                       uint64_t *ticks)
{
    uint64_t last = cgo_stamp_start(ticks);
    if (out != in)
        memcpy(out + CGO_TAG_BYTES, in + CGO_TAG_BYTES, CGO_X_R_BYTES);
    memcpy(out, hop->nonce, CGO_TAG_BYTES);
    cgo_stamp(ticks, CGO_STAGE_GLUE, &last);
}

int cgo_relay_forward(cgo_hop *hop, uint8_t cmd, uint8_t *out,
                      const uint8_t *in, uint64_t *ticks)
{
    hop->impl->encrypt(&hop->uiv, hop->tprime, cmd, out, in, ticks);
    uint64_t last = cgo_stamp_start(ticks);
    memcpy(hop->tprime, out, CGO_TAG_BYTES);
    int recognized = kernel_public_equal(out, hop->nonce, CGO_TAG_BYTES);
    cgo_stamp(ticks, CGO_STAGE_GLUE, &last);
    if (recognized)
        rekey(hop, ticks);
    return recognized;
}

int cgo_relay_backward(cgo_hop *hop, uint8_t cmd, uint8_t *out,
                        const uint8_t *in, uint64_t *ticks)
{
    hop->impl->encrypt(&hop->uiv, hop->tprime, cmd, out, in, ticks);
    memcpy(hop->tprime, out, CGO_TAG_BYTES);
    return 0;
}

int cgo_relay_originate(cgo_hop *hop, uint8_t cmd, uint8_t *out,
                         const uint8_t *in, uint64_t *ticks)
{
    with_nonce(hop, out, in, ticks);
    hop->impl->encrypt(&hop->uiv, hop->tprime, cmd, out, out, ticks);
    uint64_t last = cgo_stamp_start(ticks);
    memcpy(hop->tprime, out, CGO_TAG_BYTES);
    memcpy(hop->nonce, out, CGO_TAG_BYTES);
    cgo_stamp(ticks, CGO_STAGE_GLUE, &last);
    rekey(hop, ticks);
    return 0;
}

int cgo_client_forward(cgo_hop *hop, uint8_t cmd, uint8_t *out,
                        const uint8_t *in, uint64_t *ticks)
{
    uint8_t t[CGO_TAG_BYTES];
    memcpy(t, in, CGO_TAG_BYTES);
    hop->impl->decrypt(&hop->uiv, hop->tprime, cmd, out, in, ticks);
    memcpy(hop->tprime, t, CGO_TAG_BYTES);
    return 0;
}

int cgo_client_originate(cgo_hop *hop, uint8_t cmd, uint8_t *out,
                          const uint8_t *in, uint64_t *ticks)
{
    with_nonce(hop, out, in, ticks);
    cgo_client_forward(hop, cmd, out, out, ticks);
    rekey(hop, ticks);
    return 0;
}

int cgo_client_backward(cgo_hop *hop, uint8_t cmd, uint8_t *out,
                        const uint8_t *in, uint64_t *ticks)
{
    uint8_t t[CGO_TAG_BYTES];
    memcpy(t, in, CGO_TAG_BYTES);
    hop->impl->decrypt(&hop->uiv, hop->tprime, cmd, out, in, ticks);
    uint64_t last = cgo_stamp_start(ticks);
    memcpy(hop->tprime, t, CGO_TAG_BYTES);
    int recognized = kernel_public_equal(out, hop->nonce, CGO_TAG_BYTES);
    cgo_stamp(ticks, CGO_STAGE_GLUE, &last);
    if (recognized) {
        memcpy(hop->nonce, t, CGO_TAG_BYTES);
        rekey(hop, ticks);
    }
    return recognized;
}

void cgo_relay_forward_x4(cgo_hop *const hop[CGO_X4], const uint8_t cmd[CGO_X4],
                          uint8_t *const out[CGO_X4],
                          const uint8_t *const in[CGO_X4])
{
    const cgo_uiv *u[CGO_X4];
    const uint8_t *h[CGO_X4];
    for (int i = 0; i < CGO_X4; i++) {
        u[i] = &hop[i]->uiv;
        h[i] = hop[i]->tprime;
    }
    hop[0]->impl->encrypt_x4(u, h, cmd, out, in);
    for (int i = 0; i < CGO_X4; i++) {
        memcpy(hop[i]->tprime, out[i], CGO_TAG_BYTES);
        if (kernel_public_equal(out[i], hop[i]->nonce, CGO_TAG_BYTES))
            rekey(hop[i], NULL);
    }
}

/* Four regions: both AES keys' schedules, KU's powers with B (adjacent),
 * the nonce. */
void cgo_hop_add_secret(kernel_args *a, const cgo_hop *hop)
{
    const cgo_uiv *u = &hop->uiv;
    aes_add_secret_key(a, &u->kb);
    aes_add_secret_key(a, &u->k);
    kernel_add_secret(a, &u->ku,
                      (size_t)(u->b + sizeof u->b - (const uint8_t *)&u->ku));
    kernel_add_secret(a, hop->nonce, sizeof hop->nonce);
}
