/* A small JSON reader for known-answer files (BLAKE2 KAT, Wycheproof).
 * Parses a whole document into a tree; strings are kept with escapes
 * decoded (\uXXXX as UTF-8). Numbers are kept as doubles. */
#ifndef CYCLEBENCH_TEST_JSON_H
#define CYCLEBENCH_TEST_JSON_H

#include <stddef.h>

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY,
               JSON_OBJECT } json_type;

typedef struct json json;
struct json {
    json_type type;
    double number;     /* JSON_NUMBER, JSON_BOOL (0/1) */
    char *string;      /* JSON_STRING; also the key of an object member */
    char *key;         /* set on members of an object */
    json *items;       /* JSON_ARRAY, JSON_OBJECT: array of n */
    size_t n;
};

/* Reads and parses a file; NULL (with a message on stderr) on failure. */
json *json_load(const char *path);
void json_free(json *j);

/* Member of an object by key, or NULL. */
const json *json_get(const json *obj, const char *key);
/* String member of an object, or NULL. */
const char *json_get_string(const json *obj, const char *key);

#endif
