/* Portable Poly1305: the scalar core alone. */
#include "poly1305.h"
#include "poly1305_scalar.h"

void poly1305_blocks_generic(poly1305_state *st, const uint8_t *in,
                             size_t len, uint64_t padbit)
{
    poly1305_scalar_blocks(st, in, len, padbit);
}
