#include <string.h>

#include "memcpy.h"

void memcpy_copy_generic(uint8_t *dst, const uint8_t *src, size_t len)
{
    memcpy(dst, src, len);
}
