/* Known-answer files under tests/vectors/: "name=value" records separated
 * by blank lines or by a field name repeating ('#' starts a comment line;
 * other lines without '=' are headings and ignored), the JSON ones read
 * with jansson, and hex decoding. */
#ifndef CYCLEBENCH_TEST_VECTORS_H
#define CYCLEBENCH_TEST_VECTORS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define KV_MAX_FIELDS 16

typedef struct kv_record {
    size_t n;
    char *keys[KV_MAX_FIELDS];
    char *values[KV_MAX_FIELDS];
} kv_record;

/* Path of a file in tests/vectors (tests run from the project root). */
const char *vector_path(const char *file);

/* All records of a file; NULL with a message on stderr on failure. */
kv_record *kv_load(const char *path, size_t *count);
const char *kv_get(const kv_record *r, const char *key);
void kv_free(kv_record *records, size_t count);

/* A JSON file in tests/vectors, parsed; NULL with a message on stderr
 * (jansson's, naming the line) when it cannot be read. Release it with
 * json_decref. */
json_t *vector_json(const char *file);
/* The string member key of a JSON object, or NULL: obj NULL or not an
 * object, no such member, or not a string. */
const char *vector_string(const json_t *obj, const char *key);

/* Decode hex that a test file promises is valid; aborts on bad data, which
 * is a broken fixture, not a kernel failure. */
uint8_t *hex_decode(const char *hex, size_t *len);

#endif
