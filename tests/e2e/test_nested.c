/* SPDX-License-Identifier: MIT */
/*
 * test_nested.c - nested contracts through generated parsers: dates and
 * datetimes (calendar and RFC 3339 section 5.6 edge cases, echoed exactly by
 * the canonical form), each rule kind (all_or_none, at_most_one, exactly_one,
 * sum over integers, decimals and item fields with its overflow, compare with
 * every operator on integers, decimals, dates and datetimes, user checks on
 * the record and per item), gating and paths at every level.  The nested
 * contract errors are lint cases of tests/data/lint (test_lint).
 *
 * The contracts are tests/data/nested/NAME.contract.yaml, generated at build
 * time by contractc_generate() (tests/nested.cmake).  Each reply's outcome
 * is written as one line -- "accept" and the canonical JSON, or the problems
 * as "PATH kind" in document order -- and compared with the expected line,
 * so a failure prints both.
 */
#include <check.h>
#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nested_checks.h"
#include "nested_item_checks.h"
#include "nested_compare.h"
#include "nested_dates.h"
#include "nested_paths.h"
#include "nested_presence.h"
#include "nested_sums.h"

#include "load.h"
#include "model.h"
#include "text.h"


/* Storage for any of the records above. */
typedef union record_storage {
    long double align_ld_;
    void *align_p_;
    int64_t align_i_;
    unsigned char bytes[4096];
} record_storage_t;

/* A growable text; aborts the test on allocation failure. */
typedef struct text {
    char *s;
    size_t len, cap;
} text_t;

static void text_put(text_t *t, const char *s)
{
    size_t n = strlen(s);
    if (t->len + n + 1 > t->cap) {
        size_t cap = (t->cap ? t->cap * 2 : 256) + n;
        char *grown = realloc(t->s, cap);
        ck_assert_ptr_nonnull(grown);
        t->s = grown;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n + 1);
    t->len += n;
}

/*
 * Parses `reply` with `contract` and returns the outcome as one line (free()
 * it): "accept JSON" with the canonical form, or "PATH kind; PATH kind" in
 * the order of the problem list (rule problems add "(id)").  `user` goes to
 * the check functions.
 */
static char *outcome(const contractc_contract_t *contract, const char *reply, void *user)
{
    ck_assert_uint_le(contract->root->size, sizeof(record_storage_t));
    record_storage_t rec;
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    contractc_options_t options = {NULL, 0, 0, user};
    contractc_status_t rc = contractc_parse(contract, reply, strlen(reply), NULL, 0, &options,
                                            &rec, &problems);
    text_t t = {NULL, 0, 0};
    if (rc == CONTRACTC_OK) {
        ck_assert_uint_eq(contractc_problems_count(&problems), 0);
        char *json = contractc_to_json(contract, &rec, NULL);
        ck_assert_ptr_nonnull(json);
        text_put(&t, "accept ");
        text_put(&t, json);
        free(json);
        contractc_record_free(contract, &rec);
    } else {
        ck_assert_int_eq(rc, CONTRACTC_REJECTED);
        for (size_t i = 0; i < contractc_problems_count(&problems); i++) {
            const contractc_problem_t *p = contractc_problems_at(&problems, i);
            if (i)
                text_put(&t, "; ");
            text_put(&t, p->path);
            text_put(&t, " ");
            text_put(&t, contractc_kind_name(p->kind));
            if (p->kind == CONTRACTC_KIND_RULE) {
                text_put(&t, " (");
                text_put(&t, p->rule ? p->rule : "no id");
                text_put(&t, ")");
            }
        }
    }
    contractc_problems_clear(&problems);
    if (!t.s)
        text_put(&t, "");
    return t.s;
}

/* A reply and the expected outcome line; NULL: accepted, and the canonical
 * form is the reply itself (the replies are written compact and in contract
 * order). */
typedef struct reply_case {
    const char *reply;
    const char *expected;
} reply_case_t;

static void check_case(const contractc_contract_t *contract, const reply_case_t *tc, void *user)
{
    char *got = outcome(contract, tc->reply, user);
    if (tc->expected) {
        ck_assert_msg(strcmp(got, tc->expected) == 0, "reply %s\n  expected: %s\n  actual:   %s",
                      tc->reply, tc->expected, got);
    } else {
        ck_assert_msg(strncmp(got, "accept ", 7) == 0 && strcmp(got + 7, tc->reply) == 0,
                      "reply %s\n  expected it accepted and echoed exactly\n  actual:   %s",
                      tc->reply, got);
    }
    free(got);
}

/* ---- dates and datetimes ---------------------------------------------- */

#define DAY(v) "{\"day\":" v ",\"at\":null}"
#define AT(v) "{\"day\":null,\"at\":" v "}"

static const reply_case_t date_cases[] = {
    /* month lengths and leap years (proleptic Gregorian) */
    {DAY("\"2024-02-29\""), NULL},                /* divisible by 4 */
    {DAY("\"2023-02-29\""), "$.day format"},      /* common year */
    {DAY("\"2000-02-29\""), NULL},                /* divisible by 400 */
    {DAY("\"1900-02-29\""), "$.day format"},      /* divisible by 100 only */
    {DAY("\"2100-02-29\""), "$.day format"},
    {DAY("\"2023-02-28\""), NULL},
    {DAY("\"2024-02-30\""), "$.day format"},
    {DAY("\"2023-04-30\""), NULL},
    {DAY("\"2023-04-31\""), "$.day format"},
    {DAY("\"2023-06-31\""), "$.day format"},
    {DAY("\"2023-09-31\""), "$.day format"},
    {DAY("\"2023-11-31\""), "$.day format"},
    {DAY("\"2023-01-31\""), NULL},
    {DAY("\"2023-12-31\""), NULL},
    {DAY("\"9999-12-31\""), NULL},
    {DAY("\"2023-13-01\""), "$.day format"},
    {DAY("\"2023-00-10\""), "$.day format"},
    {DAY("\"2023-01-00\""), "$.day format"},
    {DAY("\"2023-01-32\""), "$.day format"},
    /* the grammar: four, two and two digits, nothing around them */
    {DAY("\"2024-2-29\""), "$.day format"},
    {DAY("\"24-02-29\""), "$.day format"},
    {DAY("\"20240229\""), "$.day format"},
    {DAY("\"2024/02/29\""), "$.day format"},
    {DAY("\" 2024-02-29\""), "$.day format"},
    {DAY("\"2024-02-29 \""), "$.day format"},
    {DAY("\"2024-02-29T00:00:00Z\""), "$.day format"},
    {DAY("\"+2024-02-29\""), "$.day format"},
    {DAY("\"\""), "$.day format"},
    {DAY("20240229"), "$.day type"},
    {DAY("{}"), "$.day type"},
};

static const reply_case_t datetime_cases[] = {
    {AT("\"2024-02-29T23:59:59Z\""), NULL},
    {AT("\"2023-02-29T12:00:00Z\""), "$.at format"},
    {AT("\"1900-02-29T12:00:00Z\""), "$.at format"},
    {AT("\"2024-01-01T00:00:00Z\""), NULL},
    /* no 24:00, no leap second, no minute 60 */
    {AT("\"2024-01-01T24:00:00Z\""), "$.at format"},
    {AT("\"2024-12-31T23:59:60Z\""), "$.at format"},
    {AT("\"2024-01-01T23:60:00Z\""), "$.at format"},
    {AT("\"2024-01-01T25:00:00Z\""), "$.at format"},
    /* offsets */
    {AT("\"2024-01-01T12:00:00+05:30\""), NULL},
    {AT("\"2024-01-01T12:00:00-08:00\""), NULL},
    {AT("\"2024-01-01T12:00:00+23:59\""), NULL},
    {AT("\"2024-01-01T12:00:00-23:59\""), NULL},
    {AT("\"2024-01-01T12:00:00+00:00\""), NULL},
    {AT("\"2024-01-01T12:00:00-00:00\""), NULL},
    {AT("\"2024-01-01T12:00:00+24:00\""), "$.at format"},
    {AT("\"2024-01-01T12:00:00+05:60\""), "$.at format"},
    {AT("\"2024-01-01T12:00:00+0530\""), "$.at format"},
    {AT("\"2024-01-01T12:00:00+05\""), "$.at format"},
    {AT("\"2024-01-01T12:00:00\""), "$.at format"},
    {AT("\"2024-01-01T12:00:00UTC\""), "$.at format"},
    /* fractions: 1 to 9 digits, kept as written */
    {AT("\"2024-01-01T12:00:00.5Z\""), NULL},
    {AT("\"2024-01-01T12:00:00.000Z\""), NULL},
    {AT("\"2024-01-01T12:00:00.120Z\""), NULL},
    {AT("\"2024-01-01T12:00:00.123456789Z\""), NULL},
    {AT("\"2024-01-01T12:00:00.000000001+01:00\""), NULL},
    {AT("\"2024-01-01T12:00:00.1234567890Z\""), "$.at format"},
    {AT("\"2024-01-01T12:00:00.Z\""), "$.at format"},
    {AT("\"2024-01-01T12:00:00,5Z\""), "$.at format"},
    /* T and Z uppercase, seconds required, one T */
    {AT("\"2024-01-01t12:00:00Z\""), "$.at format"},
    {AT("\"2024-01-01T12:00:00z\""), "$.at format"},
    {AT("\"2024-01-01 12:00:00Z\""), "$.at format"},
    {AT("\"2024-01-01T12:00Z\""), "$.at format"},
    {AT("\"2024-01-01T1:00:00Z\""), "$.at format"},
    {AT("\"2024-01-01\""), "$.at format"},
    {AT("1704110400"), "$.at type"},
};

START_TEST(each_date_is_accepted_exactly_when_it_is_a_real_calendar_date)
{
    check_case(&nested_dates_contract, &date_cases[_i], NULL);
}
END_TEST

START_TEST(each_datetime_follows_rfc3339_section_5_6_and_echoes_as_received)
{
    check_case(&nested_dates_contract, &datetime_cases[_i], NULL);
}
END_TEST

/* Parses a compact dates reply that must be accepted. */
static void parse_dates(const char *reply, nested_dates_t *rec)
{
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    contractc_status_t rc = nested_dates_parse(reply, strlen(reply), NULL, 0, rec, &problems);
    ck_assert_msg(rc == CONTRACTC_OK, "%s: %s", reply,
                  contractc_problems_count(&problems) ? contractc_problems_at(&problems, 0)->message
                                                      : contractc_status_name(rc));
    contractc_problems_clear(&problems);
}

START_TEST(date_and_datetime_members_hold_the_values_read)
{
    nested_dates_t rec;
    parse_dates("{\"day\":\"2024-02-29\",\"at\":\"1999-12-31T23:59:58.000000123-09:30\"}", &rec);
    ck_assert(rec.has_day);
    ck_assert_int_eq(rec.day.year, 2024);
    ck_assert_uint_eq(rec.day.month, 2);
    ck_assert_uint_eq(rec.day.day, 29);
    ck_assert(rec.has_at);
    ck_assert_int_eq(rec.at.date.year, 1999);
    ck_assert_uint_eq(rec.at.date.month, 12);
    ck_assert_uint_eq(rec.at.date.day, 31);
    ck_assert_uint_eq(rec.at.hour, 23);
    ck_assert_uint_eq(rec.at.minute, 59);
    ck_assert_uint_eq(rec.at.second, 58);
    ck_assert_uint_eq(rec.at.nanos, 123);
    ck_assert_int_eq(rec.at.offset_minutes, -570);
    ck_assert_uint_eq(rec.at.fraction_digits, 9);
    ck_assert_int_eq(rec.at.zone, '-');
    nested_dates_free(&rec);

    parse_dates("{\"day\":null,\"at\":\"2024-01-01T12:00:00.5+05:30\"}", &rec);
    ck_assert(!rec.has_day);
    ck_assert_uint_eq(rec.at.nanos, 500000000u);
    ck_assert_int_eq(rec.at.offset_minutes, 330);
    ck_assert_uint_eq(rec.at.fraction_digits, 1);
    ck_assert_int_eq(rec.at.zone, '+');
    nested_dates_free(&rec);

    parse_dates("{\"day\":null,\"at\":\"2024-01-01T12:00:00Z\"}", &rec);
    ck_assert_uint_eq(rec.at.nanos, 0);
    ck_assert_int_eq(rec.at.offset_minutes, 0);
    ck_assert_uint_eq(rec.at.fraction_digits, 0);
    ck_assert_int_eq(rec.at.zone, 'Z');
    nested_dates_free(&rec);

    /* "-00:00" (RFC 3339 section 4.3, unknown local offset) is kept apart
     * from "+00:00" so that it is echoed as written */
    parse_dates("{\"day\":null,\"at\":\"2024-01-01T12:00:00-00:00\"}", &rec);
    ck_assert_int_eq(rec.at.offset_minutes, 0);
    ck_assert_int_eq(rec.at.zone, '-');
    nested_dates_free(&rec);
}
END_TEST

/* ---- all_or_none, at_most_one, exactly_one ------------------------------ */

#define PRESENCE(a, b, c, d, e, f)                                                          \
    "{\"a\":" a ",\"b\":" b ",\"c\":" c ",\"d\":" d ",\"e\":" e ",\"f\":" f "}"

static const reply_case_t presence_cases[] = {
    {PRESENCE("1", "2", "null", "null", "5", "null"), NULL},
    {PRESENCE("null", "null", "3", "null", "null", "6"), NULL},
    {PRESENCE("null", "null", "null", "4", "0", "null"), NULL},
    /* all_or_none: one of two */
    {PRESENCE("1", "null", "null", "null", "5", "null"), "$ rule (a_and_b)"},
    {PRESENCE("null", "2", "null", "null", "5", "null"), "$ rule (a_and_b)"},
    /* at_most_one: both */
    {PRESENCE("null", "null", "3", "4", "5", "null"), "$ rule (c_or_d)"},
    /* exactly_one: none, both */
    {PRESENCE("null", "null", "null", "null", "null", "null"), "$ rule (e_xor_f)"},
    {PRESENCE("null", "null", "null", "null", "5", "6"), "$ rule (e_xor_f)"},
    /* all three broken at once: three problems, in rule order */
    {PRESENCE("1", "null", "3", "4", "null", "null"),
     "$ rule (a_and_b); $ rule (c_or_d); $ rule (e_xor_f)"},
    /* gating: a rule whose field failed its own check does not run, the
     * others still do */
    {PRESENCE("\"1\"", "null", "null", "null", "5", "null"), "$.a type"},
    {PRESENCE("1", "null", "3", "true", "5", "null"), "$.d type; $ rule (a_and_b)"},
    {PRESENCE("null", "null", "null", "null", "1.5", "null"), "$.e type"},
    {PRESENCE("null", "null", "null", "null", "9007199254740992", "6"), "$.e range"},
    /* a missing key is not null: the rule does not run on it */
    {"{\"a\":1,\"c\":null,\"d\":null,\"e\":5,\"f\":null}", "$.b missing"},
};

START_TEST(each_presence_rule_reports_at_its_object_unless_an_operand_failed)
{
    check_case(&nested_presence_contract, &presence_cases[_i], NULL);
}
END_TEST

/* ---- sum -------------------------------------------------------------- */

#define SUMS(counts, count_total, prices, price_total, lines, lines_total)                   \
    "{\"counts\":" counts ",\"count_total\":" count_total ",\"prices\":" prices              \
    ",\"price_total\":" price_total ",\"lines\":" lines ",\"lines_total\":" lines_total "}"
#define LINES3 "[{\"note\":\"a\",\"amount\":100},{\"note\":\"b\",\"amount\":-40},{\"note\":\"c\",\"amount\":5}]"

static const reply_case_t sum_cases[] = {
    {SUMS("[1,2,3]", "6", "[\"1.25\",\"-0.25\"]", "\"1.00\"", LINES3, "65"), NULL},
    /* empty arrays add up to 0 */
    {SUMS("[]", "0", "[]", "\"0.00\"", "[]", "0"), NULL},
    {SUMS("[]", "1", "[]", "\"0.00\"", "[]", "0"), "$ rule (counts_add_up)"},
    /* integers are exact: no tolerance */
    {SUMS("[1,2,3]", "7", "[]", "\"0.00\"", "[]", "0"), "$ rule (counts_add_up)"},
    {SUMS("[1,2,3]", "5", "[]", "\"0.00\"", "[]", "0"), "$ rule (counts_add_up)"},
    {SUMS("[-9007199254740991,9007199254740991]", "0", "[]", "\"0.00\"", "[]", "0"), NULL},
    /* decimals in minor units, tolerance "0.01" inclusive on both sides */
    {SUMS("[]", "0", "[\"0.10\",\"0.20\"]", "\"0.31\"", "[]", "0"), NULL},
    {SUMS("[]", "0", "[\"0.10\",\"0.20\"]", "\"0.29\"", "[]", "0"), NULL},
    {SUMS("[]", "0", "[\"0.10\",\"0.20\"]", "\"0.32\"", "[]", "0"), "$ rule (rules[1])"},
    {SUMS("[]", "0", "[\"0.10\",\"0.20\"]", "\"0.28\"", "[]", "0"), "$ rule (rules[1])"},
    {SUMS("[]", "0", "[\"-0.10\",\"-0.20\"]", "\"-0.30\"", "[]", "0"), NULL},
    /* over a field of each item, tolerance 2 */
    {SUMS("[]", "0", "[]", "\"0.00\"", LINES3, "67"), NULL},
    {SUMS("[]", "0", "[]", "\"0.00\"", LINES3, "63"), NULL},
    {SUMS("[]", "0", "[]", "\"0.00\"", LINES3, "68"), "$ rule (rules[2])"},
    {SUMS("[]", "0", "[]", "\"0.00\"", LINES3, "62"), "$ rule (rules[2])"},
    /* gating: the array, an item or the total failed its own check; the
     * other sums still run */
    {SUMS("[1,\"2\",3]", "6", "[]", "\"0.00\"", "[]", "0"), "$.counts[1] type"},
    {SUMS("[1,2,3]", "6.0", "[]", "\"0.00\"", "[]", "0"), "$.count_total type"},
    {SUMS("{}", "6", "[]", "\"0.00\"", "[]", "0"), "$.counts type"},
    {SUMS("[1,2,3]", "6", "[\"0.1\"]", "\"0.10\"", "[]", "0"), "$.prices[0] format"},
    {SUMS("[1,2,3]", "6", "[]", "\"0.00\"", "[{\"note\":\"a\",\"amount\":null}]", "0"),
     "$.lines[0].amount null"},
    {SUMS("[1,2,3]", "6", "[]", "\"0.00\"", "[{\"note\":\"a\"}]", "0"), "$.lines[0].amount missing"},
    /* a problem elsewhere in an item does not gate the sum over amount
     * (3 against 6 is outside the tolerance of 2) */
    {SUMS("[]", "0", "[]", "\"0.00\"", "[{\"note\":1,\"amount\":3}]", "6"),
     "$.lines[0].note type; $ rule (rules[2])"},
    {SUMS("[1,\"2\"]", "0", "[\"0.10\"]", "\"0.20\"", "[]", "0"),
     "$.counts[1] type; $ rule (rules[1])"},
};

START_TEST(each_sum_is_exact_within_its_tolerance_and_gated_by_its_operands)
{
    check_case(&nested_sums_contract, &sum_cases[_i], NULL);
}
END_TEST

/* Builds a sums reply whose counts are `n` copies of `item` (free() it). */
static char *sums_with_counts(size_t n, const char *item, const char *total)
{
    text_t t = {NULL, 0, 0};
    text_put(&t, "{\"counts\":[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            text_put(&t, ",");
        text_put(&t, item);
    }
    text_put(&t, "],\"count_total\":");
    text_put(&t, total);
    text_put(&t, ",\"prices\":[],\"price_total\":\"0.00\",\"lines\":[],\"lines_total\":0}");
    return t.s;
}

START_TEST(a_sum_that_overflows_int64_is_a_rule_problem_never_wrapped)
{
    /* 1024 * (2^53 - 1) fits in int64; 1025 of them do not (2^63 / 2^53 = 1024) */
    char *fits = sums_with_counts(1024, "9007199254740991", "0");
    char *got = outcome(&nested_sums_contract, fits, NULL);
    ck_assert_str_eq(got, "$ rule (counts_add_up)");
    free(got);
    free(fits);

    char *over = sums_with_counts(1025, "9007199254740991", "0");
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    nested_sums_t rec;
    ck_assert_int_eq(nested_sums_parse(over, strlen(over), NULL, 0, &rec, &problems),
                     CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&problems), 1);
    const contractc_problem_t *p = contractc_problems_at(&problems, 0);
    ck_assert_int_eq(p->kind, CONTRACTC_KIND_RULE);
    ck_assert_str_eq(p->path, "$");
    ck_assert_str_eq(p->rule, "counts_add_up");
    ck_assert_msg(strstr(p->message, ": the sum of the items does not fit in a signed 64-bit "
                                     "integer") != NULL,
                  "message says the sum does not fit: %s", p->message);
    ck_assert_msg(strstr(p->log_message, "does not fit in a signed 64-bit integer") != NULL,
                  "and so does the log's: %s", p->log_message);
    contractc_problems_clear(&problems);
    free(over);

    /* a wrapped sum would be 1025 * (2^53-1) - 2^64, negative: the overflow
     * must be reported whatever the total says, including that value */
    over = sums_with_counts(1025, "9007199254740991", "-9007199254740991");
    got = outcome(&nested_sums_contract, over, NULL);
    ck_assert_str_eq(got, "$ rule (counts_add_up)");
    free(got);
    free(over);

    /* and going down */
    over = sums_with_counts(1025, "-9007199254740991", "0");
    got = outcome(&nested_sums_contract, over, NULL);
    ck_assert_str_eq(got, "$ rule (counts_add_up)");
    free(got);
    free(over);

    /* decimals: each item fits int64 minor units, their sum does not */
    static const reply_case_t decimal_overflow[] = {
        {SUMS("[]", "0", "[\"90000000000000000.00\",\"90000000000000000.00\"]", "\"0.00\"", "[]", "0"),
         "$ rule (rules[1])"},
        {SUMS("[]", "0", "[\"-90000000000000000.00\",\"-90000000000000000.00\"]", "\"0.00\"", "[]",
              "0"),
         "$ rule (rules[1])"},
        {SUMS("[]", "0", "[\"90000000000000000.00\",\"-90000000000000000.00\"]", "\"0.00\"", "[]",
              "0"),
         NULL},
        /* a total at the very top of int64 and a tolerance that would
         * overflow the comparison: still exact */
        {SUMS("[]", "0", "[\"92233720368547758.07\"]", "\"92233720368547758.07\"", "[]", "0"), NULL},
        {SUMS("[]", "0", "[\"-92233720368547758.07\"]", "\"92233720368547758.07\"", "[]", "0"),
         "$ rule (rules[1])"},
    };
    for (size_t i = 0; i < sizeof decimal_overflow / sizeof decimal_overflow[0]; i++)
        check_case(&nested_sums_contract, &decimal_overflow[i], NULL);
}
END_TEST

/* The model's message of the one problem of `reply`, which must be a `rule`
 * problem of rule `id` (free() it). */
static char *sum_message(const char *reply, const char *id)
{
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    nested_sums_t rec;
    ck_assert_int_eq(nested_sums_parse(reply, strlen(reply), NULL, 0, &rec, &problems),
                     CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&problems), 1);
    const contractc_problem_t *p = contractc_problems_at(&problems, 0);
    ck_assert_int_eq(p->kind, CONTRACTC_KIND_RULE);
    ck_assert_str_eq(p->rule, id);
    size_t n = strlen(p->message) + 1;
    char *m = malloc(n);
    ck_assert_ptr_nonnull(m);
    memcpy(m, p->message, n);
    contractc_problems_clear(&problems);
    return m;
}

/* `sum` is exact (docs/contract-language.md, "Fine print"): the total of
 * the items is computed without overflow, so a list whose exact sum fits in
 * int64 is never rejected for overflow, whatever its partial sums do, and
 * the difference to the total is compared exactly even where it does not
 * fit in int64 (2^63 and more minor units apart). */
START_TEST(a_sum_is_exact_at_the_ends_of_int64_and_beyond)
{
    static const reply_case_t cases[] = {
        /* off by 2^63 + 6 minor units: |diff| does not fit int64 (its
         * negation was undefined and stayed negative, so this passed) */
        {SUMS("[]", "0", "[\"-0.01\"]", "\"92233720368547758.07\"", "[]", "0"), "$ rule (rules[1])"},
        {SUMS("[]", "0", "[\"-92233720368547758.08\"]", "\"92233720368547758.07\"", "[]", "0"),
         "$ rule (rules[1])"},
        {SUMS("[]", "0", "[\"92233720368547758.07\"]", "\"-92233720368547758.08\"", "[]", "0"),
         "$ rule (rules[1])"},
        /* a sum equal to its total at exactly INT64_MIN minor units */
        {SUMS("[]", "0", "[\"-92233720368547758.08\"]", "\"-92233720368547758.08\"", "[]", "0"), NULL},
        {SUMS("[]", "0", "[\"-46116860184273879.04\",\"-46116860184273879.04\"]",
              "\"-92233720368547758.08\"", "[]", "0"),
         NULL},
        /* and within the tolerance of it, from either side */
        {SUMS("[]", "0", "[\"-92233720368547758.07\"]", "\"-92233720368547758.08\"", "[]", "0"), NULL},
        {SUMS("[]", "0", "[\"-92233720368547758.08\"]", "\"-92233720368547758.07\"", "[]", "0"), NULL},
        {SUMS("[]", "0", "[\"-92233720368547758.08\"]", "\"-92233720368547758.06\"", "[]", "0"),
         "$ rule (rules[1])"},
        /* partial sums that leave int64 while the exact sum fits */
        {SUMS("[]", "0", "[\"92233720368547758.07\",\"0.01\",\"-0.01\"]", "\"92233720368547758.07\"",
              "[]", "0"),
         NULL},
        {SUMS("[]", "0", "[\"-92233720368547758.08\",\"-0.01\",\"0.02\"]",
              "\"-92233720368547758.07\"", "[]", "0"),
         NULL},
        {SUMS("[]", "0",
              "[\"90000000000000000.00\",\"90000000000000000.00\",\"-90000000000000000.00\"]",
              "\"90000000000000000.00\"", "[]", "0"),
         NULL},
        {SUMS("[]", "0",
              "[\"-90000000000000000.00\",\"-90000000000000000.00\",\"90000000000000000.00\"]",
              "\"-90000000000000000.00\"", "[]", "0"),
         NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(&nested_sums_contract, &cases[i], NULL);

    /* 1024 counts of -(2^53-1) add up to exactly 1024 - 2^63: it fits, and
     * it is 2^63 away from a total of 1024 (this passed too) */
    char *reply = sums_with_counts(1024, "-9007199254740991", "1024");
    char *got = outcome(&nested_sums_contract, reply, NULL);
    ck_assert_str_eq(got, "$ rule (counts_add_up)");
    free(got);
    char *m = sum_message(reply, "counts_add_up");
    ck_assert_str_eq(m, "the sum of counts[] must equal count_total: the items add up to "
                        "-9223372036854774784, but count_total is 1024");
    free(m);
    free(reply);

    /* 1025 counts of 2^53-1 leave int64; one count of -(2^53-1) more brings
     * the exact sum back to 2^63 - 1024: a plain mismatch, not "does not
     * fit" */
    text_t t = {NULL, 0, 0};
    text_put(&t, "{\"counts\":[");
    for (int i = 0; i < 1025; i++)
        text_put(&t, "9007199254740991,");
    text_put(&t, "-9007199254740991],\"count_total\":0,\"prices\":[],\"price_total\":\"0.00\","
                 "\"lines\":[],\"lines_total\":0}");
    m = sum_message(t.s, "counts_add_up");
    ck_assert_str_eq(m, "the sum of counts[] must equal count_total: the items add up to "
                        "9223372036854774784, but count_total is 0");
    free(m);
    free(t.s);
}
END_TEST

/* ---- compare ----------------------------------------------------------- */

/* One compare reply: NULL members take a default that passes every rule. */
typedef struct compare_case {
    const char *min_n, *max_n, *low, *high, *start, *end, *opens, *closes, *sent, *received, *x,
        *y, *stays;
    const char *expected; /* NULL: accepted */
} compare_case_t;

#define D(v, dflt) ((v) ? (v) : (dflt))

static char *compare_reply(const compare_case_t *c)
{
    size_t n = 4096;
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    int w = snprintf(s, n,
                     "{\"min_n\":%s,\"max_n\":%s,\"low\":%s,\"high\":%s,\"start\":%s,\"end\":%s,"
                     "\"opens\":%s,\"closes\":%s,\"sent\":%s,\"received\":%s,\"x\":%s,\"y\":%s,"
                     "\"stays\":%s}",
                     D(c->min_n, "1"), D(c->max_n, "2"), D(c->low, "\"1.00\""),
                     D(c->high, "\"2.00\""), D(c->start, "\"2024-01-01\""),
                     D(c->end, "\"2024-01-02\""), D(c->opens, "\"2024-03-01T08:00:00Z\""),
                     D(c->closes, "\"2024-03-01T09:00:00Z\""), D(c->sent, "\"2024-03-01T12:00:00Z\""),
                     D(c->received, "\"2024-03-01T12:00:00Z\""), D(c->x, "1"), D(c->y, "2"),
                     D(c->stays, "[]"));
    ck_assert(w > 0 && (size_t)w < n);
    return s;
}

static const compare_case_t compare_cases[] = {
    {.expected = NULL},
    /* integers, >= : equal passes, below fails */
    {.min_n = "2", .max_n = "2"},
    {.min_n = "3", .max_n = "2", .expected = "$ rule (n_order)"},
    {.min_n = "-9007199254740991", .max_n = "-9007199254740990"},
    /* decimals, > : equal fails; minor units, signs */
    {.low = "\"2.00\"", .high = "\"2.00\"", .expected = "$ rule (price_order)"},
    {.low = "\"1.99\"", .high = "\"2.00\""},
    {.low = "\"-0.01\"", .high = "\"0.00\""},
    {.low = "\"0.00\"", .high = "\"-0.01\"", .expected = "$ rule (price_order)"},
    /* dates, <= ; skipped when either side is null */
    {.start = "\"2024-01-02\"", .end = "\"2024-01-02\""},
    {.start = "\"2024-01-03\"", .end = "\"2024-01-02\"", .expected = "$ rule (date_order)"},
    {.start = "\"2025-01-01\"", .end = "\"2024-12-31\"", .expected = "$ rule (date_order)"},
    {.start = "\"2024-02-01\"", .end = "\"2024-01-31\"", .expected = "$ rule (date_order)"},
    {.start = "null", .end = "\"2024-01-02\""},
    {.start = "\"2024-01-03\"", .end = "null"},
    /* datetimes, < , by instant across offsets */
    {.opens = "\"2024-03-01T10:00:00+02:00\"", .closes = "\"2024-03-01T09:00:00Z\""},
    {.opens = "\"2024-03-01T09:00:00Z\"", .closes = "\"2024-03-01T10:00:00+02:00\"",
     .expected = "$ rule (open_order)"},
    {.opens = "\"2024-03-01T23:30:00-01:00\"", .closes = "\"2024-03-02T00:30:00Z\"",
     .expected = "$ rule (open_order)"},
    {.opens = "\"2024-03-01T23:30:00-01:00\"", .closes = "\"2024-03-02T00:30:00.000000001Z\""},
    {.opens = "\"2024-03-01T09:00:00.5Z\"", .closes = "\"2024-03-01T09:00:00.25Z\"",
     .expected = "$ rule (open_order)"},
    {.opens = "\"2024-03-01T09:00:00.25Z\"", .closes = "\"2024-03-01T09:00:00.5Z\""},
    {.opens = "\"2024-12-31T23:59:59+00:00\"", .closes = "\"2025-01-01T00:00:00+00:01\"",
     .expected = "$ rule (open_order)"},
    {.opens = "\"2024-02-29T23:00:00-02:00\"", .closes = "\"2024-03-01T00:59:59Z\"",
     .expected = "$ rule (open_order)"},
    {.opens = "\"2024-02-29T23:00:00+02:00\"", .closes = "\"2024-02-29T21:00:00.000000001Z\""},
    /* datetimes, == , by instant: offsets and "-00:00" do not matter */
    {.sent = "\"2024-03-01T12:00:00Z\"", .received = "\"2024-03-01T13:00:00+01:00\""},
    {.sent = "\"2024-03-01T12:00:00-00:00\"", .received = "\"2024-03-01T12:00:00Z\""},
    {.sent = "\"2024-03-01T12:00:00.500Z\"", .received = "\"2024-03-01T12:00:00.5Z\""},
    {.sent = "\"2024-03-01T00:30:00+01:00\"", .received = "\"2024-02-29T23:30:00Z\""},
    {.sent = "\"2024-03-01T12:00:00Z\"", .received = "\"2024-03-01T12:00:00.000000001Z\"",
     .expected = "$ rule (same_moment)"},
    {.sent = "\"2024-03-01T12:00:00Z\"", .received = "\"2024-03-01T12:00:00+01:00\"",
     .expected = "$ rule (same_moment)"},
    /* integers, != */
    {.x = "5", .y = "5", .expected = "$ rule (x_not_y)"},
    {.x = "-5", .y = "5"},
    /* per item of a named type, at the item's path */
    {.stays = "[{\"check_in\":\"2024-05-01\",\"check_out\":\"2024-05-03\"},"
              "{\"check_in\":\"2024-05-03\",\"check_out\":\"2024-05-03\"},"
              "{\"check_in\":\"2024-05-04\",\"check_out\":\"2024-05-03\"}]",
     .expected = "$.stays[1] rule (stay_order); $.stays[2] rule (stay_order)"},
    /* gating: an operand that failed its own check stops only its rule */
    {.min_n = "3", .max_n = "101", .expected = "$.max_n range"},
    {.min_n = "\"3\"", .max_n = "2", .expected = "$.min_n type"},
    {.low = "\"2.5\"", .high = "\"2.00\"", .expected = "$.low format"},
    {.start = "\"2024-02-30\"", .end = "\"2024-01-02\"", .expected = "$.start format"},
    {.opens = "\"2024-03-01T24:00:00Z\"", .closes = "\"2024-03-01T09:00:00Z\"",
     .expected = "$.opens format"},
    {.stays = "[{\"check_in\":\"2024-05-32\",\"check_out\":\"2024-05-03\"},"
              "{\"check_in\":\"2024-05-04\",\"check_out\":\"2024-05-03\"}]",
     .expected = "$.stays[0].check_in format; $.stays[1] rule (stay_order)"},
    {.x = "5", .y = "5", .low = "\"9.00\"", .max_n = "101",
     .expected = "$.max_n range; $ rule (price_order); $ rule (x_not_y)"},
};

START_TEST(each_compare_holds_on_integers_decimals_dates_and_instants)
{
    const compare_case_t *c = &compare_cases[_i];
    char *reply = compare_reply(c);
    char *got = outcome(&nested_compare_contract, reply, NULL);
    if (c->expected)
        ck_assert_msg(strcmp(got, c->expected) == 0, "reply %s\n  expected: %s\n  actual:   %s",
                      reply, c->expected, got);
    else
        ck_assert_msg(strncmp(got, "accept ", 7) == 0 && strcmp(got + 7, reply) == 0,
                      "reply %s\n  expected it accepted and echoed\n  actual:   %s", reply, got);
    free(got);
    free(reply);
}
END_TEST

/* ---- check functions ---------------------------------------------------- */

/* What the checks see: the user pointer of the parse options. */
typedef struct check_ctx {
    int record_calls, item_calls;
    int64_t last_line;  /* an item check fails above this line */
    bool fail_record;   /* the record check fails */
    const nested_checks_t *seen_record;
    bool saw_source;    /* contractc_check_source gave non-NULL */
} check_ctx_t;

void nested_checks_line_in_file(const nested_checks_finding_t *item, contractc_check_t *check)
{
    check_ctx_t *ctx = contractc_check_user(check);
    ctx->item_calls++;
    size_t len = 99;
    if (contractc_check_source(check, &len) != NULL || len != 0)
        ctx->saw_source = true;
    if (item->line > ctx->last_line)
        contractc_check_fail(check, "the line is beyond the end of the file");
}

void nested_checks_record(const nested_checks_t *record, contractc_check_t *check)
{
    check_ctx_t *ctx = contractc_check_user(check);
    ctx->record_calls++;
    ctx->seen_record = record;
    if (ctx->fail_record || record->findings_count > (size_t)record->file_lines)
        contractc_check_fail(check, "more findings than lines");
}

#define FINDING(claim, line) "{\"claim\":\"" claim "\",\"line\":" #line "}"

typedef struct check_case {
    const char *reply;
    int64_t last_line;
    bool fail_record;
    const char *expected;   /* NULL: accepted and echoed */
    int record_calls, item_calls;
} check_case_t;

static const check_case_t check_cases[] = {
    {"{\"file_lines\":9,\"findings\":[" FINDING("a", 1) "," FINDING("b", 2) "," FINDING("c", 3)
     "],\"summary\":{\"first\":null}}",
     9, false, NULL, 1, 3},
    /* per item, at the item's path; a nested named-type object too */
    {"{\"file_lines\":9,\"findings\":[" FINDING("a", 1) "," FINDING("b", 2) "," FINDING("c", 30)
     "],\"summary\":{\"first\":" FINDING("a", 1) "}}",
     9, false, "$.findings[2] rule (line_in_file)", 1, 4},
    {"{\"file_lines\":9,\"findings\":[" FINDING("a", 10) "," FINDING("b", 2)
     "],\"summary\":{\"first\":" FINDING("a", 11) "}}",
     9, false, "$.findings[0] rule (line_in_file); $.summary.first rule (line_in_file)", 1, 3},
    /* on the record, with the items': every check runs */
    {"{\"file_lines\":1,\"findings\":[" FINDING("a", 1) "," FINDING("b", 5)
     "],\"summary\":{\"first\":null}}",
     1, false, "$.findings[1] rule (line_in_file); $ rule (rules[0])", 1, 2},
    {"{\"file_lines\":9,\"findings\":[],\"summary\":{\"first\":null}}", 9, true, "$ rule (rules[0])", 1,
     0},
    /* checks run only on an otherwise clean record */
    {"{\"file_lines\":9,\"findings\":[" FINDING("a", 30) "," FINDING("", 2)
     "],\"summary\":{\"first\":null}}",
     9, true, "$.findings[1].claim length", 0, 0},
    {"{\"file_lines\":9,\"findings\":[" FINDING("a", 30) "],\"summary\":{\"first\":null},\"extra\":1}",
     9, true, "$.extra unexpected", 0, 0},
    {"{\"file_lines\":-1,\"findings\":[],\"summary\":{\"first\":null}}", 9, true, "$.file_lines range",
     0, 0},
};

START_TEST(each_check_runs_once_per_owner_only_on_a_clean_record)
{
    const check_case_t *tc = &check_cases[_i];
    check_ctx_t ctx = {0, 0, tc->last_line, tc->fail_record, NULL, false};
    reply_case_t rc = {tc->reply, tc->expected};
    check_case(&nested_checks_contract, &rc, &ctx);
    ck_assert_int_eq(ctx.record_calls, tc->record_calls);
    ck_assert_int_eq(ctx.item_calls, tc->item_calls);
    ck_assert(!ctx.saw_source);
}
END_TEST

START_TEST(a_check_sees_the_typed_record_and_its_message_reaches_the_problem)
{
    const char *reply = "{\"file_lines\":2,\"findings\":[" FINDING("a", 1) "," FINDING("b", 3)
                        "],\"summary\":{\"first\":null}}";
    check_ctx_t ctx = {0, 0, 2, false, NULL, false};
    contractc_options_t options = {NULL, 0, 0, &ctx};
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    nested_checks_t rec;
    ck_assert_int_eq(contractc_parse(&nested_checks_contract, reply, strlen(reply), NULL, 0,
                                     &options, &rec, &problems),
                     CONTRACTC_REJECTED);
    ck_assert_ptr_nonnull(ctx.seen_record);
    ck_assert_uint_eq(contractc_problems_count(&problems), 1);
    const contractc_problem_t *p = contractc_problems_at(&problems, 0);
    ck_assert_str_eq(p->path, "$.findings[1]");
    ck_assert_str_eq(p->message, "the line is beyond the end of the file");
    ck_assert_str_eq(p->rule, "line_in_file");
    contractc_problems_clear(&problems);
    /* the record is zeroed after a rejection */
    ck_assert_ptr_null(rec.findings);
    ck_assert_uint_eq(rec.findings_count, 0);
}
END_TEST

/* Checks of a named type in a contract whose record has none: they run for
 * every object of the type that was read, at any depth, and only then. */
void nested_item_checks_line_in_file(const nested_item_checks_finding_t *item,
                                     contractc_check_t *check)
{
    check_ctx_t *ctx = contractc_check_user(check);
    ctx->item_calls++;
    if (item->line > ctx->last_line)
        contractc_check_fail(check, "the line is beyond the end of the file");
}

static const check_case_t item_check_cases[] = {
    {"{\"findings\":[{\"line\":1},{\"line\":2}],\"first\":{\"line\":1}}", 9, false, NULL, 0, 3},
    {"{\"findings\":[{\"line\":1},{\"line\":20}],\"first\":null}", 9, false,
     "$.findings[1] rule (line_in_file)", 0, 2},
    {"{\"findings\":[],\"first\":{\"line\":30}}", 9, false, "$.first rule (line_in_file)", 0, 1},
    {"{\"findings\":[],\"first\":null}", 9, false, NULL, 0, 0},
};

START_TEST(checks_of_a_nested_type_run_without_one_on_the_record)
{
    const check_case_t *tc = &item_check_cases[_i];
    check_ctx_t ctx = {0, 0, tc->last_line, tc->fail_record, NULL, false};
    reply_case_t rc = {tc->reply, tc->expected};
    check_case(&nested_item_checks_contract, &rc, &ctx);
    ck_assert_int_eq(ctx.item_calls, tc->item_calls);
}
END_TEST

/* ---- paths -------------------------------------------------------------- */

#define P(x, y) "{\"x\":" #x ",\"y\":" #y ",\"tag\":null}"

static const reply_case_t path_cases[] = {
    {"{\"meta\":{\"inner\":{\"n\":1},\"tags\":[\"a\",\"bcd\"]},\"grid\":[[1,2,3],[],[9]],"
     "\"points\":[" P(1, 2) "],\"groups\":[[" P(1, 2) "," P(3, 4) "],[]]}",
     NULL},
    {"{\"meta\":{\"inner\":{\"n\":1},\"tags\":[]},\"grid\":[],\"points\":null,\"groups\":[]}", NULL},
    /* inline objects */
    {"{\"meta\":{\"inner\":{\"n\":\"1\"},\"tags\":[]},\"grid\":[],\"points\":null,\"groups\":[]}",
     "$.meta.inner.n type"},
    {"{\"meta\":{\"inner\":{},\"tags\":[]},\"grid\":[],\"points\":null,\"groups\":[]}",
     "$.meta.inner.n missing"},
    {"{\"meta\":{\"inner\":{\"n\":1,\"m\":2},\"tags\":[]},\"grid\":[],\"points\":null,\"groups\":[]}",
     "$.meta.inner.m unexpected"},
    {"{\"meta\":{\"inner\":{\"n\":1,\"n\":2},\"tags\":[]},\"grid\":[],\"points\":null,\"groups\":[]}",
     "$.meta.inner.n duplicate"},
    {"{\"meta\":{\"inner\":null,\"tags\":[]},\"grid\":[],\"points\":null,\"groups\":[]}",
     "$.meta.inner null"},
    {"{\"meta\":{\"inner\":[],\"tags\":[]},\"grid\":[],\"points\":null,\"groups\":[]}",
     "$.meta.inner type"},
    /* arrays of scalars inside an object */
    {"{\"meta\":{\"inner\":{\"n\":1},\"tags\":[\"a\",\"abcd\"]},\"grid\":[],\"points\":null,"
     "\"groups\":[]}",
     "$.meta.tags[1] length"},
    {"{\"meta\":{\"inner\":{\"n\":1},\"tags\":[\"a\",\"b\",\"c\"]},\"grid\":[],\"points\":null,"
     "\"groups\":[]}",
     "$.meta.tags items"},
    /* arrays of arrays */
    {"{\"meta\":{\"inner\":{\"n\":1},\"tags\":[]},\"grid\":[[1],[1,2,10]],\"points\":null,"
     "\"groups\":[]}",
     "$.grid[1][2] range"},
    {"{\"meta\":{\"inner\":{\"n\":1},\"tags\":[]},\"grid\":[[1],[1,2,3,4]],\"points\":null,"
     "\"groups\":[]}",
     "$.grid[1] items"},
    {"{\"meta\":{\"inner\":{\"n\":1},\"tags\":[]},\"grid\":[[1],5,[\"x\"]],\"points\":null,"
     "\"groups\":[]}",
     "$.grid[1] type; $.grid[2][0] type"},
    {"{\"meta\":{\"inner\":{\"n\":1},\"tags\":[]},\"grid\":[null],\"points\":null,\"groups\":[]}",
     "$.grid[0] null"},
    /* named types in arrays and in arrays of arrays */
    {"{\"meta\":{\"inner\":{\"n\":1},\"tags\":[]},\"grid\":[],\"points\":[" P(1, 2)
     ",{\"x\":1,\"tag\":\"mid\"}],\"groups\":[]}",
     "$.points[1].tag enum; $.points[1].y missing"},
    {"{\"meta\":{\"inner\":{\"n\":1},\"tags\":[]},\"grid\":[],\"points\":null,\"groups\":[[],[" P(1, 2)
     "," P(3, true) "]]}",
     "$.groups[1][1].y type"},
    {"{\"meta\":{\"inner\":{\"n\":1},\"tags\":[]},\"grid\":[],\"points\":null,\"groups\":[[{\"x\":1,"
     "\"y\":2,\"tag\":null,\"odd key\":1,\"x\":1}]]}",
     "$.groups[0][0]['odd key'] unexpected; $.groups[0][0].x duplicate"},
    /* several levels at once, in document order */
    {"{\"meta\":{\"inner\":{\"n\":true},\"tags\":[7]},\"grid\":[[10]],\"points\":[" P(1, "2")
     "],\"groups\":[[{\"x\":1,\"y\":2,\"tag\":\"far\",\"z\":0}]]}",
     "$.meta.inner.n type; $.meta.tags[0] type; $.grid[0][0] range; $.points[0].y type; "
     "$.groups[0][0].z unexpected"},
};

START_TEST(each_problem_path_names_every_level)
{
    check_case(&nested_paths_contract, &path_cases[_i], NULL);
}
END_TEST

START_TEST(nested_records_are_typed_structs_and_arrays_with_counts)
{
    const char *reply = "{\"meta\":{\"inner\":{\"n\":7},\"tags\":[\"a\",\"bcd\"]},"
                        "\"grid\":[[1,2,3],[],[9]],\"points\":[{\"x\":1,\"y\":2,\"tag\":\"far\"}],"
                        "\"groups\":[[],[{\"x\":3,\"y\":4,\"tag\":null}]]}";
    nested_paths_t rec;
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    ck_assert_int_eq(nested_paths_parse(reply, strlen(reply), NULL, 0, &rec, &problems),
                     CONTRACTC_OK);
    ck_assert_int_eq(rec.meta.inner.n, 7);
    ck_assert_uint_eq(rec.meta.tags_count, 2);
    ck_assert_str_eq(rec.meta.tags[1].data, "bcd");
    ck_assert_uint_eq(rec.meta.tags[1].len, 3);
    ck_assert_uint_eq(rec.grid_count, 3);
    ck_assert_uint_eq(rec.grid[0].count, 3);
    ck_assert_int_eq(rec.grid[0].items[2], 3);
    ck_assert_uint_eq(rec.grid[1].count, 0);
    ck_assert_int_eq(rec.grid[2].items[0], 9);
    ck_assert(rec.has_points);
    ck_assert_uint_eq(rec.points_count, 1);
    ck_assert_int_eq(rec.points[0].y, 2);
    ck_assert(rec.points[0].has_tag);
    ck_assert_int_eq(rec.points[0].tag, NESTED_PATHS_POINT_TAG_FAR);
    ck_assert_uint_eq(rec.groups_count, 2);
    ck_assert_uint_eq(rec.groups[1].count, 1);
    ck_assert_int_eq(rec.groups[1].items[0].x, 3);
    ck_assert(!rec.groups[1].items[0].has_tag);
    ck_assert_int_eq(rec.groups[1].items[0].tag, NESTED_PATHS_POINT_TAG_NONE);
    char *json = nested_paths_to_json(&rec, NULL);
    ck_assert_str_eq(json, reply);
    free(json);
    nested_paths_free(&rec);
    ck_assert_ptr_null(rec.arena_);
    nested_paths_free(&rec); /* safe on a freed record */
    contractc_problems_clear(&problems);
}
END_TEST

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

static Suite *nested_suite(void)
{
    Suite *s = suite_create("nested");
    TCase *tc = tcase_create("dates");
    tcase_add_loop_test(tc, each_date_is_accepted_exactly_when_it_is_a_real_calendar_date, 0,
                        N_OF(date_cases));
    tcase_add_loop_test(tc, each_datetime_follows_rfc3339_section_5_6_and_echoes_as_received, 0,
                        N_OF(datetime_cases));
    tcase_add_test(tc, date_and_datetime_members_hold_the_values_read);
    suite_add_tcase(s, tc);

    tc = tcase_create("rules");
    tcase_add_loop_test(tc, each_presence_rule_reports_at_its_object_unless_an_operand_failed, 0,
                        N_OF(presence_cases));
    tcase_add_loop_test(tc, each_sum_is_exact_within_its_tolerance_and_gated_by_its_operands, 0,
                        N_OF(sum_cases));
    tcase_add_test(tc, a_sum_that_overflows_int64_is_a_rule_problem_never_wrapped);
    tcase_add_test(tc, a_sum_is_exact_at_the_ends_of_int64_and_beyond);
    tcase_add_loop_test(tc, each_compare_holds_on_integers_decimals_dates_and_instants, 0,
                        N_OF(compare_cases));
    tcase_add_loop_test(tc, each_check_runs_once_per_owner_only_on_a_clean_record, 0,
                        N_OF(check_cases));
    tcase_add_test(tc, a_check_sees_the_typed_record_and_its_message_reaches_the_problem);
    tcase_add_loop_test(tc, checks_of_a_nested_type_run_without_one_on_the_record, 0,
                        N_OF(item_check_cases));
    suite_add_tcase(s, tc);

    tc = tcase_create("paths");
    tcase_add_loop_test(tc, each_problem_path_names_every_level, 0, N_OF(path_cases));
    tcase_add_test(tc, nested_records_are_typed_structs_and_arrays_with_counts);
    suite_add_tcase(s, tc);

    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(nested_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
