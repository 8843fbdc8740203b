/* SPDX-License-Identifier: MIT */
/*
 * gbnf_text.c - the one GBNF string escaper (gbnf_text.h).
 */
#include "gbnf_text.h"

size_t cc_gbnf_escape(const char *s, size_t n, char *out)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char e[4];
        size_t k = 0;
        if (c == '"' || c == '\\') {
            e[k++] = '\\';
            e[k++] = (char)c;
        } else if (c < 0x20 || c == 0x7F) {
            e[k++] = '\\';
            e[k++] = 'x';
            e[k++] = hex[c >> 4];
            e[k++] = hex[c & 15];
        } else {
            e[k++] = (char)c;
        }
        if (out)
            for (size_t j = 0; j < k; j++)
                out[len + j] = e[j];
        len += k;
    }
    return len;
}
