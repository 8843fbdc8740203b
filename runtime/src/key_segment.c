/* SPDX-License-Identifier: MIT */
/*
 * key_segment.c - writes the JSONPath segment of a key from a reply
 * (key_segment.h): ".key" for [A-Za-z_][A-Za-z0-9_]*, else RFC 9535
 * bracket notation with its escaping (section 2.3.1.1), cut to 64 code
 * points plus "…".
 *
 * Only the problems the list keeps render one (at most its cap, 64 by
 * default), so this is plain code: one pass to cut, one to classify, one
 * to write.
 */
#include "key_segment.h"

#include <stdbool.h>
#include <string.h>

/* [A-Za-z0-9_]: the bytes of a key written with a dot. */
static bool ident_byte(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

/* Appends byte ch of a key in bracket notation at seg[o]; returns the new o.
 * '\'' and '\\' get a backslash, control bytes a named or \u00XX escape;
 * every other byte (UTF-8 too) is copied as it is. */
static size_t put_key_byte(char *seg, size_t o, unsigned char ch)
{
    static const char hex[] = "0123456789abcdef";
    if (ch == '\'' || ch == '\\') {
        seg[o++] = '\\';
    } else if (ch < 0x20) {
        const char *named = ch == '\b' ? "b" : ch == '\f' ? "f" : ch == '\n' ? "n"
                          : ch == '\r' ? "r" : ch == '\t' ? "t" : NULL;
        seg[o++] = '\\';
        if (named) {
            seg[o++] = named[0];
            return o;
        }
        seg[o++] = 'u';
        seg[o++] = '0';
        seg[o++] = '0';
        seg[o++] = hex[ch >> 4];
        ch = (unsigned char)hex[ch & 15];
    }
    seg[o++] = (char)ch;
    return o;
}

size_t cc_key_segment(char *seg, const char *k, size_t n)
{
    const unsigned char *u = (const unsigned char *)k;
    /* cut: the bytes of the first 64 code points */
    size_t cut = n, points = 0;
    for (size_t i = 0; i < n; i++) {
        if ((u[i] & 0xC0) != 0x80 && points++ == CC_KEY_ECHO_CODE_POINTS) {
            cut = i;
            break;
        }
    }
    /* A key that is all identifier bytes, past the cut too, and does not
     * start with a digit is written with a dot. */
    bool dot = n > 0 && !(u[0] >= '0' && u[0] <= '9');
    for (size_t i = 0; i < n && dot; i++)
        dot = ident_byte(u[i]);
    size_t o;
    if (dot) {
        seg[0] = '.';
        memcpy(seg + 1, k, cut);
        o = 1 + cut;
    } else {
        seg[0] = '[';
        seg[1] = '\'';
        o = 2;
        for (size_t i = 0; i < cut; i++)
            o = put_key_byte(seg, o, u[i]);
    }
    if (cut < n) {
        memcpy(seg + o, "\xE2\x80\xA6", 3); /* … */
        o += 3;
    }
    if (!dot) {
        seg[o++] = '\'';
        seg[o++] = ']';
    }
    return o;
}
