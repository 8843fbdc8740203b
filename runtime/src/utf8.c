/* SPDX-License-Identifier: MIT */
/*
 * utf8.c - the runtime's one UTF-8 rule (RFC 3629 section 4) and its
 * checks (reader.h): the length of a sequence, the well-formed prefix of a
 * text, the code points of a decoded one.  Every intrinsic of the UTF-8
 * check is here: with SSE2 (every x86-64) it takes 16 or 64 bytes a step,
 * with SSSE3 the lookup-table check of Keiser and Lemire, with AVX2 the
 * same 32 bytes a step; CONTRACTC_NO_SIMD keeps the portable code alone.
 * docs/runtime-internals.md says what each path won, and by what measure.
 */
#include "internal.h"
#include "reader.h"
#include "scan.h"

/*
 * The rule itself, RFC 3629 section 4 (Unicode table 3-7), by lead byte:
 * the length of the sequence it starts (0: it starts none: ASCII, a
 * continuation byte, C0, C1, F5-FF) and the range [lo, hi] of the second
 * byte, which excludes overlongs (E0, F0), surrogates (ED) and code points
 * above U+10FFFF (F4).  Every later byte is a continuation byte 80-BF.
 * The one definition: utf8_well_formed applies it, cc_utf8_sequence
 * explains its refusals.
 */
typedef struct utf8_lead {
    unsigned char need, lo, hi;
} utf8_lead_t;

#define L2 {2, 0x80, 0xBF}
#define L3 {3, 0x80, 0xBF}
#define L4 {4, 0x80, 0xBF}
#define L2x10 L2, L2, L2, L2, L2, L2, L2, L2, L2, L2
static const utf8_lead_t utf8_leads[256] = {
    [0xC2] = L2x10, L2x10, L2x10,                  /* C2-DF */
    [0xE0] = {3, 0xA0, 0xBF},                       /* E0 */
    L3, L3, L3, L3, L3, L3, L3, L3, L3, L3, L3, L3, /* E1-EC */
    {3, 0x80, 0x9F},                                /* ED */
    L3, L3,                                         /* EE-EF */
    [0xF0] = {4, 0x90, 0xBF},                       /* F0 */
    L4, L4, L4,                                     /* F1-F3 */
    {4, 0x80, 0x8F},                                /* F4 */
};
#undef L2
#undef L3
#undef L4
#undef L2x10

/* The length (2..4) of the well-formed sequence at q (q[0] >= 0x80, `avail`
 * bytes readable), or 0. */
static inline size_t utf8_well_formed(const unsigned char *q, size_t avail)
{
    const utf8_lead_t *lead = &utf8_leads[q[0]];
    size_t need = lead->need;
    if (need == 0 || avail < need || q[1] < lead->lo || q[1] > lead->hi)
        return 0;
    if (need > 2 && (q[2] & 0xC0u) != 0x80u)
        return 0;
    if (need > 3 && (q[3] & 0xC0u) != 0x80u)
        return 0;
    return need;
}

size_t cc_utf8_sequence(const unsigned char *q, const unsigned char *end,
                        uint32_t *cp, const char **why)
{
    unsigned char b0 = q[0];
    const utf8_lead_t *lead = &utf8_leads[b0];
    size_t need = utf8_well_formed(q, (size_t)(end - q)), i;
    uint32_t v;

    if (need) {
        v = b0 & (need == 2 ? 0x1Fu : need == 3 ? 0x0Fu : 0x07u);
        for (i = 1; i < need; i++)
            v = (v << 6) | (q[i] & 0x3Fu);
        *cp = v;
        return need;
    }
    /* Refused: say why, in the order the bytes are read. */
    need = lead->need;
    if (need == 0) {
        *why = b0 < 0xC0   ? "a UTF-8 continuation byte without a lead byte"
               : b0 < 0xC2 ? "an overlong UTF-8 encoding"
               : b0 < 0xF8 ? "a UTF-8 sequence above U+10FFFF"
                           : "a byte that never occurs in UTF-8";
        return 0;
    }
    for (i = 1; i < need; i++) {
        if (q + i >= end || q[i] < 0x80 || q[i] > 0xBF)
            break;
        if (i == 1 && (q[1] < lead->lo || q[1] > lead->hi)) {
            *why = b0 == 0xED   ? "a UTF-16 surrogate encoded in UTF-8"
                   : b0 == 0xF4 ? "a UTF-8 sequence above U+10FFFF"
                                : "an overlong UTF-8 encoding";
            return 0;
        }
    }
    *why = "a truncated UTF-8 sequence";
    return 0;
}

size_t cc_utf8_length(const unsigned char *s, size_t n)
{
    if (n == 0)
        return 0;
    if (s[0] < 0x80)
        return 1;
    return utf8_well_formed(s, n);
}

/* Steps *i over the well-formed sequences that start at s[*i] (>= 0x80)
 * and follow each other (non-Latin text stays here); false with *i at the
 * first bad one. */
static inline bool utf8_sequences(const unsigned char *s, size_t *i, size_t n)
{
    do {
        size_t len = utf8_well_formed(s + *i, n - *i);
        if (len == 0)
            return false;
        *i += len;
    } while (*i < n && s[*i] >= 0x80);
    return true;
}

/* The portable check of s[i..n), i at the start of a sequence. */
static size_t utf8_prefix_scalar(const unsigned char *s, size_t i, size_t n)
{
    while (i < n) {
        /* ASCII 16 bytes a step; a block with a high byte jumps to it. */
        if (n - i >= 16) {
            uint64_t a = load_le64(s + i) & CC_HIGH;
            uint64_t b = load_le64(s + i + 8) & CC_HIGH;
            if ((a | b) == 0) {
                i += 16;
                continue;
            }
            i += a ? first_high_byte(a) : 8 + first_high_byte(b);
        } else if (n - i >= 8) {
            uint64_t a = load_le64(s + i) & CC_HIGH;
            if (a == 0) {
                i += 8;
                continue;
            }
            i += first_high_byte(a);
        } else if (s[i] < 0x80) {
            i++;
            continue;
        }
        /* s[i] >= 0x80 */
        if (!utf8_sequences(s, &i, n))
            return i;
    }
    return n;
}

/*
 * The vector checks.  With SSE2 alone, compares (utf8_errors16, and
 * utf8_errors16_2byte for text without 3- and 4-byte sequences).  When the
 * compiler targets SSSE3 (-mssse3, -march=native), the lookup-table check
 * of Keiser and Lemire ("Validating UTF-8 in less than one instruction per
 * byte", 2021) over 16 bytes; with AVX2 the same over 32 bytes for long
 * texts.  None with CONTRACTC_NO_SIMD.
 */
#ifdef CC_SCAN_SSE2
#if defined(__SSSE3__)
#define CC_UTF8_LOOKUP 1
#include <tmmintrin.h>
#endif
#if defined(__AVX2__)
#define CC_UTF8_AVX2 1
#include <immintrin.h>
#endif

/* The start of the sequence that covers s[t] or is cut at t (s[0..t) is
 * well formed): back over at most 3 continuation bytes to their lead. */
static size_t utf8_sequence_start(const unsigned char *s, size_t t)
{
    size_t k;
    for (k = 1; k <= 3 && k <= t; k++) {
        if (s[t - k] >= 0xC0)
            return t - k;
        if (s[t - k] < 0x80)
            break;
    }
    return t;
}

#ifndef CC_UTF8_AVX2 /* (with AVX2 the long texts go 32 bytes a step) */
/* True when some byte of v is non-zero. */
static inline bool any16(__m128i v)
{
    return _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) != 0xFFFF;
}
#endif

/* Byte i of the result is byte i - k of the 32 bytes prev:cur (k = 1..3). */
#ifdef CC_UTF8_LOOKUP
#define CC_PREV_BYTES(cur, prev, k) _mm_alignr_epi8(cur, prev, 16 - (k))
#else
#define CC_PREV_BYTES(cur, prev, k) \
    _mm_or_si128(_mm_slli_si128(cur, k), _mm_srli_si128(prev, 16 - (k)))
#endif

#ifndef CC_UTF8_LOOKUP
/*
 * Non-zero bytes where the 16 bytes `cur` (after `prev`) break the UTF-8
 * rule (RFC 3629 section 4; the same rule as utf8_leads): a continuation
 * byte where none is due or a missing one where one is, a byte that never
 * occurs (C0, C1, F5-FF), or a second byte out of range after E0 (A0-BF),
 * ED (80-9F), F0 (90-BF) or F4 (80-8F).  Sequences cut at the end of `cur`
 * are judged with the next chunk.  No branch: the cost does not depend on
 * where the multi-byte characters are.  A byte is only "non-zero", not a
 * full mask: the caller ORs blocks and tests the whole once.  SSE2
 * compares are signed, so 0x80-0xBF are -128..-65 and the leads -64..-1.
 */
static inline __m128i utf8_errors16(__m128i cur, __m128i prev)
{
    const __m128i p1 = CC_PREV_BYTES(cur, prev, 1);
    const __m128i p2 = CC_PREV_BYTES(cur, prev, 2);
    const __m128i p3 = CC_PREV_BYTES(cur, prev, 3);
    /* A continuation byte is due after a lead C0-FF, two after E0-FF,
     * three after F0-FF: unsigned saturating subtraction leaves a non-zero
     * byte (1..0x7F, positive when signed) exactly there.  `cont` marks the
     * continuation bytes; where the two disagree, the byte is wrong. */
    const __m128i due = _mm_cmpgt_epi8(
        _mm_or_si128(_mm_or_si128(_mm_subs_epu8(p1, _mm_set1_epi8((char)0xBF)),
                                  _mm_subs_epu8(p2, _mm_set1_epi8((char)0xDF))),
                     _mm_subs_epu8(p3, _mm_set1_epi8((char)0xEF))),
        _mm_setzero_si128());
    const __m128i cont = _mm_cmpgt_epi8(_mm_set1_epi8(-64), cur);
    __m128i err = _mm_xor_si128(due, cont);
    /* C0 and C1 (x & 0xFE == 0xC0); F5-FF (non-zero after - 0xF4). */
    err = _mm_or_si128(err, _mm_cmpeq_epi8(_mm_and_si128(cur, _mm_set1_epi8((char)0xFE)),
                                           _mm_set1_epi8((char)0xC0)));
    err = _mm_or_si128(err, _mm_subs_epu8(cur, _mm_set1_epi8((char)0xF4)));
    /* The second byte after E0 or F0 must be at least A0 or 90, after ED
     * or F4 below A0 or 90.  Where it is not a continuation byte at all
     * the check above has failed already, so the signed compare only has
     * to be right for 80-BF. */
    {
        const __m128i below_a0 = _mm_cmpgt_epi8(_mm_set1_epi8((char)0xA0), cur);
        const __m128i below_90 = _mm_cmpgt_epi8(_mm_set1_epi8((char)0x90), cur);
        const __m128i low = _mm_or_si128(
            _mm_and_si128(_mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0xE0)), below_a0),
            _mm_and_si128(_mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0xF0)), below_90));
        const __m128i high = _mm_or_si128(
            _mm_andnot_si128(below_a0, _mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0xED))),
            _mm_andnot_si128(below_90, _mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0xF4))));
        err = _mm_or_si128(err, _mm_or_si128(low, high));
    }
    return err;
}

/*
 * utf8_errors16 for text whose bytes, and the last three of `prev`, are
 * all below E0 (ASCII and 2-byte sequences: Latin, Greek, Cyrillic,
 * Hebrew, Arabic...): then only a lead C2-DF calls for a continuation
 * byte, the next one, and no second-byte range applies.  10 operations
 * instead of 36; 0xFF bytes mark the errors.
 */
static inline __m128i utf8_errors16_2byte(__m128i cur, __m128i prev)
{
    const __m128i p1 = CC_PREV_BYTES(cur, prev, 1);
    const __m128i due = _mm_cmpgt_epi8(_mm_subs_epu8(p1, _mm_set1_epi8((char)0xBF)),
                                       _mm_setzero_si128());
    const __m128i cont = _mm_cmpgt_epi8(_mm_set1_epi8(-64), cur);
    return _mm_or_si128(_mm_xor_si128(due, cont),
                        _mm_cmpeq_epi8(_mm_and_si128(cur, _mm_set1_epi8((char)0xFE)),
                                       _mm_set1_epi8((char)0xC0)));
}
#endif /* !CC_UTF8_LOOKUP */

#ifdef CC_UTF8_LOOKUP
/*
 * The lookup-table check.  Every way a text breaks the rule shows in a
 * pair of adjacent bytes, b1 then b2, except a 3rd or 4th byte that is
 * due but missing or one too many, which the check below settles with
 * the bytes two and three back.  Each kind of bad pair gets one bit; for
 * each kind, the set of bad pairs is "b1's high nibble in H, b1's low
 * nibble in L, b2's high nibble in H2", so that three 16-entry tables,
 * one per nibble, each holding the bits of the kinds its nibble allows,
 * give the bad kinds of a pair as the AND of three lookups (pshufb looks
 * up 16 bytes at once).  A kind whose bad pairs are not such a product is
 * split into two bits (above U+10FFFF: F4 90-BF and F5-FF 80-BF).
 */
#define U8_SHORT 0x01   /* lead C0-FF, then no continuation byte */
#define U8_LONG 0x02    /* ASCII, then a continuation byte */
#define U8_OVER3 0x04   /* E0 80-9F: a 3-byte overlong */
#define U8_LARGE 0x08   /* F4-FF 90-BF: above U+10FFFF */
#define U8_SURR 0x10    /* ED A0-BF: a UTF-16 surrogate */
#define U8_OVER2 0x20   /* C0-C1 80-BF: a 2-byte overlong */
/* char, as _mm_setr_epi8 takes it: the bits of 0x80-0xFF as they are */
#define U8C(bits) ((char)(unsigned char)(bits))
#define U8_8X 0x40      /* F0 80-8F (overlong) and F5-FF 80-8F (too large) */
#define U8_CONT2 0x80   /* a continuation byte after another: right only
                           where a 3rd or 4th byte is due */

/* By b1's high nibble 0-F: ASCII (0-7), continuation (8-B), 2-, 3- and
 * 4-byte leads (C-D, E, F); each lead nibble names the kinds of its bytes. */
#define U8_B1_HIGH \
    U8C(U8_LONG), U8C(U8_LONG), U8C(U8_LONG), U8C(U8_LONG), U8C(U8_LONG), \
    U8C(U8_LONG), U8C(U8_LONG), U8C(U8_LONG), U8C(U8_CONT2), U8C(U8_CONT2), \
    U8C(U8_CONT2), U8C(U8_CONT2), U8C(U8_SHORT | U8_OVER2), U8C(U8_SHORT), \
    U8C(U8_SHORT | U8_OVER3 | U8_SURR), U8C(U8_SHORT | U8_LARGE | U8_8X)
/* By b1's low nibble: the kinds that hold whatever it is, and those of
 * the lead bytes ending in it: x0 (C0, E0, F0), x1 (C1), x4 (F4), x5-xF
 * (F5-FF; xD also ED). */
#define U8_ANY (U8_SHORT | U8_LONG | U8_CONT2)
#define U8_B1_LOW \
    U8C(U8_ANY | U8_OVER3 | U8_OVER2 | U8_8X), U8C(U8_ANY | U8_OVER2), \
    U8C(U8_ANY), U8C(U8_ANY), U8C(U8_ANY | U8_LARGE), \
    U8C(U8_ANY | U8_LARGE | U8_8X), U8C(U8_ANY | U8_LARGE | U8_8X), \
    U8C(U8_ANY | U8_LARGE | U8_8X), U8C(U8_ANY | U8_LARGE | U8_8X), \
    U8C(U8_ANY | U8_LARGE | U8_8X), U8C(U8_ANY | U8_LARGE | U8_8X), \
    U8C(U8_ANY | U8_LARGE | U8_8X), U8C(U8_ANY | U8_LARGE | U8_8X), \
    U8C(U8_ANY | U8_LARGE | U8_8X | U8_SURR), \
    U8C(U8_ANY | U8_LARGE | U8_8X), U8C(U8_ANY | U8_LARGE | U8_8X)
/* By b2's high nibble: not a continuation byte (0-7, C-F) is what a lead
 * before it gets wrong; 8, 9 and A-B are the second bytes' sub-ranges. */
#define U8_B2_HIGH \
    U8C(U8_SHORT), U8C(U8_SHORT), U8C(U8_SHORT), U8C(U8_SHORT), \
    U8C(U8_SHORT), U8C(U8_SHORT), U8C(U8_SHORT), U8C(U8_SHORT), \
    U8C(U8_LONG | U8_CONT2 | U8_OVER3 | U8_OVER2 | U8_8X), \
    U8C(U8_LONG | U8_CONT2 | U8_OVER3 | U8_OVER2 | U8_LARGE), \
    U8C(U8_LONG | U8_CONT2 | U8_SURR | U8_OVER2 | U8_LARGE), \
    U8C(U8_LONG | U8_CONT2 | U8_SURR | U8_OVER2 | U8_LARGE), U8C(U8_SHORT), \
    U8C(U8_SHORT), U8C(U8_SHORT), U8C(U8_SHORT)

#ifndef CC_UTF8_AVX2 /* (with AVX2 the long texts go 32 bytes a step) */
/*
 * Non-zero bytes where `cur` breaks the rule, p1..p3 being the bytes one
 * to three before each.  Where a 3rd or 4th byte is due (p2 >= E0 or
 * p3 >= F0: 0x80 after the saturating subtraction), exactly a
 * continuation byte after a continuation byte (U8_CONT2) is right; the
 * XOR clears that bit there and sets it where the byte is missing.
 */
static inline __m128i utf8_lookup16(__m128i cur, __m128i p1, __m128i p2, __m128i p3)
{
    const __m128i nibble = _mm_set1_epi8(0x0F);
    const __m128i b1_high = _mm_shuffle_epi8(_mm_setr_epi8(U8_B1_HIGH),
                                             _mm_and_si128(_mm_srli_epi16(p1, 4), nibble));
    const __m128i b1_low = _mm_shuffle_epi8(_mm_setr_epi8(U8_B1_LOW),
                                            _mm_and_si128(p1, nibble));
    const __m128i b2_high = _mm_shuffle_epi8(_mm_setr_epi8(U8_B2_HIGH),
                                             _mm_and_si128(_mm_srli_epi16(cur, 4), nibble));
    const __m128i due = _mm_and_si128(
        _mm_or_si128(_mm_subs_epu8(p2, _mm_set1_epi8(0x60)),
                     _mm_subs_epu8(p3, _mm_set1_epi8(0x70))),
        _mm_set1_epi8((char)0x80));
    return _mm_xor_si128(_mm_and_si128(_mm_and_si128(b1_high, b1_low), b2_high), due);
}

static inline __m128i utf8_errors16(__m128i cur, __m128i prev)
{
    return utf8_lookup16(cur, CC_PREV_BYTES(cur, prev, 1), CC_PREV_BYTES(cur, prev, 2),
                         CC_PREV_BYTES(cur, prev, 3));
}
#endif
#endif /* CC_UTF8_LOOKUP */

/*
 * Short texts (16..255 bytes: a reply, a source text): the scalar rule, with
 * pmovmskb finding the next high byte 16 bytes at a time and the last
 * bytes read from a load that ends at n, not byte by byte (fewer
 * branches: on these lengths the mispredictions are the cost; a
 * branch-free check of every block with utf8_errors16 was slower).
 */
static size_t utf8_short(const unsigned char *s, size_t n)
{
    size_t i = 0;
    for (;;) {
        unsigned m;
        if (n - i >= 16) {
            m = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i)));
            if (m == 0) {
                i += 16;
                continue;
            }
        } else {
            /* the last bytes, from a load that ends at n */
            m = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + n - 16)))
                >> (16 - (n - i));
            if (m == 0)
                return n;
        }
        i += cc_lowest_bit(m);
        if (!utf8_sequences(s, &i, n))
            return i;
        if (i == n)
            return n;
    }
}

#ifdef CC_UTF8_AVX2
/* The same over 32 bytes; byte i - k of prev:cur comes from alignr over
 * each 128-bit lane and the lane before it (prev's high lane, then cur's
 * low one). */
static inline __m256i utf8_errors32(__m256i cur, __m256i prev)
{
    const __m256i before = _mm256_permute2x128_si256(prev, cur, 0x21);
    const __m256i p1 = _mm256_alignr_epi8(cur, before, 15);
    const __m256i p2 = _mm256_alignr_epi8(cur, before, 14);
    const __m256i p3 = _mm256_alignr_epi8(cur, before, 13);
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i b1_high = _mm256_shuffle_epi8(_mm256_setr_epi8(U8_B1_HIGH, U8_B1_HIGH),
                                                _mm256_and_si256(_mm256_srli_epi16(p1, 4), nibble));
    const __m256i b1_low = _mm256_shuffle_epi8(_mm256_setr_epi8(U8_B1_LOW, U8_B1_LOW),
                                               _mm256_and_si256(p1, nibble));
    const __m256i b2_high = _mm256_shuffle_epi8(_mm256_setr_epi8(U8_B2_HIGH, U8_B2_HIGH),
                                                _mm256_and_si256(_mm256_srli_epi16(cur, 4), nibble));
    const __m256i due = _mm256_and_si256(
        _mm256_or_si256(_mm256_subs_epu8(p2, _mm256_set1_epi8(0x60)),
                        _mm256_subs_epu8(p3, _mm256_set1_epi8(0x70))),
        _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(_mm256_and_si256(_mm256_and_si256(b1_high, b1_low), b2_high), due);
}

/* Where the scalar check must go on from: the 64-byte steps of s[0..n),
 * up to the first that breaks the rule or the last whole one. */
static size_t utf8_blocks(const unsigned char *s, size_t n)
{
    size_t i = 0;
    __m256i prev = _mm256_setzero_si256();
    while (n - i >= 64) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 32));
        /* All ASCII, and no sequence from the previous step reaching in:
         * nothing to check. */
        if (((unsigned)_mm256_movemask_epi8(_mm256_or_si256(a, b)) |
             ((unsigned)_mm256_movemask_epi8(prev) & 0xE0000000u)) != 0) {
            const __m256i err = _mm256_or_si256(utf8_errors32(a, prev), utf8_errors32(b, a));
            if (!_mm256_testz_si256(err, err))
                break;
        }
        prev = b;
        i += 64;
    }
    return utf8_sequence_start(s, i);
}
#else
/* Where the scalar check must go on from: the 64-byte steps of s[0..n),
 * up to the first that breaks the rule or the last whole one. */
static size_t utf8_blocks(const unsigned char *s, size_t n)
{
    size_t i = 0;
    __m128i prev = _mm_setzero_si128();
    while (n - i >= 64) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 16));
        const __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 32));
        const __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 48));
#ifdef CC_UTF8_LOOKUP
        /* All ASCII, and no sequence from the previous step reaching in:
         * nothing to check. */
        if ((_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))) |
             (_mm_movemask_epi8(prev) & 0xE000)) != 0) {
            const __m128i err = _mm_or_si128(
                _mm_or_si128(utf8_errors16(a, prev), utf8_errors16(b, a)),
                _mm_or_si128(utf8_errors16(c, b), utf8_errors16(d, c)));
            if (any16(err))
                break;
        }
#else
        /* The largest byte of each lane over the step and the last three
         * bytes before it: none high, nothing to check; none E0 or above
         * (no 3- or 4-byte sequence near), the 2-byte check. */
        const __m128i top = _mm_max_epu8(
            _mm_max_epu8(_mm_max_epu8(a, b), _mm_max_epu8(c, d)), _mm_srli_si128(prev, 13));
        if (_mm_movemask_epi8(top) != 0) {
            if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(top, _mm_set1_epi8((char)0xDF)),
                                                 top)) == 0xFFFF) {
                const __m128i err = _mm_or_si128(
                    _mm_or_si128(utf8_errors16_2byte(a, prev), utf8_errors16_2byte(b, a)),
                    _mm_or_si128(utf8_errors16_2byte(c, b), utf8_errors16_2byte(d, c)));
                if (_mm_movemask_epi8(err) != 0)
                    break;
            } else {
                const __m128i err = _mm_or_si128(
                    _mm_or_si128(utf8_errors16(a, prev), utf8_errors16(b, a)),
                    _mm_or_si128(utf8_errors16(c, b), utf8_errors16(d, c)));
                if (any16(err))
                    break;
            }
        }
#endif
        prev = d;
        i += 64;
    }
    return utf8_sequence_start(s, i);
}
#endif /* CC_UTF8_AVX2 */
#undef CC_PREV_BYTES
#endif /* CC_SCAN_SSE2 */

size_t cc_utf8_valid_prefix(const unsigned char *s, size_t n)
{
#ifdef CC_SCAN_SSE2
    /* 64 bytes a step, checked whole whenever any byte is high: text that
     * mixes ASCII and accented words takes no branch per character (the
     * scalar check mispredicts on nearly every one).  On a problem, or for
     * the last bytes, the scalar check runs from the start of the sequence
     * at hand and finds the exact offset.  Shorter texts (a reply, a
     * source text) take utf8_short. */
    if (n >= 256)
        return utf8_prefix_scalar(s, utf8_blocks(s, n), n);
    if (n >= 16)
        return utf8_short(s, n);
#endif
    return utf8_prefix_scalar(s, 0, n);
}

bool cc_utf8_valid(const unsigned char *s, size_t n)
{
    return cc_utf8_valid_prefix(s, n) == n;
}

size_t cc_utf8_code_points(const unsigned char *s, size_t n)
{
    /* Every byte but a continuation byte (10xxxxxx) starts a code point:
     * bit 7 set and bit 6 clear, tested in 8 bytes at once (shifting left
     * by one lines bit 6 of each byte up with its bit 7; what crosses into
     * the next byte lands on its bit 0, outside the mask). */
    size_t i = 0, points = n;
    for (; n - i >= 8; i += 8) {
        uint64_t v = load_le64(s + i);
        uint64_t cont = v & ~(v << 1) & CC_HIGH;
        points -= (size_t)((((cont >> 7) * CC_ONES) >> 56));
    }
    for (; i < n; i++)
        points -= (s[i] & 0xC0u) == 0x80u;
    return points;
}
