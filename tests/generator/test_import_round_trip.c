/* SPDX-License-Identifier: MIT */
/*
 * test_import_round_trip.c - the portable schema is a fixed point of
 * `contractc import` (docs/contract-language.md §17): for every example
 * contract (examples/x/y.contract.yaml) and test contract
 * (tests/data/contracts/), schema(C) -> import -> schema of the result
 * equals schema(C) byte for byte, and the imported contract loads without
 * an error.  A contract's rules and grounding have no schema form, so they
 * are not imported; such contracts are counted and named, and their schema
 * must still be equal.  Prints one line per contract and the totals.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator.h"
#include "import.h"

#define ROOT CONTRACTC_SOURCE_DIR

static size_t equal_count, lossy_count, file_count;

static bool has_rules(const cc_contract_t *m)
{
    if (m->root.rule_count)
        return true;
    for (size_t i = 0; i < m->type_count; i++)
        if (m->types[i].object && m->types[i].object->rule_count)
            return true;
    return false;
}

static void round_trip(const char *path)
{
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *m = cc_contract_load(path, &d);
    ck_assert_msg(m && d.errors == 0, "%s does not load", path);
    cc_diags_free(&d);
    size_t len = 0;
    char *schema = cc_emit_schema(m, &len);
    ck_assert_ptr_nonnull(schema);
    bool lossy = has_rules(m) || m->has_source;
    cc_contract_free(m);

    cc_import_options_t opt = {NULL, NULL, path, false, NULL, 0};
    cc_buf_t report = CC_BUF_INIT;
    char *yaml = NULL;
    size_t yaml_len = 0;
    int rc = cc_import(schema, len, &opt, &yaml, &yaml_len, &report);
    ck_assert_msg(rc == CC_IMPORT_OK, "%s: import gave %d:\n%s", path, rc,
                  report.data ? report.data : "");

    cc_diags_init(&d);
    cc_contract_t *back = cc_contract_load_buffer("<imported>", yaml, yaml_len, &d);
    if (!back || d.errors)
        cc_diags_print(&d, stderr);
    ck_assert_msg(back && d.errors == 0, "%s: the imported contract does not load:\n%s", path,
                  yaml);
    cc_diags_free(&d);
    size_t len2 = 0;
    char *again = cc_emit_schema(back, &len2);
    ck_assert_ptr_nonnull(again);
    ck_assert_msg(len == len2 && memcmp(schema, again, len) == 0,
                  "%s: the schema of the imported contract differs:\n%s\n---\n%s", path, schema,
                  again);
    printf("round trip: %s: equal%s\n", path + strlen(ROOT) + 1,
           lossy ? " (its rules or grounding have no schema form and are not imported)" : "");
    equal_count++;
    lossy_count += lossy;
    cc_contract_free(back);
    free(again);
    free(yaml);
    cc_buf_free(&report);
    free(schema);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.contract.yaml in dir (sorted), or in each subfolder when
 * `nested`; `must`: dir is a folder. */
static void each_contract(const char *dir, bool nested, bool must)
{
    DIR *dp = opendir(dir);
    if (!dp) { /* a file beside the examples' folders */
        ck_assert_msg(!must, "cannot open %s", dir);
        return;
    }
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL && n < 256) {
        if (e->d_name[0] == '.')
            continue;
        size_t l = strlen(e->d_name);
        if (nested || (l > 14 && strcmp(e->d_name + l - 14, ".contract.yaml") == 0))
            names[n++] = strdup(e->d_name);
    }
    closedir(dp);
    qsort(names, n, sizeof names[0], by_name);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (nested)
            each_contract(path, false, false);
        else {
            file_count++;
            round_trip(path);
        }
        free(names[i]);
    }
}

START_TEST(every_example_and_test_contract_round_trips)
{
    each_contract(ROOT "/examples", true, true);
    each_contract(ROOT "/tests/data/contracts", false, true);
    printf("round trip: %zu of %zu contracts equal byte for byte, 0 skipped (%zu of them have "
           "rules or grounding, which a schema cannot carry)\n",
           equal_count, file_count, lossy_count);
    ck_assert_uint_eq(equal_count, file_count);
    ck_assert_uint_ge(file_count, 19);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("import_round_trip");
    TCase *tc = tcase_create("fixed point");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_example_and_test_contract_round_trips);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
