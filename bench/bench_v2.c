/* SPDX-License-Identifier: MIT */
/*
 * bench_v2 - what a tagged union and a map cost against a plain object
 * reading the same bytes (bench/README.md, "Unions and maps").
 *
 * Each pair is one seeded corpus read by two contracts:
 *   union        route_union: {"request": {"intent": "refund", order_id,
 *                amount, reason, note}}, the tag first in half the replies
 *                and last in the other half (the union's scan for the tag
 *                then reads the whole object before the variant is read)
 *   union_plain  the same bytes through route_plain: the variant's fields
 *                as a plain object, the tag an enum field
 *   union_mixed  route_union on replies of all three variants (no twin)
 *   map          labels_map: {"labels": {"k01": "...", ..., "k16": "..."}}
 *                through a map with a key pattern
 *   map_plain    the same bytes through labels_plain: sixteen named fields
 *
 *   usage: bench_v2 once PAIR     one warm-up pass, then one pass inside
 *                                 bench_pass() (callgrind
 *                                 --toggle-collect=bench_pass); prints
 *                                 replies=N bytes=N accepted=N
 *          bench_v2 check         every pair: every reply accepted, the
 *                                 twins' corpora byte-identical (the smoke
 *                                 test, tests/bench.cmake)
 *
 * scripts/bench-v2.sh runs `once` under callgrind for each pair and prints
 * instructions per byte and the ratios.  Exit 0; 1 a reply rejected or out
 * of memory; 2 usage.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels_map.h"
#include "labels_plain.h"
#include "route_plain.h"
#include "route_union.h"

#define REPLIES 2000

/* A small deterministic generator (xorshift64*), seeded per corpus. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

typedef struct corpus {
    char **replies;
    size_t *lens;
    size_t count, bytes;
} corpus_t;

static const char *const reasons[] = {"damaged", "not_received", "duplicate_charge", "other"};
static const char *const words[] = {"the", "parcel", "arrived", "late", "and", "the",
                                    "box", "was", "open", "please", "refund", "it"};

/* A note of 20 to 120 bytes of words. */
static void put_note(char *b, size_t *n, size_t cap, uint64_t *s)
{
    size_t want = 20 + (size_t)(next(s) % 100), start = *n;
    while (*n - start < want) {
        const char *w = words[next(s) % (sizeof words / sizeof words[0])];
        *n += (size_t)snprintf(b + *n, cap - *n, "%s%s", *n > start ? " " : "", w);
    }
}

/* Reply i of a corpus: kind 0 the refund variant (tag first or last), 1
 * all three variants, 2 the sixteen labels. */
static size_t make_reply(int kind, size_t i, uint64_t *s, char *b, size_t cap)
{
    size_t n = 0;
    if (kind == 2) {
        n += (size_t)snprintf(b + n, cap - n, "{\"labels\": {");
        for (int k = 1; k <= 16; k++) {
            n += (size_t)snprintf(b + n, cap - n, "%s\"k%02d\": \"", k > 1 ? ", " : "", k);
            size_t len = 3 + (size_t)(next(s) % 30);
            for (size_t c = 0; c < len; c++)
                b[n++] = (char)('a' + next(s) % 26);
            b[n++] = '"';
        }
        n += (size_t)snprintf(b + n, cap - n, "}}");
        return n;
    }
    int variant = kind == 1 ? (int)(i % 3) : 0;
    bool tag_last = (i / 3) % 2 == 1;
    const char *tags[] = {"refund", "complaint", "question"};
    n += (size_t)snprintf(b + n, cap - n, "{\"request\": {");
    if (!tag_last)
        n += (size_t)snprintf(b + n, cap - n, "\"intent\": \"%s\", ", tags[variant]);
    if (variant == 0) {
        unsigned long cents = (unsigned long)(next(s) % 100000);
        n += (size_t)snprintf(b + n, cap - n,
                              "\"order_id\": \"A-%04u\", \"amount\": \"%lu.%02lu\", "
                              "\"reason\": \"%s\", \"note\": \"",
                              (unsigned)(next(s) % 10000), cents / 100, cents % 100,
                              reasons[next(s) % 4]);
        put_note(b, &n, cap, s);
        b[n++] = '"';
    } else if (variant == 1) {
        n += (size_t)snprintf(b + n, cap - n, "\"summary\": \"");
        put_note(b, &n, cap, s);
        n += (size_t)snprintf(b + n, cap - n, "\", \"severity\": \"%s\"",
                              next(s) % 2 ? "high" : "low");
    } else {
        n += (size_t)snprintf(b + n, cap - n, "\"topic\": \"");
        put_note(b, &n, cap, s);
        b[n++] = '"';
    }
    if (tag_last)
        n += (size_t)snprintf(b + n, cap - n, ", \"intent\": \"%s\"", tags[variant]);
    n += (size_t)snprintf(b + n, cap - n, "}}");
    return n;
}

static int make_corpus(int kind, corpus_t *c)
{
    uint64_t seed = 0x9E3779B97F4A7C15ULL + (uint64_t)kind;
    memset(c, 0, sizeof *c);
    c->replies = calloc(REPLIES, sizeof *c->replies);
    c->lens = calloc(REPLIES, sizeof *c->lens);
    if (!c->replies || !c->lens)
        return -1;
    char buf[2048];
    for (size_t i = 0; i < REPLIES; i++) {
        size_t n = make_reply(kind, i, &seed, buf, sizeof buf);
        if (!(c->replies[i] = malloc(n + 1)))
            return -1;
        memcpy(c->replies[i], buf, n);
        c->replies[i][n] = '\0';
        c->lens[i] = n;
        c->count++;
        c->bytes += n;
    }
    return 0;
}

static void free_corpus(corpus_t *c)
{
    for (size_t i = 0; i < c->count; i++)
        free(c->replies[i]);
    free(c->replies);
    free(c->lens);
}

/* Parses every reply with `contract` into `record`; the count accepted. */
#if defined(__GNUC__)
#define BENCH_NOINLINE __attribute__((noinline))
#else
#define BENCH_NOINLINE
#endif
BENCH_NOINLINE size_t bench_pass(const contractc_contract_t *contract, const corpus_t *c,
                                 void *record, contractc_problems_t *problems);
BENCH_NOINLINE size_t bench_pass(const contractc_contract_t *contract, const corpus_t *c,
                                 void *record, contractc_problems_t *problems)
{
    size_t accepted = 0;
    for (size_t i = 0; i < c->count; i++) {
        if (contractc_parse(contract, c->replies[i], c->lens[i], NULL, 0, NULL, record,
                            problems) == CONTRACTC_OK) {
            accepted++;
            contractc_record_free(contract, record);
        } else {
            contractc_problems_clear(problems);
        }
    }
    return accepted;
}

static const struct pair {
    const char *name;
    const contractc_contract_t *contract;
    int kind;
} pairs[] = {
    {"union", &route_union_contract, 0},       {"union_plain", &route_plain_contract, 0},
    {"union_mixed", &route_union_contract, 1}, {"map", &labels_map_contract, 2},
    {"map_plain", &labels_plain_contract, 2},
};

/* One pass (after a warm-up) of pair p: the count accepted, or -1. */
static long run_pair(const struct pair *p, corpus_t *c, bool warm)
{
    void *record = calloc(1, p->contract->root->size);
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    long accepted = -1;
    if (record) {
        if (warm)
            (void)bench_pass(p->contract, c, record, &problems);
        accepted = (long)bench_pass(p->contract, c, record, &problems);
    }
    contractc_problems_clear(&problems);
    free(record);
    return accepted;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "once") == 0) {
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
            if (strcmp(pairs[i].name, argv[2]) != 0)
                continue;
            corpus_t c;
            if (make_corpus(pairs[i].kind, &c) != 0) {
                fprintf(stderr, "bench_v2: out of memory\n");
                free_corpus(&c);
                return 1;
            }
            long accepted = run_pair(&pairs[i], &c, true);
            printf("replies=%zu bytes=%zu accepted=%ld\n", c.count, c.bytes, accepted);
            int rc = accepted == (long)c.count ? 0 : 1;
            free_corpus(&c);
            return rc;
        }
    } else if (argc == 2 && strcmp(argv[1], "check") == 0) {
        int rc = 0;
        corpus_t corpora[3];
        for (int k = 0; k < 3; k++)
            if (make_corpus(k, &corpora[k]) != 0)
                rc = 1;
        for (size_t i = 0; rc == 0 && i < sizeof pairs / sizeof pairs[0]; i++) {
            const corpus_t *c = &corpora[pairs[i].kind];
            long accepted = run_pair(&pairs[i], &corpora[pairs[i].kind], false);
            printf("%-12s %s: %zu replies, %zu bytes, %ld accepted\n", pairs[i].name,
                   pairs[i].contract->name, c->count, c->bytes, accepted);
            if (accepted != (long)c->count)
                rc = 1;
        }
        for (int k = 0; k < 3; k++)
            free_corpus(&corpora[k]);
        printf("%s\n", rc ? "FAILED: a reply was rejected" : "every reply accepted");
        return rc;
    }
    fprintf(stderr, "usage: bench_v2 once union|union_plain|union_mixed|map|map_plain\n"
                    "       bench_v2 check\n");
    return 2;
}
