/* SPDX-License-Identifier: MIT */
/*
 * key_segment.c - writes the JSONPath segment of a key from a reply
 * (key_segment.h): ".key" for [A-Za-z_][A-Za-z0-9_]*, else RFC 9535
 * bracket notation with its escaping (section 2.3.1.1), cut to 64 code
 * points plus "…".
 *
 * Every reported unexpected key renders one, and a hostile reply reports
 * up to the problem cap of them, so the cost of a reported key against a
 * counted one decides how flat the time per byte stays (issue 8): with
 * SSE2 a key of up to 32 bytes is classified 16 bytes a load where it is
 * written; other builds use one table lookup a byte.
 */
#include "key_segment.h"

#include "internal.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* CONTRACTC_NO_SIMD keeps the portable code alone, as in reader.c. */
#if defined(__SSE2__) && !defined(CONTRACTC_NO_SIMD)
#define CC_KEY_SSE2 1
#include <emmintrin.h>
#endif

#ifndef CC_KEY_SSE2
/* The classes of a key's bytes for its path segment: KEY_IDENT for
 * [A-Za-z0-9_], KEY_ESCAPE for what RFC 9535 bracket notation escapes
 * (section 2.3.1.1: control bytes, '\'' and '\\').  One table lookup a byte
 * in the portable key_scan (keys are short: testing eight bytes at a time
 * did not pay there). */
enum { KEY_IDENT = 1, KEY_ESCAPE = 2 };
#define I_ KEY_IDENT
#define E_ KEY_ESCAPE
static const unsigned char key_class[256] = {
    E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, /* 0x00 */
    E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, E_, /* 0x10 */
    0,  0,  0,  0,  0,  0,  0,  E_, 0,  0,  0,  0,  0,  0,  0,  0,  /* 0x20 ' */
    I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, 0,  0,  0,  0,  0,  0,  /* 0x30 0-9 */
    0,  I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, /* 0x40 A-O */
    I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, 0,  E_, 0,  0,  I_, /* 0x50 P-Z \ _ */
    0,  I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, /* 0x60 a-o */
    I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, 0,  0,  0,  0,  0,  /* 0x70 p-z */
    /* 0x80..0xFF: 0 (UTF-8 is copied as it is) */
};
#undef I_
#undef E_
#endif

/* Copies n <= 32 bytes, most often a few (a key, or part of one): two
 * overlapping fixed-size copies, which become a few moves, where a call to
 * memcpy costs more than the copy. */
static inline void copy_upto32(char *dst, const char *src, size_t n)
{
    if (n >= 8) {
        if (n <= 16) {
            uint64_t head, tail;
            memcpy(&head, src, 8);
            memcpy(&tail, src + n - 8, 8);
            memcpy(dst, &head, 8);
            memcpy(dst + n - 8, &tail, 8);
        } else {
            char head[16], tail[16];
            memcpy(head, src, 16);
            memcpy(tail, src + n - 16, 16);
            memcpy(dst, head, 16);
            memcpy(dst + n - 16, tail, 16);
        }
    } else if (n >= 4) {
        uint32_t head, tail;
        memcpy(&head, src, 4);
        memcpy(&tail, src + n - 4, 4);
        memcpy(dst, &head, 4);
        memcpy(dst + n - 4, &tail, 4);
    } else if (n) {
        dst[0] = src[0];
        dst[n / 2] = src[n / 2];
        dst[n - 1] = src[n - 1];
    }
}

/* Copies n bytes: copy_upto32 for the short ones. */
static inline void copy_short(char *dst, const char *src, size_t n)
{
    if (n <= 32)
        copy_upto32(dst, src, n);
    else
        memcpy(dst, src, n);
}

#ifdef CC_KEY_SSE2
/* The classes of 16 key bytes as two lane masks: *escape, the bytes that
 * need one (control bytes, '\'' and '\\'); the result, the identifier
 * bytes [A-Za-z0-9_].  Unsigned compares as min(x, hi) == x. */
static unsigned key_classes16(__m128i v, unsigned *escape)
{
    const __m128i ctrl = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
    const __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('\''));
    const __m128i bslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    *escape = (unsigned)_mm_movemask_epi8(_mm_or_si128(ctrl, _mm_or_si128(quote, bslash)));
    const __m128i l = _mm_sub_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
    const __m128i letter = _mm_cmpeq_epi8(_mm_min_epu8(l, _mm_set1_epi8(25)), l);
    const __m128i d = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    const __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
    const __m128i under = _mm_cmpeq_epi8(v, _mm_set1_epi8('_'));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(letter, _mm_or_si128(digit, under)));
}
#endif

/* Scans key bytes u[0..n): returns the index of the first that needs an
 * escape (n if none), and sets *ident to whether all n are identifier
 * bytes.  Every reported unexpected key is scanned, so with SSE2 it takes
 * 16 bytes a step, the last few copied into a buffer (a key may end its
 * allocation), else four bytes a table test. */
static size_t key_scan(const unsigned char *u, size_t n, bool *ident)
{
#ifdef CC_KEY_SSE2
    bool all = true;
    for (size_t i = 0; i < n; i += 16) {
        unsigned escape, lanes = 0xFFFF, id;
        if (n - i >= 16) {
            id = key_classes16(_mm_loadu_si128((const __m128i *)(const void *)(u + i)), &escape);
        } else {
            unsigned char last[16] = {0};
            memcpy(last, u + i, n - i);
            id = key_classes16(_mm_loadu_si128((const __m128i *)(void *)last), &escape);
            lanes = (1u << (n - i)) - 1;
        }
        if (escape & lanes) {
            *ident = false; /* an escaped byte is no identifier byte */
            return i + cc_lowest_bit(escape & lanes);
        }
        all = all && (id & lanes) == lanes;
    }
    *ident = all;
    return n;
#else
    unsigned all = KEY_IDENT;
    size_t i = 0;
    while (i + 4 <= n) {
        unsigned a = key_class[u[i]], b = key_class[u[i + 1]];
        unsigned x = key_class[u[i + 2]], y = key_class[u[i + 3]];
        if ((a | b | x | y) & KEY_ESCAPE)
            break;
        all &= a & b & x & y;
        i += 4;
    }
    for (; i < n && !(key_class[u[i]] & KEY_ESCAPE); i++)
        all &= key_class[u[i]];
    *ident = i == n && (all & KEY_IDENT);
    return i;
#endif
}

#define CC_KEY_SHORT 32 /* bytes of a key key_segment_short takes */

/* Appends byte ch of a key in bracket notation at seg[o]; returns the new o. */
static inline size_t put_key_byte(char *seg, size_t o, unsigned char ch)
{
    static const char hex[] = "0123456789abcdef";
    if (ch == '\'' || ch == '\\') {
        seg[o++] = '\\';
    } else if (ch < 0x20) {
        const char *named = ch == '\b' ? "b" : ch == '\f' ? "f" : ch == '\n' ? "n"
                          : ch == '\r' ? "r" : ch == '\t' ? "t" : NULL;
        seg[o++] = '\\';
        if (named) {
            seg[o++] = named[0];
            return o;
        }
        seg[o++] = 'u';
        seg[o++] = '0';
        seg[o++] = '0';
        seg[o++] = hex[ch >> 4];
        ch = (unsigned char)hex[ch & 15];
    }
    seg[o++] = (char)ch;
    return o;
}

#ifdef CC_KEY_SSE2
/* key_segment for a key of at most 32 bytes (nearly every key), with
 * SSE2: the key is copied where bracket notation puts it and classified
 * there whole, 16 bytes a load (cc_key_segment_max leaves the room; the lanes
 * past the key are masked off), then moved one byte down for a dot, or
 * its escapes, if any, written one by one. */
static size_t key_segment_short(char *seg, const char *k, size_t n)
{
    copy_upto32(seg + 2, k, n);
    const __m128i lo = _mm_loadu_si128((const __m128i *)(void *)(seg + 2));
    __m128i hi = lo;
    unsigned esc_lo, esc_hi = 0, id_hi = 0;
    const unsigned id_lo = key_classes16(lo, &esc_lo);
    if (n > 16) {
        hi = _mm_loadu_si128((const __m128i *)(void *)(seg + 18));
        id_hi = key_classes16(hi, &esc_hi);
    }
    const uint32_t lanes = n == CC_KEY_SHORT ? UINT32_C(0xFFFFFFFF) : ((uint32_t)1 << n) - 1;
    const uint32_t id = (id_lo | (uint32_t)id_hi << 16) & lanes;
    if (id == lanes && n > 0 && !(k[0] >= '0' && k[0] <= '9')) {
        seg[0] = '.'; /* an identifier byte never needs an escape */
        _mm_storeu_si128((__m128i *)(void *)(seg + 1), lo);
        if (n > 16)
            _mm_storeu_si128((__m128i *)(void *)(seg + 17), hi);
        return n + 1;
    }
    seg[0] = '[';
    seg[1] = '\'';
    size_t o = 2 + n;
    uint32_t esc = (esc_lo | (uint32_t)esc_hi << 16) & lanes;
    if (esc) {
        /* From the first escape on, the key is written again from k: each
         * escape, then the run of bytes up to the next. */
        size_t i = cc_lowest_bit(esc);
        o = 2 + i;
        for (;;) {
            o = put_key_byte(seg, o, (unsigned char)k[i]);
            esc &= esc - 1;
            const size_t e = esc ? cc_lowest_bit(esc) : n;
            copy_upto32(seg + o, k + i + 1, e - i - 1);
            o += e - i - 1;
            if (!esc)
                break;
            i = e;
        }
    }
    seg[o++] = '\'';
    seg[o++] = ']';
    return o;
}
#endif

/* Writes the path segment of a key from the reply at seg (room for
 * cc_key_segment_max(n) bytes) and returns its length: ".key" for
 * [A-Za-z_][A-Za-z0-9_]*, else RFC 9535 bracket notation with its escaping
 * (section 2.3.1.1); cut to 64 code points plus "…".  Every reported
 * unexpected key renders one: one scan finds whether the key is an
 * identifier and where its first escape is (usually it has none), and the
 * bytes before that are copied at once. */
size_t cc_key_segment(char *seg, const char *k, size_t n)
{
#ifdef CC_KEY_SSE2
    if (n <= CC_KEY_SHORT)
        return key_segment_short(seg, k, n);
#endif
    const unsigned char *u = (const unsigned char *)k;
    /* cut: the bytes of the first 64 code points.  A key of at most 64
     * bytes has at most 64 code points: no count needed. */
    size_t cut = n;
    if (n > CC_KEY_ECHO_CODE_POINTS) {
        size_t cps = 0;
        for (size_t i = 0; i < n; i++) {
            if ((u[i] & 0xC0) != 0x80 && cps++ == CC_KEY_ECHO_CODE_POINTS) {
                cut = i;
                break;
            }
        }
    }
    /* run: the bytes before the first that needs an escape (usually all
     * of them); a key that is all identifier bytes, past the cut too, is
     * written with a dot */
    bool ident;
    size_t run = key_scan(u, n, &ident);
    if (run > cut)
        run = cut;
    size_t o;
    const bool dot = ident && n > 0 && !(u[0] >= '0' && u[0] <= '9');
    if (dot) {
        seg[0] = '.';
        copy_short(seg + 1, k, cut);
        o = 1 + cut;
    } else {
        seg[0] = '[';
        seg[1] = '\'';
        o = 2;
        size_t i = 0;
        for (;;) {
            copy_short(seg + o, k + i, run - i);
            o += run - i;
            if (run == cut)
                break;
            o = put_key_byte(seg, o, u[run]);
            i = ++run;
            run += key_scan(u + run, cut - run, &ident);
        }
    }
    if (cut < n) {
        memcpy(seg + o, "\xE2\x80\xA6", 3); /* … */
        o += 3;
    }
    if (!dot) {
        seg[o++] = '\'';
        seg[o++] = ']';
    }
    return o;
}
