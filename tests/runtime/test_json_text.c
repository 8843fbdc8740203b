/* SPDX-License-Identifier: MIT */
/*
 * test_json_text.c - the runtime's one JSON string escaper and one number
 * check (contractc_json_string, contractc_json_number_valid, and the
 * internal cc_str_json_string behind them): every byte class, invalid
 * UTF-8 (RFC 3629 section 4), the 40-code-point cut of quoted values, and
 * the RFC 8259 section 6 number grammar.  The canonical form, the log, the
 * messages, the generator and the chat client all write through these.
 */
#include "internal.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

typedef struct esc_row {
    const char *text;
    size_t len;
    const char *want;
} esc_row_t;

#define ROW(t, w) {t, sizeof t - 1, w}

static const esc_row_t esc_rows[] = {
    ROW("", "\"\""),
    ROW("plain", "\"plain\""),
    ROW("a\"b\\c", "\"a\\\"b\\\\c\""),
    ROW("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\""),
    ROW("\x01\x1f", "\"\\u0001\\u001f\""),
    ROW("a\0b", "\"a\\u0000b\""),
    ROW("\x7f/", "\"\x7f/\""),                         /* DEL and '/' as they are */
    ROW("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\""),
    ROW("\xEF\xBF\xBF", "\"\xEF\xBF\xBF\""),           /* a noncharacter is UTF-8 */
    ROW("a\xFF" "b", "\"a\xEF\xBF\xBD" "b\""),         /* one U+FFFD per bad byte */
    ROW("\xC3", "\"\xEF\xBF\xBD\""),                   /* cut sequence */
    ROW("\xC0\xAF", "\"\xEF\xBF\xBD\xEF\xBF\xBD\""),   /* overlong */
    ROW("\xED\xA0\x80", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\""), /* surrogate */
};

START_TEST(json_string_escapes_every_byte_class)
{
    for (int i = 0; i < COUNT(esc_rows); i++) {
        size_t len = 99;
        char *lit = contractc_json_string(esc_rows[i].text, esc_rows[i].len, &len);
        ck_assert_ptr_nonnull(lit);
        ck_assert_msg(strcmp(lit, esc_rows[i].want) == 0, "row %d: %s", i, lit);
        ck_assert_uint_eq(len, strlen(esc_rows[i].want));
        free(lit);
    }
}
END_TEST

START_TEST(json_string_takes_null_only_with_length_zero)
{
    char *lit = contractc_json_string(NULL, 0, NULL);
    ck_assert_str_eq(lit, "\"\"");
    free(lit);
    size_t len = 7;
    ck_assert_ptr_null(contractc_json_string(NULL, 1, &len));
    ck_assert_uint_eq(len, 0);
}
END_TEST

/* Quoted reply values in messages: 40 code points, then "…" when more
 * followed; escapes count as one code point each. */
START_TEST(quoted_values_are_cut_at_forty_code_points)
{
    char text[64];
    memset(text, 'x', sizeof text);
    cc_str_t s;
    cc_str_init(&s, NULL);
    cc_str_quote(&s, text, 40);
    ck_assert_uint_eq(s.len, 42); /* all 40, no mark */
    cc_str_free(&s);

    cc_str_init(&s, NULL);
    cc_str_quote(&s, text, 41);
    ck_assert_uint_eq(s.len, 42 + 3);
    ck_assert_str_eq(s.data + 41, "\xE2\x80\xA6\"");
    cc_str_free(&s);

    /* 39 'x', a newline, an e-acute: 41 code points */
    char mixed[64];
    memset(mixed, 'x', 39);
    memcpy(mixed + 39, "\n\xC3\xA9", 3);
    cc_str_init(&s, NULL);
    cc_str_quote(&s, mixed, 42);
    ck_assert_str_eq(s.data + 40, "\\n\xE2\x80\xA6\"");
    cc_str_free(&s);
}
END_TEST

typedef struct num_row {
    const char *text;
    bool valid;
} num_row_t;

static const num_row_t num_rows[] = {
    {"0", true}, {"-0", true}, {"7", true}, {"123", true}, {"0.5", true},
    {"-12.50", true}, {"1e5", true}, {"1E+5", true}, {"2.5e-3", true},
    {"", false}, {"-", false}, {"+1", false}, {"01", false}, {"-01", false},
    {".5", false}, {"1.", false}, {"1.e5", false}, {"1e", false}, {"1e+", false},
    {" 1", false}, {"1 ", false}, {"1\n", false}, {"1,2", false}, {"1x", false},
    {"0x10", false}, {"NaN", false}, {"Infinity", false}, {"1.5.5", false},
    {"--1", false}, {"1e5e5", false}, {"\xEF\xBB\xBF" "1", false},
};

START_TEST(number_check_is_the_rfc_8259_grammar)
{
    for (int i = 0; i < COUNT(num_rows); i++)
        ck_assert_msg(contractc_json_number_valid(num_rows[i].text, strlen(num_rows[i].text)) ==
                          num_rows[i].valid,
                      "\"%s\" should be %s", num_rows[i].text,
                      num_rows[i].valid ? "valid" : "invalid");
    ck_assert(!contractc_json_number_valid(NULL, 0));
    ck_assert(!contractc_json_number_valid("12", 0));
    ck_assert(contractc_json_number_valid("12x", 2)); /* the length bounds it */
}
END_TEST

static Suite *json_text_suite(void)
{
    Suite *s = suite_create("json_text");
    TCase *tc = tcase_create("json_text");
    tcase_add_test(tc, json_string_escapes_every_byte_class);
    tcase_add_test(tc, json_string_takes_null_only_with_length_zero);
    tcase_add_test(tc, quoted_values_are_cut_at_forty_code_points);
    tcase_add_test(tc, number_check_is_the_rfc_8259_grammar);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(json_text_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
