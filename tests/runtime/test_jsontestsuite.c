/* SPDX-License-Identifier: MIT */
/*
 * test_jsontestsuite.c - the reader against JSONTestSuite's test_parsing
 * files (tests/data/jsontestsuite, MIT, see SOURCE.md there).
 *
 *   y_ (95): all grammatical; all accepted except the two that contractc's
 *            policy rejects (\u0000 is an `encoding` problem);
 *   n_ (188): all rejected with a document-level kind;
 *   i_ (35): each has a documented decision (the table below, mirrored in
 *            tests/data/jsontestsuite/DECISIONS.md).
 *
 * Documents are read with fence_allowed = false and max_depth = 1024, the
 * highest a contract may set: n_structure_100000_opening_arrays is then a
 * `limit` problem, and i_structure_500_nested_arrays is accepted (it is a
 * `limit` problem at the default 64, checked separately).
 */
#include "reader.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUITE_DIR CONTRACTC_TEST_DATA "/jsontestsuite/test_parsing"
#define MAX_DEPTH 1024u

/* y_ files that contractc's policy rejects, and with which kind. */
static const struct {
    const char *name;
    contractc_kind_t kind;
} y_rejected[] = {
    {"y_string_null_escape.json", CONTRACTC_KIND_ENCODING},
    {"y_object_escaped_null_in_key.json", CONTRACTC_KIND_ENCODING},
};

/* The decision for every i_ file (kind is ignored when accepted). */
typedef struct decision {
    const char *name;
    bool accept;
    contractc_kind_t kind;
    const char *reason;
} decision_t;

#define ACCEPT(n, why) {n, true, CONTRACTC_KIND_EMPTY, why}
#define REJECT(n, k, why) {n, false, CONTRACTC_KIND_##k, why}

static const decision_t i_decisions[] = {
    ACCEPT("i_number_double_huge_neg_exp.json", "grammatical; the reader accepts it, a number field reports `range` (underflow)"),
    ACCEPT("i_number_huge_exp.json", "grammatical; the reader accepts it, a number field reports `range` (overflow)"),
    ACCEPT("i_number_neg_int_huge_exp.json", "grammatical; the reader accepts it, a number field reports `range` (overflow)"),
    ACCEPT("i_number_pos_double_huge_exp.json", "grammatical; the reader accepts it, a number field reports `range` (overflow)"),
    ACCEPT("i_number_real_neg_overflow.json", "grammatical; the reader accepts it, a number field reports `range` (overflow)"),
    ACCEPT("i_number_real_pos_overflow.json", "grammatical; the reader accepts it, a number field reports `range` (overflow)"),
    ACCEPT("i_number_real_underflow.json", "grammatical; the reader accepts it, a number field reports `range` (underflow)"),
    ACCEPT("i_number_too_big_neg_int.json", "grammatical; an integer field reports `range` (beyond 2^53-1), a number field rounds"),
    ACCEPT("i_number_too_big_pos_int.json", "grammatical; an integer field reports `range` (beyond 2^53-1), a number field rounds"),
    ACCEPT("i_number_very_big_negative_int.json", "grammatical; an integer field reports `range` (beyond 2^53-1), a number field rounds"),
    REJECT("i_object_key_lone_2nd_surrogate.json", ENCODING, "lone low surrogate escape in a key (I-JSON, RFC 7493 2.1)"),
    REJECT("i_string_1st_surrogate_but_2nd_missing.json", ENCODING, "lone high surrogate escape"),
    REJECT("i_string_1st_valid_surrogate_2nd_invalid.json", ENCODING, "high surrogate escape followed by a non-surrogate escape"),
    REJECT("i_string_UTF-16LE_with_BOM.json", ENCODING, "UTF-16 with a byte order mark: not UTF-8 (RFC 8259 8.1)"),
    REJECT("i_string_UTF-8_invalid_sequence.json", ENCODING, "invalid UTF-8 (byte 0xFA never occurs)"),
    REJECT("i_string_UTF8_surrogate_U+D800.json", ENCODING, "a surrogate encoded in UTF-8 (ED A0 80) is not UTF-8 (RFC 3629 3)"),
    REJECT("i_string_incomplete_surrogate_and_escape_valid.json", ENCODING, "lone high surrogate escape followed by \\n"),
    REJECT("i_string_incomplete_surrogate_pair.json", ENCODING, "lone low surrogate escape"),
    REJECT("i_string_incomplete_surrogates_escape_valid.json", ENCODING, "two high surrogate escapes in a row"),
    REJECT("i_string_invalid_lonely_surrogate.json", ENCODING, "lone high surrogate escape"),
    REJECT("i_string_invalid_surrogate.json", ENCODING, "lone high surrogate escape followed by text"),
    REJECT("i_string_invalid_utf-8.json", ENCODING, "invalid UTF-8 (byte 0xFF)"),
    REJECT("i_string_inverted_surrogates_U+1D11E.json", ENCODING, "low surrogate escape before the high one"),
    REJECT("i_string_iso_latin_1.json", ENCODING, "ISO-8859-1 text: a truncated UTF-8 sequence"),
    REJECT("i_string_lone_second_surrogate.json", ENCODING, "lone low surrogate escape"),
    REJECT("i_string_lone_utf8_continuation_byte.json", ENCODING, "a UTF-8 continuation byte without a lead byte"),
    REJECT("i_string_not_in_unicode_range.json", ENCODING, "UTF-8 sequence above U+10FFFF"),
    REJECT("i_string_overlong_sequence_2_bytes.json", ENCODING, "overlong UTF-8 encoding"),
    REJECT("i_string_overlong_sequence_6_bytes.json", ENCODING, "six-byte sequence: not UTF-8 since RFC 3629"),
    REJECT("i_string_overlong_sequence_6_bytes_null.json", ENCODING, "six-byte overlong NUL: not UTF-8"),
    REJECT("i_string_truncated-utf-8.json", ENCODING, "truncated UTF-8 sequence"),
    REJECT("i_string_utf16BE_no_BOM.json", SYNTAX, "UTF-16BE: the first byte, NUL, cannot start a value"),
    REJECT("i_string_utf16LE_no_BOM.json", SYNTAX, "UTF-16LE: the NUL after '[' cannot start a value"),
    ACCEPT("i_structure_500_nested_arrays.json", "500 levels are within max_depth 1024 (at the default 64: `limit`)"),
    REJECT("i_structure_UTF-8_BOM_empty_object.json", ENCODING, "a byte order mark is not allowed (RFC 8259 8.1)"),
};

/* The whole file, or NULL (the caller frees it). */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    size_t cap = 0, n = 0, got;
    if (!f)
        return NULL;
    do {
        if (n == cap) {
            char *grown;
            cap = cap ? cap * 2 : 4096;
            grown = realloc(data, cap);
            if (!grown) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = grown;
        }
        got = fread(data + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return data;
}

static bool read_suite_file(const char *name, cc_reader_t *r, uint32_t depth)
{
    char path[1024];
    size_t len = 0;
    char *data;
    bool ok;
    snprintf(path, sizeof path, "%s/%s", SUITE_DIR, name);
    data = read_file(path, &len);
    ck_assert_msg(data != NULL || len == 0, "cannot read %s", path);
    ok = cc_read_document(r, data ? data : "", len, false, depth);
    free(data);
    return ok;
}

static bool is_document_level(contractc_kind_t k)
{
    return k == CONTRACTC_KIND_EMPTY || k == CONTRACTC_KIND_SYNTAX ||
           k == CONTRACTC_KIND_ENCODING || k == CONTRACTC_KIND_LIMIT;
}

static const decision_t *find_decision(const char *name)
{
    size_t i;
    for (i = 0; i < sizeof i_decisions / sizeof *i_decisions; i++)
        if (strcmp(i_decisions[i].name, name) == 0)
            return &i_decisions[i];
    return NULL;
}

static int find_y_rejected(const char *name)
{
    size_t i;
    for (i = 0; i < sizeof y_rejected / sizeof *y_rejected; i++)
        if (strcmp(y_rejected[i].name, name) == 0)
            return (int)i;
    return -1;
}

START_TEST(every_suite_file_gets_the_documented_outcome)
{
    DIR *dir = opendir(SUITE_DIR);
    struct dirent *e;
    int y = 0, y_ok = 0, y_policy = 0, n = 0, n_rej = 0, i = 0, i_ok = 0;
    ck_assert_msg(dir != NULL, "cannot open %s", SUITE_DIR);
    while ((e = readdir(dir)) != NULL) {
        const char *name = e->d_name;
        cc_reader_t r;
        bool ok;
        if (strlen(name) < 2 || name[1] != '_')
            continue;
        ok = read_suite_file(name, &r, MAX_DEPTH);
        if (name[0] == 'y') {
            int pol = find_y_rejected(name);
            y++;
            if (pol < 0) {
                ck_assert_msg(ok, "%s rejected: %s", name, r.fail_message);
                y_ok++;
            } else {
                ck_assert_msg(!ok, "%s accepted", name);
                ck_assert_msg(r.fail_kind == y_rejected[pol].kind,
                              "%s: kind %d", name, (int)r.fail_kind);
                y_policy++;
            }
        } else if (name[0] == 'n') {
            n++;
            ck_assert_msg(!ok, "%s accepted", name);
            ck_assert_msg(is_document_level(r.fail_kind), "%s: kind %d", name,
                          (int)r.fail_kind);
            ck_assert_msg(r.fail_message[0] != '\0', "%s: no message", name);
            n_rej++;
        } else if (name[0] == 'i') {
            const decision_t *d = find_decision(name);
            i++;
            ck_assert_msg(d != NULL, "%s has no documented decision", name);
            ck_assert_msg(ok == d->accept, "%s: %s, documented %s (%s)", name,
                          ok ? "accepted" : r.fail_message,
                          d->accept ? "accept" : "reject", d->reason);
            if (!ok)
                ck_assert_msg(r.fail_kind == d->kind, "%s: kind %d", name,
                              (int)r.fail_kind);
            else
                i_ok++;
        }
    }
    closedir(dir);
    ck_assert_int_eq(y, 95);
    ck_assert_int_eq(y_ok, 93);
    ck_assert_int_eq(y_policy, 2);
    ck_assert_int_eq(n, 188);
    ck_assert_int_eq(n_rej, 188);
    ck_assert_int_eq(i, (int)(sizeof i_decisions / sizeof *i_decisions));
    ck_assert_int_eq(i, 35);
    printf("JSONTestSuite: y %d (%d accepted, %d rejected by policy), n %d "
           "rejected, i %d decided (%d accepted, %d rejected)\n",
           y, y_ok, y_policy, n_rej, i, i_ok, i - i_ok);
}
END_TEST

START_TEST(deep_nesting_is_a_limit_problem_at_the_default_depth)
{
    cc_reader_t r;
    ck_assert(!read_suite_file("i_structure_500_nested_arrays.json", &r, 64));
    ck_assert_int_eq(r.fail_kind, CONTRACTC_KIND_LIMIT);
    ck_assert_uint_eq(r.fail_offset, 64); /* the 65th '[' */
    ck_assert(!read_suite_file("n_structure_100000_opening_arrays.json", &r,
                               MAX_DEPTH));
    ck_assert_int_eq(r.fail_kind, CONTRACTC_KIND_LIMIT);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("jsontestsuite");
    TCase *tc = tcase_create("test_parsing");
    SRunner *sr;
    int failed;
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, every_suite_file_gets_the_documented_outcome);
    tcase_add_test(tc, deep_nesting_is_a_limit_problem_at_the_default_depth);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
