/* SPDX-License-Identifier: MIT */
/*
 * test_toolset.c - contractc_toolset_parse (docs/tools.md, "Toolsets"):
 * a call is routed by its tool name to that tool's contract, only that
 * tool's record is written, the source goes only to a contract that
 * declares one, and a name outside the set (or no tool call) is one
 * document-level problem of kind unknown_tool at "$" that the repair turn,
 * the decision log and `contractc stats` all spell.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator.h"
#include "invoice.h"
#include "refund_request.h"

static const char email[] = "Hello, order A-1063 arrived damaged. I paid 1.250,00 EUR.";
static const char refund_args[] = "{\"order_id\":\"A-1063\",\"amount\":\"1250.00\",\"currency\":\"EUR\","
                                  "\"amount_text\":\"1.250,00 EUR\",\"reason\":\"damaged\"}";
static const char invoice_args[] = "{\"vendor_name\":\"ACME\",\"invoice_total_cents\":300,"
                                   "\"line_items\":[{\"description\":\"a\",\"amount_cents\":300}]}";

/* invoice first, so the routing is not "index 0 always" */
static const contractc_tool_t tools[] = {{&invoice_contract, NULL}, {&refund_request_contract, NULL}};
static const contractc_toolset_t set = {tools, 2, NULL};

START_TEST(a_call_is_routed_by_name_and_only_its_record_is_written)
{
    invoice_t inv;
    refund_request_t refund;
    memset(&inv, 0xAB, sizeof inv);
    void *const records[] = {&inv, &refund};
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    size_t which = 99;
    ck_assert_int_eq(contractc_toolset_parse(&set, "refund_request", refund_args,
                                             strlen(refund_args), email, strlen(email), &which,
                                             records, &problems),
                     CONTRACTC_OK);
    ck_assert_uint_eq(which, 1);
    ck_assert_str_eq(refund.order_id, "A-1063");
    ck_assert_str_eq(refund.amount_text, "1.250,00 EUR");
    /* the other record is untouched */
    unsigned char ab[sizeof inv];
    memset(ab, 0xAB, sizeof ab);
    ck_assert(memcmp(&inv, ab, sizeof inv) == 0);
    refund_request_free(&refund);
    /* invoice declares no source: the email is not handed to it */
    ck_assert_int_eq(contractc_toolset_parse(&set, "invoice", invoice_args, strlen(invoice_args),
                                             email, strlen(email), &which, records, &problems),
                     CONTRACTC_OK);
    ck_assert_uint_eq(which, 0);
    ck_assert_int_eq(inv.invoice_total_cents, 300);
    contractc_record_free(tools[which].contract, records[which]);
    /* a rejected call: its index, its record zeroed, its problems */
    ck_assert_int_eq(contractc_toolset_parse(&set, "invoice", "{\"vendor_name\":\"ACME\"}", 22,
                                             NULL, 0, &which, records, &problems),
                     CONTRACTC_REJECTED);
    ck_assert_uint_eq(which, 0);
    ck_assert_int_eq(contractc_problems_at(&problems, 0)->kind, CONTRACTC_KIND_MISSING);
    contractc_problems_clear(&problems);
    ck_assert_uint_eq(contractc_toolset_find(&set, "invoice", 7), 0);
    ck_assert_uint_eq(contractc_toolset_find(&set, "invoicex", 7), 0); /* name_len bytes */
    ck_assert_uint_eq(contractc_toolset_find(&set, "invoic", 6), CONTRACTC_TOOL_NONE);
    ck_assert_uint_eq(contractc_toolset_find(NULL, "invoice", 7), CONTRACTC_TOOL_NONE);
}
END_TEST

/* The one problem of an unknown or missing tool. */
static const contractc_problem_t *unknown(const char *name, contractc_problems_t *problems)
{
    invoice_t inv;
    refund_request_t refund;
    memset(&inv, 0x5A, sizeof inv);
    void *const records[] = {&inv, &refund};
    size_t which = 7;
    ck_assert_int_eq(contractc_toolset_parse(&set, name, refund_args, strlen(refund_args), email,
                                             strlen(email), &which, records, problems),
                     CONTRACTC_REJECTED);
    ck_assert_uint_eq(which, CONTRACTC_TOOL_NONE);
    ck_assert_uint_eq(contractc_problems_count(problems), 1);
    const contractc_problem_t *p = contractc_problems_at(problems, 0);
    ck_assert_int_eq(p->kind, CONTRACTC_KIND_UNKNOWN_TOOL);
    ck_assert_str_eq(p->path, "$");
    ck_assert(contractc_kind_is_document_level(p->kind));
    unsigned char untouched[sizeof inv];
    memset(untouched, 0x5A, sizeof untouched);
    ck_assert(memcmp(&inv, untouched, sizeof inv) == 0);
    return p;
}

START_TEST(an_unknown_tool_or_no_call_is_one_unknown_tool_problem_at_the_root)
{
    ck_assert_str_eq(contractc_kind_name(CONTRACTC_KIND_UNKNOWN_TOOL), "unknown_tool");
    ck_assert_int_eq(CONTRACTC_KIND_UNKNOWN_TOOL, CONTRACTC_KIND_GROUNDING + 1); /* appended */
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    const contractc_problem_t *p = unknown("refund", &problems);
    ck_assert_str_eq(p->message, "there is no tool 'refund'; call one of: invoice or refund_request");
    printf("unknown tool: %s: %s\n", p->path, p->message);
    contractc_problems_clear(&problems);
    p = unknown(NULL, &problems);
    ck_assert_str_eq(p->message, "no tool was called; call one of the tools: invoice or refund_request");
    printf("no tool call: %s: %s\n", p->path, p->message);
    contractc_problems_clear(&problems);
    /* a name that cannot be quoted is not */
    p = unknown("evil'\n name", &problems);
    ck_assert_str_eq(p->message, "the tool called is not one of the tools offered; call one of: "
                                 "invoice or refund_request");
    contractc_problems_clear(&problems);
    /* the repair turn says it */
    p = unknown("refund", &problems);
    char *prompt = NULL;
    size_t len = 0;
    ck_assert_int_eq(invoice_repair_prompt(&problems, &prompt, &len), CONTRACTC_OK);
    ck_assert_msg(strstr(prompt, "there is no tool 'refund'") != NULL, "%s", prompt);
    free(prompt);
    contractc_problems_clear(&problems);
}
END_TEST

START_TEST(the_log_and_stats_spell_unknown_tool)
{
    contractc_logged_problem_t lp = {CONTRACTC_KIND_UNKNOWN_TOOL, "$", NULL};
    contractc_attempt_t attempt;
    memset(&attempt, 0, sizeof attempt);
    attempt.outcome = CONTRACTC_ATTEMPT_REJECTED;
    attempt.problems = &lp;
    attempt.problem_count = 1;
    contractc_decision_t d;
    memset(&d, 0, sizeof d);
    d.contract = &invoice_contract;
    d.outcome = CONTRACTC_OUTCOME_ESCALATED;
    d.attempts = &attempt;
    d.attempt_count = 1;
    contractc_log_entry_t entry;
    memset(&entry, 0, sizeof entry);
    entry.time = "2026-12-03T01:00:00Z";
    char *line = NULL;
    size_t len = 0;
    ck_assert_int_eq(contractc_log_format(&d, &entry, NULL, NULL, NULL, &line, &len), CONTRACTC_OK);
    ck_assert_msg(strstr(line, "{\"path\":\"$\",\"kind\":\"unknown_tool\",\"rule\":null}") != NULL, "%s", line);
    char path[] = "/tmp/contractc-toolset-log-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    fwrite(line, 1, len, f);
    fclose(f);
    free(line);
    char *argv[] = {path};
    FILE *out = tmpfile(), *err = tmpfile();
    ck_assert_int_eq(cc_stats_main(1, argv, out, err), 0);
    rewind(out);
    char buf[8192] = {0};
    size_t got = fread(buf, 1, sizeof buf - 1, out);
    buf[got] = '\0';
    fclose(out);
    fclose(err);
    remove(path);
    ck_assert_msg(strstr(buf, "unknown_tool") != NULL, "%s", buf);
    printf("stats:\n%s", buf);
}
END_TEST

START_TEST(bad_sets_and_arguments_are_einval_with_a_reason)
{
    invoice_t inv;
    refund_request_t refund;
    void *const records[] = {&inv, &refund};
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    size_t which;
    const contractc_tool_t twice[] = {{&invoice_contract, NULL}, {&refund_request_contract, "invoice"}};
    const contractc_toolset_t bad = {twice, 2, NULL};
    ck_assert_int_eq(contractc_toolset_parse(&bad, "invoice", "{}", 2, NULL, 0, &which, records,
                                             &problems),
                     CONTRACTC_EINVAL);
    ck_assert_ptr_nonnull(strstr(problems.error, "two tools of one name"));
    const contractc_toolset_t empty = {tools, 0, NULL};
    ck_assert_int_eq(contractc_toolset_parse(&empty, "invoice", "{}", 2, NULL, 0, &which, records,
                                             &problems),
                     CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_toolset_parse(&set, "invoice", "{}", 2, NULL, 0, NULL, records,
                                             &problems),
                     CONTRACTC_EINVAL);
    void *const holes[] = {&inv, NULL};
    ck_assert_int_eq(contractc_toolset_parse(&set, "invoice", "{}", 2, NULL, 0, &which, holes,
                                             &problems),
                     CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_toolset_parse(&set, "invoice", "{}", 2, NULL, 0, &which, records,
                                             NULL),
                     CONTRACTC_EINVAL);
    /* refund_request needs its source: contractc_parse's own EINVAL */
    ck_assert_int_eq(contractc_toolset_parse(&set, "refund_request", refund_args,
                                             strlen(refund_args), NULL, 0, &which, records,
                                             &problems),
                     CONTRACTC_EINVAL);
    ck_assert_uint_eq(contractc_problems_count(&problems), 0);
    /* a renamed tool routes by its own name */
    const contractc_tool_t renamed[] = {{&invoice_contract, "read_invoice"}};
    const contractc_toolset_t one = {renamed, 1, NULL};
    void *const rec1[] = {&inv};
    ck_assert_int_eq(contractc_toolset_parse(&one, "read_invoice", invoice_args,
                                             strlen(invoice_args), NULL, 0, &which, rec1, &problems),
                     CONTRACTC_OK);
    ck_assert_uint_eq(which, 0);
    invoice_free(&inv);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("toolset");
    TCase *tc = tcase_create("toolset");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, a_call_is_routed_by_name_and_only_its_record_is_written);
    tcase_add_test(tc, an_unknown_tool_or_no_call_is_one_unknown_tool_problem_at_the_root);
    tcase_add_test(tc, the_log_and_stats_spell_unknown_tool);
    tcase_add_test(tc, bad_sets_and_arguments_are_einval_with_a_reason);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
