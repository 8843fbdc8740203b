/* SPDX-License-Identifier: MIT */
/*
 * test_gbnf.c - NAME.gbnf and NAME.gbnf.notes.txt (generator/gen_gbnf.c,
 * docs/grammar.md): the reviewed golden files, NAME_gbnf[] in NAME.c only
 * when asked for, and the spellings of the constructs the llama.cpp oracle
 * (tests/gbnf/oracle.mjs) cannot see from the examples alone.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbnf_text.h"
#include "gen_gbnf.h"
#include "generator.h"

#define ROOT CONTRACTC_SOURCE_DIR
#define GOLDEN ROOT "/tests/golden"

static cc_contract_t *load_text(const char *text)
{
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *m = cc_contract_load_buffer("<test>", text, strlen(text), &d);
    if (!m || d.errors)
        cc_diags_print(&d, stderr);
    ck_assert(m && d.errors == 0);
    cc_diags_free(&d);
    return m;
}

static char *grammar_of(const char *contract_text, char **notes)
{
    cc_contract_t *m = load_text(contract_text);
    char *g = NULL;
    size_t len, nlen;
    ck_assert(cc_emit_gbnf(m, &g, &len, notes, &nlen));
    ck_assert_uint_eq(strlen(g), len);
    cc_contract_free(m);
    return g;
}

START_TEST(grammars_equal_the_golden_files)
{
    size_t len;
    char *list = cc_read_file(GOLDEN "/contracts.txt", &len);
    ck_assert_ptr_nonnull(list);
    size_t n = 0;
    char *save = NULL;
    for (char *line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[128], rel[400], path[1024];
        if (line[0] == '#' || sscanf(line, "%127s %399s", name, rel) != 2)
            continue;
        snprintf(path, sizeof path, "%s/%s", ROOT, rel);
        cc_diags_t d;
        cc_diags_init(&d);
        cc_contract_t *m = cc_contract_load(path, &d);
        ck_assert(m && d.errors == 0);
        cc_diags_free(&d);
        char *g, *notes;
        size_t glen, nlen;
        ck_assert(cc_emit_gbnf(m, &g, &glen, &notes, &nlen));
        const char *exts[] = {".gbnf", ".gbnf.notes.txt"};
        const char *texts[] = {g, notes};
        size_t lens[] = {glen, nlen};
        for (int k = 0; k < 2; k++) {
            char gp[1200];
            size_t want_len;
            snprintf(gp, sizeof gp, "%s/%s/%s%s", GOLDEN, name, name, exts[k]);
            char *want = cc_read_file(gp, &want_len);
            ck_assert_msg(want != NULL, "missing golden file %s", gp);
            ck_assert_msg(want_len == lens[k] && memcmp(want, texts[k], want_len) == 0,
                          "%s differs: run scripts/refresh-golden.sh and review the diff", gp);
            free(want);
        }
        /* no banner: the grammar starts with its root rule */
        ck_assert(strncmp(g, "root ::= ", 9) == 0);
        free(g);
        free(notes);
        cc_contract_free(m);
        n++;
    }
    free(list);
    ck_assert_uint_ge(n, 4);
    printf("gbnf golden: %zu contracts x 2 files equal\n", n);
}
END_TEST

START_TEST(name_c_embeds_the_grammar_only_when_asked)
{
    cc_contract_t *m = load_text("contract: t\nversion: 1\ninstruction: x\nfields:\n  a: {type: boolean}\n");
    cc_artifacts_t a;
    cc_diags_t d;
    cc_diags_init(&d);
    ck_assert_int_eq(cc_build_artifacts_grammar(m, NULL, 0, false, &a, &d), 0);
    ck_assert_ptr_null(a.gbnf);
    ck_assert_ptr_null(strstr(a.source, "t_gbnf"));
    cc_artifacts_free(&a);
    ck_assert_int_eq(cc_build_artifacts_grammar(m, NULL, 0, true, &a, &d), 0);
    ck_assert_ptr_nonnull(a.gbnf);
    ck_assert_ptr_nonnull(strstr(a.source, "const char t_gbnf["));
    ck_assert_ptr_nonnull(strstr(a.header, "extern const char t_gbnf[];"));
    ck_assert_str_eq(a.gbnf, "root ::= ws t ws\n"
                             "t ::= \"{\" ws \"\\\"a\\\"\" ws \":\" ws a ws \"}\"\n"
                             "a ::= boolean\n"
                             "ws ::= [ \\t\\n\\r]{0,20}\n"
                             "boolean ::= \"true\" | \"false\"\n");
    cc_artifacts_free(&a);
    cc_diags_free(&d);
    cc_contract_free(m);
}
END_TEST

START_TEST(ranges_are_spelt_exactly)
{
    char *notes;
    char *g = grammar_of("contract: t\nversion: 1\ninstruction: x\nfields:\n"
                         "  a: {type: integer, minimum: -5, maximum: 120}\n"
                         "  b: {type: decimal, scale: 2, minimum: \"0.05\", maximum: \"12.30\"}\n"
                         "  c: {type: integer, minimum: 7, maximum: 7}\n",
                         &notes);
    ck_assert_ptr_nonnull(strstr(g, "\na ::= (\"-\" [1-5] | ([0-9] | [1-9] [0-9] | \"1\" ([01] [0-9] | \"2\" \"0\")))\n"));
    ck_assert_ptr_nonnull(strstr(g, "\nb ::= \"\\\"\" (\"0\" \".\" (\"0\" [5-9] | [1-9] [0-9]) | ([1-9] | \"1\" [01]) \".\" [0-9]{2} | \"12\" \".\" ([0-2] [0-9] | \"3\" \"0\")) \"\\\"\"\n"));
    ck_assert_ptr_nonnull(strstr(g, "\nc ::= \"7\"\n"));
    free(g);
    free(notes);
}
END_TEST

START_TEST(limits_are_noted)
{
    char *notes;
    char *g = grammar_of("contract: t\nversion: 1\ninstruction: x\nfields:\n"
                         "  s: {type: string, max_length: 5000}\n"
                         "  p: {type: string, pattern: '[a-z]{1,40}[0-9]{1,40}', max_length: 3000}\n"
                         "  n: {type: number, minimum: 0.5}\n"
                         "  l: {type: array, max_items: 2500, items: {type: boolean}}\n",
                         &notes);
    ck_assert_ptr_nonnull(strstr(g, "\ns ::= \"\\\"\" char* \"\\\"\"\n"));
    ck_assert_ptr_nonnull(strstr(notes, "$.s: max_length 5000 not carried by the grammar"));
    ck_assert_ptr_nonnull(strstr(notes, "$.p: max_length 3000 not carried"));
    ck_assert_ptr_nonnull(strstr(notes, "$.n: minimum 0.5 not carried"));
    ck_assert_ptr_nonnull(strstr(notes, "$.l: max_items 2500 not carried"));
    ck_assert_ptr_nonnull(strstr(g, "\nl ::= \"[\" ws (l-item (ws \",\" ws l-item)*)? ws \"]\"\n"));
    free(g);
    free(notes);
}
END_TEST

/* '.' and \s (docs/contract-language.md §6.2) reach the grammar through the
 * DFA: ECMA-262's white space with NBSP and U+2028 as raw UTF-8, the control
 * characters as JSON escapes; '.' without LF, CR, U+2028, U+2029. */
START_TEST(dot_and_white_space_follow_ecma_262)
{
    char *notes;
    char *g = grammar_of("contract: t\nversion: 1\ninstruction: x\nfields:\n"
                         "  w: {type: string, pattern: '\\s'}\n"
                         "  d: {type: string, pattern: 'a.'}\n",
                         &notes);
    ck_assert_ptr_nonnull(strstr(g, "\nw-1 ::= [ \\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F"
                                    "\\u3000\\uFEFF] w-2 | \"\\\\t\" w-2 | \"\\\\n\" w-2 | \"\\\\u000b\" w-2"
                                    " | \"\\\\f\" w-2 | \"\\\\r\" w-2\n"));
    ck_assert_ptr_nonnull(strstr(g, "\nd-2 ::= [ \\x21#-\\x5B\\x5D-\\u2027\\u202A-\\uD7FF\\uE000-\\U0010FFFF] d-3 | "));
    ck_assert_ptr_null(strstr(g, "\"\\\\n\" d-3"));
    ck_assert_ptr_null(strstr(g, "\"\\\\r\" d-3"));
    ck_assert_ptr_nonnull(strstr(g, "\"\\\\t\" d-3"));
    free(g);
    free(notes);
}
END_TEST

START_TEST(escaper_spells_gbnf_literals)
{
    char out[64];
    size_t n = cc_gbnf_escape("a\"b\\c\n\x7f\xc3\xa9", 9, out);
    ck_assert_uint_eq(n, 17);
    ck_assert(memcmp(out, "a\\\"b\\\\c\\x0A\\x7F\xc3\xa9", 17) == 0);
    ck_assert_uint_eq(cc_gbnf_escape("\x01", 1, NULL), 4);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gbnf");
    TCase *tc = tcase_create("gbnf");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, grammars_equal_the_golden_files);
    tcase_add_test(tc, name_c_embeds_the_grammar_only_when_asked);
    tcase_add_test(tc, ranges_are_spelt_exactly);
    tcase_add_test(tc, limits_are_noted);
    tcase_add_test(tc, dot_and_white_space_follow_ecma_262);
    tcase_add_test(tc, escaper_spells_gbnf_literals);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
