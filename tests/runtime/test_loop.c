/* SPDX-License-Identifier: MIT */
/*
 * test_loop.c - the transcript and the repair loop with scripted models:
 * where the rejected reply and the complaint sit in the transcript, the
 * attempt cap, escalation, model errors, empty and over-limit replies, bad
 * arguments, and an allocation-failure sweep with a counting allocator.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counting_alloc.h"
#include "refund_request.h"

static const char email[] =
    "Hello,\nmy order A-1063 arrived damaged. I paid 1.250,00 EUR and would like my money back.\n";
static const char comma_reply[] =
    "{\"order_id\":\"A-1063\",\"amount\":\"1.250,00\",\"currency\":\"EUR\","
    "\"amount_text\":\"1.250,00 EUR\",\"reason\":\"damaged\"}";
static const char good_reply[] =
    "{\"order_id\":\"A-1063\",\"amount\":\"1250.00\",\"currency\":\"EUR\","
    "\"amount_text\":\"1.250,00 EUR\",\"reason\":\"damaged\"}";
static const char comma_repair[] =
    "Your reply was rejected. Fix every problem and reply with the corrected JSON object only:\n"
    "- $.amount: \"1.250,00\" is not a decimal like \"1250.00\" (dot, two decimals, no separators)\n";
/* The same problem as a rejected tool call's error result. */
static const char comma_call_repair[] =
    "Your tool call was rejected. Fix every problem and make the call again with the corrected "
    "arguments:\n"
    "- $.amount: \"1.250,00\" is not a decimal like \"1250.00\" (dot, two decimals, no separators)\n";

/* ---- a scripted model ----------------------------------------------------
 * Each step is a reply (text, or "!error" for a failure), answered in
 * order; the model also copies what it saw at -1 and -2 when asked, so a
 * test can check the transcript as the model received it. */
typedef struct step {
    const char *text;   /* NULL: the empty reply */
    size_t len;         /* 0: strlen(text) */
    const char *finish; /* finish_reason, or NULL */
} step_t;

typedef struct script {
    const step_t *steps;
    size_t count;
    size_t calls;
    size_t seen_count[8];         /* transcript length at each call */
    char *seen_m2[8], *seen_m1[8]; /* texts at -2 and -1 at each call */
    contractc_role_t role_m2[8], role_m1[8];
    unsigned seen_max_tokens[8];  /* the token limit the loop asked for */
} script_t;

static int scripted(void *user, const contractc_transcript_t *t, contractc_model_reply_t *reply)
{
    script_t *s = user;
    size_t i = s->calls++;
    ck_assert_uint_lt(i, s->count); /* the loop never calls beyond its cap */
    if (i < 8) {
        s->seen_count[i] = contractc_transcript_count(t);
        const contractc_message_t *m1 = contractc_transcript_at(t, -1);
        const contractc_message_t *m2 = contractc_transcript_at(t, -2);
        s->seen_m1[i] = m1 ? strdup(m1->text) : NULL;
        s->seen_m2[i] = m2 ? strdup(m2->text) : NULL;
        s->role_m1[i] = m1 ? m1->role : 0;
        s->role_m2[i] = m2 ? m2->role : 0;
        s->seen_max_tokens[i] = reply->max_tokens;
    }
    const step_t *st = &s->steps[i];
    if (st->finish)
        snprintf(reply->finish_reason, sizeof reply->finish_reason, "%s", st->finish);
    if (st->text && strcmp(st->text, "!error") == 0) {
        snprintf(reply->error, sizeof reply->error, "HTTP 503 from the scripted model");
        return 1;
    }
    if (st->text && strcmp(st->text, "!error429") == 0) {
        snprintf(reply->error, sizeof reply->error, "HTTP 429 from the scripted model");
        reply->error_class = CONTRACTC_ERROR_CLASS_HTTP_429;
        return 1;
    }
    reply->text = st->text;
    reply->len = st->text ? (st->len ? st->len : strlen(st->text)) : 0;
    return 0;
}

static void script_free(script_t *s)
{
    for (size_t i = 0; i < 8; i++) {
        free(s->seen_m1[i]);
        free(s->seen_m2[i]);
    }
}

/* Escalation: records what it was handed. */
typedef struct escalation {
    int calls;
    contractc_outcome_t outcome; /* the decision's, when escalated */
    char reply[512];
    size_t problem_count;
    contractc_kind_t first_kind;
    char first_path[64];
} escalation_t;

static void escalate(void *user, const contractc_decision_t *d, const char *reply,
                     size_t reply_len, const contractc_problems_t *problems)
{
    escalation_t *e = user;
    e->calls++;
    e->outcome = d->outcome;
    snprintf(e->reply, sizeof e->reply, "%.*s", (int)reply_len, reply);
    e->problem_count = contractc_problems_count(problems);
    const contractc_problem_t *p = contractc_problems_at(problems, 0);
    if (p) {
        e->first_kind = p->kind;
        snprintf(e->first_path, sizeof e->first_path, "%s", p->path);
    }
}

typedef struct run {
    contractc_transcript_t t;
    contractc_decision_t d;
    refund_request_t rec;
    contractc_status_t status;
    escalation_t esc;
} run_t;

/* The loop over the scripted model; `truncated` (may be NULL) is the
 * on_truncated callback and `on_truncated_user` its user pointer. */
static void run_loop_with(run_t *r, script_t *s, unsigned max_attempts,
                          const contractc_options_t *options, contractc_truncated_fn truncated,
                          void *on_truncated_user, unsigned max_tokens)
{
    memset(r, 0, sizeof *r);
    contractc_transcript_init(&r->t, NULL);
    ck_assert_int_eq(contractc_transcript_begin(&r->t, &refund_request_contract,
                                                refund_request_prompt, refund_request_prompt_len,
                                                email, strlen(email)),
                     CONTRACTC_OK);
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = scripted;
    loop.model_user = s;
    loop.escalate = escalate;
    loop.escalate_user = &r->esc;
    loop.max_attempts = max_attempts;
    loop.options = options;
    loop.on_truncated = truncated;
    loop.on_truncated_user = on_truncated_user;
    loop.max_tokens = max_tokens;
    r->status = contractc_loop_run(&loop, &r->t, email, strlen(email), &r->rec, &r->d);
}

static void run_loop(run_t *r, script_t *s, unsigned max_attempts,
                     const contractc_options_t *options)
{
    run_loop_with(r, s, max_attempts, options, NULL, NULL, 0);
}

static void run_free(run_t *r)
{
    refund_request_free(&r->rec);
    contractc_decision_free(&r->d);
    contractc_transcript_clear(&r->t);
}

START_TEST(the_first_turn_is_the_prompt_then_the_source_text)
{
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    ck_assert_int_eq(contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt,
                                                refund_request_prompt_len, email, strlen(email)),
                     CONTRACTC_OK);
    ck_assert_uint_eq(contractc_transcript_count(&t), 1);
    const contractc_message_t *m = contractc_transcript_at(&t, 0);
    ck_assert_int_eq(m->role, CONTRACTC_ROLE_USER);
    char expect[4096];
    int n = snprintf(expect, sizeof expect, "%.*s\nHere is the customer email:\n\n%s",
                     (int)refund_request_prompt_len, refund_request_prompt, email);
    ck_assert_uint_eq(m->len, (size_t)n);
    ck_assert_str_eq(m->text, expect);
    ck_assert_ptr_eq(contractc_transcript_at(&t, -1), m);
    ck_assert_ptr_null(contractc_transcript_at(&t, 1));
    ck_assert_ptr_null(contractc_transcript_at(&t, -2));
    ck_assert_str_eq(contractc_role_name(m->role), "user");
    contractc_transcript_clear(&t);
    ck_assert_uint_eq(contractc_transcript_count(&t), 0);
    contractc_transcript_clear(&t); /* twice is safe */
}
END_TEST

START_TEST(a_source_that_is_not_utf8_or_missing_is_refused_when_beginning)
{
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    ck_assert_int_eq(contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt,
                                                refund_request_prompt_len, "caf\xC3", 4),
                     CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt,
                                                refund_request_prompt_len, NULL, 0),
                     CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt,
                                                refund_request_prompt_len, "\xED\xA0\x80", 3),
                     CONTRACTC_EINVAL); /* a UTF-8-encoded surrogate */
    ck_assert_uint_eq(contractc_transcript_count(&t), 0);
    ck_assert_int_eq(contractc_transcript_add(&t, (contractc_role_t)9, "x", 1), CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_transcript_add(&t, CONTRACTC_ROLE_USER, NULL, 3), CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_transcript_add(&t, CONTRACTC_ROLE_USER, NULL, 0), CONTRACTC_OK);
    ck_assert_str_eq(contractc_transcript_at(&t, 0)->text, "");
    contractc_transcript_clear(&t);
}
END_TEST

/* contractc_utf8_valid_prefix: the reader's rule, public (the chat client
 * escapes transcript texts by it). */
START_TEST(utf8_valid_prefix_is_the_well_formed_length)
{
    ck_assert_uint_eq(contractc_utf8_valid_prefix("abc", 3), 3);
    ck_assert_uint_eq(contractc_utf8_valid_prefix("1.250,00 \xE2\x82\xAC", 12), 12); /* EUR sign */
    ck_assert_uint_eq(contractc_utf8_valid_prefix("\xF0\x9F\x98\x80!", 5), 5);      /* U+1F600 */
    ck_assert_uint_eq(contractc_utf8_valid_prefix("ab\xC0\xAF", 4), 2);              /* overlong '/' */
    ck_assert_uint_eq(contractc_utf8_valid_prefix("a\xED\xA0\x80", 4), 1);           /* U+D800 */
    ck_assert_uint_eq(contractc_utf8_valid_prefix("\xF4\x90\x80\x80", 4), 0);        /* > U+10FFFF */
    ck_assert_uint_eq(contractc_utf8_valid_prefix("xy\xE2\x82", 4), 2);              /* cut by the end */
    ck_assert_uint_eq(contractc_utf8_valid_prefix("a\0b", 3), 3); /* NUL is well-formed */
    /* long enough for the 64-byte blocks: the first bad byte, exactly */
    char text[300];
    memset(text, 'a', sizeof text);
    text[277] = (char)0xFF;
    ck_assert_uint_eq(contractc_utf8_valid_prefix(text, sizeof text), 277);
    ck_assert_uint_eq(contractc_utf8_valid_prefix(text, 277), 277);
    ck_assert_uint_eq(contractc_utf8_valid_prefix(NULL, 5), 0);
    ck_assert_uint_eq(contractc_utf8_valid_prefix("", 0), 0);
}
END_TEST

START_TEST(the_rejected_reply_is_at_minus_2_and_the_complaint_at_minus_1)
{
    const step_t steps[] = {{comma_reply, 0, "stop"}, {good_reply, 0, "stop"}};
    script_t s = {steps, 2, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    run_t r;
    run_loop(&r, &s, 0, NULL);
    ck_assert_int_eq(r.status, CONTRACTC_OK);
    ck_assert_uint_eq(s.calls, 2);
    /* What the model saw on its second call. */
    ck_assert_uint_eq(s.seen_count[1], 3);
    ck_assert_int_eq(s.role_m2[1], CONTRACTC_ROLE_ASSISTANT);
    ck_assert_str_eq(s.seen_m2[1], comma_reply);
    ck_assert_int_eq(s.role_m1[1], CONTRACTC_ROLE_USER);
    ck_assert_str_eq(s.seen_m1[1], comma_repair);
    /* And on its first: only the first turn. */
    ck_assert_uint_eq(s.seen_count[0], 1);
    /* After the run: the accepted reply closes the conversation. */
    ck_assert_uint_eq(contractc_transcript_count(&r.t), 4);
    ck_assert_str_eq(contractc_transcript_at(&r.t, -1)->text, good_reply);
    ck_assert_int_eq(contractc_transcript_at(&r.t, -1)->role, CONTRACTC_ROLE_ASSISTANT);
    /* The decision, in the log's terms. */
    ck_assert_int_eq(r.d.outcome, CONTRACTC_OUTCOME_ACCEPTED);
    ck_assert_uint_eq(r.d.attempt_count, 2);
    ck_assert_int_eq(r.d.attempts[0].outcome, CONTRACTC_ATTEMPT_REJECTED);
    ck_assert_uint_eq(r.d.attempts[0].problem_count, 1);
    ck_assert_str_eq(r.d.attempts[0].problems[0].path, "$.amount");
    ck_assert_int_eq(r.d.attempts[0].problems[0].kind, CONTRACTC_KIND_FORMAT);
    ck_assert_ptr_null(r.d.attempts[0].problems[0].rule);
    ck_assert_str_eq(r.d.attempts[0].finish_reason, "stop");
    ck_assert_int_eq(r.d.attempts[1].outcome, CONTRACTC_ATTEMPT_ACCEPTED);
    ck_assert_uint_eq(r.d.attempts[1].problem_count, 0);
    /* The record: minor units, from the corrected reply. */
    ck_assert(r.rec.has_amount);
    ck_assert_int_eq(r.rec.amount, 125000);
    ck_assert_str_eq(r.rec.amount_text, "1.250,00 EUR");
    ck_assert_int_eq(r.esc.calls, 0);
    run_free(&r);
    script_free(&s);
}
END_TEST

START_TEST(a_reply_that_never_converges_is_escalated_after_the_first_try_and_two_repairs)
{
    const step_t steps[] = {{comma_reply, 0, NULL}, {"{\"order_id\":1}", 0, NULL},
                            {"I cannot help with that.", 0, NULL}, {good_reply, 0, NULL}};
    script_t s = {steps, 4, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    run_t r;
    run_loop(&r, &s, 0, NULL);
    ck_assert_int_eq(r.status, CONTRACTC_REJECTED);
    ck_assert_uint_eq(s.calls, 3); /* the fourth (good) reply is never asked for */
    ck_assert_int_eq(r.d.outcome, CONTRACTC_OUTCOME_ESCALATED);
    ck_assert_uint_eq(r.d.attempt_count, 3);
    /* user, (assistant, repair) x2, assistant: no repair turn after the last */
    ck_assert_uint_eq(contractc_transcript_count(&r.t), 6);
    ck_assert_int_eq(contractc_transcript_at(&r.t, -1)->role, CONTRACTC_ROLE_ASSISTANT);
    ck_assert_str_eq(contractc_transcript_at(&r.t, -1)->text, "I cannot help with that.");
    /* The escalation gets the last reply and its problems. */
    ck_assert_int_eq(r.esc.calls, 1);
    ck_assert_int_eq(r.esc.outcome, CONTRACTC_OUTCOME_ESCALATED);
    ck_assert_str_eq(r.esc.reply, "I cannot help with that.");
    ck_assert_uint_eq(r.esc.problem_count, 1);
    ck_assert_int_eq(r.esc.first_kind, CONTRACTC_KIND_SYNTAX);
    ck_assert_str_eq(r.esc.first_path, "$");
    /* The second reply's problems are every problem of that reply. */
    ck_assert_uint_eq(r.d.attempts[1].problem_count, 5);
    ck_assert_str_eq(s.seen_m2[2], "{\"order_id\":1}");
    ck_assert_ptr_nonnull(strstr(s.seen_m1[2], "- $.order_id: "));
    ck_assert_ptr_nonnull(strstr(s.seen_m1[2], "- $.reason: "));
    /* A rejected run leaves no record. */
    ck_assert_ptr_null(r.rec.arena_);
    run_free(&r);
    script_free(&s);
}
END_TEST

START_TEST(the_cap_is_configurable_down_to_a_single_try)
{
    const step_t steps[] = {{comma_reply, 0, NULL}, {good_reply, 0, NULL}};
    script_t s = {steps, 2, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    run_t r;
    run_loop(&r, &s, 1, NULL);
    ck_assert_int_eq(r.status, CONTRACTC_REJECTED);
    ck_assert_uint_eq(s.calls, 1);
    ck_assert_int_eq(r.d.outcome, CONTRACTC_OUTCOME_ESCALATED);
    ck_assert_uint_eq(contractc_transcript_count(&r.t), 2);
    run_free(&r);
    script_free(&s);
}
END_TEST

START_TEST(an_empty_reply_is_a_rejection_with_a_repair_turn)
{
    const step_t steps[] = {{NULL, 0, "stop"}, {"  \n", 0, NULL}, {good_reply, 0, NULL}};
    script_t s = {steps, 3, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    run_t r;
    run_loop(&r, &s, 0, NULL);
    ck_assert_int_eq(r.status, CONTRACTC_OK);
    ck_assert_uint_eq(r.d.attempt_count, 3);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(r.d.attempts[i].outcome, CONTRACTC_ATTEMPT_REJECTED);
        ck_assert_uint_eq(r.d.attempts[i].problem_count, 1);
        ck_assert_int_eq(r.d.attempts[i].problems[0].kind, CONTRACTC_KIND_EMPTY);
    }
    ck_assert_str_eq(s.seen_m2[1], "");
    ck_assert_int_eq(s.role_m2[1], CONTRACTC_ROLE_ASSISTANT);
    ck_assert_ptr_nonnull(strstr(s.seen_m1[1], "Your reply was rejected."));
    ck_assert_str_eq(s.seen_m2[2], "  \n");
    run_free(&r);
    script_free(&s);
}
END_TEST

START_TEST(an_over_limit_reply_is_rejected_and_kept_cut_to_max_bytes_at_a_utf8_boundary_with_a_marker)
{
    /* 100 x "é" (2 bytes each): cut to 63 bytes must back off to 62. */
    char big[256];
    for (int i = 0; i < 100; i++) {
        big[2 * i] = '\xC3';
        big[2 * i + 1] = '\xA9';
    }
    big[200] = '\0';
    const step_t steps[] = {{big, 200, NULL}, {good_reply, 0, NULL}, {good_reply, 0, NULL}};
    script_t s = {steps, 3, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    contractc_options_t options;
    memset(&options, 0, sizeof options);
    options.max_bytes = 63;
    run_t r;
    run_loop(&r, &s, 0, &options);
    ck_assert_int_eq(r.status, CONTRACTC_REJECTED); /* the good reply is over 63 bytes too */
    ck_assert_int_eq(r.d.attempts[0].problems[0].kind, CONTRACTC_KIND_LIMIT);
    const contractc_message_t *kept = contractc_transcript_at(&r.t, 1);
    ck_assert_int_eq(kept->role, CONTRACTC_ROLE_ASSISTANT);
    ck_assert_uint_eq(kept->len, 62 + strlen("\n[... 138 bytes cut]"));
    ck_assert_int_eq(memcmp(kept->text, big, 62), 0);
    ck_assert_str_eq(kept->text + 62, "\n[... 138 bytes cut]");
    /* the good reply, cut to 63 bytes and marked */
    const contractc_message_t *last = contractc_transcript_at(&r.t, -1);
    ck_assert_uint_eq(last->len, 63 + strlen("\n[... 42 bytes cut]"));
    ck_assert_int_eq(memcmp(last->text, good_reply, 63), 0);
    ck_assert_str_eq(last->text + 63, "\n[... 42 bytes cut]");
    run_free(&r);
    script_free(&s);
}
END_TEST

START_TEST(a_model_error_uses_up_an_attempt_and_adds_no_turn)
{
    const step_t steps[] = {{"!error", 0, NULL}, {good_reply, 0, "stop"}};
    script_t s = {steps, 2, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    run_t r;
    run_loop(&r, &s, 0, NULL);
    ck_assert_int_eq(r.status, CONTRACTC_OK);
    ck_assert_uint_eq(r.d.attempt_count, 2);
    ck_assert_int_eq(r.d.attempts[0].outcome, CONTRACTC_ATTEMPT_MODEL_ERROR);
    ck_assert_str_eq(r.d.attempts[0].error, "HTTP 503 from the scripted model");
    ck_assert_uint_eq(s.seen_count[1], 1); /* the same transcript is sent again */
    ck_assert_uint_eq(contractc_transcript_count(&r.t), 2);
    ck_assert_int_eq(r.d.attempts[1].outcome, CONTRACTC_ATTEMPT_ACCEPTED);
    run_free(&r);
    script_free(&s);
}
END_TEST

START_TEST(a_run_of_only_model_errors_ends_failed_without_escalation)
{
    const step_t steps[] = {{"!error", 0, NULL}, {"!error", 0, NULL}, {"!error", 0, NULL}};
    script_t s = {steps, 3, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    run_t r;
    run_loop(&r, &s, 0, NULL);
    ck_assert_int_eq(r.status, CONTRACTC_REJECTED);
    ck_assert_int_eq(r.d.outcome, CONTRACTC_OUTCOME_FAILED);
    ck_assert_uint_eq(r.d.attempt_count, 3);
    ck_assert_int_eq(r.esc.calls, 0);
    ck_assert_uint_eq(contractc_transcript_count(&r.t), 1);
    ck_assert_str_eq(contractc_outcome_name(r.d.outcome), "failed");
    run_free(&r);
    script_free(&s);
}
END_TEST

START_TEST(a_rejection_followed_by_model_errors_escalates_the_rejected_reply)
{
    const step_t steps[] = {{comma_reply, 0, NULL}, {"!error", 0, NULL}, {"!error", 0, NULL}};
    script_t s = {steps, 3, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    run_t r;
    run_loop(&r, &s, 0, NULL);
    ck_assert_int_eq(r.d.outcome, CONTRACTC_OUTCOME_ESCALATED);
    ck_assert_int_eq(r.esc.calls, 1);
    ck_assert_str_eq(r.esc.reply, comma_reply);
    ck_assert_int_eq(r.esc.first_kind, CONTRACTC_KIND_FORMAT);
    ck_assert_str_eq(r.esc.first_path, "$.amount");
    /* The repair turn was sent with both retries. */
    ck_assert_str_eq(s.seen_m1[2], comma_repair);
    run_free(&r);
    script_free(&s);
}
END_TEST

/* A model that breaks its own contract with the loop. */
static int lying_model(void *user, const contractc_transcript_t *t, contractc_model_reply_t *reply)
{
    (void)user;
    (void)t;
    reply->text = NULL;
    reply->len = 12;
    memset(reply->finish_reason, 'x', sizeof reply->finish_reason); /* no NUL */
    return 0;
}

START_TEST(a_model_function_that_breaks_its_contract_is_a_model_error)
{
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_transcript_add(&t, CONTRACTC_ROLE_USER, "x", 1);
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = lying_model;
    loop.max_attempts = 2;
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d),
                     CONTRACTC_REJECTED);
    ck_assert_int_eq(d.outcome, CONTRACTC_OUTCOME_FAILED);
    ck_assert_int_eq(d.attempts[0].outcome, CONTRACTC_ATTEMPT_MODEL_ERROR);
    ck_assert_str_eq(d.attempts[0].error, "the model function returned a length without text");
    ck_assert_uint_eq(strlen(d.attempts[0].finish_reason), CONTRACTC_FINISH_REASON_SIZE - 1);
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
}
END_TEST

/* ---- outcomes that are not wrong answers --------------------------------- */

static const char cut_reply[] = "{\"order_id\":\"A-1063\",\"amount\":\"12";

START_TEST(a_reply_cut_at_the_token_limit_ends_truncated_without_a_repair_turn)
{
    const char *reasons[] = {"length", "max_tokens"}; /* OpenAI's, Anthropic's */
    for (int k = 0; k < 2; k++) {
        const step_t steps[] = {{cut_reply, 0, reasons[k]}, {good_reply, 0, "stop"}};
        script_t s = {steps, 2, 0, {0}, {0}, {0}, {0}, {0}, {0}};
        run_t r;
        run_loop(&r, &s, 0, NULL);
        ck_assert_int_eq(r.status, CONTRACTC_REJECTED);
        ck_assert_uint_eq(s.calls, 1); /* no repair was asked for */
        ck_assert_int_eq(r.d.outcome, CONTRACTC_OUTCOME_TRUNCATED);
        ck_assert_uint_eq(r.d.attempt_count, 1);
        ck_assert_int_eq(r.d.attempts[0].outcome, CONTRACTC_ATTEMPT_TRUNCATED);
        ck_assert_str_eq(r.d.attempts[0].finish_reason, reasons[k]);
        ck_assert_uint_ge(r.d.attempts[0].problem_count, 1); /* its problems, for the log */
        /* Nothing was added: the prompt alone. */
        ck_assert_uint_eq(contractc_transcript_count(&r.t), 1);
        ck_assert_int_eq(r.esc.calls, 1);
        ck_assert_int_eq(r.esc.outcome, CONTRACTC_OUTCOME_TRUNCATED);
        ck_assert_str_eq(r.esc.reply, cut_reply);
        ck_assert_ptr_null(r.rec.arena_);
        ck_assert_str_eq(contractc_outcome_name(r.d.outcome), "truncated");
        ck_assert_str_eq(contractc_attempt_outcome_name(r.d.attempts[0].outcome), "truncated");
        run_free(&r);
        script_free(&s);
    }
}
END_TEST

typedef struct raise {
    int calls;
    unsigned seen;   /* *max_tokens as the callback got it */
    unsigned to;     /* what it sets */
    int answer;      /* what it returns */
    size_t attempts; /* decision->attempt_count during the call */
} raise_t;

static int raise_limit(void *user, const contractc_decision_t *d, unsigned *max_tokens)
{
    raise_t *r = user;
    r->calls++;
    r->seen = *max_tokens;
    r->attempts = d->attempt_count;
    *max_tokens = r->to;
    return r->answer;
}

static void run_loop_truncated(run_t *r, script_t *s, raise_t *raise, unsigned max_tokens)
{
    run_loop_with(r, s, 0, NULL, raise_limit, raise, max_tokens);
}

START_TEST(on_truncated_may_raise_the_token_limit_and_retry_once)
{
    const step_t steps[] = {{cut_reply, 0, "length"}, {good_reply, 0, "stop"}};
    script_t s = {steps, 2, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    raise_t raise = {0, 0, 4096, 1, 0};
    run_t r;
    run_loop_truncated(&r, &s, &raise, 512);
    ck_assert_int_eq(r.status, CONTRACTC_OK);
    ck_assert_int_eq(raise.calls, 1);
    ck_assert_uint_eq(raise.seen, 512);
    ck_assert_uint_eq(raise.attempts, 1);
    ck_assert_uint_eq(s.seen_max_tokens[0], 512);
    ck_assert_uint_eq(s.seen_max_tokens[1], 4096);
    /* The second call saw the same transcript: no cut reply, no repair. */
    ck_assert_uint_eq(s.seen_count[1], 1);
    ck_assert_int_eq(r.d.outcome, CONTRACTC_OUTCOME_ACCEPTED);
    ck_assert_uint_eq(r.d.attempt_count, 2);
    ck_assert_int_eq(r.d.attempts[0].outcome, CONTRACTC_ATTEMPT_TRUNCATED);
    ck_assert_int_eq(r.d.attempts[1].outcome, CONTRACTC_ATTEMPT_ACCEPTED);
    ck_assert_int_eq(r.esc.calls, 0);
    ck_assert_uint_eq(contractc_transcript_count(&r.t), 2);
    ck_assert_str_eq(contractc_transcript_at(&r.t, -1)->text, good_reply);
    run_free(&r);
    script_free(&s);
}
END_TEST

START_TEST(on_truncated_retries_at_most_once_and_may_decline)
{
    {
        const step_t steps[] = {{cut_reply, 0, "length"}, {cut_reply, 0, "length"},
                                {good_reply, 0, "stop"}};
        script_t s = {steps, 3, 0, {0}, {0}, {0}, {0}, {0}, {0}};
        raise_t raise = {0, 0, 4096, 1, 0};
        run_t r;
        run_loop_truncated(&r, &s, &raise, 0);
        ck_assert_int_eq(r.status, CONTRACTC_REJECTED);
        ck_assert_int_eq(raise.calls, 1);
        ck_assert_uint_eq(s.calls, 2);
        ck_assert_int_eq(r.d.outcome, CONTRACTC_OUTCOME_TRUNCATED);
        ck_assert_int_eq(r.esc.calls, 1);
        run_free(&r);
        script_free(&s);
    }
    {
        const step_t steps[] = {{cut_reply, 0, "length"}, {good_reply, 0, "stop"}};
        script_t s = {steps, 2, 0, {0}, {0}, {0}, {0}, {0}, {0}};
        raise_t raise = {0, 0, 4096, 0, 0}; /* declines */
        run_t r;
        run_loop_truncated(&r, &s, &raise, 0);
        ck_assert_int_eq(raise.calls, 1);
        ck_assert_uint_eq(s.calls, 1);
        ck_assert_int_eq(r.d.outcome, CONTRACTC_OUTCOME_TRUNCATED);
        run_free(&r);
        script_free(&s);
    }
}
END_TEST

START_TEST(an_accepted_reply_marked_cut_is_accepted_and_flagged)
{
    const step_t steps[] = {{good_reply, 0, "length"}};
    script_t s = {steps, 1, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    run_t r;
    run_loop(&r, &s, 0, NULL);
    ck_assert_int_eq(r.status, CONTRACTC_OK);
    ck_assert_int_eq(r.d.outcome, CONTRACTC_OUTCOME_ACCEPTED);
    ck_assert_int_eq(r.d.attempts[0].outcome, CONTRACTC_ATTEMPT_ACCEPTED);
    ck_assert(r.d.attempts[0].truncated);
    ck_assert_str_eq(r.rec.order_id, "A-1063");
    run_free(&r);
    script_free(&s);
}
END_TEST

START_TEST(a_refusal_and_a_filtered_reply_end_the_run_unparsed_and_unrepaired)
{
    static const char refusal[] = "I can't help with refunds.";
    const step_t steps[] = {{refusal, 0, "refusal"}, {good_reply, 0, "stop"}};
    script_t s = {steps, 2, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    run_t r;
    run_loop(&r, &s, 0, NULL);
    ck_assert_int_eq(r.status, CONTRACTC_REJECTED);
    ck_assert_uint_eq(s.calls, 1);
    ck_assert_int_eq(r.d.outcome, CONTRACTC_OUTCOME_REFUSED);
    ck_assert_int_eq(r.d.attempts[0].outcome, CONTRACTC_ATTEMPT_REFUSED);
    ck_assert_uint_eq(r.d.attempts[0].problem_count, 0); /* not parsed */
    ck_assert_str_eq(r.d.attempts[0].refusal, refusal);
    ck_assert_uint_eq(r.d.attempts[0].refusal_len, strlen(refusal));
    ck_assert_uint_eq(contractc_transcript_count(&r.t), 1);
    ck_assert_int_eq(r.esc.calls, 1);
    ck_assert_int_eq(r.esc.outcome, CONTRACTC_OUTCOME_REFUSED);
    ck_assert_uint_eq(r.esc.problem_count, 0);
    ck_assert_str_eq(r.esc.reply, refusal);
    run_free(&r);
    script_free(&s);

    /* A filter stop, even on text that would parse: it is not an answer. */
    const step_t f[] = {{good_reply, 0, "content_filter"}};
    script_t sf = {f, 1, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    run_loop(&r, &sf, 0, NULL);
    ck_assert_int_eq(r.status, CONTRACTC_REJECTED);
    ck_assert_int_eq(r.d.outcome, CONTRACTC_OUTCOME_FILTERED);
    ck_assert_int_eq(r.d.attempts[0].outcome, CONTRACTC_ATTEMPT_FILTERED);
    ck_assert_ptr_null(r.d.attempts[0].refusal);
    ck_assert_ptr_null(r.rec.arena_);
    ck_assert_str_eq(contractc_outcome_name(r.d.outcome), "filtered");
    ck_assert_str_eq(contractc_outcome_name(CONTRACTC_OUTCOME_REFUSED), "refused");
    run_free(&r);
    script_free(&sf);
}
END_TEST

START_TEST(a_failed_model_call_keeps_its_error_class)
{
    const step_t steps[] = {{"!error429", 0, NULL}, {"!error", 0, NULL}, {good_reply, 0, "stop"}};
    script_t s = {steps, 3, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    run_t r;
    run_loop(&r, &s, 0, NULL);
    ck_assert_int_eq(r.status, CONTRACTC_OK);
    ck_assert_int_eq(r.d.attempts[0].error_class, CONTRACTC_ERROR_CLASS_HTTP_429);
    ck_assert_int_eq(r.d.attempts[1].error_class, CONTRACTC_ERROR_CLASS_NONE);
    ck_assert_str_eq(contractc_error_class_name(CONTRACTC_ERROR_CLASS_HTTP_429), "http_429");
    ck_assert_str_eq(contractc_error_class_name(CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE),
                     "malformed_response");
    ck_assert_ptr_null(contractc_error_class_name(CONTRACTC_ERROR_CLASS_NONE));
    ck_assert_ptr_null(contractc_error_class_name((contractc_error_class_t)99));
    run_free(&r);
    script_free(&s);
}
END_TEST

START_TEST(a_long_rejected_reply_is_echoed_cut_to_16_kib_with_a_marker)
{
    size_t n = 20000;
    char *big = malloc(n + 1);
    ck_assert_ptr_nonnull(big);
    memset(big, 'x', n);
    big[n] = '\0';
    const step_t steps[] = {{big, n, "stop"}, {good_reply, 0, "stop"}};
    script_t s = {steps, 2, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    run_t r;
    run_loop(&r, &s, 0, NULL);
    ck_assert_int_eq(r.status, CONTRACTC_OK);
    const contractc_message_t *echo = contractc_transcript_at(&r.t, 1);
    ck_assert_int_eq(echo->role, CONTRACTC_ROLE_ASSISTANT);
    ck_assert_uint_eq(echo->len, 16384 + strlen("\n[... 3616 bytes cut]"));
    ck_assert_int_eq(memcmp(echo->text, big, 16384), 0);
    ck_assert_str_eq(echo->text + 16384, "\n[... 3616 bytes cut]");
    run_free(&r);
    script_free(&s);

    /* echo_max_bytes is the caller's to set. */
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    ck_assert_int_eq(contractc_transcript_begin(&t, &refund_request_contract,
                                                refund_request_prompt, refund_request_prompt_len,
                                                email, strlen(email)),
                     CONTRACTC_OK);
    script_t s2 = {steps, 2, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = scripted;
    loop.model_user = &s2;
    loop.echo_max_bytes = 10;
    contractc_decision_t d;
    refund_request_t rec;
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d), CONTRACTC_OK);
    ck_assert_str_eq(contractc_transcript_at(&t, 1)->text, "xxxxxxxxxx\n[... 19990 bytes cut]");
    refund_request_free(&rec);
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
    script_free(&s2);
    free(big);
}
END_TEST

START_TEST(bad_arguments_are_refused_before_the_model_is_called)
{
    const step_t steps[] = {{good_reply, 0, NULL}};
    script_t s = {steps, 1, 0, {0}, {0}, {0}, {0}, {0}, {0}};
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = scripted;
    loop.model_user = &s;
    refund_request_t rec;
    contractc_decision_t d;
    /* an empty transcript */
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d), CONTRACTC_EINVAL);
    contractc_transcript_add(&t, CONTRACTC_ROLE_USER, "x", 1);
    /* no source, a source that is not UTF-8 */
    ck_assert_int_eq(contractc_loop_run(&loop, &t, NULL, 0, &rec, &d), CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_loop_run(&loop, &t, "\xFF", 1, &rec, &d), CONTRACTC_EINVAL);
    /* too many attempts, no model, no decision */
    loop.max_attempts = CONTRACTC_LOOP_MAX_ATTEMPTS + 1;
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d), CONTRACTC_EINVAL);
    loop.max_attempts = 0;
    loop.model = NULL;
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d), CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, NULL), CONTRACTC_EINVAL);
    ck_assert_uint_eq(s.calls, 0);
    ck_assert_uint_eq(d.attempt_count, 0);
    contractc_decision_free(&d);
    contractc_decision_free(NULL);
    contractc_transcript_clear(&t);
}
END_TEST

/* ---- allocation failures: the allocator of counting_alloc.h ------------ */

/* ---- a turn of tool calls (docs/tools.md, "Tool calls in the transcript") */

/* A model that answers with tool calls: first call_a (good) and call_b
 * (the comma amount), then call_c and call_d (both good). */
typedef struct tool_script {
    int calls;
    size_t seen_count; /* the transcript's size at the second call */
} tool_script_t;

static int tool_model(void *user, const contractc_transcript_t *t, contractc_model_reply_t *reply)
{
    tool_script_t *s = user;
    static contractc_reply_tool_call_t first[2], second[2];
    first[0] = (contractc_reply_tool_call_t){"call_a", "refund_request", good_reply, strlen(good_reply)};
    first[1] = (contractc_reply_tool_call_t){"call_b", "refund_request", comma_reply, strlen(comma_reply)};
    second[0] = (contractc_reply_tool_call_t){"call_c", "refund_request", good_reply, strlen(good_reply)};
    second[1] = (contractc_reply_tool_call_t){"call_d", "refund_request", good_reply, strlen(good_reply)};
    if (s->calls++ == 1)
        s->seen_count = contractc_transcript_count(t);
    reply->tool_calls = s->calls == 1 ? first : second;
    reply->tool_call_count = 2;
    reply->text = reply->tool_calls[0].arguments;
    reply->len = reply->tool_calls[0].arguments_len;
    snprintf(reply->finish_reason, sizeof reply->finish_reason, "tool_calls");
    return 0;
}

START_TEST(a_turn_of_tool_calls_is_answered_by_one_result_per_call_in_order)
{
    tool_script_t s = {0, 0};
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    ck_assert_int_eq(contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt,
                                                refund_request_prompt_len, email, strlen(email)),
                     CONTRACTC_OK);
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = tool_model;
    loop.model_user = &s;
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d), CONTRACTC_OK);
    ck_assert_int_eq(rec.amount, 125000);
    ck_assert_uint_eq(s.seen_count, 5);
    ck_assert_uint_eq(contractc_transcript_count(&t), 7);
    const contractc_message_t *m;
    m = contractc_transcript_at(&t, 1);
    ck_assert_int_eq(m->role, CONTRACTC_ROLE_ASSISTANT);
    ck_assert_str_eq(m->tool_call_id, "call_a");
    ck_assert_str_eq(m->tool_name, "refund_request");
    ck_assert_str_eq(m->text, good_reply);
    m = contractc_transcript_at(&t, 2);
    ck_assert_str_eq(m->tool_call_id, "call_b");
    ck_assert_str_eq(m->text, comma_reply);
    m = contractc_transcript_at(&t, 3);
    ck_assert_int_eq(m->role, CONTRACTC_ROLE_TOOL);
    ck_assert_str_eq(m->tool_call_id, "call_a");
    ck_assert_ptr_null(m->tool_name);
    ck_assert(!m->is_error);
    ck_assert_str_eq(m->text, CONTRACTC_REPAIR_NOT_RUN);
    m = contractc_transcript_at(&t, 4);
    ck_assert_str_eq(m->tool_call_id, "call_b");
    ck_assert(m->is_error);
    ck_assert_str_eq(m->text, comma_call_repair);
    ck_assert_str_eq(contractc_transcript_at(&t, 6)->tool_call_id, "call_d");
    ck_assert_uint_eq(d.attempts[0].tool_call_count, 2);
    ck_assert_uint_eq(d.attempts[0].tool_calls[1].problems, 1);
    ck_assert_uint_eq(d.attempts[1].tool_call_count, 2);
    ck_assert_str_eq(d.attempts[1].tool_calls[0].tool, "refund_request");
    ck_assert_str_eq(d.attempts[1].tool_calls[1].tool, "refund_request");
    ck_assert_str_eq(contractc_role_name(CONTRACTC_ROLE_TOOL), "tool");
    ck_assert_int_eq(contractc_transcript_add(&t, CONTRACTC_ROLE_TOOL, "x", 1), CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_transcript_add_tool_call(&t, "", "n", "{}", 2), CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_transcript_add_tool_call(&t, "id", NULL, "{}", 2), CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_transcript_add_tool_result(&t, NULL, "x", 1, true), CONTRACTC_EINVAL);
    refund_request_free(&rec);
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
}
END_TEST

/* A call of another name than the loop's tool is rejected as unknown_tool,
 * and the log's term for it is null (never the model's name). */
START_TEST(a_tool_call_of_another_name_is_rejected_as_unknown_tool)
{
    tool_script_t s = {0, 0};
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    ck_assert_int_eq(contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt,
                                                refund_request_prompt_len, email, strlen(email)),
                     CONTRACTC_OK);
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = tool_model;
    loop.model_user = &s;
    loop.max_attempts = 1;
    loop.tool_name = "refund";
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d),
                     CONTRACTC_REJECTED);
    ck_assert_int_eq(d.outcome, CONTRACTC_OUTCOME_ESCALATED);
    ck_assert_uint_eq(d.attempts[0].tool_call_count, 2);
    ck_assert_ptr_null(d.attempts[0].tool_calls[0].tool);
    ck_assert_uint_eq(d.attempts[0].tool_calls[0].problems, 1);
    ck_assert_uint_eq(d.attempts[0].problem_count, 2);
    ck_assert_int_eq(d.attempts[0].problems[0].kind, CONTRACTC_KIND_UNKNOWN_TOOL);
    ck_assert_str_eq(d.attempts[0].problems[0].path, "$");
    /* the calls are echoed, no result follows the last attempt */
    ck_assert_uint_eq(contractc_transcript_count(&t), 3);
    ck_assert_str_eq(contractc_transcript_at(&t, -1)->tool_call_id, "call_b");
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
}
END_TEST

static int idless_model(void *user, const contractc_transcript_t *t, contractc_model_reply_t *reply)
{
    (void)user;
    (void)t;
    static contractc_reply_tool_call_t call;
    call = (contractc_reply_tool_call_t){"", "refund_request", good_reply, strlen(good_reply)};
    reply->tool_calls = &call;
    reply->tool_call_count = 1;
    return 0;
}

/* A tool call without an id cannot be answered: the model function's
 * error, not the model's. */
START_TEST(a_tool_call_without_an_id_is_a_model_error)
{
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    ck_assert_int_eq(contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt,
                                                refund_request_prompt_len, email, strlen(email)),
                     CONTRACTC_OK);
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = idless_model;
    loop.max_attempts = 1;
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d),
                     CONTRACTC_REJECTED);
    ck_assert_int_eq(d.outcome, CONTRACTC_OUTCOME_FAILED);
    ck_assert_int_eq(d.attempts[0].outcome, CONTRACTC_ATTEMPT_MODEL_ERROR);
    ck_assert_str_eq(d.attempts[0].error, "the model function returned a tool call without an id, "
                                          "a name or its arguments' bytes");
    ck_assert_uint_eq(contractc_transcript_count(&t), 1);
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
}
END_TEST

START_TEST(a_turn_of_tool_calls_survives_every_allocation_failure)
{
    long ok_runs = 0, enomem_runs = 0;
    for (long fail = 1; fail < 600; fail++) {
        counting_t c = {0, 0, fail, 0};
        contractc_allocator_t a = {count_alloc, count_free, &c};
        contractc_options_t options;
        memset(&options, 0, sizeof options);
        options.allocator = &a;
        tool_script_t s = {0, 0};
        contractc_transcript_t t;
        contractc_transcript_init(&t, &a);
        contractc_status_t st = contractc_transcript_begin(&t, &refund_request_contract,
                                                           refund_request_prompt,
                                                           refund_request_prompt_len, email,
                                                           strlen(email));
        contractc_decision_t d;
        refund_request_t rec;
        memset(&rec, 0, sizeof rec);
        if (st == CONTRACTC_OK) {
            contractc_loop_t loop;
            memset(&loop, 0, sizeof loop);
            loop.contract = &refund_request_contract;
            loop.model = tool_model;
            loop.model_user = &s;
            loop.options = &options;
            st = contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d);
            if (st == CONTRACTC_OK)
                ck_assert_int_eq(rec.amount, 125000);
            contractc_record_free(&refund_request_contract, &rec);
            contractc_decision_free(&d);
        }
        ck_assert_msg(st == CONTRACTC_OK || st == CONTRACTC_ENOMEM, "failing allocation %ld: %s",
                      fail, contractc_status_name(st));
        contractc_transcript_clear(&t);
        ck_assert_msg(c.live == 0 && c.allocs == c.frees, "failing allocation %ld leaks", fail);
        if (st == CONTRACTC_OK)
            ok_runs++;
        else
            enomem_runs++;
        if (c.fail_at)
            break;
    }
    ck_assert_int_gt(enomem_runs, 10);
    ck_assert_int_eq(ok_runs, 1);
}
END_TEST

/* ---- streaming in the loop (docs/contract-language.md §18) ----------------
 * A model that streams: each step's text is fed to reply->stream in
 * chunks of `chunk` bytes, as a client would feed what arrives, and the
 * model stops receiving when a feed says DEAD (unless `ignore_dead`). */
typedef struct streamer {
    const char *const *replies;
    size_t count, calls, chunk;
    bool ignore_dead, claim_stopped; /* claim_stopped: say stopped, never dead */
    bool whole_text;                 /* hand over the whole reply when stopped */
    bool had_stream[4];
    char *seen_m2[4];
} streamer_t;

static int streaming_model(void *user, const contractc_transcript_t *t,
                           contractc_model_reply_t *reply)
{
    streamer_t *m = user;
    size_t i = m->calls++;
    ck_assert_uint_lt(i, m->count);
    const contractc_message_t *m2 = contractc_transcript_at(t, -2);
    if (i < 4) {
        m->had_stream[i] = reply->stream != NULL;
        m->seen_m2[i] = m2 ? strdup(m2->text) : NULL;
    }
    const char *text = m->replies[i];
    size_t len = strlen(text), fed = 0;
    while (reply->stream && fed < len) {
        size_t n = len - fed < m->chunk ? len - fed : m->chunk;
        contractc_stream_state_t state = contractc_stream_feed(reply->stream, text + fed, n);
        fed += n;
        if (state == CONTRACTC_STREAM_DEAD && !m->ignore_dead) {
            reply->stopped = true;
            break;
        }
    }
    if (m->claim_stopped)
        reply->stopped = true;
    snprintf(reply->finish_reason, sizeof reply->finish_reason, "%s", reply->stopped ? "" : "stop");
    reply->text = text;
    reply->len = reply->stopped && !m->claim_stopped && !m->whole_text ? fed : len;
    return 0;
}

static void streamer_free(streamer_t *m)
{
    for (size_t i = 0; i < 4; i++)
        free(m->seen_m2[i]);
}

static contractc_status_t run_streamed(streamer_t *m, bool stream, contractc_transcript_t *t,
                                       refund_request_t *rec, contractc_decision_t *d,
                                       const contractc_options_t *options)
{
    contractc_transcript_init(t, options ? options->allocator : NULL);
    contractc_status_t st = contractc_transcript_begin(t, &refund_request_contract,
                                                       refund_request_prompt,
                                                       refund_request_prompt_len, email,
                                                       strlen(email));
    memset(rec, 0, sizeof *rec);
    memset(d, 0, sizeof *d);
    if (st != CONTRACTC_OK)
        return st;
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = streaming_model;
    loop.model_user = m;
    loop.options = options;
    loop.stream = stream;
    return contractc_loop_run(&loop, t, email, strlen(email), rec, d);
}

START_TEST(a_streamed_reply_stopped_when_dead_is_repaired_from_the_problems_before_the_cut)
{
    static const char *const replies[] = {comma_reply, good_reply};
    streamer_t m = {replies, 2, 0, 8, false, false, false, {0}, {0}};
    contractc_transcript_t t;
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(run_streamed(&m, true, &t, &rec, &d, NULL), CONTRACTC_OK);
    ck_assert_uint_eq(m.calls, 2);
    ck_assert(m.had_stream[0] && m.had_stream[1]);
    /* Dead at the amount's closing quote: the first byte after which no
     * reply could be accepted; the model read on to the end of that chunk
     * of 8 bytes and no further. */
    const size_t dead = (size_t)(strstr(comma_reply, "1.250,00\"") - comma_reply) + 8;
    const size_t received = (dead / 8 + 1) * 8;
    ck_assert_uint_lt(received, strlen(comma_reply));
    ck_assert_uint_eq(d.attempt_count, 2);
    ck_assert_int_eq(d.attempts[0].outcome, CONTRACTC_ATTEMPT_REJECTED);
    ck_assert(d.attempts[0].stopped);
    ck_assert_uint_eq(d.attempts[0].stopped_at, dead);
    ck_assert_uint_eq(d.attempts[0].received, received);
    /* Its problems are the amount's alone: nothing for the end cut off. */
    ck_assert_uint_eq(d.attempts[0].problem_count, 1);
    ck_assert_str_eq(d.attempts[0].problems[0].path, "$.amount");
    ck_assert_int_eq(d.attempts[0].problems[0].kind, CONTRACTC_KIND_FORMAT);
    ck_assert(!d.attempts[1].stopped);
    ck_assert_int_eq(d.attempts[1].outcome, CONTRACTC_ATTEMPT_ACCEPTED);
    ck_assert_int_eq(rec.amount, 125000);
    /* The model saw the bytes it sent, the marker, and the complaint. */
    char echo[256];
    snprintf(echo, sizeof echo, "%.*s\n[... reply stopped here]", (int)received, comma_reply);
    ck_assert_str_eq(m.seen_m2[1], echo);
    ck_assert_str_eq(contractc_transcript_at(&t, -2)->text, comma_repair);
    /* The log keeps where it was dead and what was read. */
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2026-12-07T10:00:00Z";
    char *line = NULL;
    size_t len = 0;
    ck_assert_int_eq(contractc_log_format(&d, &e, &rec, NULL, NULL, &line, &len), CONTRACTC_OK);
    char want[64];
    snprintf(want, sizeof want, "\"stopped_at\":%zu,\"received\":%zu}", dead, received);
    ck_assert_msg(strstr(line, want) != NULL, "%s", line);
    ck_assert_int_eq(strstr(strstr(line, want) + strlen(want), "stopped_at") == NULL, 1);
    free(line);
    refund_request_free(&rec);
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
    streamer_free(&m);
}
END_TEST

/* The reply of a stopped stream is what the stream was fed, whatever the
 * model function's text says. */
START_TEST(a_stopped_reply_is_the_bytes_the_stream_was_fed)
{
    static const char *const replies[] = {comma_reply, good_reply};
    streamer_t m = {replies, 2, 0, 8, false, false, true, {0}, {0}};
    contractc_transcript_t t;
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(run_streamed(&m, true, &t, &rec, &d, NULL), CONTRACTC_OK);
    const size_t dead = (size_t)(strstr(comma_reply, "1.250,00\"") - comma_reply) + 8;
    const size_t received = (dead / 8 + 1) * 8;
    ck_assert_uint_eq(d.attempts[0].received, received);
    char echo[256];
    snprintf(echo, sizeof echo, "%.*s\n[... reply stopped here]", (int)received, comma_reply);
    ck_assert_str_eq(m.seen_m2[1], echo);
    refund_request_free(&rec);
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
    streamer_free(&m);
}
END_TEST

START_TEST(a_stream_fed_to_the_end_or_not_offered_changes_nothing)
{
    static const char *const replies[] = {comma_reply, good_reply};
    for (int mode = 0; mode < 2; mode++) {
        /* mode 0: offered, fed whole, DEAD ignored; 1: not offered. */
        streamer_t m = {replies, 2, 0, 8, mode == 0, false, false, {0}, {0}};
        contractc_transcript_t t;
        refund_request_t rec;
        contractc_decision_t d;
        ck_assert_int_eq(run_streamed(&m, mode == 0, &t, &rec, &d, NULL), CONTRACTC_OK);
        ck_assert(m.had_stream[0] == (mode == 0));
        ck_assert(!d.attempts[0].stopped);
        ck_assert_uint_eq(d.attempts[0].stopped_at, 0);
        ck_assert_str_eq(m.seen_m2[1], comma_reply); /* no marker */
        ck_assert_str_eq(contractc_transcript_at(&t, -2)->text, comma_repair);
        refund_request_free(&rec);
        contractc_decision_free(&d);
        contractc_transcript_clear(&t);
        streamer_free(&m);
    }
}
END_TEST

START_TEST(a_model_function_that_claims_a_stop_its_stream_did_not_see_is_a_model_error)
{
    static const char *const replies[] = {good_reply, good_reply, good_reply};
    streamer_t m = {replies, 3, 0, 8, false, true, false, {0}, {0}};
    contractc_transcript_t t;
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(run_streamed(&m, true, &t, &rec, &d, NULL), CONTRACTC_REJECTED);
    ck_assert_int_eq(d.outcome, CONTRACTC_OUTCOME_FAILED);
    ck_assert_uint_eq(d.attempt_count, 3);
    ck_assert_int_eq(d.attempts[2].outcome, CONTRACTC_ATTEMPT_MODEL_ERROR);
    ck_assert_str_eq(d.attempts[2].error,
                     "the model function stopped a reply that its stream had not found dead");
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
    streamer_free(&m);
}
END_TEST

START_TEST(a_streamed_run_survives_every_allocation_failure)
{
    static const char *const replies[] = {comma_reply, good_reply};
    long ok_runs = 0, enomem_runs = 0;
    for (long fail = 1; fail < 600; fail++) {
        counting_t c = {0, 0, fail, 0};
        contractc_allocator_t a = {count_alloc, count_free, &c};
        contractc_options_t options;
        memset(&options, 0, sizeof options);
        options.allocator = &a;
        streamer_t m = {replies, 2, 0, 8, false, false, false, {0}, {0}};
        contractc_transcript_t t;
        refund_request_t rec;
        contractc_decision_t d;
        contractc_status_t st = run_streamed(&m, true, &t, &rec, &d, &options);
        if (st == CONTRACTC_OK)
            ck_assert_int_eq(rec.amount, 125000);
        contractc_record_free(&refund_request_contract, &rec);
        contractc_decision_free(&d);
        contractc_transcript_clear(&t);
        streamer_free(&m);
        /* A feed that ran out of memory says ERROR, not DEAD: that model
         * reads to the end and the loop parses the whole reply. */
        ck_assert_msg(st == CONTRACTC_OK || st == CONTRACTC_ENOMEM, "failing allocation %ld: %s",
                      fail, contractc_status_name(st));
        ck_assert_msg(c.live == 0 && c.allocs == c.frees, "failing allocation %ld leaks", fail);
        if (st == CONTRACTC_OK)
            ok_runs++;
        else
            enomem_runs++;
        if (c.fail_at)
            break;
    }
    ck_assert_int_gt(enomem_runs, 5);
    ck_assert_int_gt(ok_runs, 0);
}
END_TEST

START_TEST(every_allocation_failure_is_reported_and_nothing_leaks)
{
    long ok_runs = 0, enomem_runs = 0;
    for (long fail = 1; fail < 400; fail++) {
        counting_t c = {0, 0, fail, 0};
        contractc_allocator_t a = {count_alloc, count_free, &c};
        contractc_options_t options;
        memset(&options, 0, sizeof options);
        options.allocator = &a;
        const step_t steps[] = {{comma_reply, 0, NULL}, {good_reply, 0, NULL}};
        script_t s = {steps, 2, 0, {0}, {0}, {0}, {0}, {0}, {0}};
        contractc_transcript_t t;
        contractc_transcript_init(&t, &a);
        contractc_status_t st = contractc_transcript_begin(&t, &refund_request_contract,
                                                           refund_request_prompt,
                                                           refund_request_prompt_len, email,
                                                           strlen(email));
        contractc_decision_t d;
        refund_request_t rec;
        memset(&rec, 0, sizeof rec);
        if (st == CONTRACTC_OK) {
            contractc_loop_t loop;
            memset(&loop, 0, sizeof loop);
            loop.contract = &refund_request_contract;
            loop.model = scripted;
            loop.model_user = &s;
            loop.options = &options;
            st = contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d);
            if (st == CONTRACTC_OK)
                ck_assert_int_eq(rec.amount, 125000);
            contractc_record_free(&refund_request_contract, &rec);
            contractc_decision_free(&d);
        }
        ck_assert_msg(st == CONTRACTC_OK || st == CONTRACTC_ENOMEM, "failing allocation %ld: %s",
                      fail, contractc_status_name(st));
        contractc_transcript_clear(&t);
        script_free(&s);
        ck_assert_msg(c.live == 0 && c.allocs == c.frees, "failing allocation %ld leaks", fail);
        if (st == CONTRACTC_OK)
            ok_runs++;
        else
            enomem_runs++;
        if (c.fail_at) /* the failure point lies beyond the run: all covered */
            break;
    }
    ck_assert_int_gt(enomem_runs, 5);
    ck_assert_int_eq(ok_runs, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("loop");
    TCase *t = tcase_create("transcript");
    tcase_add_test(t, the_first_turn_is_the_prompt_then_the_source_text);
    tcase_add_test(t, a_source_that_is_not_utf8_or_missing_is_refused_when_beginning);
    tcase_add_test(t, utf8_valid_prefix_is_the_well_formed_length);
    suite_add_tcase(s, t);
    TCase *l = tcase_create("loop");
    tcase_add_test(l, the_rejected_reply_is_at_minus_2_and_the_complaint_at_minus_1);
    tcase_add_test(l, a_reply_that_never_converges_is_escalated_after_the_first_try_and_two_repairs);
    tcase_add_test(l, the_cap_is_configurable_down_to_a_single_try);
    tcase_add_test(l, an_empty_reply_is_a_rejection_with_a_repair_turn);
    tcase_add_test(l, an_over_limit_reply_is_rejected_and_kept_cut_to_max_bytes_at_a_utf8_boundary_with_a_marker);
    tcase_add_test(l, a_model_error_uses_up_an_attempt_and_adds_no_turn);
    tcase_add_test(l, a_run_of_only_model_errors_ends_failed_without_escalation);
    tcase_add_test(l, a_rejection_followed_by_model_errors_escalates_the_rejected_reply);
    tcase_add_test(l, a_model_function_that_breaks_its_contract_is_a_model_error);
    tcase_add_test(l, bad_arguments_are_refused_before_the_model_is_called);
    tcase_add_test(l, a_reply_cut_at_the_token_limit_ends_truncated_without_a_repair_turn);
    tcase_add_test(l, on_truncated_may_raise_the_token_limit_and_retry_once);
    tcase_add_test(l, on_truncated_retries_at_most_once_and_may_decline);
    tcase_add_test(l, an_accepted_reply_marked_cut_is_accepted_and_flagged);
    tcase_add_test(l, a_refusal_and_a_filtered_reply_end_the_run_unparsed_and_unrepaired);
    tcase_add_test(l, a_failed_model_call_keeps_its_error_class);
    tcase_add_test(l, a_long_rejected_reply_is_echoed_cut_to_16_kib_with_a_marker);
    tcase_add_test(l, every_allocation_failure_is_reported_and_nothing_leaks);
    tcase_add_test(l, a_streamed_reply_stopped_when_dead_is_repaired_from_the_problems_before_the_cut);
    tcase_add_test(l, a_stream_fed_to_the_end_or_not_offered_changes_nothing);
    tcase_add_test(l, a_stopped_reply_is_the_bytes_the_stream_was_fed);
    tcase_add_test(l, a_model_function_that_claims_a_stop_its_stream_did_not_see_is_a_model_error);
    tcase_add_test(l, a_streamed_run_survives_every_allocation_failure);
    tcase_add_test(l, a_turn_of_tool_calls_is_answered_by_one_result_per_call_in_order);
    tcase_add_test(l, a_turn_of_tool_calls_survives_every_allocation_failure);
    tcase_add_test(l, a_tool_call_of_another_name_is_rejected_as_unknown_tool);
    tcase_add_test(l, a_tool_call_without_an_id_is_a_model_error);
    suite_add_tcase(s, l);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
