/* SPDX-License-Identifier: MIT */
/*
 * arena.c - the memory of one accepted record, freed at once.
 *
 * A record's strings and arrays live in one arena (docs/contract-language.md:
 * "the whole record in one arena freed by NAME_free").  The first block is
 * sized from the reply, so a record is usually one allocation; later blocks
 * are as large as the first.  Aligned objects grow up from a block's bottom
 * and text grows down from its top, so the array being filled is usually the
 * newest bottom object and grows in place even while its items' strings are
 * being stored.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* cc_block_t and struct contractc_arena are in internal.h, for the inline
 * fast path of cc_arena_alloc_bytes. */
#define CC_ALIGN 16u /* >= alignof of every type the runtime stores */

#define ROUND_UP(n, a) (((n) + ((a) - 1)) & ~(size_t)((a) - 1))
#define HEADER_SIZE CC_ARENA_HEADER
#define ARENA_SIZE ROUND_UP(sizeof(struct contractc_arena), CC_ALIGN)

/* cc_alloc and cc_free, inline here: every record's block goes through
 * them, and the calls cost more than the choice they make. */
static inline void *alloc_with(const contractc_allocator_t *a, size_t size)
{
    if (size == 0)
        size = 1;
    return a ? a->alloc(a->ctx, size) : malloc(size);
}

static inline void free_with(const contractc_allocator_t *a, void *ptr, size_t size)
{
    if (!ptr)
        return;
    if (a)
        a->free(a->ctx, ptr, size ? size : 1);
    else
        free(ptr);
}

void *cc_alloc(const contractc_allocator_t *a, size_t size) { return alloc_with(a, size); }

void cc_free(const contractc_allocator_t *a, void *ptr, size_t size) { free_with(a, ptr, size); }

static unsigned char *block_data(cc_block_t *b) { return (unsigned char *)b + HEADER_SIZE; }

/* A new block with at least `need` bytes of data (and `extra` bytes in front
 * of the data for the arena struct when it is the first). */
static cc_block_t *block_new(const contractc_allocator_t *allocator, size_t need)
{
    if (need > (size_t)-1 / 2 - HEADER_SIZE)
        return NULL;
    cc_block_t *b = alloc_with(allocator, HEADER_SIZE + need);
    if (!b)
        return NULL;
    b->prev = NULL;
    b->size = need;
    b->lo = 0;
    b->hi = need;
    return b;
}

contractc_arena_t *cc_arena_create(const contractc_allocator_t *allocator,
                                   size_t first_block)
{
    if (first_block < 256)
        first_block = 256;
    if (first_block > (size_t)-1 / 4)
        return NULL;
    cc_block_t *b = block_new(allocator, ARENA_SIZE + ROUND_UP(first_block, CC_ALIGN));
    if (!b)
        return NULL;
    /* The arena struct is the first object of its first block. */
    contractc_arena_t *arena = (contractc_arena_t *)block_data(b);
    b->lo = ARENA_SIZE;
    arena->allocator = allocator;
    arena->head = b;
    arena->chunk = ROUND_UP(first_block, CC_ALIGN);
    arena->blocks = 1;
    arena->reserved = HEADER_SIZE + b->size;
    return arena;
}

/* Later blocks are as large as the first (which is sized from the reply),
 * or as the request: memory then grows linearly with what the reply holds,
 * never in powers of two past it. */
static cc_block_t *arena_add_block(contractc_arena_t *arena, size_t need)
{
    size_t size = arena->chunk;
    if (size < need)
        size = need;
    cc_block_t *b = block_new(arena->allocator, ROUND_UP(size, CC_ALIGN));
    if (!b)
        return NULL;
    b->prev = arena->head;
    arena->head = b;
    arena->blocks++;
    arena->reserved += HEADER_SIZE + b->size;
    return b;
}

void *cc_arena_alloc(contractc_arena_t *arena, size_t size, size_t align)
{
    if (size > (size_t)-1 / 4)
        return NULL;
    cc_block_t *b = arena->head;
    size_t at = ROUND_UP(b->lo, align);
    if (at > b->hi || b->hi - at < size) {
        b = arena_add_block(arena, size + align);
        if (!b)
            return NULL;
        at = 0;
    }
    void *p = block_data(b) + at;
    memset(p, 0, size);
    b->lo = at + size;
    return p;
}

/* cc_arena_alloc_bytes (internal.h) when the head block has no room. */
char *cc_arena_alloc_bytes_slow(contractc_arena_t *arena, size_t size)
{
    if (size > (size_t)-1 / 4)
        return NULL;
    cc_block_t *b = arena->head;
    if (b->hi - b->lo < size) {
        b = arena_add_block(arena, size);
        if (!b)
            return NULL;
    }
    b->hi -= size;
    return (char *)block_data(b) + b->hi;
}

void *cc_arena_grow(contractc_arena_t *arena, void *ptr, size_t old_size,
                    size_t new_size, size_t align)
{
    if (new_size > (size_t)-1 / 4)
        return NULL;
    cc_block_t *b = arena->head;
    unsigned char *data = block_data(b);
    if (ptr && (unsigned char *)ptr + old_size == data + b->lo &&
        b->hi - (size_t)((unsigned char *)ptr - data) >= new_size) {
        /* The newest bottom object: grow in place. */
        memset((unsigned char *)ptr + old_size, 0, new_size - old_size);
        b->lo = (size_t)((unsigned char *)ptr - data) + new_size;
        return ptr;
    }
    void *p = cc_arena_alloc(arena, new_size, align);
    if (p && old_size)
        memcpy(p, ptr, old_size);
    return p;
}

size_t cc_arena_blocks(const contractc_arena_t *arena) { return arena ? arena->blocks : 0; }

size_t cc_arena_reserved(const contractc_arena_t *arena) { return arena ? arena->reserved : 0; }

void cc_arena_destroy(contractc_arena_t *arena)
{
    if (!arena)
        return;
    const contractc_allocator_t *allocator = arena->allocator;
    cc_block_t *b = arena->head;
    while (b) {
        cc_block_t *prev = b->prev;
        /* The first block holds the arena itself: free it last, as usual. */
        free_with(allocator, b, HEADER_SIZE + b->size);
        b = prev;
    }
}
