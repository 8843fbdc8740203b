/* SPDX-License-Identifier: MIT */
/*
 * internal.h - helpers shared by the runtime's source files (not installed).
 */
#ifndef CONTRACTC_INTERNAL_H
#define CONTRACTC_INTERNAL_H

#include <string.h>

#include "contractc/contractc.h"
#include "private.h"

/* Inlining steered where it was measured (docs/runtime-internals.md,
 * "Inlining"): CC_INLINE for a small helper of a hot loop that must be
 * inlined, CC_NOINLINE for a cold or rarely taken path that must stay out
 * of its caller (inlined, it costs the caller registers and stack on every
 * reply).  Plain C where the compiler has no such attribute: then the
 * compiler decides, and only the instruction counts differ. */
#if defined(__GNUC__) || defined(__clang__)
#define CC_INLINE inline __attribute__((always_inline))
#define CC_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define CC_INLINE __forceinline
#define CC_NOINLINE __declspec(noinline)
#else
#define CC_INLINE inline
#define CC_NOINLINE
#endif

/* The index of the lowest set bit of m (m != 0), without builtins (C99
 * has none): m & -m is a power of two, and a de Bruijn multiply names it.
 * For the lane masks of the SIMD scans (scan.h, utf8.c). */
static inline unsigned cc_lowest_bit(uint32_t m)
{
    static const unsigned char index[32] = {
        0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
        31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9,
    };
    const uint32_t bit = m & (0u - m);
    return index[(uint32_t)(bit * UINT32_C(0x077CB531)) >> 27];
}

/* A value held as a pointer and then its size_t (docs/contract-language.md
 * §7): a string or json's length, an array's items or a map's entries
 * count.  One rule for the reader's slots (validate.c) and the canonical
 * form (to_json.c), wherever such a value is an item, a map's value or an
 * alternative of a value union. */
static inline int cc_type_has_count(contractc_type_t t)
{
    return t == CONTRACTC_TYPE_STRING || t == CONTRACTC_TYPE_JSON || t == CONTRACTC_TYPE_ARRAY ||
           t == CONTRACTC_TYPE_MAP;
}

/* ---- allocation (allocator or malloc) --------------------------------- */
CC_PRIVATE void *cc_alloc(const contractc_allocator_t *a, size_t size);
CC_PRIVATE void cc_free(const contractc_allocator_t *a, void *ptr, size_t size);

/* ---- arena.c ----------------------------------------------------------
 * Blocks of memory freed all at once.  Aligned objects (structs, arrays)
 * grow up from the bottom of a block; byte strings grow down from its top,
 * so an array being filled is usually the last bottom allocation and can
 * grow in place.  The arena struct lives in its first block: one
 * allocation for a record in the common case. */
CC_PRIVATE contractc_arena_t *cc_arena_create(const contractc_allocator_t *allocator,
                                   size_t first_block);

/* The layout, here for the inline part of cc_arena_alloc_bytes; only
 * arena.c and that function touch it. */
typedef struct cc_block {
    struct cc_block *prev;
    size_t size;  /* bytes of data */
    size_t lo;    /* data[0..lo) holds aligned objects */
    size_t hi;    /* data[hi..size) holds text */
} cc_block_t;

struct contractc_arena {
    const contractc_allocator_t *allocator;
    cc_block_t *head;
    size_t chunk;     /* size of later blocks' data */
    size_t blocks;
    size_t reserved;
};

/* Bytes of a block's header: its data starts this far in, 16-aligned. */
#define CC_ARENA_HEADER ((sizeof(cc_block_t) + 15u) & ~(size_t)15u)
/* Aligned (align: power of two <= 16) zeroed memory; NULL when out of
 * memory or on size overflow. */
CC_PRIVATE void *cc_arena_alloc(contractc_arena_t *arena, size_t size, size_t align);
/* size bytes for text (no alignment, not zeroed); NULL when out of memory
 * or on size overflow.  Inline while the head block has room: every
 * string value of a record is stored through it. */
CC_PRIVATE char *cc_arena_alloc_bytes_slow(contractc_arena_t *arena, size_t size);
static inline char *cc_arena_alloc_bytes(contractc_arena_t *arena, size_t size)
{
    cc_block_t *b = arena->head;
    if (size <= b->hi - b->lo) {
        b->hi -= size;
        return (char *)b + CC_ARENA_HEADER + b->hi;
    }
    return cc_arena_alloc_bytes_slow(arena, size);
}
/* Grows the latest cc_arena_alloc result `ptr` from old_size to new_size
 * bytes (in place when possible, else moved; the new part is zeroed). */
CC_PRIVATE void *cc_arena_grow(contractc_arena_t *arena, void *ptr, size_t old_size,
                    size_t new_size, size_t align);
/* Number of blocks (allocations) and bytes reserved, for tests and bench. */
CC_PRIVATE size_t cc_arena_blocks(const contractc_arena_t *arena);
CC_PRIVATE size_t cc_arena_reserved(const contractc_arena_t *arena);
CC_PRIVATE void cc_arena_destroy(contractc_arena_t *arena); /* NULL-safe */

/* ---- str: a capped text builder for messages ---------------------------
 * Messages are built only on rejection; the builder uses the problem
 * list's allocator and is sticky on failure like cc_buf_t.  It starts
 * either empty (cc_str_init: the text goes to the heap, for results handed
 * to the caller) or in a buffer the caller owns (cc_str_init_buf: a typical
 * message then allocates nothing, and spills to the heap only when it
 * outgrows the buffer).  Either way cc_str_free releases what it owns. */
typedef struct cc_str {
    char *data;      /* the text, NUL-terminated once anything is appended */
    size_t len, capacity;
    bool failed;
    bool discard; /* the message would be dropped (the list is full): build nothing */
    bool owned;   /* data is on the heap (this builder frees it), not the caller's buffer */
    const contractc_allocator_t *allocator;
} cc_str_t;

CC_PRIVATE void cc_str_init(cc_str_t *s, const contractc_allocator_t *allocator);
/* Starts in buf[0..size) (size >= 1), which must outlive the builder's use.
 * Inline, like cc_str_append and cc_str_free: a message is a handful of
 * stores when it fits its buffer. */
static inline void cc_str_init_buf(cc_str_t *s, const contractc_allocator_t *allocator,
                                   char *buf, size_t size)
{
    s->data = buf;
    s->len = 0;
    s->capacity = size;
    s->failed = s->discard = s->owned = false;
    s->allocator = allocator;
    buf[0] = '\0';
}
/* Makes room and appends (the out-of-line half of cc_str_append). */
CC_PRIVATE void cc_str_append_slow(cc_str_t *s, const char *text, size_t n);

/* Messages are built from many short pieces: the common case (the piece
 * fits) is inline, so that a literal's strlen folds and no call is made.
 * A discarding or empty builder has capacity 0 and always takes the slow
 * path, which knows about `discard` and `failed`. */
static inline void cc_str_append(cc_str_t *s, const char *text, size_t n)
{
    if (n < s->capacity - s->len) { /* room for the piece and the NUL */
        memcpy(s->data + s->len, text, n);
        s->len += n;
        s->data[s->len] = '\0';
    } else {
        cc_str_append_slow(s, text, n);
    }
}

static inline void cc_str_puts(cc_str_t *s, const char *text)
{
    cc_str_append(s, text, strlen(text));
}

CC_PRIVATE void cc_str_putu(cc_str_t *s, uint64_t value);
CC_PRIVATE void cc_str_puti(cc_str_t *s, int64_t value);

/* ---- JSON text (RFC 8259): the one string escaper and number check ----
 * Everything the runtime writes or checks as JSON goes through these two
 * (the canonical form, the decision log, messages that quote a value), and
 * so do the generator and the chat client, through the public
 * contractc_json_string and contractc_json_number_valid. */

/* Appends text[0..n) as a JSON string literal in the canonical form's
 * minimal escaping (docs/contract-language.md, "Canonical form of a
 * record"): '"' and '\' with a backslash, the control characters below
 * U+0020 as \b \f \n \r \t or \u00xx (lowercase hex), every other
 * byte as it is, except that a byte starting no well-formed UTF-8 sequence
 * becomes U+FFFD, so the literal is always valid JSON.  max_code_points
 * > 0: at most that many code points of the text, then "…" inside the
 * quotes when more followed; 0: all of it. */
CC_PRIVATE void cc_str_json_string(cc_str_t *s, const char *text, size_t n, size_t max_code_points);

/* True when s[0..n) is exactly one RFC 8259 number (section 6: no sign
 * but '-', no leading zero, no white space around it), by the reader's own
 * number scan (cc_scan_number). */
CC_PRIVATE bool cc_json_number_valid(const char *s, size_t n);

/* How many code points of a reply value a message quotes
 * (docs/contract-language.md, "Fine print"). */
#define CC_ECHO_CODE_POINTS 40

/* Appends a reply value as a JSON string literal, cut to 40 code points
 * with "…". */
static inline void cc_str_quote(cc_str_t *s, const char *text, size_t n)
{
    cc_str_json_string(s, text, n, CC_ECHO_CODE_POINTS);
}
/* Appends raw token text (numbers), cut to 40 bytes with "…". */
CC_PRIVATE void cc_str_token(cc_str_t *s, const char *text, size_t n);
static inline void cc_str_free(cc_str_t *s)
{
    if (s->owned)
        cc_free(s->allocator, s->data, s->capacity);
    s->data = NULL;
    s->len = s->capacity = 0;
    s->owned = false;
}

/* ---- problems.c ------------------------------------------------------- */

/* Appends a problem (copies every string: path[0..np), message[0..nm),
 * log_message[0..nl), rule NUL-terminated or NULL).  Counts it in
 * `dropped` beyond the cap.  Returns false only when out of memory. */
CC_PRIVATE bool cc_problems_add(contractc_problems_t *problems, contractc_kind_t kind,
                     const char *path, size_t np, const char *message, size_t nm,
                     const char *log_message, size_t nl, const char *rule,
                     size_t line, size_t column);
/* Frees the problems from index `keep` on and resets `dropped` to
 * `dropped`: a document-level problem replaces the others. */
CC_PRIVATE void cc_problems_truncate(contractc_problems_t *problems, size_t keep,
                          size_t dropped);

/* ---- validate.c, for stream.c ---------------------------------------- */

/* What cc_parse_prefix found besides its status; `item` and `item_user`
 * are set by the caller. */
typedef struct cc_prefix_result {
    /* NULL, or called for each item of an array field of the root object
     * once the item closed and passed its checks, while no problem was
     * found before it (docs/contract-language.md §18): the field, the
     * item's index, the item as stored in the record (valid during the
     * call only). */
    void (*item)(void *user, const contractc_field_t *field, size_t index, const void *at);
    void *item_user;
    bool ended;           /* the text ran out inside a value (or before
                             one): the status is CONTRACTC_REJECTED, and the
                             list holds the problems found before, `found`
                             of them (0: the prefix may still be accepted) */
    bool ended_in_string; /* ... inside a string */
    bool fence_open;      /* a fence was opened and is not closed yet */
    size_t found;         /* problems found, kept or dropped */
} cc_prefix_result_t;

/*
 * contractc_parse over a prefix of a reply, the bytes a stream has received
 * (docs/contract-language.md §18): the same interpreter and reader with
 * every check and message, in the reader's prefix mode (running out of
 * text is `ended`, not a problem).  The arguments were checked by
 * contractc_stream_new (the source's UTF-8 included); out and problems as
 * contractc_parse's.
 */
CC_PRIVATE contractc_status_t cc_parse_prefix(const contractc_contract_t *contract,
                                   const char *reply, size_t reply_len, const char *source,
                                   size_t source_len, const contractc_options_t *options,
                                   void *out, contractc_problems_t *problems,
                                   cc_prefix_result_t *res);

/* ---- stream.c, for loop.c -------------------------------------------- */

/* The bytes fed to `s` so far (its copy, valid until the next feed or its
 * free), *len of them: what a reply stopped at DEAD was, whatever the model
 * function says (docs/contract-language.md §18, "Streaming in the loop"). */
CC_PRIVATE const char *cc_stream_bytes(const contractc_stream_t *s, size_t *len);

#endif /* CONTRACTC_INTERNAL_H */
