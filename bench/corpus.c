/* SPDX-License-Identifier: MIT */
/*
 * corpus.c - reads the benchmark's corpus files (format in corpus.h).
 */
#include "corpus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *len = n;
    return buf;
}

static char *copy_nul(const char *p, size_t n)
{
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, p, n);
        s[n] = '\0';
    }
    return s;
}

int bench_corpus_read(const char *path, bench_corpus_t *c)
{
    memset(c, 0, sizeof *c);
    size_t len = 0;
    char *buf = read_file(path, &len);
    if (!buf) {
        fprintf(stderr, "bench: cannot read %s\n", path);
        return -1;
    }
    size_t cap = 0, at = 0;
    while (at < len) {
        int intent;
        unsigned long long rl, sl;
        int used = 0;
        /* The header alone, NUL-terminated: sscanf on the rest of the file
         * would measure all of it per record (quadratic) and buf has no
         * NUL at its end. */
        char head[64];
        const char *nl = memchr(buf + at, '\n', len - at);
        size_t hl = nl ? (size_t)(nl - (buf + at)) : 0;
        if (nl && hl < sizeof head) {
            memcpy(head, buf + at, hl);
            head[hl] = '\0';
        }
        if (!nl || hl >= sizeof head ||
            sscanf(head, "%d %llu %llu%n", &intent, &rl, &sl, &used) != 3 || (size_t)used != hl) {
            fprintf(stderr, "bench: %s: bad record header at byte %zu\n", path, at);
            goto bad;
        }
        at = (size_t)(nl - buf) + 1;
        if (rl > len - at || sl > len - at - rl || len - at - rl - sl < 1) {
            fprintf(stderr, "bench: %s: truncated record at byte %zu\n", path, at);
            goto bad;
        }
        if (c->count == cap) {
            cap = cap ? cap * 2 : 256;
            bench_reply_t *grown = realloc(c->items, cap * sizeof *grown);
            if (!grown)
                goto bad;
            c->items = grown;
        }
        bench_reply_t *r = &c->items[c->count];
        r->reply = copy_nul(buf + at, (size_t)rl);
        r->reply_len = (size_t)rl;
        r->source = sl ? copy_nul(buf + at + rl, (size_t)sl) : NULL;
        r->source_len = (size_t)sl;
        r->intent = intent;
        if (!r->reply || (sl && !r->source)) {
            free(r->reply);
            free(r->source);
            goto bad;
        }
        c->count++;
        c->bytes += (size_t)rl;
        at += (size_t)(rl + sl + 1);
    }
    free(buf);
    return 0;
bad:
    free(buf);
    bench_corpus_free(c);
    return -1;
}

void bench_corpus_free(bench_corpus_t *c)
{
    for (size_t i = 0; i < c->count; i++) {
        free(c->items[i].reply);
        free(c->items[i].source);
    }
    free(c->items);
    memset(c, 0, sizeof *c);
}
