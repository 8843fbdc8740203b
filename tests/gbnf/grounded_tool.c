/* SPDX-License-Identifier: MIT */
/*
 * grounded_tool.c - GRAMMAR SOURCE: prints contractc_gbnf_grounded() of the
 * grammar file and the source file (for tests/gbnf/oracle.mjs, which hands
 * the result to llama.cpp).  Exit 0 grounded, 1 left to the parser, 2 error.
 */
#include <stdio.h>
#include <stdlib.h>

#include "contractc/contractc.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    for (;;) {
        if (!b)
            break;
        n += fread(b + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *nb = realloc(b, cap *= 2);
        if (!nb) {
            free(b);
            b = NULL;
        } else {
            b = nb;
        }
    }
    fclose(f);
    *len = n;
    return b;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    size_t gl, sl, len;
    char *g = slurp(argv[1], &gl), *s = slurp(argv[2], &sl), *out = NULL;
    int rc = g && s ? contractc_gbnf_grounded(g, gl, s, sl, &out, &len) : -1;
    if (rc >= 0 && fwrite(out, 1, len, stdout) != len)
        rc = -1;
    free(g);
    free(s);
    free(out);
    return rc < 0 ? 2 : rc;
}
