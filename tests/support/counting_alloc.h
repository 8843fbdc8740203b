/* SPDX-License-Identifier: MIT */
/*
 * counting_alloc.h - a contractc_allocator_t for the allocation-failure
 * sweeps of the tests: it fails its fail_at-th allocation once (0: none)
 * and counts allocations, frees and the bytes still live, so a test can
 * assert that every run ended OK or ENOMEM and freed every byte at the
 * size it was allocated with.
 *
 *   counting_t c = {0, 0, fail, 0};
 *   contractc_allocator_t a = {count_alloc, count_free, &c};
 *   ... run with options.allocator = &a ...
 *   ck_assert(c.live == 0 && c.allocs == c.frees);
 *   if (c.fail_at) break;   (the failure point lies beyond the run)
 */
#ifndef CONTRACTC_TESTS_COUNTING_ALLOC_H
#define CONTRACTC_TESTS_COUNTING_ALLOC_H

#include <stdlib.h>

typedef struct counting {
    long allocs, frees, fail_at; /* fail_at: the allocation number that fails (0: none) */
    size_t live;
} counting_t;

static void *count_alloc(void *ctx, size_t size)
{
    counting_t *c = ctx;
    if (c->fail_at && c->allocs + 1 == c->fail_at) {
        c->fail_at = 0; /* fail once */
        return NULL;
    }
    void *p = malloc(size);
    if (p) {
        c->allocs++;
        c->live += size;
    }
    return p;
}

static void count_free(void *ctx, void *ptr, size_t size)
{
    counting_t *c = ctx;
    if (!ptr)
        return;
    c->frees++;
    c->live -= size;
    free(ptr);
}

#endif /* CONTRACTC_TESTS_COUNTING_ALLOC_H */
