/* SPDX-License-Identifier: MIT */
/*
 * convert.h - exact, locale-free conversions of reply text (internal).
 *
 * Every conversion works on the bytes of a token with no C locale involved
 * (never strtod/printf of doubles on the hot path: a host under de_DE would
 * read "1.5" as 1).  Shared by the runtime and, for contract bounds and
 * examples, by the generator.
 */
#ifndef CONTRACTC_CONVERT_H
#define CONTRACTC_CONVERT_H

#include "contractc/contractc.h"
#include "private.h"

typedef enum cc_convert {
    CC_CONVERT_OK = 0,
    CC_CONVERT_FORMAT,     /* text not of the required form */
    CC_CONVERT_RANGE       /* of the form, but out of range */
} cc_convert_t;

/*
 * An RFC 8259 number token as a JSON `integer`: no fraction, no exponent
 * (CC_CONVERT_FORMAT otherwise), within ±(2^53 − 1) (RFC 7493 section 2.2;
 * CC_CONVERT_RANGE otherwise).  "-0" is 0.  `text` is a valid number token.
 */
CC_PRIVATE cc_convert_t cc_convert_integer(const char *text, size_t len, int64_t *out);

/*
 * An RFC 8259 number token as the nearest double (round half to even,
 * correctly rounded for every input length).  CC_CONVERT_RANGE when it
 * overflows to infinity, or when a non-zero value underflows to 0.
 */
CC_PRIVATE cc_convert_t cc_convert_number(const char *text, size_t len, double *out);

/*
 * The shortest text that reads back to `value` (finite), as ECMAScript's
 * Number::toString writes it: no exponent for 1e-6 <= |v| < 1e21 ("0.000001",
 * "123456789012345680000"), else the exponent form ("1e-7", "1e+21",
 * "5e-324"); "-0" as "0".
 * Writes at most 32 bytes plus a NUL to buf; returns the length.
 */
CC_PRIVATE size_t cc_format_number(double value, char buf[33]);

/*
 * A decimal string (the JSON string's decoded text) in minor units:
 * (0|[1-9][0-9]*) when scale is 0, else (0|[1-9][0-9]*)\.[0-9]{scale}, with a
 * leading '-' only when is_signed ("-0.00" is accepted as 0).
 * CC_CONVERT_FORMAT when not of that form, CC_CONVERT_RANGE beyond int64.
 */
CC_PRIVATE cc_convert_t cc_convert_decimal(const char *text, size_t len, uint8_t scale,
                                bool is_signed, int64_t *minor);

/* Writes minor units as a decimal with `scale` fraction digits ("1250.00").
 * buf holds at least 42 bytes; returns the length. */
CC_PRIVATE size_t cc_format_decimal(int64_t minor, uint8_t scale, char buf[42]);

/*
 * The words of a decimal's form, the one wording of the prompt, the dialect
 * descriptions and the repair message (docs/contract-language.md, "The
 * prompt"): "dot, two decimals, no separators"; scale 1 "one decimal",
 * 3 and 4 in words, others "N decimals"; scale 0 "whole number, no dot, no
 * separators"; a signed decimal adds ", may start with -" before ", no
 * separators".  Writes at most CC_DECIMAL_FORM_MAX bytes including the NUL;
 * returns the length.
 */
#define CC_DECIMAL_FORM_MAX 64
CC_PRIVATE size_t cc_decimal_form(uint8_t scale, bool is_signed, char buf[CC_DECIMAL_FORM_MAX]);

/* The forms of a date and a date-time in words, and the examples shown
 * when the contract gives none: the one wording of the prompt, the dialect
 * descriptions and the repair message, as for cc_decimal_form. */
#define CC_DATE_FORM "YYYY-MM-DD"
#define CC_DATETIME_FORM "RFC 3339 with seconds and an offset"
#define CC_DATE_EXAMPLE "2024-03-01"
#define CC_DATETIME_EXAMPLE "2024-03-01T14:30:00Z"

/* YYYY-MM-DD, a real calendar date (proleptic Gregorian, leap years). */
CC_PRIVATE cc_convert_t cc_convert_date(const char *text, size_t len, contractc_date_t *out);

/*
 * RFC 3339 section 5.6 date-time, contractc's profile: 'T' and 'Z'
 * uppercase, seconds required, 1..9 fraction digits, offset Z or ±hh:mm
 * (hh <= 23, mm <= 59), no leap second (:60), no 24:00.  Also records how
 * it was written (fraction_digits, zone) so the canonical form can echo it.
 */
CC_PRIVATE cc_convert_t cc_convert_datetime(const char *text, size_t len,
                                 contractc_datetime_t *out);

/* Days since 1970-01-01 of a valid date (for comparing instants). */
CC_PRIVATE int64_t cc_days_from_civil(int32_t year, unsigned month, unsigned day);

#endif /* CONTRACTC_CONVERT_H */
