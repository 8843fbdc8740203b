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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "billing_tools.h" /* invoice and refund_request, generated as one set */
#include "counting_alloc.h"
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

/* ---- the loop over a toolset (contractc_loop_run_toolset) ----------------
 * A scripted agent turn: the model first answers in text (no tool was
 * called), then calls invoice with too little and refund_request rightly
 * (invoice rejected, so neither is acted on), then both rightly. */
typedef struct agent_script {
    int calls;
    char *seen[3];        /* the transcript's last message at each call */
    bool seen_error[3];   /* ... its is_error */
    size_t seen_count[3]; /* the transcript's size at each call */
} agent_script_t;

static int agent_model(void *user, const contractc_transcript_t *t, contractc_model_reply_t *reply)
{
    agent_script_t *s = user;
    static contractc_reply_tool_call_t second[2], third[2];
    second[0] = (contractc_reply_tool_call_t){"call_1", "invoice", "{\"vendor_name\":\"ACME\"}", 22};
    second[1] = (contractc_reply_tool_call_t){"call_2", "refund_request", refund_args,
                                              strlen(refund_args)};
    third[0] = (contractc_reply_tool_call_t){"call_3", "invoice", invoice_args, strlen(invoice_args)};
    third[1] = second[1];
    third[1].tool_call_id = "call_4";
    int i = s->calls++;
    ck_assert_int_lt(i, 3);
    const contractc_message_t *m = contractc_transcript_at(t, -1);
    s->seen[i] = strdup(m->text);
    s->seen_error[i] = m->is_error;
    s->seen_count[i] = contractc_transcript_count(t);
    if (i == 0) {
        reply->text = "Sure! I will look at the invoice.";
        reply->len = strlen(reply->text);
        return 0;
    }
    reply->tool_calls = i == 1 ? second : third;
    reply->tool_call_count = 2;
    snprintf(reply->finish_reason, sizeof reply->finish_reason, "tool_calls");
    return 0;
}

/* The agent turn's start: a fresh script, a transcript holding the email
 * as the user's turn, and a loop over agent_model. */
static void agent_begin(agent_script_t *s, contractc_transcript_t *t, contractc_loop_t *loop)
{
    memset(s, 0, sizeof *s);
    contractc_transcript_init(t, NULL);
    ck_assert_int_eq(contractc_transcript_add(t, CONTRACTC_ROLE_USER, email, strlen(email)),
                     CONTRACTC_OK);
    memset(loop, 0, sizeof *loop);
    loop->model = agent_model;
    loop->model_user = s;
}

START_TEST(the_loop_over_a_toolset_routes_every_call_and_repairs_a_text_reply_and_a_bad_call)
{
    agent_script_t s;
    contractc_transcript_t t;
    contractc_loop_t loop;
    agent_begin(&s, &t, &loop);
    invoice_t inv;
    refund_request_t refund;
    memset(&refund, 0xAB, sizeof refund);
    void *const records[] = {&inv, &refund};
    size_t which = 99;
    contractc_decision_t d;
    ck_assert_int_eq(contractc_loop_run_toolset(&loop, &set, &t, email, strlen(email), records,
                                                &which, &d),
                     CONTRACTC_OK);
    ck_assert_int_eq(d.outcome, CONTRACTC_OUTCOME_ACCEPTED);
    ck_assert_int_eq(s.calls, 3);
    /* the first call's record: invoice, index 0 */
    ck_assert_uint_eq(which, 0);
    ck_assert_int_eq(inv.invoice_total_cents, 300);
    ck_assert_ptr_eq(d.contract, &invoice_contract);
    /* the text reply: echoed, then a user turn naming the tools */
    ck_assert_str_eq(s.seen[1],
                     "Your reply was rejected. Fix every problem and reply with the corrected JSON "
                     "object only:\n- $: no tool was called; call one of the tools: invoice or "
                     "refund_request\n");
    ck_assert(!s.seen_error[1]);
    ck_assert_uint_eq(s.seen_count[1], 3);
    ck_assert_int_eq(d.attempts[0].outcome, CONTRACTC_ATTEMPT_REJECTED);
    ck_assert_int_eq(d.attempts[0].problems[0].kind, CONTRACTC_KIND_UNKNOWN_TOOL);
    ck_assert_uint_eq(d.attempts[0].tool_call_count, 0);
    /* the bad call: its error result (tool-call words), then the good
     * call's "not run", in the calls' order; the model saw both */
    ck_assert_uint_eq(s.seen_count[2], 7);
    ck_assert(!s.seen_error[2]);
    ck_assert_str_eq(s.seen[2], CONTRACTC_REPAIR_NOT_RUN);
    const contractc_message_t *m = contractc_transcript_at(&t, 5);
    ck_assert_int_eq(m->role, CONTRACTC_ROLE_TOOL);
    ck_assert_str_eq(m->tool_call_id, "call_1");
    ck_assert(m->is_error);
    ck_assert_str_eq(m->text, "Your tool call was rejected. Fix every problem and make the call "
                              "again with the corrected arguments:\n"
                              "- $.invoice_total_cents: the key is missing; it is required\n"
                              "- $.line_items: the key is missing; it is required\n");
    m = contractc_transcript_at(&t, 6);
    ck_assert_str_eq(m->tool_call_id, "call_2");
    ck_assert(!m->is_error);
    ck_assert_uint_eq(contractc_transcript_count(&t), 9);
    ck_assert_str_eq(contractc_transcript_at(&t, 8)->tool_call_id, "call_4");
    ck_assert_uint_eq(d.attempts[1].tool_call_count, 2);
    ck_assert_str_eq(d.attempts[1].tool_calls[0].tool, "invoice");
    ck_assert_uint_eq(d.attempts[1].tool_calls[0].problems, 2);
    ck_assert_str_eq(d.attempts[1].tool_calls[1].tool, "refund_request");
    ck_assert_uint_eq(d.attempts[1].tool_calls[1].problems, 0);
    ck_assert_str_eq(d.attempts[2].tool_calls[1].tool, "refund_request");
    /* only the first call's record was kept: refund_request's is zeroed
     * (call_2 was read into it, then dropped with its rejected turn) */
    unsigned char zero[sizeof refund];
    memset(zero, 0, sizeof zero);
    ck_assert(memcmp(&refund, zero, sizeof refund) == 0);
    invoice_free(&inv);
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
    for (int i = 0; i < 3; i++)
        free(s.seen[i]);
}
END_TEST

START_TEST(the_loop_over_a_toolset_refuses_a_bad_set_or_source_before_calling_the_model)
{
    agent_script_t s;
    contractc_transcript_t t;
    contractc_loop_t loop;
    agent_begin(&s, &t, &loop);
    invoice_t inv;
    refund_request_t refund;
    void *const records[] = {&inv, &refund};
    void *const holes[] = {&inv, NULL};
    size_t which = 99;
    contractc_decision_t d;
    const contractc_tool_t twice[] = {{&invoice_contract, NULL}, {&refund_request_contract, "invoice"}};
    const contractc_toolset_t bad = {twice, 2, NULL};
    ck_assert_int_eq(contractc_loop_run_toolset(&loop, &bad, &t, email, strlen(email), records,
                                                &which, &d),
                     CONTRACTC_EINVAL);
    ck_assert_uint_eq(which, CONTRACTC_TOOL_NONE);
    ck_assert_int_eq(contractc_loop_run_toolset(&loop, &set, &t, email, strlen(email), holes,
                                                &which, &d),
                     CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_loop_run_toolset(&loop, &set, &t, email, strlen(email), records,
                                                NULL, &d),
                     CONTRACTC_EINVAL);
    /* refund_request declares a source: none, or one that is not UTF-8 */
    ck_assert_int_eq(contractc_loop_run_toolset(&loop, &set, &t, NULL, 0, records, &which, &d),
                     CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_loop_run_toolset(&loop, &set, &t, "\xff", 1, records, &which, &d),
                     CONTRACTC_EINVAL);
    /* a set without a tool that takes a source takes none */
    const contractc_toolset_t inv_only = {tools, 1, NULL};
    loop.max_attempts = 1;
    ck_assert_int_eq(contractc_loop_run_toolset(&loop, &inv_only, &t, NULL, 0, records, &which,
                                                &d),
                     CONTRACTC_REJECTED);
    ck_assert_int_eq(d.outcome, CONTRACTC_OUTCOME_ESCALATED);
    ck_assert_int_eq(s.calls, 1); /* the model was called only here */
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
    free(s.seen[0]);
}
END_TEST


/* Every allocation of the agent turn above fails once in turn: each run
 * ends OK or ENOMEM, and nothing leaks. */
START_TEST(the_loop_over_a_toolset_survives_every_allocation_failure)
{
    long ok_runs = 0, enomem_runs = 0;
    for (long fail = 1; fail < 2000; fail++) {
        counting_t c = {0, 0, fail, 0};
        contractc_allocator_t a = {count_alloc, count_free, &c};
        contractc_options_t options;
        memset(&options, 0, sizeof options);
        options.allocator = &a;
        agent_script_t s;
        memset(&s, 0, sizeof s);
        contractc_transcript_t t;
        contractc_transcript_init(&t, &a);
        contractc_status_t st = contractc_transcript_add(&t, CONTRACTC_ROLE_USER, email,
                                                         strlen(email));
        if (st == CONTRACTC_OK) {
            contractc_loop_t loop;
            memset(&loop, 0, sizeof loop);
            loop.model = agent_model;
            loop.model_user = &s;
            loop.options = &options;
            invoice_t inv;
            refund_request_t refund;
            void *const records[] = {&inv, &refund};
            size_t which;
            contractc_decision_t d;
            st = contractc_loop_run_toolset(&loop, &set, &t, email, strlen(email), records,
                                            &which, &d);
            if (st == CONTRACTC_OK) {
                ck_assert_uint_eq(which, 0);
                ck_assert_int_eq(inv.invoice_total_cents, 300);
                contractc_record_free(&invoice_contract, &inv);
            }
            contractc_decision_free(&d);
        }
        ck_assert_msg(st == CONTRACTC_OK || st == CONTRACTC_ENOMEM, "failing allocation %ld: %s",
                      fail, contractc_status_name(st));
        contractc_transcript_clear(&t);
        for (int i = 0; i < 3; i++)
            free(s.seen[i]);
        ck_assert_msg(c.live == 0 && c.allocs == c.frees, "failing allocation %ld leaks", fail);
        if (st == CONTRACTC_OK)
            ok_runs++;
        else
            enomem_runs++;
        if (c.fail_at) /* the failure point lies beyond the run: all covered */
            break;
    }
    ck_assert_int_gt(enomem_runs, 20);
    ck_assert_int_eq(ok_runs, 1);
}
END_TEST

/* ---- the generated toolset (billing_tools.h: `contractc toolset`) -------- */

START_TEST(the_generated_toolset_routes_into_its_call_type)
{
    ck_assert_uint_eq(billing_tools_toolset.count, 2);
    ck_assert_str_eq(billing_tools_tool_name(BILLING_TOOLS_TOOL_REFUND_REQUEST), "refund_request");
    ck_assert_str_eq(billing_tools_tool_name(BILLING_TOOLS_TOOL_INVOICE), "invoice");
    ck_assert_ptr_null(billing_tools_tool_name(BILLING_TOOLS_TOOL_NONE));
    ck_assert_ptr_null(billing_tools_tool_name((billing_tools_tool_t)3));
    billing_tools_call_t call;
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    ck_assert_int_eq(billing_tools_parse_call("invoice", invoice_args, strlen(invoice_args), email,
                                              strlen(email), NULL, &call, &problems),
                     CONTRACTC_OK);
    ck_assert_int_eq(call.tool, BILLING_TOOLS_TOOL_INVOICE);
    ck_assert_int_eq(call.as.invoice.invoice_total_cents, 300);
    billing_tools_call_free(&call);
    ck_assert_int_eq(call.tool, BILLING_TOOLS_TOOL_NONE);
    ck_assert_int_eq(billing_tools_parse_call("refund_request", refund_args, strlen(refund_args),
                                              email, strlen(email), NULL, &call, &problems),
                     CONTRACTC_OK);
    ck_assert_int_eq(call.tool, BILLING_TOOLS_TOOL_REFUND_REQUEST);
    ck_assert_str_eq(call.as.refund_request.amount_text, "1.250,00 EUR");
    billing_tools_call_free(&call);
    /* a name outside the set: rejected, the call zeroed */
    ck_assert_int_eq(billing_tools_parse_call("refund", "{}", 2, email, strlen(email), NULL, &call,
                                              &problems),
                     CONTRACTC_REJECTED);
    ck_assert_int_eq(call.tool, BILLING_TOOLS_TOOL_NONE);
    ck_assert_int_eq(contractc_problems_at(&problems, 0)->kind, CONTRACTC_KIND_UNKNOWN_TOOL);
    ck_assert_str_eq(contractc_problems_at(&problems, 0)->message,
                     "there is no tool 'refund'; call one of: refund_request or invoice");
    contractc_problems_clear(&problems);
    /* a rejected call of a known tool */
    ck_assert_int_eq(billing_tools_parse_call("invoice", "{\"vendor_name\":\"ACME\"}", 22, NULL, 0,
                                              NULL, &call, &problems),
                     CONTRACTC_REJECTED);
    ck_assert_int_eq(call.tool, BILLING_TOOLS_TOOL_NONE);
    ck_assert_uint_eq(contractc_problems_count(&problems), 2);
    contractc_problems_clear(&problems);
    billing_tools_call_free(NULL);
    ck_assert_int_eq(billing_tools_parse_call("invoice", "{}", 2, NULL, 0, NULL, NULL, &problems),
                     CONTRACTC_EINVAL);
}
END_TEST

START_TEST(the_generated_toolset_runs_the_loop_into_its_call_type)
{
    agent_script_t s;
    contractc_transcript_t t;
    contractc_loop_t loop;
    agent_begin(&s, &t, &loop);
    billing_tools_call_t call;
    contractc_decision_t d;
    ck_assert_int_eq(billing_tools_loop_run(&loop, &t, email, strlen(email), &call, &d),
                     CONTRACTC_OK);
    ck_assert_int_eq(s.calls, 3);
    /* the first call of the accepted turn: invoice */
    ck_assert_int_eq(call.tool, BILLING_TOOLS_TOOL_INVOICE);
    ck_assert_int_eq(call.as.invoice.invoice_total_cents, 300);
    ck_assert_ptr_eq(d.contract, &invoice_contract);
    billing_tools_call_free(&call);
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
    for (int i = 0; i < 3; i++)
        free(s.seen[i]);
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
    tcase_add_test(tc, the_loop_over_a_toolset_routes_every_call_and_repairs_a_text_reply_and_a_bad_call);
    tcase_add_test(tc, the_loop_over_a_toolset_refuses_a_bad_set_or_source_before_calling_the_model);
    tcase_add_test(tc, the_loop_over_a_toolset_survives_every_allocation_failure);
    tcase_add_test(tc, the_generated_toolset_routes_into_its_call_type);
    tcase_add_test(tc, the_generated_toolset_runs_the_loop_into_its_call_type);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
