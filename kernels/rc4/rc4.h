/* RC4, the Firebird 10 MB comparison's RC4 line, for comparison only.
 *
 * RC4 is broken: its keystream is biased (Fluhrer, Mantin and Shamir 2001;
 * AlFardan et al. 2013) and RFC 7465 prohibits it in TLS. It is here so that
 * old measurements that used it have both sides; use nothing here to
 * protect data. */
#ifndef CYCLEBENCH_RC4_H
#define CYCLEBENCH_RC4_H

#include <stddef.h>
#include <stdint.h>

#include "../cpu.h"

#define RC4_MAX_KEY_BYTES 256

/* out = in ^ the keystream of key (1..256 bytes), from its first byte (no
 * bytes dropped). out may equal in. */
typedef void rc4_xor_fn(uint8_t *out, const uint8_t *in, size_t len,
                        const uint8_t *key, size_t key_len);

typedef struct rc4_impl {
    isa_variant v;
    rc4_xor_fn *xor_stream;
} rc4_impl;

/* Generic only: RC4's byte-serial state permutation does not vectorise. */
extern const rc4_impl rc4_impls[];

rc4_xor_fn rc4_xor_generic;

#endif
