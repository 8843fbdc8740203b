/* SPDX-License-Identifier: MIT */
/*
 * diag.h - generator diagnostics in gcc's form (internal to the generator).
 *
 *   FILE:LINE:COL: error: message
 *   FILE:LINE:COL: note: message
 *
 * LINE and COL are 1-based (libyaml's marks are 0-based: add 1).  A list
 * collects every diagnostic of a run; cc_diag_print sorts them by position
 * (stable; a note added with cc_diag_related stays right after the error it
 * belongs to, even when it points at an earlier line).
 */
#ifndef CONTRACTC_DIAG_H
#define CONTRACTC_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A position in a contract file; line 0 means "the file as a whole". */
typedef struct cc_mark {
    unsigned line;   /* 1-based */
    unsigned column; /* 1-based */
} cc_mark_t;

typedef enum cc_severity { CC_NOTE, CC_ERROR } cc_severity_t;

typedef struct cc_diag {
    cc_severity_t severity;
    char *file;      /* as given on the command line */
    cc_mark_t mark;
    char *message;
    size_t seq;      /* insertion order, for a stable sort */
    bool attached;   /* a note that belongs to the diagnostic before it */
} cc_diag_t;

typedef struct cc_diags {
    cc_diag_t *items;
    size_t count, capacity;
    size_t errors;   /* how many have severity CC_ERROR */
    size_t cap;      /* at most this many are kept (default 200) */
    size_t dropped;
} cc_diags_t;

void cc_diags_init(cc_diags_t *d);
void cc_diags_free(cc_diags_t *d);

/* Adds one diagnostic (the message is formatted and copied).  Out of memory
 * is reported as one final error at print time, never lost silently. */
void cc_diag_add(cc_diags_t *d, cc_severity_t severity, const char *file,
                 cc_mark_t mark, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
void cc_diag_addv(cc_diags_t *d, cc_severity_t severity, const char *file,
                  cc_mark_t mark, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 0)))
#endif
    ;

/* Adds a note that belongs to the diagnostic added just before it ("first
 * defined here"): printed right after that diagnostic, wherever its own
 * position sorts.  Dropped together with it when the list is full. */
void cc_diag_related(cc_diags_t *d, const char *file, cc_mark_t mark,
                     const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The quote a diagnostic puts around a field path or name: "'" ("field
 * 'amount'", "field 'lines[].price'"), or nothing when the path holds a
 * bracketed key, which delimits itself ("field ['e-mail']", not
 * "field '['e-mail']'"; docs/contract-language.md §4.9).  Written
 * "%s%s%s", q, path, q. */
const char *cc_diag_quote(const char *path);

#define cc_error(d, file, mark, ...) cc_diag_add((d), CC_ERROR, (file), (mark), __VA_ARGS__)
#define cc_note(d, file, mark, ...) cc_diag_add((d), CC_NOTE, (file), (mark), __VA_ARGS__)

/* Sorts by (file, line, column, insertion) and prints each as one line. */
void cc_diags_print(cc_diags_t *d, FILE *out);

/* The closest candidate to `word` within edit distance 2 (or a third of its
 * length), or NULL: for "did you mean 'max_length'?". */
const char *cc_suggest(const char *word, const char *const *candidates, size_t count);

#endif /* CONTRACTC_DIAG_H */
