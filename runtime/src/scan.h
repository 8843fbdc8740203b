/* SPDX-License-Identifier: MIT */
/*
 * scan.h - the string scan's kernels (internal): the steps over plain
 * string bytes that reader.c's grammar takes, 16 bytes a step with SSE2
 * (every x86-64), else 8 bytes a step in portable C.  Every intrinsic of
 * the string scan is here, and the UTF-8 check's are in utf8.c, so that
 * reader.c is the grammar, the tokens and the messages alone.
 * docs/runtime-internals.md says what each kernel won, and by what measure.
 *
 * CONTRACTC_NO_SIMD (the CMake option CONTRACTC_SIMD=OFF) keeps the
 * portable code alone, so that it can be tested too.  Every kernel is
 * CC_INLINE: each is a few instructions of a hot loop.
 */
#ifndef CONTRACTC_SCAN_H
#define CONTRACTC_SCAN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

#if defined(__SSE2__) && !defined(CONTRACTC_NO_SIMD)
#define CC_SCAN_SSE2 1
#include <emmintrin.h>
#endif

#define CC_ONES UINT64_C(0x0101010101010101)
#define CC_HIGH UINT64_C(0x8080808080808080)

/*
 * The 8 bytes at q as a little-endian number: byte q[i] is bits 8i..8i+7,
 * whatever the host's byte order, so the lowest set bit of a byte mask
 * names the first byte.  Built from bytes (no alignment or aliasing
 * question); gcc and clang turn it into one load on little-endian hosts.
 */
static CC_INLINE uint64_t load_le64(const unsigned char *q)
{
    return (uint64_t)q[0] | (uint64_t)q[1] << 8 | (uint64_t)q[2] << 16 |
           (uint64_t)q[3] << 24 | (uint64_t)q[4] << 32 |
           (uint64_t)q[5] << 40 | (uint64_t)q[6] << 48 |
           (uint64_t)q[7] << 56;
}

/*
 * The index k (0..7) of the lowest byte of m that has its high bit set; m
 * is a non-zero mask of high bits (m & ~CC_HIGH == 0).  No builtins: m &
 * -m keeps that bit alone, 2^(8k + 7); shifted down it is 2^(8k), and
 * multiplying 0x0001020304050607 by it moves that constant's byte 7 - k,
 * which holds k, to the top.
 */
static CC_INLINE unsigned first_high_byte(uint64_t m)
{
    return (unsigned)((((m & (~m + 1)) >> 7) *
                       UINT64_C(0x0001020304050607)) >> 56);
}

/*
 * The high bit of each byte of v (8 string bytes, little-endian) that is
 * '"', '\\' or a control byte (< 0x20); bytes >= 0x80 are not marked.
 * (x - n * 0x01..) & ~x & 0x80.. marks the bytes of x below n (n <= 0x80)
 * and, through a borrow, maybe bytes above a marked one, never below one:
 * the LOWEST mark is always exact, and it is all the scan uses.  With x =
 * v ^ 0x02.., the bytes below 0x21 are v's control bytes and '"' (0x22 ^
 * 0x02 = 0x20); with x = v ^ '\\'.., the zero bytes are v's backslashes.
 * XOR with a byte below 0x80 keeps the high bit, so ~v stands for both ~x.
 */
static CC_INLINE uint64_t special8(uint64_t v)
{
    return (((v ^ CC_ONES * 0x02) - CC_ONES * 0x21) |
            ((v ^ CC_ONES * '\\') - CC_ONES)) &
           ~v & CC_HIGH;
}

/*
 * True when none of the 8 bytes at q needs a look: no '"', no '\\', no
 * control byte and no byte >= 0x80 (special8's marks are exact as a yes/no
 * for the whole word).  The careful path steps over plain text with it; its
 * byte-wise loop stays the reference.
 */
static CC_INLINE bool plain8(const unsigned char *q)
{
    const uint64_t v = load_le64(q);
    return ((special8(v) | v) & CC_HIGH) == 0;
}

#ifdef CC_SCAN_SSE2
/* Bit i set for each byte i of the 16 in v that is '"', '\\' or below
 * 0x20 (unsigned: min(b, 0x1F) == b). */
static CC_INLINE unsigned special16v(__m128i v)
{
    __m128i hit = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                     _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
        _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v));
    return (unsigned)_mm_movemask_epi8(hit);
}

static CC_INLINE unsigned special16(const unsigned char *q)
{
    return special16v(_mm_loadu_si128((const __m128i *)(const void *)q));
}

static CC_INLINE const unsigned char *skip16(const unsigned char *q,
                                             const unsigned char *lim)
{
    while (lim - q >= 16) {
        unsigned m = special16(q);
        if (m)
            return q + cc_lowest_bit(m);
        q += 16;
    }
    return q;
}
#endif

static CC_INLINE const unsigned char *skip8(const unsigned char *q,
                                            const unsigned char *lim)
{
    while (lim - q >= 8) {
        uint64_t m = special8(load_le64(q));
        if (m)
            return q + first_high_byte(m);
        q += 8;
    }
    return q;
}

/*
 * Steps from q over string bytes that are not '"', '\\' or controls, in
 * whole steps that lie before lim, where the text is known to be valid
 * UTF-8, so bytes >= 0x80 pass unseen.  Returns the first such byte, or
 * where no whole step remains (maybe inside a sequence).  skip_wide takes
 * the widest steps only (16 bytes with SSE2, else 8): with no 8-byte
 * fallback it needs few registers, for the short strings of
 * cc_scan_string; skip_plain goes on 8 bytes a step to the last 8.
 */
static CC_INLINE const unsigned char *skip_wide(const unsigned char *q,
                                                const unsigned char *lim)
{
#ifdef CC_SCAN_SSE2
    return skip16(q, lim);
#else
    return skip8(q, lim);
#endif
}

static CC_INLINE const unsigned char *skip_plain(const unsigned char *q,
                                                 const unsigned char *lim)
{
#ifdef CC_SCAN_SSE2
    q = skip16(q, lim);
    if (lim - q >= 16) /* it stopped at a special byte */
        return q;
#endif
    return skip8(q, lim);
}

/*
 * The last bytes before lim that skip_wide leaves (fewer than one of its
 * steps, lim - q < WIDE_STEP): the step that ends at lim is loaded whole,
 * and the bytes of it before q are dropped from its mask.  Returns the
 * first '"', '\\' or control byte in [q, lim), or lim.  The caller makes
 * sure that lim - WIDE_STEP is still in the reply.  So a string that ends
 * in the last bytes of the reply (the last value, a short reply) is
 * scanned here in one step, not by the general scan's byte loop.
 */
#ifdef CC_SCAN_SSE2
enum { WIDE_STEP = 16 };
static CC_INLINE const unsigned char *skip_tail(const unsigned char *q,
                                                const unsigned char *lim)
{
    /* special16 marks each byte exactly, so a shifted mask stays exact. */
    const unsigned m = special16(lim - 16) >> (16 - (unsigned)(lim - q));
    return m ? q + cc_lowest_bit(m) : lim;
}
#else
enum { WIDE_STEP = 8 };
static CC_INLINE const unsigned char *skip_tail(const unsigned char *q,
                                                const unsigned char *lim)
{
    const unsigned n = (unsigned)(lim - q), k = n ? first_high_byte(
        /* The bytes before q are shifted out (a mark there could spill a
         * borrow into q's byte); the zero bytes shifted in at the top are
         * marked, so the lowest mark, which is exact, is always below 8. */
        special8(load_le64(lim - 8) >> (8 * (8 - n)))) : 0;
    return k < n ? q + k : lim;
}
#endif

/*
 * One step of cc_scan_string_copy: stores the COPY_STEP bytes at q to d
 * whole, and returns the index of the first '"', '\\' or control byte
 * among them, or COPY_STEP when there is none.
 */
#ifdef CC_SCAN_SSE2
enum { COPY_STEP = 16 };
static CC_INLINE unsigned copy_step(const unsigned char *q, unsigned char *d)
{
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
    const unsigned m = special16v(v);
    _mm_storeu_si128((__m128i *)(void *)d, v);
    return m ? cc_lowest_bit(m) : COPY_STEP;
}
#else
enum { COPY_STEP = 8 };
static CC_INLINE unsigned copy_step(const unsigned char *q, unsigned char *d)
{
    const uint64_t m = special8(load_le64(q));
    memcpy(d, q, 8);
    return m ? first_high_byte(m) : COPY_STEP;
}
#endif

/*
 * For cc_decode_string: copies the bytes of [q, end) up to the next '\\'
 * (or all of them) to *dst, moves *dst past them and returns where the
 * copy stopped (the '\\', or end).  *dst has room for out_end - *dst
 * bytes, which is at least what is copied.  With SSE2, 16 bytes a step
 * while 16 bytes of the output remain, stored whole (what lies past the
 * escape is written over after it): one branch per escape, where memchr
 * and memcpy took several.  Then, and in portable C, memchr: the C
 * library's fastest scan for the next escape.
 */
static CC_INLINE const unsigned char *copy_to_escape(const unsigned char *q,
                                                    const unsigned char *end, char **dst,
                                                    const char *out_end)
{
    const unsigned char *run;
    char *d = *dst;
#ifdef CC_SCAN_SSE2
    while (end - q >= 16 && out_end - d >= 16) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
        const unsigned m = (unsigned)_mm_movemask_epi8(
            _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
        _mm_storeu_si128((__m128i *)(void *)d, v);
        if (m) {
            *dst = d + cc_lowest_bit(m);
            return q + cc_lowest_bit(m);
        }
        q += 16;
        d += 16;
    }
#else
    (void)out_end;
#endif
    run = memchr(q, '\\', (size_t)(end - q));
    if (!run)
        run = end;
    if (run > q) {
        memcpy(d, q, (size_t)(run - q));
        d += run - q;
    }
    *dst = d;
    return run;
}

#endif /* CONTRACTC_SCAN_H */
