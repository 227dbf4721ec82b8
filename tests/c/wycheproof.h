/* Wycheproof's JSON test files (tests/vectors/wycheproof_*.json): every
 * test of every group, decoded, handed to a check. One walker for the AES
 * modes, the ChaCha20-Poly1305 AEADs and AEGIS. */
#ifndef CYCLEBENCH_TEST_WYCHEPROOF_H
#define CYCLEBENCH_TEST_WYCHEPROOF_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

typedef struct wycheproof_vector {
    int id; /* tcId */
    /* result: "valid", "invalid" or "acceptable" (neither flag) */
    int valid, invalid;
    /* a field the test lacks decodes as empty */
    uint8_t *key, *iv, *aad, *msg, *ct, *tag;
    size_t key_len, iv_len, aad_len, msg_len, ct_len, tag_len;
} wycheproof_vector;

typedef void wycheproof_check_fn(void *ctx, const wycheproof_vector *v);

/* Runs check(ctx, v) on every test of doc's testGroups and returns how
 * many there were: 0 when doc is NULL or has no testGroups array. */
size_t wycheproof_walk(const json_t *doc, wycheproof_check_fn *check,
                       void *ctx);

#endif
