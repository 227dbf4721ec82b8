#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *p, *end;
    int failed;
} parser;

static void skip_space(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' ||
                               *ps->p == '\r' || *ps->p == '\t'))
        ps->p++;
}

static int parse_value(parser *ps, json *out);

static void put_utf8(char **w, unsigned cp)
{
    char *o = *w;
    if (cp < 0x80) {
        *o++ = (char)cp;
    } else if (cp < 0x800) {
        *o++ = (char)(0xc0 | cp >> 6);
        *o++ = (char)(0x80 | (cp & 0x3f));
    } else {
        *o++ = (char)(0xe0 | cp >> 12);
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
        *o++ = (char)(0x80 | (cp & 0x3f));
    }
    *w = o;
}

static char *parse_string(parser *ps)
{
    if (ps->p >= ps->end || *ps->p != '"')
        return NULL;
    const char *start = ++ps->p;
    while (ps->p < ps->end && *ps->p != '"')
        ps->p += (*ps->p == '\\') ? 2 : 1;
    if (ps->p >= ps->end)
        return NULL;
    /* Decoded text is never longer than its escaped form. */
    char *s = malloc((size_t)(ps->p - start) + 1), *w = s;
    for (const char *r = start; r < ps->p; r++) {
        if (*r != '\\') {
            *w++ = *r;
            continue;
        }
        r++;
        switch (*r) {
        case 'n': *w++ = '\n'; break;
        case 't': *w++ = '\t'; break;
        case 'r': *w++ = '\r'; break;
        case 'b': *w++ = '\b'; break;
        case 'f': *w++ = '\f'; break;
        case 'u': {
            unsigned cp = 0;
            sscanf(r + 1, "%4x", &cp);
            put_utf8(&w, cp);
            r += 4;
            break;
        }
        default: *w++ = *r; break;
        }
    }
    *w = '\0';
    ps->p++;
    return s;
}

static int parse_items(parser *ps, json *out, char close, int with_keys)
{
    size_t cap = 8;
    out->items = calloc(cap, sizeof *out->items);
    ps->p++;
    skip_space(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return 0;
    }
    for (;;) {
        if (out->n == cap) {
            out->items = realloc(out->items, (cap *= 2) * sizeof *out->items);
            memset(out->items + out->n, 0, (cap - out->n) * sizeof *out->items);
        }
        json *item = &out->items[out->n++];
        skip_space(ps);
        if (with_keys) {
            item->key = parse_string(ps);
            skip_space(ps);
            if (!item->key || ps->p >= ps->end || *ps->p++ != ':')
                return -1;
        }
        if (parse_value(ps, item))
            return -1;
        skip_space(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            return 0;
        }
        return -1;
    }
}

static int parse_literal(parser *ps, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || strncmp(ps->p, word, n) != 0)
        return -1;
    ps->p += n;
    return 0;
}

static int parse_value(parser *ps, json *out)
{
    skip_space(ps);
    if (ps->p >= ps->end)
        return -1;
    switch (*ps->p) {
    case '{':
        out->type = JSON_OBJECT;
        return parse_items(ps, out, '}', 1);
    case '[':
        out->type = JSON_ARRAY;
        return parse_items(ps, out, ']', 0);
    case '"':
        out->type = JSON_STRING;
        out->string = parse_string(ps);
        return out->string ? 0 : -1;
    case 't':
        out->type = JSON_BOOL;
        out->number = 1;
        return parse_literal(ps, "true");
    case 'f':
        out->type = JSON_BOOL;
        return parse_literal(ps, "false");
    case 'n':
        out->type = JSON_NULL;
        return parse_literal(ps, "null");
    default: {
        char *after;
        out->type = JSON_NUMBER;
        out->number = strtod(ps->p, &after);
        if (after == ps->p)
            return -1;
        ps->p = after;
        return 0;
    }
    }
}

static void free_members(json *j)
{
    for (size_t i = 0; i < j->n; i++)
        free_members(&j->items[i]);
    free(j->items);
    free(j->string);
    free(j->key);
}

void json_free(json *j)
{
    if (!j)
        return;
    free_members(j);
    free(j);
}

json *json_load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "json: cannot open %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    size_t got = fread(text, 1, (size_t)size, f);
    fclose(f);
    parser ps = { text, text + got, 0 };
    json *root = calloc(1, sizeof *root);
    if (parse_value(&ps, root)) {
        fprintf(stderr, "json: %s: parse error near byte %ld\n", path,
                (long)(ps.p - text));
        json_free(root);
        root = NULL;
    }
    free(text);
    return root;
}

const json *json_get(const json *obj, const char *key)
{
    if (!obj || obj->type != JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (obj->items[i].key && strcmp(obj->items[i].key, key) == 0)
            return &obj->items[i];
    return NULL;
}

const char *json_get_string(const json *obj, const char *key)
{
    const json *v = json_get(obj, key);
    return v && v->type == JSON_STRING ? v->string : NULL;
}
