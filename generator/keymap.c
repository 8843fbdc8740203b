/* SPDX-License-Identifier: MIT */
/*
 * keymap.c - the string index of keymap.h: open addressing, linear
 * probing, SipHash-2-4 under a per-process random key.
 */
#include "keymap.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                              \
    do {                                                                      \
        v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);             \
        v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                                \
        v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                                \
        v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);             \
    } while (0)

static uint64_t load_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

uint64_t cc_siphash24(uint64_t k0, uint64_t k1, const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t v0 = UINT64_C(0x736f6d6570736575) ^ k0, v1 = UINT64_C(0x646f72616e646f6d) ^ k1;
    uint64_t v2 = UINT64_C(0x6c7967656e657261) ^ k0, v3 = UINT64_C(0x7465646279746573) ^ k1;
    size_t whole = len - len % 8;
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t m = load_le64(p + i);
        v3 ^= m;
        SIPROUND;
        SIPROUND;
        v0 ^= m;
    }
    uint64_t b = (uint64_t)len << 56;
    for (size_t i = whole; i < len; i++)
        b |= (uint64_t)p[i] << (8 * (i - whole));
    v3 ^= b;
    SIPROUND;
    SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

/* The process's key: 16 bytes of /dev/urandom; where that cannot be read,
 * the clock, the process id and addresses (ASLR), mixed by SipHash: not
 * secret to someone on the machine, unknown to a model writing replies. */
static uint64_t process_k0, process_k1;
static bool process_keyed;

static void draw_process_key(void)
{
    unsigned char k[16];
    size_t got = 0;
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd >= 0) {
        while (got < sizeof k) {
            ssize_t n = read(fd, k + got, sizeof k - got);
            if (n <= 0)
                break;
            got += (size_t)n;
        }
        close(fd);
    }
    if (got == sizeof k) {
        process_k0 = load_le64(k);
        process_k1 = load_le64(k + 8);
    } else {
        struct timespec ts = {0, 0};
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t mix[5] = {(uint64_t)ts.tv_sec, (uint64_t)ts.tv_nsec, (uint64_t)getpid(),
                           (uint64_t)(uintptr_t)&ts, (uint64_t)(uintptr_t)&draw_process_key};
        process_k0 = cc_siphash24(1, 2, mix, sizeof mix);
        process_k1 = cc_siphash24(3, 4, mix, sizeof mix);
    }
    process_keyed = true;
}

void cc_keymap_init(cc_keymap_t *m)
{
    if (!process_keyed)
        draw_process_key();
    m->slots = NULL;
    m->capacity = m->count = 0;
    m->k0 = process_k0;
    m->k1 = process_k1;
}

uint64_t cc_keymap_hash(const cc_keymap_t *m, const void *key, size_t len)
{
    return cc_siphash24(m->k0, m->k1, key, len);
}

bool cc_keymap_find(const cc_keymap_t *m, const void *key, size_t len, uint64_t hash,
                    size_t *value)
{
    if (!m->capacity)
        return false;
    size_t mask = m->capacity - 1;
    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
        const cc_keymap_slot_t *s = &m->slots[i];
        if (!s->key)
            return false;
        if (s->hash == hash && s->len == len && memcmp(s->key, key, len) == 0) {
            *value = s->value;
            return true;
        }
    }
}

static void place(cc_keymap_slot_t *slots, size_t capacity, const cc_keymap_slot_t *e)
{
    size_t mask = capacity - 1;
    size_t i = (size_t)e->hash & mask;
    while (slots[i].key)
        i = (i + 1) & mask;
    slots[i] = *e;
}

bool cc_keymap_insert(cc_keymap_t *m, const char *key, size_t len, uint64_t hash, size_t value)
{
    /* at most half full: probes stay short */
    if ((m->count + 1) * 2 > m->capacity) {
        size_t cap = m->capacity ? m->capacity * 2 : 16;
        if (cap < m->capacity || cap > (size_t)-1 / sizeof *m->slots)
            return false;
        cc_keymap_slot_t *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return false;
        for (size_t i = 0; i < m->capacity; i++)
            if (m->slots[i].key)
                place(slots, cap, &m->slots[i]);
        free(m->slots);
        m->slots = slots;
        m->capacity = cap;
    }
    cc_keymap_slot_t e = {key, len, hash, value};
    place(m->slots, m->capacity, &e);
    m->count++;
    return true;
}

void cc_keymap_free(cc_keymap_t *m)
{
    free(m->slots);
    m->slots = NULL;
    m->capacity = m->count = 0;
}
