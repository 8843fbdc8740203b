/* SPDX-License-Identifier: MIT */
/*
 * convert.c - exact, locale-free conversions of reply text.
 *
 * Nothing here calls strtod, printf or anything else that reads the C
 * locale: a host under de_DE must still read "1.5" as 1.5.
 *
 * Numbers use two paths:
 *   - Clinger's fast path (W. D. Clinger, "How to Read Floating Point
 *     Numbers Accurately", PLDI 1990): a mantissa below 2^53 times or divided
 *     by an exact power of ten <= 10^22 is one correctly rounded IEEE
 *     operation;
 *   - otherwise an exact decimal big number (the algorithm of Go's
 *     strconv/decimal.go, after Ken Thompson): the digits are scaled by
 *     powers of two until they lie in [1/2, 1), and 53 bits are then read
 *     off with round-half-even.  800 digits are kept; any non-zero digit
 *     beyond them only sets a sticky flag, which decides exact ties (a
 *     double's halfway point has at most 767 significant digits).
 * Formatting reuses the same exact decimal: the value and the two halfway
 * points to its neighbours are exact decimals, so the shortest digits that
 * round-trip are found by comparing digit strings, no trial parsing.
 */
#include "convert.h"

#include <string.h>

/* ------------------------------------------------------------------------
 * Integers (RFC 7493 section 2.2 range)
 * ------------------------------------------------------------------------ */

cc_convert_t cc_convert_integer(const char *text, size_t len, int64_t *out)
{
    size_t i = 0, k;
    bool negative = false;
    uint64_t v = 0;
    bool too_big = false;

    *out = 0;
    if (len > 0 && text[0] == '-') {
        negative = true;
        i = 1;
    }
    if (i >= len)
        return CC_CONVERT_FORMAT;
    /* A fraction or an exponent is the wrong form even when the value is
     * whole ("12980.0", "1e3"): no coercion. */
    for (k = i; k < len; k++)
        if (text[k] < '0' || text[k] > '9')
            return CC_CONVERT_FORMAT;
    for (; i < len; i++) {
        if (!too_big) {
            v = v * 10 + (uint64_t)(text[i] - '0');
            if (v > (uint64_t)CONTRACTC_INTEGER_MAX)
                too_big = true;
        }
    }
    if (too_big)
        return CC_CONVERT_RANGE;
    *out = negative ? -(int64_t)v : (int64_t)v;
    return CC_CONVERT_OK;
}

/* ------------------------------------------------------------------------
 * The exact decimal (value = 0.d[0]d[1]...d[nd-1] x 10^dp)
 * ------------------------------------------------------------------------ */

#define DEC_DIGITS 800
/* 60-bit shifts keep 10 * 2^60 + carry below 2^64 in the digit loops. */
#define DEC_MAX_SHIFT 60

typedef struct decimal {
    unsigned char d[DEC_DIGITS]; /* digit values 0..9, most significant first */
    int nd;                      /* digits used; 0 means zero */
    int dp;                      /* decimal point position */
    bool trunc;                  /* non-zero digits were dropped beyond d */
} decimal_t;

static void dec_trim(decimal_t *a)
{
    while (a->nd > 0 && a->d[a->nd - 1] == 0)
        a->nd--;
    if (a->nd == 0)
        a->dp = 0;
}

static void dec_assign(decimal_t *a, uint64_t v)
{
    unsigned char tmp[24];
    int n = 0, i;
    while (v > 0) {
        tmp[n++] = (unsigned char)(v % 10);
        v /= 10;
    }
    a->nd = n;
    a->dp = n;
    a->trunc = false;
    for (i = 0; i < n; i++)
        a->d[i] = tmp[n - 1 - i];
    dec_trim(a);
}

/* a / 2^k, k <= DEC_MAX_SHIFT. */
static void dec_right_shift(decimal_t *a, unsigned k)
{
    int r = 0, w = 0;
    uint64_t n = 0, mask = ((uint64_t)1 << k) - 1;

    /* Pick up enough leading digits to cover the first shift. */
    for (; (n >> k) == 0; r++) {
        if (r >= a->nd) {
            if (n == 0) {
                a->nd = 0;
                a->dp = 0;
                return;
            }
            while ((n >> k) == 0) {
                n *= 10;
                r++;
            }
            break;
        }
        n = n * 10 + a->d[r];
    }
    a->dp -= r - 1;
    /* Pick up a digit, put down a digit. */
    for (; r < a->nd; r++) {
        uint64_t c = a->d[r];
        a->d[w++] = (unsigned char)(n >> k);
        n &= mask;
        n = n * 10 + c;
    }
    /* Put down the remaining digits. */
    while (n > 0) {
        unsigned char dig = (unsigned char)(n >> k);
        n &= mask;
        if (w < DEC_DIGITS)
            a->d[w++] = dig;
        else if (dig > 0)
            a->trunc = true;
        n *= 10;
    }
    a->nd = w;
    dec_trim(a);
}

/* a * 2^k, k <= DEC_MAX_SHIFT. */
static void dec_left_shift(decimal_t *a, unsigned k)
{
    /* A 60-bit shift adds at most 19 digits; build the result right-aligned
     * in a scratch buffer, then move it to the front. */
    unsigned char out[DEC_DIGITS + 20];
    int r, w = DEC_DIGITS + 20, n_out, i;
    uint64_t n = 0;

    if (a->nd == 0)
        return;
    for (r = a->nd - 1; r >= 0; r--) {
        uint64_t quo;
        n += (uint64_t)a->d[r] << k;
        quo = n / 10;
        out[--w] = (unsigned char)(n - 10 * quo);
        n = quo;
    }
    while (n > 0) {
        uint64_t quo = n / 10;
        out[--w] = (unsigned char)(n - 10 * quo);
        n = quo;
    }
    n_out = DEC_DIGITS + 20 - w;
    a->dp += n_out - a->nd;
    if (n_out > DEC_DIGITS) {
        for (i = DEC_DIGITS; i < n_out; i++)
            if (out[w + i] != 0)
                a->trunc = true;
        n_out = DEC_DIGITS;
    }
    memcpy(a->d, out + w, (size_t)n_out);
    a->nd = n_out;
    dec_trim(a);
}

/* a * 2^k for any k (negative: divide). */
static void dec_shift(decimal_t *a, int k)
{
    if (a->nd == 0)
        return;
    while (k > DEC_MAX_SHIFT) {
        dec_left_shift(a, DEC_MAX_SHIFT);
        k -= DEC_MAX_SHIFT;
    }
    if (k > 0)
        dec_left_shift(a, (unsigned)k);
    while (k < -DEC_MAX_SHIFT) {
        dec_right_shift(a, DEC_MAX_SHIFT);
        k += DEC_MAX_SHIFT;
    }
    if (k < 0)
        dec_right_shift(a, (unsigned)-k);
}

/* Round half to even at digit nd (digits before it are kept); exact ties
 * round up when digits were truncated (the true value is above the tie). */
static bool dec_should_round_up(const decimal_t *a, int nd)
{
    if (nd < 0 || nd >= a->nd)
        return false;
    if (a->d[nd] == 5 && nd + 1 == a->nd) {
        if (a->trunc)
            return true;
        return nd > 0 && (a->d[nd - 1] % 2) != 0;
    }
    return a->d[nd] >= 5;
}

/* The integer part of a (dp <= 19), rounded half to even. */
static uint64_t dec_rounded_integer(const decimal_t *a)
{
    uint64_t n = 0;
    int i;
    if (a->dp > 19)
        return UINT64_MAX;
    for (i = 0; i < a->dp && i < a->nd; i++)
        n = n * 10 + a->d[i];
    for (; i < a->dp; i++)
        n *= 10;
    if (dec_should_round_up(a, a->dp))
        n++;
    return n;
}

/* Powers of two that move dp by at least one step (Go's powtab). */
static const int dec_powtab[] = {1, 3, 6, 9, 13, 16, 19, 23, 26};

/*
 * The double nearest to a (round half to even), as IEEE bits without the
 * sign.  *overflow is set for a value beyond the largest double.
 */
static uint64_t dec_to_bits(decimal_t *a, bool *overflow)
{
    const int bias = -1023, mant_bits = 52;
    int exp = 0;
    uint64_t mant;

    *overflow = false;
    if (a->nd == 0)
        return 0;
    if (a->dp > 310) {
        *overflow = true;
        return (uint64_t)0x7FF << 52;
    }
    if (a->dp < -330)
        return 0;

    /* Scale into [1/2, 1). */
    while (a->dp > 0) {
        int n = a->dp >= 9 ? 27 : dec_powtab[a->dp];
        dec_shift(a, -n);
        exp += n;
    }
    while (a->dp < 0 || (a->dp == 0 && a->d[0] < 5)) {
        int n = -a->dp >= 9 ? 27 : dec_powtab[-a->dp];
        dec_shift(a, n);
        exp -= n;
    }
    /* [1/2, 1) is [1, 2) one binary exponent lower. */
    exp--;
    /* Below the smallest normal exponent: denormalise. */
    if (exp < bias + 1) {
        int n = bias + 1 - exp;
        dec_shift(a, -n);
        exp += n;
    }
    if (exp - bias >= 0x7FF) {
        *overflow = true;
        return (uint64_t)0x7FF << 52;
    }
    dec_shift(a, 1 + mant_bits);
    mant = dec_rounded_integer(a);
    /* Rounding may carry into a new bit. */
    if (mant == (uint64_t)2 << mant_bits) {
        mant >>= 1;
        exp++;
        if (exp - bias >= 0x7FF) {
            *overflow = true;
            return (uint64_t)0x7FF << 52;
        }
    }
    if ((mant & ((uint64_t)1 << mant_bits)) == 0)
        exp = bias; /* subnormal (or zero) */
    return (mant & (((uint64_t)1 << mant_bits) - 1)) |
           ((uint64_t)((exp - bias) & 0x7FF) << mant_bits);
}

static double bits_to_double(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static uint64_t double_to_bits(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

/* ------------------------------------------------------------------------
 * Numbers: text to double
 * ------------------------------------------------------------------------ */

/* Exact powers of ten as doubles (10^22 is the last one below 2^53 * 2^22
 * that is exact: 5^22 < 2^53). */
static const double pow10_exact[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* Exponent digits saturate here: far beyond any reply's digit count, so a
 * saturated exponent still decides overflow or underflow correctly. */
#define EXP_SATURATE INT64_C(1000000000000000)

cc_convert_t cc_convert_number(const char *text, size_t len, double *out)
{
    size_t i = 0;
    bool negative = false;
    uint64_t mant = 0;     /* the first 19 significant digits */
    int64_t nd = 0;        /* significant digits seen (leading zeros skipped) */
    int64_t nd_nonzero = 0; /* digits up to the last non-zero one */
    int64_t dp = 0;        /* decimal point, relative to the first significant digit */
    bool seen_point = false;
    int64_t exp10 = 0;
    bool exp_negative = false;
    decimal_t dec;
    uint64_t bits;
    bool overflow;

    *out = 0.0;
    if (i < len && text[i] == '-') {
        negative = true;
        i++;
    }
    if (i >= len || text[i] < '0' || text[i] > '9')
        return CC_CONVERT_FORMAT;
    dec.nd = 0;
    dec.trunc = false;
    for (; i < len; i++) {
        char c = text[i];
        if (c == '.') {
            if (seen_point)
                return CC_CONVERT_FORMAT;
            seen_point = true;
            dp = nd;
            continue;
        }
        if (c < '0' || c > '9')
            break;
        if (c == '0' && nd == 0) {
            /* A leading zero: after the point it moves the point left. */
            if (seen_point)
                dp--;
            continue;
        }
        if (nd < 19)
            mant = mant * 10 + (uint64_t)(c - '0');
        if (nd < DEC_DIGITS)
            dec.d[nd] = (unsigned char)(c - '0');
        else if (c != '0')
            dec.trunc = true;
        nd++;
        if (c != '0')
            nd_nonzero = nd;
    }
    /* Without a point, it follows the last digit; with one, dp was set
     * there and moved left by the zeros that followed it. */
    if (!seen_point)
        dp = nd;
    if (i < len) {
        if (text[i] != 'e' && text[i] != 'E')
            return CC_CONVERT_FORMAT;
        i++;
        if (i < len && (text[i] == '+' || text[i] == '-')) {
            exp_negative = text[i] == '-';
            i++;
        }
        if (i >= len)
            return CC_CONVERT_FORMAT;
        for (; i < len; i++) {
            if (text[i] < '0' || text[i] > '9')
                return CC_CONVERT_FORMAT;
            if (exp10 < EXP_SATURATE)
                exp10 = exp10 * 10 + (text[i] - '0');
        }
    }
    if (exp_negative)
        exp10 = -exp10;

    if (nd_nonzero == 0) {
        /* Zero, whatever the exponent ("0e999999" is 0, not a range
         * problem); "-0" keeps its sign as IEEE does. */
        *out = negative ? -0.0 : 0.0;
        return CC_CONVERT_OK;
    }
    dp += exp10;

    /* Clinger's fast path: the value is M x 10^e with M exact (< 2^53). */
    if (nd_nonzero <= 15) {
        int64_t e = dp - nd_nonzero; /* value = M' x 10^e, M' = digits to nd_nonzero */
        uint64_t m = mant;
        int64_t drop = (nd < 19 ? nd : 19) - nd_nonzero;
        while (drop-- > 0)
            m /= 10; /* remove trailing zeros kept in mant */
        if (e >= -22 && e <= 22 + (15 - nd_nonzero)) {
            double v = (double)m;
            if (e < 0) {
                v /= pow10_exact[-e];
            } else {
                if (e > 22) {
                    v *= pow10_exact[e - 22]; /* exact: stays below 10^15 */
                    e = 22;
                }
                v *= pow10_exact[e];
            }
            *out = negative ? -v : v;
            return CC_CONVERT_OK;
        }
    }

    /* The exact path. */
    if (dp > 400) {
        *out = negative ? -bits_to_double((uint64_t)0x7FF << 52)
                        : bits_to_double((uint64_t)0x7FF << 52);
        return CC_CONVERT_RANGE;
    }
    if (dp < -400)
        return CC_CONVERT_RANGE;
    dec.nd = (int)(nd_nonzero < DEC_DIGITS ? nd_nonzero : DEC_DIGITS);
    dec.dp = (int)dp;
    dec_trim(&dec);
    bits = dec_to_bits(&dec, &overflow);
    *out = bits_to_double(bits | (negative ? (uint64_t)1 << 63 : 0));
    if (overflow)
        return CC_CONVERT_RANGE;
    if (bits == 0) {
        *out = 0.0;
        return CC_CONVERT_RANGE;
    }
    return CC_CONVERT_OK;
}

/* ------------------------------------------------------------------------
 * Numbers: double to the shortest text (ECMAScript Number::toString)
 * ------------------------------------------------------------------------ */

/* -1, 0, 1 as a < b, a == b, a > b (both trimmed). */
static int dec_compare(const decimal_t *a, const decimal_t *b)
{
    int i, n;
    if (a->nd == 0 || b->nd == 0)
        return (a->nd != 0) - (b->nd != 0);
    if (a->dp != b->dp)
        return a->dp < b->dp ? -1 : 1;
    n = a->nd > b->nd ? a->nd : b->nd;
    for (i = 0; i < n; i++) {
        int x = i < a->nd ? a->d[i] : 0, y = i < b->nd ? b->d[i] : 0;
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

/* a truncated to nd digits. */
static void dec_round_down(decimal_t *a, int nd)
{
    if (nd < a->nd) {
        a->nd = nd;
        dec_trim(a);
    }
}

/* a truncated to nd digits, plus one unit in the last place. */
static void dec_round_up(decimal_t *a, int nd)
{
    int i;
    if (nd >= a->nd)
        return;
    for (i = nd - 1; i >= 0; i--) {
        if (a->d[i] < 9) {
            a->d[i]++;
            a->nd = i + 1;
            return;
        }
    }
    /* All nines: 0.999 -> 0.1 x 10^(dp+1). */
    a->d[0] = 1;
    a->nd = 1;
    a->dp++;
}

/*
 * Shortest digits (fewest, then nearest, then even) of the double
 * mant x 2^exp (mant > 0) that read back to it.  Writes them to *d.
 */
static void shortest_digits(uint64_t mant, int exp, bool lower_is_closer,
                            decimal_t *d)
{
    decimal_t upper, lower, down, up;
    bool inclusive = (mant & 1) == 0; /* ties round to the even mantissa */
    int n;

    dec_assign(d, mant);
    dec_shift(d, exp);
    /* The halfway points to the neighbours. */
    dec_assign(&upper, 2 * mant + 1);
    dec_shift(&upper, exp - 1);
    if (lower_is_closer) {
        dec_assign(&lower, 4 * mant - 1);
        dec_shift(&lower, exp - 2);
    } else {
        dec_assign(&lower, 2 * mant - 1);
        dec_shift(&lower, exp - 1);
    }
    for (n = 1; n < d->nd; n++) {
        int cl, cu;
        bool ok_down, ok_up;
        down = *d;
        dec_round_down(&down, n);
        up = *d;
        dec_round_up(&up, n);
        cl = dec_compare(&down, &lower);
        cu = dec_compare(&up, &upper);
        ok_down = cl > 0 || (inclusive && cl == 0);
        ok_up = cu < 0 || (inclusive && cu == 0);
        if (ok_down && ok_up) {
            *d = dec_should_round_up(d, n) ? up : down;
            return;
        }
        if (ok_down) {
            *d = down;
            return;
        }
        if (ok_up) {
            *d = up;
            return;
        }
    }
    /* The exact value is itself the shortest (n == d->nd). */
}

static size_t put_uint(char *buf, unsigned v)
{
    char tmp[12];
    size_t n = 0, i;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    return n;
}

size_t cc_format_number(double value, char buf[33])
{
    uint64_t bits = double_to_bits(value), mant;
    int biased = (int)((bits >> 52) & 0x7FF), exp, k, n, i;
    size_t len = 0;
    decimal_t d;

    if (biased == 0x7FF) {
        /* Not finite: ECMAScript's spellings, though callers never pass it. */
        const char *s = (bits & (((uint64_t)1 << 52) - 1)) ? "NaN"
                        : (bits >> 63) ? "-Infinity" : "Infinity";
        len = strlen(s);
        memcpy(buf, s, len + 1);
        return len;
    }
    mant = bits & (((uint64_t)1 << 52) - 1);
    if (biased == 0 && mant == 0) {
        buf[0] = '0'; /* "-0" too, as Number::toString does */
        buf[1] = '\0';
        return 1;
    }
    if (biased == 0) {
        exp = -1074;
    } else {
        mant |= (uint64_t)1 << 52;
        exp = biased - 1075;
    }
    shortest_digits(mant, exp, biased > 1 && mant == (uint64_t)1 << 52, &d);

    if (bits >> 63)
        buf[len++] = '-';
    k = d.nd; /* digits */
    n = d.dp; /* value = 0.digits x 10^n */
    if (k <= n && n <= 21) {
        for (i = 0; i < k; i++)
            buf[len++] = (char)('0' + d.d[i]);
        for (; i < n; i++)
            buf[len++] = '0';
    } else if (0 < n && n <= 21) {
        for (i = 0; i < n; i++)
            buf[len++] = (char)('0' + d.d[i]);
        buf[len++] = '.';
        for (; i < k; i++)
            buf[len++] = (char)('0' + d.d[i]);
    } else if (-6 < n && n <= 0) {
        buf[len++] = '0';
        buf[len++] = '.';
        for (i = n; i < 0; i++)
            buf[len++] = '0';
        for (i = 0; i < k; i++)
            buf[len++] = (char)('0' + d.d[i]);
    } else {
        int e = n - 1;
        buf[len++] = (char)('0' + d.d[0]);
        if (k > 1) {
            buf[len++] = '.';
            for (i = 1; i < k; i++)
                buf[len++] = (char)('0' + d.d[i]);
        }
        buf[len++] = 'e';
        buf[len++] = e < 0 ? '-' : '+';
        len += put_uint(buf + len, (unsigned)(e < 0 ? -e : e));
    }
    buf[len] = '\0';
    return len;
}

/* ------------------------------------------------------------------------
 * Decimals in minor units (docs/contract-language.md, `decimal` row)
 * ------------------------------------------------------------------------ */

cc_convert_t cc_convert_decimal(const char *text, size_t len, uint8_t scale,
                                bool is_signed, int64_t *minor)
{
    size_t i = 0, int_start, int_end, k;
    bool negative = false;
    uint64_t v = 0, limit;

    *minor = 0;
    if (scale > 18)
        return CC_CONVERT_FORMAT;
    if (i < len && text[i] == '-') {
        if (!is_signed)
            return CC_CONVERT_FORMAT;
        negative = true;
        i++;
    }
    /* The form: (0|[1-9][0-9]*) then, with a scale, '.' and exactly `scale`
     * digits.  "01.00", "1.5" at scale 2, "1,50", "+1" are not it.  The
     * digits are summed as they are checked, one pass: the sum is the value
     * when there are at most 18 digits (below 10^18 < 2^63); with more it
     * may have wrapped (unsigned, so defined) and is redone with checks. */
    int_start = i;
    for (; i < len && (unsigned)(text[i] - '0') <= 9; i++)
        v = v * 10 + (unsigned)(text[i] - '0');
    int_end = i;
    if (int_end == int_start || (text[int_start] == '0' && int_end - int_start > 1))
        return CC_CONVERT_FORMAT;
    if (scale == 0) {
        if (i != len)
            return CC_CONVERT_FORMAT;
    } else {
        if (i >= len || text[i] != '.' || len - i - 1 != scale)
            return CC_CONVERT_FORMAT;
        for (k = i + 1; k < len; k++) {
            const unsigned digit = (unsigned)(text[k] - '0');
            if (digit > 9)
                return CC_CONVERT_FORMAT;
            v = v * 10 + digit;
        }
    }

    /* The value: |minor| <= 2^63 - 1, or 2^63 when negative. */
    if (int_end - int_start + scale > 18) {
        limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        v = 0;
        for (k = int_start; k < len; k++) {
            unsigned digit;
            if (text[k] == '.')
                continue;
            digit = (unsigned)(text[k] - '0');
            if (v > (limit - digit) / 10)
                return CC_CONVERT_RANGE;
            v = v * 10 + digit;
        }
    }
    if (negative)
        *minor = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    else
        *minor = (int64_t)v;
    return CC_CONVERT_OK;
}

size_t cc_format_decimal(int64_t minor, uint8_t scale, char buf[42])
{
    char digits[40]; /* 20 of an int64, or scale + 1 with leading zeros */
    size_t nd = 0, len = 0, i;
    uint64_t v;

    /* 38 fraction digits still fit the 42 bytes ("-0." + 38 + NUL). */
    if (scale > 38)
        scale = 38;
    v = minor < 0 ? (uint64_t)0 - (uint64_t)minor : (uint64_t)minor;
    do {
        digits[nd++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (nd < (size_t)scale + 1)
        digits[nd++] = '0';
    if (minor < 0)
        buf[len++] = '-';
    for (i = nd; i > 0; i--) {
        if (i == scale && scale > 0)
            buf[len++] = '.';
        buf[len++] = digits[i - 1];
    }
    buf[len] = '\0';
    return len;
}

size_t contractc_decimal_format(int64_t minor_units, unsigned scale, char *buf, size_t size)
{
    char text[42];
    size_t len = 0, n;
    if (scale <= 38)
        len = cc_format_decimal(minor_units, (uint8_t)scale, text);
    if (buf && size) {
        n = len < size ? len : size - 1;
        memcpy(buf, text, n);
        buf[n] = '\0';
    }
    return len;
}

static size_t put_words(char *buf, size_t at, const char *s)
{
    size_t n = strlen(s);
    memcpy(buf + at, s, n);
    return at + n;
}

size_t cc_decimal_form(uint8_t scale, bool is_signed, char buf[CC_DECIMAL_FORM_MAX])
{
    static const char *const words[] = {"", "one decimal", "two decimals", "three decimals",
                                        "four decimals"};
    size_t n = 0;
    if (scale == 0) {
        n = put_words(buf, n, "whole number, no dot");
    } else {
        n = put_words(buf, n, "dot, ");
        if (scale < 5) {
            n = put_words(buf, n, words[scale]);
        } else {
            if (scale >= 100)
                buf[n++] = (char)('0' + scale / 100);
            if (scale >= 10)
                buf[n++] = (char)('0' + scale / 10 % 10);
            buf[n++] = (char)('0' + scale % 10);
            n = put_words(buf, n, " decimals");
        }
    }
    if (is_signed)
        n = put_words(buf, n, ", may start with -");
    n = put_words(buf, n, ", no separators");
    buf[n] = '\0';
    return n;
}

/* ------------------------------------------------------------------------
 * Dates and date-times (RFC 3339 section 5.6, contractc's profile)
 *
 * Only CC_CONVERT_OK or CC_CONVERT_FORMAT: a 30 February or a 25:00 is not a
 * date or a time at all, which docs/contract-language.md files under `format`.
 * ------------------------------------------------------------------------ */

static bool is_leap(int32_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static unsigned days_in_month(int32_t y, unsigned m)
{
    static const unsigned char days[12] = {31, 28, 31, 30, 31, 30,
                                           31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29u : days[m - 1];
}

/* n digits at s as a number, or -1 when one is not a digit. */
static long digits_value(const char *s, size_t n)
{
    long v = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

static bool parse_date(const char *s, contractc_date_t *out)
{
    long y = digits_value(s, 4), m = digits_value(s + 5, 2),
         d = digits_value(s + 8, 2);
    if (y < 0 || m < 1 || m > 12 || d < 1 || s[4] != '-' || s[7] != '-')
        return false;
    if ((unsigned long)d > days_in_month((int32_t)y, (unsigned)m))
        return false;
    out->year = (int32_t)y;
    out->month = (uint8_t)m;
    out->day = (uint8_t)d;
    return true;
}

cc_convert_t cc_convert_date(const char *text, size_t len, contractc_date_t *out)
{
    memset(out, 0, sizeof *out);
    if (len != 10 || !parse_date(text, out)) {
        memset(out, 0, sizeof *out);
        return CC_CONVERT_FORMAT;
    }
    return CC_CONVERT_OK;
}

cc_convert_t cc_convert_datetime(const char *text, size_t len,
                                 contractc_datetime_t *out)
{
    long hh, mi, ss, oh, om;
    size_t i = 19, frac_digits = 0;
    uint32_t nanos = 0;

    memset(out, 0, sizeof *out);
    /* YYYY-MM-DDTHH:MM:SS is 19 bytes; the shortest offset ("Z") one more. */
    if (len < 20 || !parse_date(text, &out->date) || text[10] != 'T' ||
        text[13] != ':' || text[16] != ':')
        goto bad;
    hh = digits_value(text + 11, 2);
    mi = digits_value(text + 14, 2);
    ss = digits_value(text + 17, 2);
    if (hh < 0 || hh > 23 || mi < 0 || mi > 59 || ss < 0 || ss > 59)
        goto bad;
    if (text[i] == '.') {
        i++;
        while (i < len && text[i] >= '0' && text[i] <= '9') {
            if (++frac_digits > 9)
                goto bad;
            nanos = nanos * 10 + (uint32_t)(text[i] - '0');
            i++;
        }
        if (frac_digits == 0)
            goto bad;
        out->fraction_digits = (uint8_t)frac_digits; /* kept to echo it as written */
        for (; frac_digits < 9; frac_digits++)
            nanos *= 10;
    }
    if (i >= len)
        goto bad;
    if (text[i] == 'Z') {
        if (i + 1 != len)
            goto bad;
        out->offset_minutes = 0;
        out->zone = 'Z';
    } else if (text[i] == '+' || text[i] == '-') {
        if (len - i != 6 || text[i + 3] != ':')
            goto bad;
        oh = digits_value(text + i + 1, 2);
        om = digits_value(text + i + 4, 2);
        if (oh < 0 || oh > 23 || om < 0 || om > 59)
            goto bad;
        out->offset_minutes = (int16_t)((text[i] == '-' ? -1 : 1) * (oh * 60 + om));
        out->zone = text[i]; /* "-00:00" differs from "+00:00" (RFC 3339 section 4.3) */
    } else {
        goto bad;
    }
    out->hour = (uint8_t)hh;
    out->minute = (uint8_t)mi;
    out->second = (uint8_t)ss;
    out->nanos = nanos;
    return CC_CONVERT_OK;
bad:
    memset(out, 0, sizeof *out);
    return CC_CONVERT_FORMAT;
}

/* Howard Hinnant's days_from_civil (proleptic Gregorian, era-based, exact
 * for every int32 year). */
int64_t cc_days_from_civil(int32_t year, unsigned month, unsigned day)
{
    int64_t y = (int64_t)year - (month <= 2);
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;                               /* [0, 399] */
    int64_t mp = (int64_t)month > 2 ? (int64_t)month - 3 : (int64_t)month + 9;
    int64_t doy = (153 * mp + 2) / 5 + (int64_t)day - 1;        /* [0, 365] */
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;       /* [0, 146096] */
    return era * 146097 + doe - 719468;
}
