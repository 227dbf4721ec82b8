#include "wycheproof.h"

#include <stdlib.h>
#include <string.h>

#include "vectors.h"

static uint8_t *decode_field(const json *t, const char *name, size_t *len)
{
    const char *hex = json_get_string(t, name);
    *len = 0;
    return hex ? hex_decode(hex, len) : calloc(1, 1);
}

static wycheproof_vector decode(const json *t)
{
    wycheproof_vector v;
    const char *result = json_get_string(t, "result");
    const json *id = json_get(t, "tcId");
    v.id = id ? (int)id->number : -1;
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

size_t wycheproof_walk(const json *doc, wycheproof_check_fn *check,
                       void *ctx)
{
    const json *groups = doc ? json_get(doc, "testGroups") : NULL;
    size_t n = 0;
    if (!groups || groups->type != JSON_ARRAY)
        return 0;
    for (size_t g = 0; g < groups->n; g++) {
        const json *tests = json_get(&groups->items[g], "tests");
        for (size_t i = 0; tests && i < tests->n; i++, n++) {
            wycheproof_vector v = decode(&tests->items[i]);
            check(ctx, &v);
            release(&v);
        }
    }
    return n;
}
