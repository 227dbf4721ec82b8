#include "vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/args.h"

const char *vector_path(const char *file)
{
    static char path[512];
    snprintf(path, sizeof path, "tests/vectors/%s", file);
    return path;
}

json_t *vector_json(const char *file)
{
    json_error_t error;
    json_t *doc = json_load_file(vector_path(file), 0, &error);
    if (!doc)
        fprintf(stderr, "vectors: %s, line %d: %s\n", vector_path(file),
                error.line, error.text);
    return doc;
}

const char *vector_string(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

static int has_field(const kv_record *r, const char *line, size_t key_len)
{
    for (size_t i = 0; i < r->n; i++)
        if (strlen(r->keys[i]) == key_len &&
            strncmp(r->keys[i], line, key_len) == 0)
            return 1;
    return 0;
}

static void add_field(kv_record *r, const char *line)
{
    const char *eq = strchr(line, '=');
    if (!eq || r->n == KV_MAX_FIELDS)
        return;
    r->keys[r->n] = strndup(line, (size_t)(eq - line));
    r->values[r->n] = strdup(eq + 1);
    r->n++;
}

kv_record *kv_load(const char *path, size_t *count)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "vectors: cannot open %s\n", path);
        return NULL;
    }
    kv_record *records = NULL;
    size_t n = 0, cap = 0;
    int in_record = 0;
    char *line = NULL;
    size_t line_cap = 0;
    ssize_t got;
    while ((got = getline(&line, &line_cap, f)) >= 0) {
        while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
            line[--got] = '\0';
        if (line[0] == '#')
            continue;
        if (got == 0) {
            in_record = 0;
            continue;
        }
        const char *eq = strchr(line, '=');
        if (!eq)
            continue; /* a heading such as "vector 0" */
        /* A field name seen again starts the next record, for files that
         * do not separate records with blank lines. */
        if (in_record && has_field(&records[n - 1], line, (size_t)(eq - line)))
            in_record = 0;
        if (!in_record) {
            if (n == cap)
                records = realloc(records, (cap = cap ? 2 * cap : 8) *
                                               sizeof *records);
            memset(&records[n++], 0, sizeof *records);
            in_record = 1;
        }
        add_field(&records[n - 1], line);
    }
    free(line);
    fclose(f);
    *count = n;
    return records;
}

const char *kv_get(const kv_record *r, const char *key)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->keys[i], key) == 0)
            return r->values[i];
    return NULL;
}

void kv_free(kv_record *records, size_t count)
{
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < records[i].n; j++) {
            free(records[i].keys[j]);
            free(records[i].values[j]);
        }
    free(records);
}

uint8_t *hex_decode(const char *hex, size_t *len)
{
    uint8_t *out;
    if (!hex || parse_hex(hex, &out, len)) {
        fprintf(stderr, "vectors: bad hex in a fixture: %.40s\n",
                hex ? hex : "(missing)");
        abort();
    }
    return out;
}
