/* Writing JSON by hand: the one string escaper of `list --json` and `run`. */
#ifndef CYCLEBENCH_JSON_OUT_H
#define CYCLEBENCH_JSON_OUT_H

#include <stdio.h>

/* s as a JSON string, quotes included. */
void json_print_string(FILE *f, const char *s);

#endif
