/* SPDX-License-Identifier: MIT */
/*
 * text.c - growable text buffer and small string helpers for the generator.
 */
#include "text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contractc/contractc.h"

static bool reserve(cc_buf_t *b, size_t extra)
{
    if (b->failed)
        return false;
    if (extra > (size_t)-1 - b->len - 1) {
        b->failed = true;
        return false;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->capacity)
        return true;
    size_t cap = b->capacity ? b->capacity : 256;
    while (cap < need)
        cap = cap > (size_t)-1 / 2 ? need : cap * 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->capacity = cap;
    return true;
}

void cc_buf_append(cc_buf_t *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    if (n)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void cc_buf_puts(cc_buf_t *b, const char *s) { cc_buf_append(b, s, strlen(s)); }

void cc_buf_putc(cc_buf_t *b, char c) { cc_buf_append(b, &c, 1); }

void cc_buf_printf(cc_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        va_end(ap2);
        return;
    }
    if (reserve(b, (size_t)n)) {
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
}

void cc_buf_json_string(cc_buf_t *b, const char *s, size_t n)
{
    /* the runtime's one escaper, so that the schema, the prompt and the
     * hash escape exactly as the canonical form does */
    size_t len = 0;
    char *lit = contractc_json_string(s, n, &len);
    if (!lit) {
        b->failed = true;
        return;
    }
    cc_buf_append(b, lit, len);
    free(lit);
}

void cc_buf_c_string(cc_buf_t *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '\\': cc_buf_puts(b, "\\\\"); break;
        case '"': cc_buf_puts(b, "\\\""); break;
        case '?': cc_buf_puts(b, "\\?"); break; /* no trigraphs */
        case '\n': cc_buf_puts(b, "\\n"); break;
        case '\t': cc_buf_puts(b, "\\t"); break;
        default:
            if (c < 0x20 || c >= 0x7f)
                cc_buf_printf(b, "\\%03o", c);
            else
                cc_buf_putc(b, (char)c);
        }
    }
}

void cc_buf_key_segment(cc_buf_t *b, const char *key, bool first)
{
    const unsigned char *u = (const unsigned char *)key;
    bool ident = (*u >= 'a' && *u <= 'z') || (*u >= 'A' && *u <= 'Z') || *u == '_';
    for (const unsigned char *p = u; *p && ident; p++)
        ident = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                (*p >= '0' && *p <= '9') || *p == '_';
    if (ident) {
        if (!first)
            cc_buf_putc(b, '.');
        cc_buf_puts(b, key);
        return;
    }
    cc_buf_puts(b, "['");
    for (const unsigned char *p = u; *p; p++) {
        const char *named = *p == '\b' ? "b" : *p == '\f' ? "f" : *p == '\n' ? "n"
                          : *p == '\r' ? "r" : *p == '\t' ? "t" : NULL;
        if (*p == '\'' || *p == '\\')
            cc_buf_printf(b, "\\%c", *p);
        else if (named)
            cc_buf_printf(b, "\\%s", named);
        else if (*p < 0x20)
            cc_buf_printf(b, "\\u%04x", *p);
        else
            cc_buf_putc(b, (char)*p);
    }
    cc_buf_puts(b, "']");
}

char *cc_buf_take(cc_buf_t *b, size_t *len)
{
    if (b->failed) {
        cc_buf_free(b);
        return NULL;
    }
    if (!b->data && !reserve(b, 0))
        return NULL;
    if (b->len == 0)
        b->data[0] = '\0';
    char *p = b->data;
    if (len)
        *len = b->len;
    b->data = NULL;
    b->len = b->capacity = 0;
    return p;
}

void cc_buf_free(cc_buf_t *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->capacity = 0;
    b->failed = false;
}

char *cc_strndup(const char *s, size_t n)
{
    if (!s)
        return NULL;
    char *p = malloc(n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *cc_strdup(const char *s) { return s ? cc_strndup(s, strlen(s)) : NULL; }

char *cc_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    cc_buf_t b = CC_BUF_INIT;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        cc_buf_append(&b, chunk, n);
    int err = ferror(f);
    fclose(f);
    if (err) {
        cc_buf_free(&b);
        errno = EIO;
        return NULL;
    }
    char *p = cc_buf_take(&b, len);
    if (!p)
        errno = ENOMEM;
    return p;
}

char *cc_upper(const char *s)
{
    char *u = cc_strdup(s);
    for (char *p = u; p && *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    return u;
}
