/* SPDX-License-Identifier: MIT */
/*
 * diag.c - generator diagnostics in gcc's form (see diag.h).
 *
 * The list is capped (default 200 kept); what does not fit, or does not fit
 * in memory, is counted in `dropped` and reported as one last line, so an
 * error is never lost silently.  `errors` counts every error added, kept or
 * not: it is what decides a run's exit status.
 */
#include "diag.h"

#include <stdlib.h>
#include <string.h>

#include "text.h" /* cc_strdup */

#define CC_DIAGS_DEFAULT_CAP 200

void cc_diags_init(cc_diags_t *d)
{
    memset(d, 0, sizeof *d);
    d->cap = CC_DIAGS_DEFAULT_CAP;
}

void cc_diags_free(cc_diags_t *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->count; i++) {
        free(d->items[i].file);
        free(d->items[i].message);
    }
    free(d->items);
    d->items = NULL;
    d->count = d->capacity = 0;
    d->errors = 0;
    d->dropped = 0;
}

/* Every addition gets seq = the number of additions before it, kept or
 * dropped; so the previous addition was kept iff the last kept item has
 * seq == count + dropped - 1. */
static bool previous_was_kept(const cc_diags_t *d)
{
    return d->count > 0 && d->items[d->count - 1].seq == d->count + d->dropped - 1;
}

static void add(cc_diags_t *d, cc_severity_t severity, bool attached, const char *file,
                cc_mark_t mark, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 0)))
#endif
    ;

static void add(cc_diags_t *d, cc_severity_t severity, bool attached, const char *file,
                cc_mark_t mark, const char *fmt, va_list ap)
{
    if (severity == CC_ERROR)
        d->errors++;
    if (attached && !previous_was_kept(d)) {
        d->dropped++;
        return;
    }
    if (d->count >= d->cap) {
        d->dropped++;
        return;
    }
    if (d->count == d->capacity) {
        size_t cap = d->capacity ? d->capacity * 2 : 16;
        cc_diag_t *p = realloc(d->items, cap * sizeof *p);
        if (!p) {
            d->dropped++;
            return;
        }
        d->items = p;
        d->capacity = cap;
    }
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *message = NULL;
    if (n >= 0) {
        message = malloc((size_t)n + 1);
        if (message)
            vsnprintf(message, (size_t)n + 1, fmt, ap);
    }
    char *f = cc_strdup(file ? file : "<input>");
    if (!message || !f) {
        free(message);
        free(f);
        d->dropped++;
        return;
    }
    cc_diag_t *it = &d->items[d->count];
    it->severity = severity;
    it->file = f;
    it->mark = mark;
    it->message = message;
    it->seq = d->count + d->dropped;
    it->attached = attached;
    d->count++;
}

void cc_diag_addv(cc_diags_t *d, cc_severity_t severity, const char *file,
                  cc_mark_t mark, const char *fmt, va_list ap)
{
    add(d, severity, false, file, mark, fmt, ap);
}

void cc_diag_add(cc_diags_t *d, cc_severity_t severity, const char *file,
                 cc_mark_t mark, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(d, severity, false, file, mark, fmt, ap);
    va_end(ap);
}

void cc_diag_related(cc_diags_t *d, const char *file, cc_mark_t mark,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(d, CC_NOTE, true, file, mark, fmt, ap);
    va_end(ap);
}

/* The sort key of one diagnostic: the position of the diagnostic it belongs
 * to (itself, or the error an attached note follows), then its own seq. */
typedef struct sort_key {
    size_t file_rank;   /* files in the order they first appear */
    unsigned line, column;
    size_t leader_seq, seq;
    size_t index;
} sort_key_t;

static int compare_keys(const void *a, const void *b)
{
    const sort_key_t *x = a, *y = b;
    if (x->file_rank != y->file_rank)
        return x->file_rank < y->file_rank ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->column != y->column)
        return x->column < y->column ? -1 : 1;
    if (x->leader_seq != y->leader_seq)
        return x->leader_seq < y->leader_seq ? -1 : 1;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    return 0;
}

void cc_diags_print(cc_diags_t *d, FILE *out)
{
    sort_key_t *keys = d->count ? malloc(d->count * sizeof *keys) : NULL;
    if (d->count && !keys) {
        /* No room to sort: print in insertion order rather than not at all. */
        for (size_t i = 0; i < d->count; i++) {
            const cc_diag_t *it = &d->items[i];
            fprintf(out, "%s:%u:%u: %s: %s\n", it->file, it->mark.line, it->mark.column,
                    it->severity == CC_ERROR ? "error" : "note", it->message);
        }
    } else {
        size_t leader = 0;
        for (size_t i = 0; i < d->count; i++) {
            if (!d->items[i].attached || i == 0)
                leader = i;
            size_t rank = i;
            for (size_t j = 0; j < i; j++) {
                if (strcmp(d->items[j].file, d->items[leader].file) == 0) {
                    rank = j;
                    break;
                }
            }
            keys[i].file_rank = rank;
            keys[i].line = d->items[leader].mark.line;
            keys[i].column = d->items[leader].mark.column;
            keys[i].leader_seq = d->items[leader].seq;
            keys[i].seq = d->items[i].seq;
            keys[i].index = i;
        }
        if (d->count > 1)
            qsort(keys, d->count, sizeof *keys, compare_keys);
        for (size_t k = 0; k < d->count; k++) {
            const cc_diag_t *it = &d->items[keys[k].index];
            const char *sev = it->severity == CC_ERROR ? "error" : "note";
            if (it->mark.line == 0)
                fprintf(out, "%s: %s: %s\n", it->file, sev, it->message);
            else
                fprintf(out, "%s:%u:%u: %s: %s\n", it->file, it->mark.line,
                        it->mark.column, sev, it->message);
        }
    }
    free(keys);
    if (d->dropped)
        fprintf(out, "contractc: %s: %zu more diagnostics not shown (limit %zu, or out of memory)\n",
                d->errors ? "error" : "note", d->dropped, d->cap);
}

/* Optimal string alignment distance (Levenshtein plus adjacent
 * transpositions, so "max_lenght" is one edit from "max_length"), giving up
 * early above `limit`.  Words longer than 64 bytes are never suggested. */
static size_t edit_distance(const char *a, const char *b, size_t limit)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 64 || m > 64)
        return limit + 1;
    if ((n > m ? n - m : m - n) > limit)
        return limit + 1;
    size_t rows[3][65];
    size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= m; j++)
        prev[j] = j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        size_t best = cur[0];
        for (size_t j = 1; j <= m; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t v = prev[j - 1] + cost;
            if (prev[j] + 1 < v)
                v = prev[j] + 1;
            if (cur[j - 1] + 1 < v)
                v = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                prev2[j - 2] + 1 < v)
                v = prev2[j - 2] + 1;
            cur[j] = v;
            if (v < best)
                best = v;
        }
        if (best > limit)
            return limit + 1;
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[m];
}

const char *cc_suggest(const char *word, const char *const *candidates, size_t count)
{
    if (!word)
        return NULL;
    size_t len = strlen(word);
    size_t limit = len / 3 > 2 ? len / 3 : 2;
    if (limit >= len)
        limit = len ? len - 1 : 0; /* never suggest a word sharing nothing */
    const char *best = NULL;
    size_t best_distance = limit + 1;
    for (size_t i = 0; i < count; i++) {
        if (!candidates[i])
            continue;
        size_t dist = edit_distance(word, candidates[i], limit);
        if (dist < best_distance) {
            best = candidates[i];
            best_distance = dist;
        }
    }
    return best;
}

const char *cc_diag_quote(const char *path)
{
    return path && strstr(path, "['") ? "" : "'";
}
