/* SPDX-License-Identifier: MIT */
/*
 * test_lint.c - every contract error and note, one invalid contract each,
 * with its exact diagnostics in gcc's form: file, line, column and message,
 * sorted by position, every one in one run.
 *
 * A case is two files side by side in tests/data/lint/: NAME.yaml, the
 * contract, and NAME.expected, the complete printed diagnostics.  Adding a
 * case is adding the two files (see tests/README.md); a .yaml without its
 * .expected, or the other way round, fails the test.
 *
 * The contracts are loaded from memory with the display name NAME.yaml, so
 * the expected text does not depend on where the tree is checked out.  To
 * review a change of wording, print a case with `contractc lint`.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexical.h"
#include "load.h"
#include "model.h"
#include "text.h"

#define LINT_DIR CONTRACTC_TEST_DATA "/lint/"

/* The case names (NAME of NAME.yaml), sorted, read once by lint_suite(). */
static char **cases;
static size_t case_count;

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), s = strlen(suffix);
    return n > s && strcmp(name + n - s, suffix) == 0;
}

/* Lists the .yaml files of LINT_DIR into cases (abort()s on failure: the
 * suite cannot be built without them). */
static void list_cases(void)
{
    DIR *dir = opendir(LINT_DIR);
    if (dir == NULL) {
        perror(LINT_DIR);
        abort();
    }
    size_t cap = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        if (!has_suffix(e->d_name, ".yaml"))
            continue;
        if (case_count == cap) {
            cap = cap ? 2 * cap : 128;
            cases = realloc(cases, cap * sizeof *cases);
            if (cases == NULL)
                abort();
        }
        size_t n = strlen(e->d_name) - 5;
        cases[case_count] = malloc(n + 1);
        if (cases[case_count] == NULL)
            abort();
        memcpy(cases[case_count], e->d_name, n);
        cases[case_count++][n] = '\0';
    }
    closedir(dir);
    qsort(cases, case_count, sizeof *cases, compare_names);
}

/* The expected diagnostics of case NAME (free() it). */
static char *expected_of(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s.expected", LINT_DIR, name);
    size_t len = 0;
    char *text = cc_read_file(path, &len);
    ck_assert_msg(text != NULL, "%s.yaml has no %s", name, path);
    return text;
}

/* Loads one case and returns its printed diagnostics (free() it). */
static char *lint(const char *name, bool *accepted)
{
    char path[512], display[256];
    snprintf(path, sizeof path, "%s%s.yaml", LINT_DIR, name);
    snprintf(display, sizeof display, "%s.yaml", name);
    size_t len = 0;
    char *text = cc_read_file(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *c = cc_contract_load_buffer(display, text, len, &d);
    *accepted = c != NULL;
    ck_assert_msg((c != NULL) == (d.errors == 0), "%s: a model exactly when there is no error",
                  name);
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    ck_assert_ptr_nonnull(f);
    cc_diags_print(&d, f);
    fclose(f);
    cc_contract_free(c);
    cc_diags_free(&d);
    free(text);
    return out;
}

START_TEST(each_invalid_contract_gives_exactly_its_diagnostics)
{
    const char *name = cases[_i];
    char *expected = expected_of(name);
    bool accepted = false;
    char *out = lint(name, &accepted);
    ck_assert_msg(strcmp(out, expected) == 0, "%s.yaml:\n--- expected\n%s--- actual\n%s",
                  name, expected, out);
    /* notes alone keep the contract; any error refuses it */
    ck_assert_int_eq(accepted, strstr(expected, ": error: ") == NULL);
    free(out);
    free(expected);
}
END_TEST

START_TEST(every_expected_file_has_its_contract)
{
    DIR *dir = opendir(LINT_DIR);
    ck_assert_ptr_nonnull(dir);
    size_t files = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        if (!has_suffix(e->d_name, ".expected"))
            continue;
        files++;
        size_t n = strlen(e->d_name) - 9, i = 0;
        while (i < case_count &&
               (strlen(cases[i]) != n || strncmp(cases[i], e->d_name, n) != 0))
            i++;
        ck_assert_msg(i < case_count, "%s has no .yaml beside it", e->d_name);
    }
    closedir(dir);
    ck_assert_uint_eq(files, case_count);
    ck_assert_uint_ge(case_count, 40);
}
END_TEST

START_TEST(a_misspelt_key_is_suggested_only_when_close)
{
    static const char *const keys[] = {"max_length", "min_length", "pattern", "type"};
    ck_assert_str_eq(cc_suggest("max_lenght", keys, 4), "max_length");
    ck_assert_str_eq(cc_suggest("tpye", keys, 4), "type");
    ck_assert_str_eq(cc_suggest("patern", keys, 4), "pattern");
    ck_assert_ptr_null(cc_suggest("colour", keys, 4));
    ck_assert_ptr_null(cc_suggest("x", keys, 4));
    ck_assert_ptr_null(cc_suggest(NULL, keys, 4));
}
END_TEST

START_TEST(notes_attached_to_an_error_print_after_it)
{
    cc_diags_t d;
    cc_diags_init(&d);
    const cc_mark_t a = {5, 3}, b = {2, 1}, c = {1, 1}, e = {9, 9};
    cc_error(&d, "f.yaml", a, "second %s", "thing");
    cc_diag_related(&d, "f.yaml", b, "first here");
    cc_note(&d, "f.yaml", c, "a note of its own");
    cc_error(&d, "g.yaml", c, "other file");
    cc_error(&d, "f.yaml", e, "last");
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    cc_diags_print(&d, f);
    fclose(f);
    ck_assert_str_eq(out, "f.yaml:1:1: note: a note of its own\n"
                          "f.yaml:5:3: error: second thing\n"
                          "f.yaml:2:1: note: first here\n"
                          "f.yaml:9:9: error: last\n"
                          "g.yaml:1:1: error: other file\n");
    ck_assert_uint_eq(d.errors, 3);
    free(out);
    cc_diags_free(&d);
}
END_TEST

START_TEST(the_diagnostic_list_is_capped_and_says_so)
{
    cc_diags_t d;
    cc_diags_init(&d);
    d.cap = 2;
    const cc_mark_t m = {1, 1};
    for (int i = 0; i < 5; i++) {
        cc_error(&d, "f.yaml", m, "e%d", i);
        cc_diag_related(&d, "f.yaml", m, "n%d", i);
    }
    ck_assert_uint_eq(d.count, 2);
    ck_assert_uint_eq(d.errors, 5);
    ck_assert_uint_eq(d.dropped, 8);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    cc_diags_print(&d, f);
    fclose(f);
    ck_assert_str_eq(out, "f.yaml:1:1: error: e0\n"
                          "f.yaml:1:1: note: n0\n"
                          "contractc: error: 8 more diagnostics not shown (limit 2, or out of memory)\n");
    free(out);
    cc_diags_free(&d);
}
END_TEST

START_TEST(keywords_of_c_and_cpp_are_known)
{
    static const char *const yes[] = {"default", "class", "new", "delete", "template", "bool",
                                      "true", "false", "register", "restrict", "typename",
                                      "_Bool", "constexpr", "and", "xor_eq", "co_await"};
    static const char *const no[] = {"amount", "Default", "size_t", "main", "string", ""};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        ck_assert_msg(cc_is_c_keyword(yes[i]), "%s", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        ck_assert_msg(!cc_is_c_keyword(no[i]), "%s", no[i]);
}
END_TEST

Suite *lint_suite(void);
Suite *lint_suite(void)
{
    list_cases();
    Suite *s = suite_create("lint");
    TCase *tc = tcase_create("cases");
    tcase_add_loop_test(tc, each_invalid_contract_gives_exactly_its_diagnostics, 0,
                        (int)case_count);
    tcase_add_test(tc, every_expected_file_has_its_contract);
    suite_add_tcase(s, tc);
    TCase *td = tcase_create("diagnostics");
    tcase_add_test(td, a_misspelt_key_is_suggested_only_when_close);
    tcase_add_test(td, notes_attached_to_an_error_print_after_it);
    tcase_add_test(td, the_diagnostic_list_is_capped_and_says_so);
    tcase_add_test(td, keywords_of_c_and_cpp_are_known);
    suite_add_tcase(s, td);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lint_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    for (size_t i = 0; i < case_count; i++)
        free(cases[i]);
    free(cases);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
