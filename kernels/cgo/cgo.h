/* Tor's Counter Galois Onion (CGO) relay crypto, proposal 359, with AES-128
 * as C tor runs it (src/core/crypto/relay_crypto_cgo.c), per ISA.
 *
 * Layers, bottom up, on a 509-byte relay payload X_L(16) | X_R(493):
 *   ET, the tweakable block cipher: with keys KB (AES) and KU (POLYVAL) and
 *     tweak (H, command, X_R), mask = POLYVAL(KU, H | command | X_R,
 *     zero-padded: 32 blocks); E(X_L) = AES(KB, X_L ^ mask) ^ mask.
 *   PRF: with keys K (AES) and B (POLYVAL), the AES-128-CTR keystream of K
 *     from the counter block POLYVAL(B, input) with its low six bits
 *     cleared, at block offset 0 (t = 0, 493 bytes, xored into X_R) or 31
 *     (t = 1, the 80 bytes of new keys and nonce).
 *   UIV+: encryption is X_L = ET(X_L) with tweak (H, command, X_R), then
 *     X_R ^= PRF_t0(X_L); decryption the reverse. Relays encrypt, clients
 *     decrypt (UIV+ is non-malleable for encryption only).
 *   A hop's state per direction: UIV+'s keys, a nonce and T', the tag of
 *     the previous cell (the tweak's H). The ops (cgo_relay_forward ...)
 *     chain T' from cell to cell, and rekey (UIV+ update: keys and nonce
 *     from PRF_t1(nonce)) whenever a cell is originated or recognized.
 *
 * A CGO row pairs an AES row (kernels/aes) and a POLYVAL row
 * (kernels/polyval) of one level: their key setups serve every row, and
 * the generic and ssse3 rows compose the layers from their functions. The
 * x86 rows run UIV+ in one function of their own (cgo_x86.h), as the
 * aarch64 row ce does (cgo_ce.c): the tweak's POLYVAL, the AES block, the PRF's POLYVAL and its counter-mode stream
 * fused, so that nothing goes through memory between them.
 *
 * Constant-time: no branch or table index depends on keys or data in any
 * row whose AES and POLYVAL are constant-time (all but generic, whose AES
 * is table-driven); the PRF's counter block is secret, and never carries
 * out of its last byte (at most 36 blocks from a multiple of 64), so it is
 * incremented in that byte without a branch. Whether a cell is recognized
 * is public (the relay acts on it) and is declassified for `make ctgrind`
 * (kernel_declassify) after a constant-time comparison. */
#ifndef CYCLEBENCH_CGO_H
#define CYCLEBENCH_CGO_H

#include <stddef.h>
#include <stdint.h>

#include "../../harness/timer.h"
#include "../aes/aes.h"
#include "../polyval/polyval.h"

#define CGO_PAYLOAD_BYTES 509
#define CGO_TAG_BYTES 16
#define CGO_X_R_BYTES (CGO_PAYLOAD_BYTES - CGO_TAG_BYTES)
#define CGO_AES_KEY_BYTES 16
/* KB, KU, K, B: UIV+'s keys. */
#define CGO_UIV_KEY_BYTES 64
/* The UIV+ keys, then the nonce: Tor's CGO key material for AES-128. */
#define CGO_KEY_BYTES (CGO_UIV_KEY_BYTES + CGO_TAG_BYTES)
/* H, the command byte and X_R, zero-padded. */
#define CGO_TWEAK_BLOCKS 32
/* The PRF's stream blocks for t = 0 (X_R's 493 bytes), and where t = 1
 * starts. */
#define CGO_PRF_T0_BLOCKS 31
#define CGO_PRF_T1_OFFSET 31
/* The command byte of a RELAY cell, --cmd's default. */
#define CGO_RELAY_COMMAND 2

/* UIV+'s keys as one row set them up, and the AES and POLYVAL rows that
 * did (the only ones that may use them). */
typedef struct cgo_uiv {
    aes_key kb;     /* ET's AES key: both directions' schedules */
    aes_key k;      /* the PRF's AES key: the encryption schedule alone */
    polyval_key ku; /* ET's POLYVAL key, with its powers */
    /* The PRF's POLYVAL key: the PRF hashes one block, dot(input, B),
     * which needs no powers. */
    _Alignas(16) uint8_t b[16];
    const aes_impl *aes;
    const polyval_impl *pv;
} cgo_uiv;

/* Where one cell's cycles go, in timer ticks (run_staged). */
enum cgo_stage {
    CGO_STAGE_TWEAK,  /* POLYVAL(KU, H | command | X_R): ET's mask */
    CGO_STAGE_BLOCK,  /* the AES block of ET, and the mask around it */
    CGO_STAGE_PRF,    /* POLYVAL(B, X_L): the PRF's counter block */
    CGO_STAGE_CTR,    /* the PRF's AES-CTR stream xored into X_R */
    CGO_STAGE_REKEY,  /* UIV+ update: PRF_t1, two AES keys, KU's powers */
    CGO_STAGE_GLUE,   /* copies, T', the recognized check */
    CGO_STAGES
};
extern const char *const cgo_stage_names[CGO_STAGES];

/* Stage stamps (ticks NULL: none), in the timer's ticks. timer_start
 * fences first, so that a stamp comes after the stage before it has
 * finished rather than when its last instruction was issued. */
static inline __attribute__((always_inline)) uint64_t
cgo_stamp_start(const uint64_t *ticks)
{
    if (!ticks)
        return 0;
    return timer_start();
}

static inline __attribute__((always_inline)) void
cgo_stamp(uint64_t *ticks, enum cgo_stage stage, uint64_t *last)
{
    uint64_t now = cgo_stamp_start(ticks);
    if (ticks) {
        ticks[stage] += now - *last;
        *last = now;
    }
}

typedef struct cgo_impl cgo_impl;

/* UIV+ encryption or decryption of one payload with tweak (h, cmd); out
 * may equal in. ticks: NULL, or each stage's timer ticks added in (the
 * stages then wait for each other: lfence before each stamp). */
typedef void cgo_uiv_fn(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                        uint8_t *out, const uint8_t *in, uint64_t *ticks);
/* Four payloads of four independent circuits: u[i] with tweak (h[i],
 * cmd[i]) from in[i] to out[i], encrypting. */
#define CGO_X4 4
typedef void cgo_uiv_x4_fn(const cgo_uiv *const u[CGO_X4],
                           const uint8_t *const h[CGO_X4],
                           const uint8_t cmd[CGO_X4],
                           uint8_t *const out[CGO_X4],
                           const uint8_t *const in[CGO_X4]);

struct cgo_impl {
    isa_variant v;
    const char *aes_isa;     /* row of aes_impls */
    const char *polyval_isa; /* row of polyval_impls */
    cgo_uiv_fn *encrypt, *decrypt;
    cgo_uiv_x4_fn *encrypt_x4;
};

/* Best first, generic last, ended by a row with v.isa == NULL. */
extern const cgo_impl cgo_impls[];

/* row's pairing: AES row aes_isa with POLYVAL row polyval_isa, and the
 * functions of the table's row that pairs the same two, else the composed
 * ones (a row measured fastest part by part, `--isa=auto`). row's v is the
 * caller's. */
void cgo_pair(cgo_impl *row, const char *aes_isa, const char *polyval_isa);

/* The composed UIV+, for the rows without functions of their own. */
cgo_uiv_fn cgo_uiv_encrypt_composed, cgo_uiv_decrypt_composed;
cgo_uiv_x4_fn cgo_uiv_encrypt_x4_composed;

#define CGO_DECLARE_ISA(isa)                                                  \
    cgo_uiv_fn cgo_uiv_encrypt_##isa, cgo_uiv_decrypt_##isa;                  \
    cgo_uiv_x4_fn cgo_uiv_encrypt_x4_##isa

#if defined(__x86_64__)
CGO_DECLARE_ISA(aesni);
CGO_DECLARE_ISA(vaes_avx2);
CGO_DECLARE_ISA(vaes_avx512);
#elif defined(__aarch64__)
CGO_DECLARE_ISA(ce);
#endif

/* The layers, composed from u's rows (for tests, and the composed UIV+). */
void cgo_uiv_setup(cgo_uiv *u, const cgo_impl *impl,
                   const uint8_t keys[CGO_UIV_KEY_BYTES]);
/* The ET mask of tweak (h, cmd, x_r), x_r CGO_X_R_BYTES long. */
void cgo_et_mask(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                 const uint8_t *x_r, uint8_t mask[16]);
void cgo_et_encrypt(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                    const uint8_t *x_r, uint8_t block[16]);
void cgo_et_decrypt(const cgo_uiv *u, const uint8_t h[16], uint8_t cmd,
                    const uint8_t *x_r, uint8_t block[16]);
/* data ^= len bytes of the PRF's stream for input, from block `offset`
 * (0 for t = 0, CGO_PRF_T1_OFFSET for t = 1); offset plus the blocks of
 * len at most 64. */
void cgo_prf_xor(const cgo_uiv *u, const uint8_t input[16], unsigned offset,
                 uint8_t *data, size_t len);
/* UIV+ update: new keys and nonce from PRF_t1(nonce). */
void cgo_uiv_update(cgo_uiv *u, uint8_t nonce[16]);

/* One hop's CGO state in one direction. */
typedef struct cgo_hop {
    cgo_uiv uiv;
    uint8_t nonce[16];
    uint8_t tprime[16]; /* T': the previous cell's tag */
    const cgo_impl *impl;
} cgo_hop;

/* key: CGO_KEY_BYTES of Tor's key material (KB, KU, K, B, nonce); tprime
 * NULL for zeros. */
void cgo_hop_setup(cgo_hop *hop, const cgo_impl *impl,
                   const uint8_t key[CGO_KEY_BYTES], const uint8_t *tprime);

/* The six operations on one payload of CGO_PAYLOAD_BYTES, with the cell's
 * command byte, as C tor's cgo_crypt_*; out may equal in. The originate
 * operations put the nonce in the payload's first 16 bytes (their input
 * there is ignored). Each returns 1 when the cell is recognized (forward
 * at a relay, backward at a client: they then rekey), else 0. ticks as for
 * cgo_uiv_fn. */
typedef int cgo_cell_fn(cgo_hop *hop, uint8_t cmd, uint8_t *out,
                        const uint8_t *in, uint64_t *ticks);
cgo_cell_fn cgo_relay_forward, cgo_relay_backward, cgo_relay_originate,
    cgo_client_forward, cgo_client_backward, cgo_client_originate;

/* cgo_relay_forward on four hops of four circuits at once. */
void cgo_relay_forward_x4(cgo_hop *const hop[CGO_X4], const uint8_t cmd[CGO_X4],
                          uint8_t *const out[CGO_X4],
                          const uint8_t *const in[CGO_X4]);

/* For prepare hooks: note hop's key-derived state for `make ctgrind`. */
void cgo_hop_add_secret(kernel_args *a, const cgo_hop *hop);

#endif
