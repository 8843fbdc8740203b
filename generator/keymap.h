/* SPDX-License-Identifier: MIT */
/*
 * keymap.h - an index from byte strings to positions in the caller's array
 * (internal to the generator; `contractc stats` counts with it).
 *
 * Open addressing with linear probing, at most half full, hashed with
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
 * 2012) under a key drawn once per process from /dev/urandom: the keys come
 * from decision logs, whose paths a model's reply chooses, so a hash that
 * anyone can compute would let a reply make every key collide and the
 * counting quadratic again.  Lookups and inserts take expected constant
 * time; the order of the caller's array is never the table's, so output
 * that follows the array is the same in every run.
 *
 * The map stores pointers to the keys, not copies: each key must stay valid
 * and unchanged while the map holds it (the caller's own copy of the key,
 * allocated once per entry).  Not thread-safe (the process key is drawn
 * without a lock on first use).
 */
#ifndef CONTRACTC_KEYMAP_H
#define CONTRACTC_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cc_keymap_slot {
    const char *key;   /* NULL: an empty slot */
    size_t len;        /* bytes of key (it may hold NUL bytes) */
    uint64_t hash;
    size_t value;      /* the caller's position */
} cc_keymap_slot_t;

typedef struct cc_keymap {
    cc_keymap_slot_t *slots;
    size_t capacity;   /* 0 or a power of two */
    size_t count;
    uint64_t k0, k1;   /* the SipHash key */
} cc_keymap_t;

/* An empty map (allocates nothing until the first insert). */
void cc_keymap_init(cc_keymap_t *m);

/* The hash of key[0..len) under the map's key, for cc_keymap_find and
 * cc_keymap_insert. */
uint64_t cc_keymap_hash(const cc_keymap_t *m, const void *key, size_t len);

/* True with *value set when key[0..len) (hash from cc_keymap_hash) is in
 * the map. */
bool cc_keymap_find(const cc_keymap_t *m, const void *key, size_t len, uint64_t hash,
                    size_t *value);

/* Adds key[0..len) -> value; the key must not be in the map yet and must
 * outlive its entry.  False when out of memory (the map is unchanged). */
bool cc_keymap_insert(cc_keymap_t *m, const char *key, size_t len, uint64_t hash, size_t value);

/* Frees the slots (not the keys) and empties the map. */
void cc_keymap_free(cc_keymap_t *m);

/* SipHash-2-4 of data[0..len) under the 128-bit key (k0, k1), k0 holding
 * key bytes 0..7 and k1 bytes 8..15, little-endian (the paper's
 * convention, so its test vectors apply). */
uint64_t cc_siphash24(uint64_t k0, uint64_t k1, const void *data, size_t len);

#endif /* CONTRACTC_KEYMAP_H */
