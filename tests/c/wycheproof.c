#include "wycheproof.h"

#include <stdlib.h>
#include <string.h>

#include "vectors.h"

static uint8_t *decode_field(const json_t *t, const char *name, size_t *len)
{
    const char *hex = vector_string(t, name);
    *len = 0;
    return hex ? hex_decode(hex, len) : calloc(1, 1);
}

static wycheproof_vector decode(const json_t *t)
{
    wycheproof_vector v;
    const char *result = vector_string(t, "result");
    const json_t *id = json_object_get(t, "tcId");
    v.id = json_is_integer(id) ? (int)json_integer_value(id) : -1;
    v.valid = result && strcmp(result, "valid") == 0;
    v.invalid = result && strcmp(result, "invalid") == 0;
    v.key = decode_field(t, "key", &v.key_len);
    v.iv = decode_field(t, "iv", &v.iv_len);
    v.aad = decode_field(t, "aad", &v.aad_len);
    v.msg = decode_field(t, "msg", &v.msg_len);
    v.ct = decode_field(t, "ct", &v.ct_len);
    v.tag = decode_field(t, "tag", &v.tag_len);
    return v;
}

static void release(wycheproof_vector *v)
{
    free(v->key);
    free(v->iv);
    free(v->aad);
    free(v->msg);
    free(v->ct);
    free(v->tag);
}

size_t wycheproof_walk(const json_t *doc, wycheproof_check_fn *check, void *ctx)
{
    const json_t *groups = doc ? json_object_get(doc, "testGroups") : NULL;
    size_t n = 0;
    if (!groups || !json_is_array(groups))
        return 0;
    for (size_t g = 0; g < json_array_size(groups); g++) {
        const json_t *tests =
            json_object_get(json_array_get(groups, g), "tests");
        for (size_t i = 0; tests && i < json_array_size(tests); i++, n++) {
            wycheproof_vector v = decode(json_array_get(tests, i));
            check(ctx, &v);
            release(&v);
        }
    }
    return n;
}
