/* SPDX-License-Identifier: MIT */
/*
 * test_gbnf_grounded.c - contractc_gbnf_grounded (runtime/src/gbnf_grounded.c,
 * docs/grammar.md "Grounded grammars"): the grounded rules are rewritten,
 * nothing else; the grammar grows linearly with the source (figures for
 * 100 B, 1 KB, 10 KB and 64 KiB are printed); a source above 64 KiB and a
 * grammar with nothing grounded are handed back unchanged.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contractc/contractc.h"

static const char base[] =
    "root ::= ws r ws\n"
    "r ::= \"{\" ws \"\\\"q\\\"\" ws \":\" ws grounded-q ws \"}\"\n"
    "grounded-q ::= \"\\\"\" char* \"\\\"\"\n"
    "ws ::= [ \\t\\n\\r]{0,20}\n";

/* Occurrences of `what` in s, one pass (strstr from each hit would rescan
 * the rest of a 4 MB grammar under ASan's interceptor). */
static size_t count(const char *s, const char *what)
{
    size_t n = 0, w = strlen(what);
    for (const char *p = s; *p; p++)
        if (*p == what[0] && strncmp(p, what, w) == 0)
            n++;
    return n;
}

START_TEST(grounded_rule_becomes_the_source_automaton)
{
    char *g;
    size_t len;
    ck_assert_int_eq(contractc_gbnf_grounded(base, sizeof base - 1, "ab\"a", 4, &g, &len), 0);
    ck_assert_uint_eq(strlen(g), len);
    ck_assert_ptr_nonnull(strstr(g, "grounded-q ::= \"\\\"\" src--0\n"));
    ck_assert_ptr_null(strstr(g, "char*"));
    ck_assert_ptr_nonnull(strstr(g, "root ::= ws r ws\n"));
    /* the start cannot close the string; '"' is written as the escape \" */
    ck_assert_ptr_nonnull(strstr(g, "src--0 ::= \""));
    ck_assert_ptr_nonnull(strstr(g, "\"\\\\\\\"\" src--"));
    /* "ab\"a": the suffix automaton has 5 states here (start, a, ab, ab", ab"a + clone) */
    size_t states = count(g, "\nsrc--");
    ck_assert_uint_ge(states, 5);
    ck_assert_uint_le(states, 2 * 4);
    free(g);
}
END_TEST

START_TEST(size_is_linear_in_the_source)
{
    static const size_t sizes[] = {100, 1000, 10000, 65536, 100000};
    char *src = calloc(100001, 1); /* src[n] is read at n = 100000 */
    ck_assert_ptr_nonnull(src);
    unsigned long long x = 42;
    static const char *const words[] = {"refund ", "order ", "A-20817 ", ("\xe2\x82\xac" "89.90 "),
                                        "charged ", "twice\n", "\"quoted\" ", "M. "};
    size_t at = 0;
    while (at < 100000) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const char *w = words[(x >> 33) % (sizeof words / sizeof words[0])];
        size_t n = strlen(w);
        if (at + n > 100000)
            n = 100000 - at;
        memcpy(src + at, w, n);
        at += n;
    }
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char *g;
        size_t len;
        /* cut on a code point boundary */
        size_t n = sizes[i];
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
            n--;
        int rc = contractc_gbnf_grounded(base, sizeof base - 1, src, n, &g, &len);
        if (sizes[i] > CONTRACTC_GBNF_MAX_SOURCE) {
            ck_assert_int_eq(rc, 1);
            ck_assert_uint_eq(len, sizeof base - 1);
            ck_assert_str_eq(g, base);
            printf("grounded grammar: source %zu B over CONTRACTC_GBNF_MAX_SOURCE (%d B): "
                   "rc 1, the base grammar returned unchanged (%zu B), grounding left to the parser\n",
                   n, (int)CONTRACTC_GBNF_MAX_SOURCE, len);
        } else {
            ck_assert_int_eq(rc, 0);
            size_t rules = count(g, "\nsrc--");
            ck_assert_uint_le(rules, 2 * n);
            ck_assert_uint_le(len, 80 * n + 1000);
            printf("grounded grammar: source %zu B -> %zu B grammar, %zu rules (%.1f B per source byte)\n",
                   n, len, rules, (double)len / (double)n);
        }
        free(g);
    }
    free(src);
}
END_TEST

START_TEST(nothing_grounded_or_bad_arguments)
{
    char *g;
    size_t len;
    static const char plain[] = "root ::= \"x\"\n";
    ck_assert_int_eq(contractc_gbnf_grounded(plain, sizeof plain - 1, "x", 1, &g, &len), 1);
    ck_assert_str_eq(g, plain);
    free(g);
    ck_assert_int_eq(contractc_gbnf_grounded(NULL, 0, "x", 1, &g, &len), -1);
    ck_assert_ptr_null(g);
    ck_assert_int_eq(contractc_gbnf_grounded(base, sizeof base - 1, NULL, 3, &g, &len), -1);
    /* an empty source: the grounded rule admits nothing */
    ck_assert_int_eq(contractc_gbnf_grounded(base, sizeof base - 1, "", 0, &g, &len), 0);
    ck_assert_ptr_nonnull(strstr(g, "src--0 ::= [^\\x00-\\U0010FFFF]\n"));
    free(g);
    /* NUL and invalid UTF-8 split the source: no edge crosses them */
    ck_assert_int_eq(contractc_gbnf_grounded(base, sizeof base - 1, "a\0b\xff" "c", 5, &g, &len), 0);
    ck_assert_ptr_null(strstr(g, "\\x00\" src--"));
    ck_assert_ptr_null(strstr(g, "\xff"));
    free(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gbnf_grounded");
    TCase *tc = tcase_create("gbnf_grounded");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, grounded_rule_becomes_the_source_automaton);
    tcase_add_test(tc, size_is_linear_in_the_source);
    tcase_add_test(tc, nothing_grounded_or_bad_arguments);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
