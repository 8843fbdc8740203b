/* SPDX-License-Identifier: MIT */
/*
 * test_convert.c - exact conversions: integers, numbers (against glibc's
 * strtod under the C locale), shortest number formatting (ECMAScript
 * Number::toString), decimals in minor units, dates and date-times.
 */
#include "convert.h"

#include <check.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A small deterministic generator (xorshift64*), one per test. */
typedef struct rng {
    uint64_t s;
} rng_t;

static uint64_t rng_next(rng_t *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * UINT64_C(2685821657736338717);
}

static unsigned rng_below(rng_t *r, unsigned n)
{
    return (unsigned)(rng_next(r) % n);
}

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static double double_of(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* ------------------------------------------------------------------------
 * Integers
 * ------------------------------------------------------------------------ */

static const struct {
    const char *text;
    cc_convert_t want;
    int64_t value;
} integer_cases[] = {
    {"0", CC_CONVERT_OK, 0},
    {"-0", CC_CONVERT_OK, 0},
    {"7", CC_CONVERT_OK, 7},
    {"-42", CC_CONVERT_OK, -42},
    {"9007199254740991", CC_CONVERT_OK, INT64_C(9007199254740991)},
    {"-9007199254740991", CC_CONVERT_OK, -INT64_C(9007199254740991)},
    {"9007199254740992", CC_CONVERT_RANGE, 0},
    {"-9007199254740992", CC_CONVERT_RANGE, 0},
    {"9223372036854775808", CC_CONVERT_RANGE, 0},
    {"123456789012345678901234567890", CC_CONVERT_RANGE, 0},
    {"12980.0", CC_CONVERT_FORMAT, 0},
    {"1e3", CC_CONVERT_FORMAT, 0},
    {"1E3", CC_CONVERT_FORMAT, 0},
    {"-1.5", CC_CONVERT_FORMAT, 0},
    {"99999999999999999999.5", CC_CONVERT_FORMAT, 0},
    {"-", CC_CONVERT_FORMAT, 0},
    {"", CC_CONVERT_FORMAT, 0},
};

START_TEST(integer_tokens_convert_within_the_ijson_range)
{
    int64_t v = 99;
    const char *t = integer_cases[_i].text;
    cc_convert_t got = cc_convert_integer(t, strlen(t), &v);
    ck_assert_msg(got == integer_cases[_i].want, "%s: got %d", t, (int)got);
    if (got == CC_CONVERT_OK)
        ck_assert_int_eq(v, integer_cases[_i].value);
}
END_TEST

/* ------------------------------------------------------------------------
 * Numbers: text to double
 * ------------------------------------------------------------------------ */

/* What cc_convert_number must say about `text`, from glibc's strtod. */
static void check_against_strtod(const char *text)
{
    double want = strtod(text, NULL), got = 12345.0;
    bool zero_text = true;
    const char *c;
    cc_convert_t r = cc_convert_number(text, strlen(text), &got);

    for (c = text; *c && *c != 'e' && *c != 'E'; c++)
        if (*c >= '1' && *c <= '9')
            zero_text = false;
    if (isinf(want)) {
        ck_assert_msg(r == CC_CONVERT_RANGE, "%.80s: overflow not RANGE", text);
    } else if (want == 0.0 && !zero_text) {
        ck_assert_msg(r == CC_CONVERT_RANGE, "%.80s: underflow not RANGE", text);
    } else {
        ck_assert_msg(r == CC_CONVERT_OK, "%.80s: status %d", text, (int)r);
        ck_assert_msg(bits_of(got) == bits_of(want),
                      "%.120s: got %.17g want %.17g", text, got, want);
    }
}

static const struct {
    const char *text;
    cc_convert_t want;
    uint64_t bits; /* IEEE bits when OK */
} number_cases[] = {
    {"0", CC_CONVERT_OK, 0},
    {"-0", CC_CONVERT_OK, UINT64_C(0x8000000000000000)},
    {"0e999999", CC_CONVERT_OK, 0},
    {"0.000e-999999999", CC_CONVERT_OK, 0},
    {"1", CC_CONVERT_OK, UINT64_C(0x3FF0000000000000)},
    {"0.1", CC_CONVERT_OK, UINT64_C(0x3FB999999999999A)},
    {"1.7976931348623157e308", CC_CONVERT_OK, UINT64_C(0x7FEFFFFFFFFFFFFF)},
    {"1.7976931348623158e308", CC_CONVERT_OK, UINT64_C(0x7FEFFFFFFFFFFFFF)},
    {"1.7976931348623159e308", CC_CONVERT_RANGE, 0},
    {"1e309", CC_CONVERT_RANGE, 0},
    {"-1e309", CC_CONVERT_RANGE, 0},
    {"1e999999999", CC_CONVERT_RANGE, 0},
    {"1e99999999999999999999999999999", CC_CONVERT_RANGE, 0},
    {"1e-999999999", CC_CONVERT_RANGE, 0},
    {"1e-99999999999999999999999999999", CC_CONVERT_RANGE, 0},
    {"5e-324", CC_CONVERT_OK, 1},
    {"4.9406564584124654e-324", CC_CONVERT_OK, 1},
    {"2.4703282292062328e-324", CC_CONVERT_OK, 1},
    {"2.4703282292062327e-324", CC_CONVERT_RANGE, 0},
    {"1e-400", CC_CONVERT_RANGE, 0},
    {"2.2250738585072014e-308", CC_CONVERT_OK, UINT64_C(0x0010000000000000)},
    {"2.2250738585072011e-308", CC_CONVERT_OK, UINT64_C(0x000FFFFFFFFFFFFF)},
    {"9007199254740993", CC_CONVERT_OK, UINT64_C(0x4340000000000000)},
    {"9007199254740995", CC_CONVERT_OK, UINT64_C(0x4340000000000002)},
    {"123.456e-2", CC_CONVERT_OK, UINT64_C(0x3FF3C0C1FC8F3238)},
    {"1E+2", CC_CONVERT_OK, UINT64_C(0x4059000000000000)},
    {"1e0000000000000000000000000000000002", CC_CONVERT_OK,
     UINT64_C(0x4059000000000000)},
    {"1.5.2", CC_CONVERT_FORMAT, 0},
    {"abc", CC_CONVERT_FORMAT, 0},
    {"1e", CC_CONVERT_FORMAT, 0},
};

START_TEST(number_tokens_convert_to_the_nearest_double)
{
    double v = 0;
    const char *t = number_cases[_i].text;
    cc_convert_t got = cc_convert_number(t, strlen(t), &v);
    ck_assert_msg(got == number_cases[_i].want, "%s: got %d", t, (int)got);
    if (got == CC_CONVERT_OK)
        ck_assert_msg(bits_of(v) == number_cases[_i].bits,
                      "%s: got bits %016llx", t,
                      (unsigned long long)bits_of(v));
}
END_TEST

START_TEST(boundary_numbers_match_strtod)
{
    static const char *const texts[] = {
        "2.2250738585072012e-308", "2.2250738585072013e-308",
        "4.9406564584124654417656879286822137236505980e-324",
        "8.98846567431158e307", "179769313486231580793728971405301e276",
        "1797693134862315708145274237317043567981e269",
        "0.0000000000000000000000000000000000000000001e-280",
        "7.038531e-26", "9214843084008499", "30078505129381147446200",
        "1777820000000000000001", "0.500000000000000166533453693773481063544750213623046875",
        "3.518437208883201171875e13", "62.5364939768271845828",
        "8.10109172351e-10", "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "9007199254740992.5", "9007199254740993.0000000000000000000000001",
        "1448997445238699", "6.9294956446009195e15", "123456789012345678e-50",
        "100000000000000000000000", "1e23", "8.589973e9", "5.0e-324",
        "0.000000000000000000000000000000000000000000000000000000000000000000000"
        "00000000000000000000000000000000000000000000000000000000000000000000000"
        "1",
    };
    size_t i;
    for (i = 0; i < sizeof texts / sizeof *texts; i++)
        check_against_strtod(texts[i]);
}
END_TEST

/* Random digit strings: 1..25 digits (sometimes hundreds), a point anywhere,
 * an exponent over the whole double range and beyond. */
START_TEST(random_number_texts_match_strtod)
{
    rng_t r = {UINT64_C(0x9E3779B97F4A7C15)};
    char text[1200];
    int n;
    for (n = 0; n < 100000; n++) {
        size_t len = 0, digits, point, i;
        unsigned shape = rng_below(&r, 10);
        if (rng_below(&r, 2))
            text[len++] = '-';
        digits = shape == 0 ? 1 + rng_below(&r, 900)
                 : shape < 4 ? 16 + rng_below(&r, 10)
                 : 1 + rng_below(&r, 20);
        point = rng_below(&r, (unsigned)digits + 1);
        for (i = 0; i < digits; i++) {
            if (i == point && i > 0)
                text[len++] = '.';
            text[len++] = (char)((i == 0 ? '1' : '0') +
                                 rng_below(&r, i == 0 ? 9 : 10));
        }
        if (rng_below(&r, 4)) {
            int e = (int)rng_below(&r, 700) - 350 - (int)digits / 2;
            len += (size_t)snprintf(text + len, sizeof text - len, "e%d", e);
        } else {
            text[len] = '\0';
        }
        check_against_strtod(text);
    }
}
END_TEST

/* Every double printed with 17 significant digits, and with fewer (random
 * bit patterns cover subnormals and both extremes). */
START_TEST(random_doubles_as_text_read_back_exactly)
{
    rng_t r = {UINT64_C(0xD1B54A32D192ED03)};
    char text[64];
    int n;
    for (n = 0; n < 50000; n++) {
        uint64_t b = rng_next(&r);
        double d;
        if (n % 4 == 0)
            b &= UINT64_C(0x800FFFFFFFFFFFFF); /* subnormal */
        d = double_of(b);
        if (!isfinite(d))
            continue;
        snprintf(text, sizeof text, "%.17g", d);
        check_against_strtod(text);
        snprintf(text, sizeof text, "%.*e", (int)rng_below(&r, 17), d);
        check_against_strtod(text);
    }
}
END_TEST

/* The exact halfway points between neighbouring doubles (long double holds
 * them exactly on x86-64), and just above and below: the hard cases. */
START_TEST(halfway_points_round_half_to_even_like_strtod)
{
#if LDBL_MANT_DIG >= 64 || defined(__x86_64__)
    rng_t r = {UINT64_C(0x0123456789ABCDEF)};
    char text[1200];
    int n;
    for (n = 0; n < 2000; n++) {
        uint64_t b = rng_next(&r) & UINT64_C(0x7FFFFFFFFFFFFFFF);
        double lo, hi;
        long double mid;
        size_t len;
        if (n % 3 == 0)
            b &= UINT64_C(0x001FFFFFFFFFFFFF); /* subnormal or tiny */
        lo = double_of(b);
        hi = nextafter(lo, INFINITY);
        if (!isfinite(hi))
            continue;
        mid = ((long double)lo + (long double)hi) / 2;
        len = (size_t)snprintf(text, sizeof text, "%.780Le", mid);
        check_against_strtod(text);
        /* A hair above: insert a 1 digit before the exponent. */
        {
            char *e = strchr(text, 'e');
            char tail[16];
            snprintf(tail, sizeof tail, "%s", e);
            snprintf(e, sizeof text - (size_t)(e - text), "1%s", tail);
            check_against_strtod(text);
        }
        (void)len;
    }
    /* Half the smallest subnormal rounds to 0 (a range problem); anything
     * above it rounds to the smallest subnormal. */
    snprintf(text, sizeof text, "%.780Le", ldexpl(1.0L, -1075));
    check_against_strtod(text);
    {
        double v;
        ck_assert_int_eq(cc_convert_number(text, strlen(text), &v),
                         CC_CONVERT_RANGE);
    }
#endif
}
END_TEST

START_TEST(long_mantissas_are_rounded_correctly)
{
    char text[4200];
    size_t i;
    double v;
    /* 4000 nines after "0.": just below 1, rounds to 1. */
    memcpy(text, "0.", 2);
    for (i = 0; i < 4000; i++)
        text[2 + i] = '9';
    text[4002] = '\0';
    check_against_strtod(text);
    ck_assert_int_eq(cc_convert_number(text, strlen(text), &v), CC_CONVERT_OK);
    ck_assert(v == 1.0);
    /* 1 followed by 3000 zeros and a 1, times 10^-3001: just above 1. */
    text[0] = '1';
    for (i = 1; i < 3001; i++)
        text[i] = '0';
    text[3001] = '1';
    snprintf(text + 3002, 16, "e-3001");
    check_against_strtod(text);
    /* Thousands of leading zeros after the point, with a large exponent. */
    memcpy(text, "0.", 2);
    for (i = 0; i < 3000; i++)
        text[2 + i] = '0';
    snprintf(text + 3002, 32, "15e3010");
    check_against_strtod(text);
    ck_assert_int_eq(cc_convert_number(text, strlen(text), &v), CC_CONVERT_OK);
    ck_assert(v == 1.5e9);
}
END_TEST

START_TEST(number_conversion_ignores_the_c_locale)
{
    double v = 0;
    const char *old = setlocale(LC_NUMERIC, NULL);
    char saved[64];
    snprintf(saved, sizeof saved, "%s", old ? old : "C");
    /* de_DE may not be installed; the test still runs under C. */
    if (!setlocale(LC_NUMERIC, "de_DE.UTF-8"))
        setlocale(LC_NUMERIC, "de_DE");
    ck_assert_int_eq(cc_convert_number("1.5", 3, &v), CC_CONVERT_OK);
    ck_assert(v == 1.5);
    {
        char buf[33];
        cc_format_number(1.5, buf);
        ck_assert_str_eq(buf, "1.5");
    }
    setlocale(LC_NUMERIC, saved);
}
END_TEST

/* ------------------------------------------------------------------------
 * Numbers: double to text
 * ------------------------------------------------------------------------ */

static const struct {
    double value;
    const char *text;
} format_cases[] = {
    {0.0, "0"},
    {-0.0, "0"},
    {1.0, "1"},
    {-1.5, "-1.5"},
    {0.1, "0.1"},
    {0.30000000000000004, "0.30000000000000004"},
    {1.0 / 3.0, "0.3333333333333333"},
    {4.35, "4.35"},
    {100.0, "100"},
    {1e20, "100000000000000000000"},
    {123456789012345680000.0, "123456789012345680000"},
    {1e21, "1e+21"},
    {1.5e21, "1.5e+21"},
    {1e23, "1e+23"},
    {0.000001, "0.000001"},
    {0.0000012345, "0.0000012345"},
    {1e-7, "1e-7"},
    {1.5e-7, "1.5e-7"},
    {5e-7, "5e-7"},
    {123e-20, "1.23e-18"},
    {9007199254740992.0, "9007199254740992"},
    {9007199254740991.0, "9007199254740991"},
    {5e-324, "5e-324"},
    {-5e-324, "-5e-324"},
    {2.2250738585072014e-308, "2.2250738585072014e-308"},
    {2.225073858507201e-308, "2.225073858507201e-308"},
    {1.7976931348623157e308, "1.7976931348623157e+308"},
    {9.5367431640625e-7, "9.5367431640625e-7"},
    {1250.5, "1250.5"},
    {12980.0, "12980"},
    {2e-323, "2e-323"},
    {8.98846567431158e307, "8.98846567431158e+307"},
};

START_TEST(numbers_format_as_ecmascript_writes_them)
{
    char buf[33];
    size_t n = cc_format_number(format_cases[_i].value, buf);
    ck_assert_str_eq(buf, format_cases[_i].text);
    ck_assert_uint_eq(n, strlen(format_cases[_i].text));
}
END_TEST

/* The fewest significant digits with which printf's correctly rounded %.*e
 * reads back: what cc_format_number must reach. */
static int shortest_precision(double d)
{
    char text[64];
    int p;
    for (p = 1; p <= 17; p++) {
        snprintf(text, sizeof text, "%.*e", p - 1, d);
        if (strtod(text, NULL) == d)
            return p;
    }
    return 17;
}

static int significant_digits(const char *s)
{
    int n = 0, last = 0;
    bool started = false;
    for (; *s && *s != 'e'; s++) {
        if (*s < '0' || *s > '9')
            continue;
        if (*s != '0')
            started = true;
        if (started) {
            n++;
            if (*s != '0')
                last = n;
        }
    }
    return last;
}

START_TEST(random_doubles_format_shortest_and_read_back)
{
    rng_t r = {UINT64_C(0xA0761D6478BD642F)};
    char buf[33];
    int n;
    for (n = 0; n < 100000; n++) {
        uint64_t b = rng_next(&r);
        double d, back;
        size_t len;
        if (n % 8 == 0)
            b &= UINT64_C(0x800FFFFFFFFFFFFF);
        else if (n % 8 == 1)
            b = bits_of((double)(int64_t)(rng_next(&r) >> 20) /
                        (double)(1 + rng_below(&r, 1000)));
        d = double_of(b);
        if (!isfinite(d))
            continue;
        len = cc_format_number(d, buf);
        ck_assert_uint_eq(len, strlen(buf));
        ck_assert_uint_le(len, 32);
        back = strtod(buf, NULL);
        ck_assert_msg(back == d || (d == 0 && back == 0),
                      "%.17g formats as %s", d, buf);
        if (n % 10 == 0 && d != 0)
            ck_assert_msg(significant_digits(buf) <= shortest_precision(d),
                          "%.17g formats as %s, not shortest", d, buf);
    }
}
END_TEST

/* ------------------------------------------------------------------------
 * Decimals
 * ------------------------------------------------------------------------ */

static const struct {
    const char *text;
    uint8_t scale;
    bool is_signed;
    cc_convert_t want;
    int64_t minor;
} decimal_cases[] = {
    {"0", 0, false, CC_CONVERT_OK, 0},
    {"1250", 0, false, CC_CONVERT_OK, 1250},
    {"1250.00", 0, false, CC_CONVERT_FORMAT, 0},
    {"1250.00", 2, false, CC_CONVERT_OK, 125000},
    {"89.90", 2, false, CC_CONVERT_OK, 8990},
    {"0.00", 2, false, CC_CONVERT_OK, 0},
    {"0.05", 2, false, CC_CONVERT_OK, 5},
    {"-0.00", 2, true, CC_CONVERT_OK, 0},
    {"-12.34", 2, true, CC_CONVERT_OK, -1234},
    {"-12.34", 2, false, CC_CONVERT_FORMAT, 0},
    {"01.00", 2, false, CC_CONVERT_FORMAT, 0},
    {"00", 0, false, CC_CONVERT_FORMAT, 0},
    {"1.5", 2, false, CC_CONVERT_FORMAT, 0},
    {"1.500", 2, false, CC_CONVERT_FORMAT, 0},
    {"1,50", 2, false, CC_CONVERT_FORMAT, 0},
    {"1.250,00", 2, false, CC_CONVERT_FORMAT, 0},
    {"1 250.00", 2, false, CC_CONVERT_FORMAT, 0},
    {".50", 2, false, CC_CONVERT_FORMAT, 0},
    {"1.", 2, false, CC_CONVERT_FORMAT, 0},
    {"+1.00", 2, true, CC_CONVERT_FORMAT, 0},
    {"1e2", 0, false, CC_CONVERT_FORMAT, 0},
    {"", 0, false, CC_CONVERT_FORMAT, 0},
    {"-", 0, true, CC_CONVERT_FORMAT, 0},
    {" 1.00", 2, false, CC_CONVERT_FORMAT, 0},
    /* 18 digits take the unchecked loop, 19 the checked one. */
    {"999999999999999999", 0, false, CC_CONVERT_OK, INT64_C(999999999999999999)},
    {"-9999999999999999.99", 2, true, CC_CONVERT_OK, -INT64_C(999999999999999999)},
    {"0.999999999999999999", 18, false, CC_CONVERT_OK, INT64_C(999999999999999999)},
    {"9999999999999999999", 0, false, CC_CONVERT_RANGE, 0},
    {"1000000000000000000", 0, false, CC_CONVERT_OK, INT64_C(1000000000000000000)},
    {"9223372036854775807", 0, false, CC_CONVERT_OK, INT64_MAX},
    {"9223372036854775808", 0, false, CC_CONVERT_RANGE, 0},
    {"-9223372036854775808", 0, true, CC_CONVERT_OK, INT64_MIN},
    {"-9223372036854775809", 0, true, CC_CONVERT_RANGE, 0},
    {"92233720368547758.07", 2, false, CC_CONVERT_OK, INT64_MAX},
    {"92233720368547758.08", 2, false, CC_CONVERT_RANGE, 0},
    {"99999999999999999999999999999999.00", 2, false, CC_CONVERT_RANGE, 0},
    {"9.223372036854775807", 18, false, CC_CONVERT_OK, INT64_MAX},
    {"9.223372036854775808", 18, false, CC_CONVERT_RANGE, 0},
    {"10.000000000000000000", 18, false, CC_CONVERT_RANGE, 0},
    {"0.000000000000000001", 18, false, CC_CONVERT_OK, 1},
    {"-1.000000000000000000", 18, true, CC_CONVERT_OK, -INT64_C(1000000000000000000)},
    {"0.00000000000000001", 18, false, CC_CONVERT_FORMAT, 0},
    /* The one-pass sum wraps past 18 digits: 2^64 sums to 0, and
     * 184467440737095516.17 (2^64 + 1 minor units) to 1; the checked loop
     * redoes them.  A bad byte after many digits is a format problem. */
    {"18446744073709551616", 0, false, CC_CONVERT_RANGE, 0},
    {"184467440737095516.17", 2, false, CC_CONVERT_RANGE, 0},
    {"99999999999999999999.0x", 2, false, CC_CONVERT_FORMAT, 0},
};

START_TEST(decimal_strings_convert_to_exact_minor_units)
{
    int64_t v = 99;
    const char *t = decimal_cases[_i].text;
    cc_convert_t got = cc_convert_decimal(t, strlen(t), decimal_cases[_i].scale,
                                          decimal_cases[_i].is_signed, &v);
    ck_assert_msg(got == decimal_cases[_i].want, "%s (scale %u): got %d", t,
                  (unsigned)decimal_cases[_i].scale, (int)got);
    if (got == CC_CONVERT_OK)
        ck_assert_int_eq(v, decimal_cases[_i].minor);
}
END_TEST

static const struct {
    int64_t minor;
    uint8_t scale;
    const char *text;
} decimal_format_cases[] = {
    {0, 0, "0"},
    {0, 2, "0.00"},
    {125000, 2, "1250.00"},
    {5, 2, "0.05"},
    {-1234, 2, "-12.34"},
    {-5, 2, "-0.05"},
    {INT64_MAX, 0, "9223372036854775807"},
    {INT64_MIN, 0, "-9223372036854775808"},
    {INT64_MIN, 18, "-9.223372036854775808"},
    {1, 18, "0.000000000000000001"},
};

START_TEST(minor_units_format_with_scale_digits)
{
    char buf[42];
    size_t n = cc_format_decimal(decimal_format_cases[_i].minor,
                                 decimal_format_cases[_i].scale, buf);
    ck_assert_str_eq(buf, decimal_format_cases[_i].text);
    ck_assert_uint_eq(n, strlen(buf));
}
END_TEST

/* The public formatter: the same text as the canonical form, snprintf's
 * contract for the buffer. */
static const struct {
    int64_t minor;
    unsigned scale;
    const char *text;
} public_decimal_cases[] = {
    {0, 0, "0"},
    {0, 2, "0.00"},
    {125000, 2, "1250.00"},
    {-5, 2, "-0.05"},
    {-1, 0, "-1"},
    {INT64_MAX, 0, "9223372036854775807"},
    {INT64_MIN, 0, "-9223372036854775808"},
    {INT64_MIN, 2, "-92233720368547758.08"},
    {INT64_MAX, 2, "92233720368547758.07"},
    {INT64_MIN, 18, "-9.223372036854775808"},
    {INT64_MIN, 19, "-0.9223372036854775808"},
    {1, 18, "0.000000000000000001"},
    {1, 38, "0.00000000000000000000000000000000000001"},
    {INT64_MIN, 38, "-0.00000000000000000009223372036854775808"},
};

START_TEST(contractc_decimal_format_writes_minor_units_as_snprintf_would)
{
    const char *want = public_decimal_cases[_i].text;
    const int64_t v = public_decimal_cases[_i].minor;
    const unsigned scale = public_decimal_cases[_i].scale;
    const size_t len = strlen(want);
    char buf[64];
    /* room enough */
    memset(buf, 'x', sizeof buf);
    ck_assert_uint_eq(contractc_decimal_format(v, scale, buf, sizeof buf), len);
    ck_assert_str_eq(buf, want);
    /* the length alone */
    ck_assert_uint_eq(contractc_decimal_format(v, scale, NULL, 0), len);
    /* every smaller buffer: the first size - 1 bytes and a NUL, nothing
     * written past size */
    for (size_t size = 1; size <= len + 1; size++) {
        memset(buf, 'x', sizeof buf);
        ck_assert_uint_eq(contractc_decimal_format(v, scale, buf, size), len);
        ck_assert_uint_eq(strlen(buf), size - 1);
        ck_assert_int_eq(memcmp(buf, want, size - 1), 0);
        ck_assert_int_eq(buf[size], 'x');
    }
}
END_TEST

START_TEST(contractc_decimal_format_refuses_a_scale_above_38)
{
    char buf[8] = "xxxxxxx";
    ck_assert_uint_eq(contractc_decimal_format(1, 39, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
    ck_assert_uint_eq(contractc_decimal_format(1, 4000000000u, NULL, 0), 0);
    /* and agrees with the canonical form's writer at every scale in use */
    rng_t r = {7};
    for (int n = 0; n < 20000; n++) {
        int64_t v = (int64_t)rng_next(&r);
        uint8_t scale = (uint8_t)rng_below(&r, 39);
        char a[42], b[42];
        size_t la = cc_format_decimal(v, scale, a);
        if (contractc_decimal_format(v, scale, b, sizeof b) != la || strcmp(a, b) != 0)
            ck_abort_msg("%lld at scale %u: [%s], the canonical form has [%s]", (long long)v,
                         (unsigned)scale, b, a);
    }
}
END_TEST

START_TEST(formatted_decimals_read_back)
{
    rng_t r = {42};
    char buf[42];
    int n;
    for (n = 0; n < 20000; n++) {
        int64_t v = (int64_t)rng_next(&r), back = 0;
        uint8_t scale = (uint8_t)rng_below(&r, 19);
        size_t len = cc_format_decimal(v, scale, buf);
        ck_assert_int_eq(cc_convert_decimal(buf, len, scale, true, &back),
                         CC_CONVERT_OK);
        ck_assert_int_eq(back, v);
    }
}
END_TEST

/* ------------------------------------------------------------------------
 * Dates and date-times
 * ------------------------------------------------------------------------ */

static const struct {
    const char *text;
    cc_convert_t want;
    int32_t y;
    unsigned m, d;
} date_cases[] = {
    {"2024-02-29", CC_CONVERT_OK, 2024, 2, 29},
    {"2023-02-29", CC_CONVERT_FORMAT, 0, 0, 0},
    {"2000-02-29", CC_CONVERT_OK, 2000, 2, 29},
    {"1900-02-29", CC_CONVERT_FORMAT, 0, 0, 0},
    {"2023-02-28", CC_CONVERT_OK, 2023, 2, 28},
    {"2024-04-30", CC_CONVERT_OK, 2024, 4, 30},
    {"2024-04-31", CC_CONVERT_FORMAT, 0, 0, 0},
    {"2024-12-31", CC_CONVERT_OK, 2024, 12, 31},
    {"2024-13-01", CC_CONVERT_FORMAT, 0, 0, 0},
    {"2024-00-10", CC_CONVERT_FORMAT, 0, 0, 0},
    {"2024-01-00", CC_CONVERT_FORMAT, 0, 0, 0},
    {"2024-01-32", CC_CONVERT_FORMAT, 0, 0, 0},
    {"0000-01-01", CC_CONVERT_OK, 0, 1, 1},
    {"9999-12-31", CC_CONVERT_OK, 9999, 12, 31},
    {"2024-1-01", CC_CONVERT_FORMAT, 0, 0, 0},
    {"2024/01/01", CC_CONVERT_FORMAT, 0, 0, 0},
    {"24-01-01", CC_CONVERT_FORMAT, 0, 0, 0},
    {"2024-01-01T00:00:00Z", CC_CONVERT_FORMAT, 0, 0, 0},
    {"03.03.2024", CC_CONVERT_FORMAT, 0, 0, 0},
    {"", CC_CONVERT_FORMAT, 0, 0, 0},
};

START_TEST(dates_are_real_calendar_dates)
{
    contractc_date_t d;
    const char *t = date_cases[_i].text;
    cc_convert_t got = cc_convert_date(t, strlen(t), &d);
    ck_assert_msg(got == date_cases[_i].want, "%s: got %d", t, (int)got);
    if (got == CC_CONVERT_OK) {
        ck_assert_int_eq(d.year, date_cases[_i].y);
        ck_assert_uint_eq(d.month, date_cases[_i].m);
        ck_assert_uint_eq(d.day, date_cases[_i].d);
    }
}
END_TEST

static const struct {
    const char *text;
    cc_convert_t want;
    unsigned hour, minute, second;
    uint32_t nanos;
    int offset;
} datetime_cases[] = {
    {"2024-03-03T10:15:30Z", CC_CONVERT_OK, 10, 15, 30, 0, 0},
    {"2024-03-03T23:59:59+02:00", CC_CONVERT_OK, 23, 59, 59, 0, 120},
    {"2024-03-03T00:00:00-05:30", CC_CONVERT_OK, 0, 0, 0, 0, -330},
    {"2024-03-03T00:00:00+23:59", CC_CONVERT_OK, 0, 0, 0, 0, 1439},
    {"2024-03-03T00:00:00-00:00", CC_CONVERT_OK, 0, 0, 0, 0, 0},
    {"2024-03-03T10:15:30.5Z", CC_CONVERT_OK, 10, 15, 30, 500000000, 0},
    {"2024-03-03T10:15:30.123456789Z", CC_CONVERT_OK, 10, 15, 30, 123456789, 0},
    {"2024-03-03T10:15:30.000000001+01:00", CC_CONVERT_OK, 10, 15, 30, 1, 60},
    {"2024-03-03T10:15:30.1234567890Z", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-03-03T10:15:30.Z", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-03-03T24:00:00Z", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-03-03T23:60:00Z", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-12-31T23:59:60Z", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-03-03t10:15:30Z", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-03-03T10:15:30z", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-03-03 10:15:30Z", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-03-03T10:15Z", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-03-03T10:15:30", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-03-03T10:15:30+24:00", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-03-03T10:15:30+01:60", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-03-03T10:15:30+0100", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-03-03T10:15:30+01", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-03-03T10:15:30Z ", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2023-02-29T10:15:30Z", CC_CONVERT_FORMAT, 0, 0, 0, 0, 0},
    {"2024-02-29T10:15:30Z", CC_CONVERT_OK, 10, 15, 30, 0, 0},
};

START_TEST(datetimes_follow_the_rfc3339_profile)
{
    contractc_datetime_t dt;
    const char *t = datetime_cases[_i].text;
    cc_convert_t got = cc_convert_datetime(t, strlen(t), &dt);
    ck_assert_msg(got == datetime_cases[_i].want, "%s: got %d", t, (int)got);
    if (got == CC_CONVERT_OK) {
        ck_assert_uint_eq(dt.hour, datetime_cases[_i].hour);
        ck_assert_uint_eq(dt.minute, datetime_cases[_i].minute);
        ck_assert_uint_eq(dt.second, datetime_cases[_i].second);
        ck_assert_uint_eq(dt.nanos, datetime_cases[_i].nanos);
        ck_assert_int_eq(dt.offset_minutes, datetime_cases[_i].offset);
    }
}
END_TEST

START_TEST(days_from_civil_counts_from_the_unix_epoch)
{
    ck_assert_int_eq(cc_days_from_civil(1970, 1, 1), 0);
    ck_assert_int_eq(cc_days_from_civil(1970, 1, 2), 1);
    ck_assert_int_eq(cc_days_from_civil(1969, 12, 31), -1);
    ck_assert_int_eq(cc_days_from_civil(2000, 3, 1), 11017);
    ck_assert_int_eq(cc_days_from_civil(2024, 3, 1) - cc_days_from_civil(2024, 2, 28), 2);
    ck_assert_int_eq(cc_days_from_civil(2023, 3, 1) - cc_days_from_civil(2023, 2, 28), 1);
    ck_assert_int_eq(cc_days_from_civil(0, 1, 1), -719528);
}
END_TEST

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

static Suite *convert_suite(void)
{
    Suite *s = suite_create("convert");
    TCase *tc = tcase_create("integer");
    tcase_add_loop_test(tc, integer_tokens_convert_within_the_ijson_range, 0,
                        COUNT(integer_cases));
    suite_add_tcase(s, tc);

    tc = tcase_create("number");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, number_tokens_convert_to_the_nearest_double, 0,
                        COUNT(number_cases));
    tcase_add_test(tc, boundary_numbers_match_strtod);
    tcase_add_test(tc, random_number_texts_match_strtod);
    tcase_add_test(tc, random_doubles_as_text_read_back_exactly);
    tcase_add_test(tc, halfway_points_round_half_to_even_like_strtod);
    tcase_add_test(tc, long_mantissas_are_rounded_correctly);
    tcase_add_test(tc, number_conversion_ignores_the_c_locale);
    suite_add_tcase(s, tc);

    tc = tcase_create("format");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, numbers_format_as_ecmascript_writes_them, 0,
                        COUNT(format_cases));
    tcase_add_test(tc, random_doubles_format_shortest_and_read_back);
    suite_add_tcase(s, tc);

    tc = tcase_create("decimal");
    tcase_add_loop_test(tc, decimal_strings_convert_to_exact_minor_units, 0,
                        COUNT(decimal_cases));
    tcase_add_loop_test(tc, minor_units_format_with_scale_digits, 0,
                        COUNT(decimal_format_cases));
    tcase_add_test(tc, formatted_decimals_read_back);
    tcase_add_loop_test(tc, contractc_decimal_format_writes_minor_units_as_snprintf_would, 0,
                        (int)(sizeof public_decimal_cases / sizeof public_decimal_cases[0]));
    tcase_add_test(tc, contractc_decimal_format_refuses_a_scale_above_38);
    suite_add_tcase(s, tc);

    tc = tcase_create("date");
    tcase_add_loop_test(tc, dates_are_real_calendar_dates, 0, COUNT(date_cases));
    tcase_add_loop_test(tc, datetimes_follow_the_rfc3339_profile, 0,
                        COUNT(datetime_cases));
    tcase_add_test(tc, days_from_civil_counts_from_the_unix_epoch);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(convert_suite());
    int failed;
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
