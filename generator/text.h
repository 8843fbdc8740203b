/* SPDX-License-Identifier: MIT */
/*
 * text.h - a growable text buffer for the emitters (internal to the generator).
 *
 * Out of memory is sticky: the buffer remembers it (`failed`), further
 * appends do nothing, and cc_buf_take() returns NULL.  So an emitter can
 * append freely and check once at the end.
 */
#ifndef CONTRACTC_TEXT_H
#define CONTRACTC_TEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct cc_buf {
    char *data;     /* NUL-terminated when len > 0 */
    size_t len, capacity;
    bool failed;    /* an allocation failed */
} cc_buf_t;

#define CC_BUF_INIT {NULL, 0, 0, false}

void cc_buf_append(cc_buf_t *b, const char *s, size_t n);
void cc_buf_puts(cc_buf_t *b, const char *s);
void cc_buf_putc(cc_buf_t *b, char c);
void cc_buf_printf(cc_buf_t *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends s as a JSON string literal (quotes included; escapes ", \ and
 * control characters, as the canonical form does). */
void cc_buf_json_string(cc_buf_t *b, const char *s, size_t n);
/* Appends s as a C string literal body-safe text: escapes \, ", ?, control
 * and non-ASCII bytes as octal, so the output is pure ASCII. */
void cc_buf_c_string(cc_buf_t *b, const char *s, size_t n);

/* Appends the RFC 9535 path segment of a contract key (v2 keys,
 * docs/contract-language.md §4.9): ".key" for [A-Za-z_][A-Za-z0-9_]*, else
 * "['key']" with ' and \ escaped, \b \f \n \r \t named and other control
 * bytes as \u00XX, every other byte copied: the notation the runtime writes
 * for a key it reads (runtime/src/key_segment.c), without its cut.  With
 * `first` an identifier has no dot ("key", as a rule path starts). */
void cc_buf_key_segment(cc_buf_t *b, const char *key, bool first);

/* Hands over the NUL-terminated text (free() it) and its length; NULL when
 * an allocation failed.  The buffer is left empty. */
char *cc_buf_take(cc_buf_t *b, size_t *len);
void cc_buf_free(cc_buf_t *b);

/* strdup/strndup that return NULL on NULL input. */
char *cc_strdup(const char *s);
char *cc_strndup(const char *s, size_t n);
/* A malloc'd copy of s with a-z in capitals (a C identifier's macro or
 * constant form: REFUND_REQUEST_H); NULL out of memory. */
char *cc_upper(const char *s);

/* Reads a whole file (binary); NULL on error with errno set.  free() it. */
char *cc_read_file(const char *path, size_t *len);

#endif /* CONTRACTC_TEXT_H */
