/* The Keccak registry kernels over keccak_impls: sha3-256, shake256,
 * turboshake128, turboshake256, kt128 and kt256. Each states its options
 * once, here; their known answers are the published vectors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernel.h"
#include "keccak.h"

enum keccak_kernel_kind {
    KECCAK_SHA3_256,
    KECCAK_SHAKE256,
    KECCAK_TURBOSHAKE128,
    KECCAK_TURBOSHAKE256,
    KECCAK_KT128,
    KECCAK_KT256,
};

#define SHA3_256_OUT 32
/* --out-len's default for every XOF here, SHAKE256's in Tor's use. */
#define KECCAK_DEFAULT_OUT 32
/* The most --out-len accepts: the option's own limit (kernel.h). */
#define KECCAK_MAX_OUT (1u << 20)
#define TURBOSHAKE_DEFAULT_DOMAIN 0x1f

static size_t keccak_out_len(const kernel *k, const kernel_args *a,
                             size_t len)
{
    (void)len;
    if (k->param == KECCAK_SHA3_256)
        return SHA3_256_OUT;
    return a->outlen.set ? (size_t)a->outlen.num : KECCAK_DEFAULT_OUT;
}

static int keccak_run(const kernel *k, const isa_variant *v,
                      const kernel_args *a, const uint8_t *in, size_t len,
                      uint8_t *out)
{
    const keccak_impl *impl = (const keccak_impl *)v;
    size_t n = keccak_out_len(k, a, len);
    uint8_t domain = a->domain.set ? (uint8_t)a->domain.num
                                   : TURBOSHAKE_DEFAULT_DOMAIN;
    switch ((enum keccak_kernel_kind)k->param) {
    case KECCAK_SHA3_256: sha3_256(impl, out, in, len); break;
    case KECCAK_SHAKE256: shake256(impl, out, n, in, len); break;
    case KECCAK_TURBOSHAKE128:
        turboshake(impl, 128, domain, out, n, in, len);
        break;
    case KECCAK_TURBOSHAKE256:
        turboshake(impl, 256, domain, out, n, in, len);
        break;
    case KECCAK_KT128:
        kangarootwelve(impl, 128, out, n, in, len, a->custom.bytes,
                       a->custom.len);
        break;
    case KECCAK_KT256:
        kangarootwelve(impl, 256, out, n, in, len, a->custom.bytes,
                       a->custom.len);
        break;
    }
    return 0;
}

/* Every XOF timed at its default output and domain, no customization. */
static void keccak_bench_args(const kernel *k, kernel_args *a)
{
    *a = (kernel_args){ 0 };
    if (k->param != KECCAK_SHA3_256)
        a->outlen = KERNEL_NUMBER(KECCAK_DEFAULT_OUT);
}

/* A published vector: the message is ptn(msg_len) (00 01 .. FA repeating,
 * RFC 9861 Section 5), or msg_len bytes of FF where ff is set; the
 * customization string ptn(custom_len). */
typedef struct keccak_vector {
    enum keccak_kernel_kind kind;
    size_t msg_len;
    int ff;
    unsigned domain; /* 0: the kernel takes none */
    size_t custom_len;
    const char *want;
    const char *source;
} keccak_vector;

#define RFC9861 "RFC 9861 section 5"
#define FIPS202 "FIPS 202 (tests/vectors/sha3_shake_vectors.json)"

static const keccak_vector keccak_vectors[] = {
    { KECCAK_SHA3_256, 0, 0, 0, 0,
      "A7FFC6F8BF1ED76651C14756A061D662F580FF4DE43B49FA82D80A4B80F8434A",
      FIPS202 },
    { KECCAK_SHA3_256, 137, 0, 0, 0,
      "CE9D7DC90913EE5D92745019479A5352C6D6279BEF18ED07DC0A83EE8084DACA",
      FIPS202 },
    { KECCAK_SHAKE256, 1, 0, 0, 0,
      "B8D01DF855F7075882C636F6DDEACF41E5DE0BBF30042EF0A86E36F4B8600D54"
      "6C516501A6A3C821678D3D9943FA9E74B9B99FCCD47AECC91DD1F4946B8355B3",
      FIPS202 },
    { KECCAK_TURBOSHAKE128, 17, 0, 0x07, 0,
      "ACBD4AA57507043BCEE55AD3F48504D815E707FE82EE3DAD6D5852C8920B905E",
      RFC9861 },
    { KECCAK_TURBOSHAKE128, 3, 1, 0x06, 0,
      "3D03988BB59E681851A192F429AE03988E8F444BC06036A3F1A7D2CCD758D174",
      RFC9861 },
    { KECCAK_TURBOSHAKE256, 17, 0, 0x07, 0,
      "66D378DFE4E902AC4EB78F7C2E5A14F02BC1C849E621BAE665796FB3346E6C79"
      "75705BB93C00F3CA8F83BCA479F06977AB3A60F39796B136538AAAE8BCAC8544",
      RFC9861 },
    { KECCAK_KT128, 17, 0, 0, 0,
      "6BF75FA2239198DB4772E36478F8E19B0F371205F6A9A93A273F51DF37122888",
      RFC9861 },
    { KECCAK_KT128, 1, 1, 0, 41,
      "D848C5068CED736F4462159B9867FD4C20B808ACC3D5BC48E0B06BA0A3762EC4",
      RFC9861 },
    /* One leaf besides the first: the tree's every step. */
    { KECCAK_KT128, 8192, 0, 0, 0,
      "48F256F6772F9EDFB6A8B661EC92DC93B95EBD05A08A17B39AE3490870C926C3",
      RFC9861 },
    /* ptn(17^4): ten leaves after the first, enough for every row's
     * multi-state form (up to eight leaves at once) to run before timing. */
    { KECCAK_KT128, 83521, 0, 0, 0,
      "8701045E22205345FF4DDA05555CBB5C3AF1A771C2B89BAEF37DB43D9998B9FE",
      RFC9861 },
    { KECCAK_KT256, 17, 0, 0, 0,
      "1BA3C02B1FC514474F06C8979978A9056C8483F4A1B63D0DCCEFE3A28A2F323E"
      "1CDCCA40EBF006AC76EF0397152346837B1277D3E7FAA9C9653B19075098527B",
      RFC9861 },
    { KECCAK_KT256, 0, 0, 0, 1,
      "9280F5CC39B54A5A594EC63DE0BB99371E4609D44BF845C2F5B8C316D72B1598"
      "11F748F23E3FABBE5C3226EC96C62186DF2D33E9DF74C5069CEECBB4DD10EFF6",
      RFC9861 },
};

#define KECCAK_KAT_MAX_MSG 83521

static void ptn(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(i % 251);
}

static int keccak_known_answer(const kernel *k, const isa_variant *v,
                               char *err, size_t errlen)
{
    uint8_t custom[64], *msg = malloc(KECCAK_KAT_MAX_MSG);
    if (!msg) {
        snprintf(err, errlen, "%s: out of memory for its known answers",
                 k->name);
        return -1;
    }
    for (size_t i = 0; i < sizeof keccak_vectors / sizeof keccak_vectors[0];
         i++) {
        const keccak_vector *t = &keccak_vectors[i];
        uint8_t want[64];
        if (t->kind != (enum keccak_kernel_kind)k->param)
            continue;
        long want_len = kernel_hex_decode(t->want, want, sizeof want);
        kernel_args a = { 0 };
        if (t->ff)
            memset(msg, 0xff, t->msg_len);
        else
            ptn(msg, t->msg_len);
        ptn(custom, t->custom_len);
        if (k->param != KECCAK_SHA3_256)
            a.outlen = KERNEL_NUMBER((uint64_t)want_len);
        if (t->domain)
            a.domain = KERNEL_NUMBER(t->domain);
        if (t->custom_len)
            a.custom = KERNEL_BYTES(custom, t->custom_len);
        if (kernel_check_known_answer(k, v, &a, msg, t->msg_len, want,
                                      (size_t)want_len, t->source, err,
                                      errlen)) {
            free(msg);
            return -1;
        }
    }
    free(msg);
    return 0;
}

#define KECCAK_OUT_ARG { KARG_TAKES_RANGE(OUTLEN, 1, KECCAK_MAX_OUT) }

/* A row with a one-state permutation of its own, or generic (the row
 * with no leaves form): the one-state kernels' rows. avx2 and neon have
 * only KangarooTwelve's multi-state leaves, and their one state is
 * generic's permutation. */
static int keccak_one_state_row(const isa_variant *row)
{
    const keccak_impl *impl = (const keccak_impl *)row;
    return impl->permute != keccak_permute_generic || impl->leaves == NULL;
}

/* What every Keccak kernel's descriptor holds besides its options. */
#define KECCAK_KERNEL(kname, kind)                                           \
    .name = kname, .family = "keccak", .table = &keccak_impls[0].v,          \
    .row_size = sizeof keccak_impls[0], .param = kind,                       \
    .out_len = keccak_out_len, .run = keccak_run,                            \
    .bench_args = keccak_bench_args, .known_answer = keccak_known_answer

const kernel kernel_sha3_256 = {
    KECCAK_KERNEL("sha3-256", KECCAK_SHA3_256),
    .lists_row = keccak_one_state_row,
};
const kernel kernel_shake256 = {
    KECCAK_KERNEL("shake256", KECCAK_SHAKE256),
    .lists_row = keccak_one_state_row,
    .args = { KECCAK_OUT_ARG },
};
const kernel kernel_turboshake128 = {
    KECCAK_KERNEL("turboshake128", KECCAK_TURBOSHAKE128),
    .lists_row = keccak_one_state_row,
    .args = { KECCAK_OUT_ARG, { KARG_TAKES_RANGE(DOMAIN, 0x01, 0x7f) } },
};
const kernel kernel_turboshake256 = {
    KECCAK_KERNEL("turboshake256", KECCAK_TURBOSHAKE256),
    .lists_row = keccak_one_state_row,
    .args = { KECCAK_OUT_ARG, { KARG_TAKES_RANGE(DOMAIN, 0x01, 0x7f) } },
};
const kernel kernel_kt128 = {
    KECCAK_KERNEL("kt128", KECCAK_KT128),
    .args = { KECCAK_OUT_ARG, { KARG_TAKES_ANY(CUSTOM) } },
};
const kernel kernel_kt256 = {
    KECCAK_KERNEL("kt256", KECCAK_KT256),
    .args = { KECCAK_OUT_ARG, { KARG_TAKES_ANY(CUSTOM) } },
};
