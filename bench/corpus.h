/* SPDX-License-Identifier: MIT */
/*
 * corpus.h - the benchmark's corpus file format, shared by the generator
 * (gen_corpus.c) and the C runners (bench_c.c, bench_simdjson.cpp); the
 * node runner (ajv_runner.js) reads the same format.
 *
 * A corpus is a sequence of records, each:
 *
 *   "<intent> <reply_len> <source_len>\n" <reply bytes> <source bytes> "\n"
 *
 * intent: 1 the generator meant the reply to be valid, 0 invalid, 2 a
 * hostile reply of the scaling series (verdict not predicted).  Lengths are
 * decimal byte counts.  The reader keeps every reply NUL-terminated in its
 * own allocation (cJSON's strict end check needs the NUL) and the sources
 * too (the hand-written validator's strstr).
 */
#ifndef BENCH_CORPUS_H
#define BENCH_CORPUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_reply {
    char *reply;        /* reply_len bytes + NUL; owned */
    size_t reply_len;
    char *source;       /* source_len bytes + NUL, or NULL when source_len == 0 */
    size_t source_len;
    int intent;         /* 1 valid, 0 invalid, 2 hostile (series) */
} bench_reply_t;

typedef struct bench_corpus {
    bench_reply_t *items;
    size_t count;
    size_t bytes;       /* sum of reply_len */
} bench_corpus_t;

/* Reads `path`; returns 0, or -1 with a message on stderr (then *c is
 * empty).  Free with bench_corpus_free. */
int bench_corpus_read(const char *path, bench_corpus_t *c);
void bench_corpus_free(bench_corpus_t *c);

#ifdef __cplusplus
}
#endif

#endif /* BENCH_CORPUS_H */
