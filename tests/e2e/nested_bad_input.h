/* SPDX-License-Identifier: MIT */
/*
 * nested_bad_input.h - the bad replies (deep, wide, long) for the
 * nested_limits contract (tests/data/nested/nested_limits.contract.yaml:
 * reply.max_bytes 64 MiB, max_depth 1024), built in memory at a chosen size.
 * Shared by test_nested_limits.c (allocation counts) and nested_bad_input.c
 * (the program bench_nested.sh runs under callgrind to count instructions).
 *
 * Every builder returns a malloc'd buffer of about `bytes` bytes (free() it;
 * NULL when out of memory), its exact length in *len, and in *items how many
 * repeated parts it holds (nested arrays, keys, numbers; 1 for the others).
 */
#ifndef NESTED_BAD_INPUT_H
#define NESTED_BAD_INPUT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum bad_kind {
    BAD_WIDE_NESTING, /* nest: [X, X, ...], X = 1000 nested arrays: depth 1002 */
    BAD_DEEP_NESTING, /* nest: [[[[... past max_depth */
    BAD_MANY_KEYS,    /* meta: an object with one key per 33 bytes (1M in 32 MiB) */
    BAD_MANY_NUMBERS, /* values: one number per 8 bytes (4M in 32 MiB), max_items 200 */
    BAD_LONG_STRING,  /* text: one string of `bytes` bytes, max_length 100 */
    BAD_KIND_COUNT_
} bad_kind_t;

static const char *const bad_kind_names[BAD_KIND_COUNT_] = {
    "wide-nesting", "deep-nesting", "many-keys", "many-numbers", "long-string"};

/* Depth of one X in BAD_WIDE_NESTING: with the root and `nest` it is 1002,
 * under max_depth 1024, so every byte is really read and skipped. */
#define BAD_WIDE_DEPTH 1000

static char *bad_reply(bad_kind_t kind, size_t bytes, size_t *len, size_t *items)
{
    size_t cap = bytes + 8192, n = 0, count = 1;
    char *s = malloc(cap);
    if (!s)
        return NULL;
#define PUT(text)                                                                              \
    do {                                                                                       \
        size_t l_ = strlen(text);                                                              \
        memcpy(s + n, text, l_);                                                               \
        n += l_;                                                                               \
    } while (0)
    switch (kind) {
    case BAD_WIDE_NESTING:
        PUT("{\"values\":[],\"text\":\"\",\"meta\":{\"n\":1},\"nest\":[");
        for (count = 0; n + 2 * BAD_WIDE_DEPTH + 8 < bytes; count++) {
            if (count)
                s[n++] = ',';
            memset(s + n, '[', BAD_WIDE_DEPTH);
            memset(s + n + BAD_WIDE_DEPTH, ']', BAD_WIDE_DEPTH);
            n += 2 * BAD_WIDE_DEPTH;
        }
        PUT("]}");
        break;
    case BAD_DEEP_NESTING:
        PUT("{\"values\":[],\"text\":\"\",\"meta\":{\"n\":1},\"nest\":");
        memset(s + n, '[', bytes / 2);
        n += bytes / 2;
        memset(s + n, ']', bytes / 2);
        n += bytes / 2;
        PUT("}");
        break;
    case BAD_MANY_KEYS:
        PUT("{\"values\":[],\"text\":\"\",\"meta\":{");
        for (count = 0; n + 48 < bytes; count++)
            n += (size_t)sprintf(s + n, "%s\"k%027zu\":0", count ? "," : "", count);
        PUT("},\"nest\":[]}");
        break;
    case BAD_MANY_NUMBERS:
        PUT("{\"values\":[");
        for (count = 0; n + 64 < bytes; count++) {
            if (count)
                s[n++] = ',';
            n += (size_t)sprintf(s + n, "%07zu", 1000000 + count % 8000000);
        }
        PUT("],\"text\":\"\",\"meta\":{\"n\":1},\"nest\":[]}");
        break;
    case BAD_LONG_STRING:
        PUT("{\"values\":[],\"text\":\"");
        memset(s + n, 'a', bytes); /* the string alone is `bytes` long */
        n += bytes;
        PUT("\",\"meta\":{\"n\":1},\"nest\":[]}");
        break;
    default:
        free(s);
        return NULL;
    }
#undef PUT
    *len = n;
    *items = count;
    return s;
}

#endif /* NESTED_BAD_INPUT_H */
