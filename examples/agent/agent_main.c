/* SPDX-License-Identifier: MIT */
/*
 * agent_example - a support agent with two tools, lookup_order and
 * issue_refund, through one toolset and the repair loop
 * (docs/tools.md, "The loop over a toolset"; the set is generated:
 * agent_tools.h, `contractc toolset`), with a scripted model:
 * recorded Anthropic Messages responses, read with
 * contractc_tool_calls_read (the exact bytes of each `input`), no network.
 *
 * The story (data/): a customer writes that order A-1063 arrived damaged.
 *   step 1  the model calls lookup_order {"order_id": "A-1063"}: accepted;
 *           the program reads the order and sends it back as the tool's
 *           result.  What lookup_order returned is issue_refund's source.
 *   step 2  the model calls issue_refund with the digits of the order id
 *           swapped ("A-1036", an order it never read) and the amount as a
 *           number (1250): rejected, and the repair goes back as the call's
 *           error result (Anthropic tool_result with is_error); the second
 *           call is right and the program issues the refund (at most the
 *           order's total) and sends its result back.
 * Every step is one decision of the decision log (`contractc-log/1`),
 * under the contract of the tool it ended with; `contractc stats LOG`
 * then summarises it (scripts/main-job.sh runs it).
 *
 *   usage: agent_example [DATA_DIR [LOG]]
 *          (defaults: data beside this file; agent-decisions.log in the
 *          build folder; the log is rewritten on every run)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <contractc/client.h> /* contractc_tool_calls_read */

#include "agent_tools.h" /* lookup_order.h, issue_refund.h and the set */
#include "example_cases.h" /* example_read_file */

#ifndef AGENT_DATA_DIR
#define AGENT_DATA_DIR "data"
#endif
#ifndef AGENT_LOG
#define AGENT_LOG "agent-decisions.log"
#endif

/* The recorded responses, answered in this order. */
static const char *const responses[] = {"1-lookup.response.json", "2-refund-wrong.response.json",
                                        "3-refund.response.json"};
#define RESPONSE_COUNT (sizeof responses / sizeof responses[0])
/* The most steps (loop runs) of the conversation. */
#define MAX_STEPS 4

static const char agent_instruction[] =
    "You are a support agent. Read the order with lookup_order before you refund it with "
    "issue_refund. Call one tool at a time.";

/* The shop's orders: what lookup_order returns, as JSON text. */
typedef struct order {
    const char *id;
    int64_t total_cents;
    const char *json;
} order_t;

static const order_t orders[] = {
    {"A-1063", 125000,
     "{\"order_id\":\"A-1063\",\"item\":\"espresso machine\",\"total\":\"1250.00\","
     "\"currency\":\"EUR\",\"status\":\"delivered\"}"},
};

static const order_t *find_order(const char *id)
{
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++)
        if (strcmp(orders[i].id, id) == 0)
            return &orders[i];
    return NULL;
}

/* ---- the scripted model --------------------------------------------------
 * Answers the i-th call with the tool calls of the i-th recorded response,
 * read as the chat client reads them (contractc_tool_calls_read: the
 * arguments are the exact bytes of each tool_use block's `input`). */
typedef struct scripted {
    const char *dir;
    size_t calls;
    contractc_tool_calls_t read;              /* the last response's calls */
    contractc_reply_tool_call_t reply_calls[8]; /* ... as the loop takes them */
} scripted_t;

static int scripted_model(void *user, const contractc_transcript_t *transcript,
                          contractc_model_reply_t *reply)
{
    scripted_t *s = user;
    (void)transcript;
    contractc_tool_calls_free(&s->read);
    if (s->calls >= RESPONSE_COUNT) {
        snprintf(reply->error, sizeof reply->error, "the script has no response %zu", s->calls + 1);
        s->calls++;
        return 1;
    }
    const char *name = responses[s->calls++];
    size_t len = 0;
    char *body = example_read_file(s->dir, name, &len);
    if (!body) {
        snprintf(reply->error, sizeof reply->error, "cannot read the recorded response %.200s", name);
        return 1;
    }
    char why[200];
    int rc = contractc_tool_calls_read(CONTRACTC_TOOL_ANTHROPIC, body, len, &s->read, why,
                                       sizeof why);
    free(body); /* the calls own copies of their bytes */
    if (rc != 0 || s->read.count > sizeof s->reply_calls / sizeof s->reply_calls[0]) {
        snprintf(reply->error, sizeof reply->error, "malformed response %.100s: %.80s", name,
                 rc ? why : "too many calls");
        reply->error_class = CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE;
        return 1;
    }
    for (size_t k = 0; k < s->read.count; k++) {
        const contractc_tool_call_t *c = &s->read.calls[k];
        s->reply_calls[k] = (contractc_reply_tool_call_t){c->id, c->name, c->arguments,
                                                          c->arguments_len};
    }
    /* No call at all is a text reply; its words are not read here, and the
     * loop rejects it: no tool was called. */
    reply->tool_calls = s->read.count ? s->reply_calls : NULL;
    reply->tool_call_count = s->read.count;
    snprintf(reply->finish_reason, sizeof reply->finish_reason, "%s",
             s->read.count ? "tool_use" : "end_turn");
    return 0;
}

/* ---- escalation: what a person would get -------------------------------- */
static void to_a_person(void *user, const contractc_decision_t *decision, const char *reply,
                        size_t reply_len, const contractc_problems_t *problems)
{
    (void)user;
    (void)reply;
    printf("  %s: to a person after %zu attempts; the last call (%zu bytes) had:\n",
           contractc_outcome_name(decision->outcome), decision->attempt_count, reply_len);
    for (size_t i = 0; i < contractc_problems_count(problems); i++) {
        const contractc_problem_t *p = contractc_problems_at(problems, i);
        printf("    %s [%s]: %s\n", p->path, contractc_kind_name(p->kind), p->message);
    }
}

/* Prints one message, every line indented, long lines cut for the screen. */
static void print_message(size_t index, const contractc_message_t *m)
{
    printf("  [%zu] %-9s ", index, contractc_role_name(m->role));
    if (m->tool_call_id) {
        if (m->role == CONTRACTC_ROLE_TOOL)
            printf("result of %s%s: ", m->tool_call_id, m->is_error ? " (is_error)" : "");
        else
            printf("call %s %s ", m->tool_call_id, m->tool_name ? m->tool_name : "?");
    }
    size_t start = 0, line = 0;
    while (start < m->len) {
        const char *nl = memchr(m->text + start, '\n', m->len - start);
        size_t end = nl ? (size_t)(nl - m->text) : m->len;
        size_t n = end - start;
        if (n > 0 || !nl) {
            printf("%s%.*s%s\n", line ? "                " : "", (int)(n > 150 ? 150 : n),
                   m->text + start, n > 150 ? "..." : "");
            line++;
        }
        start = end + 1;
    }
    if (m->len == 0)
        printf("(empty)\n");
}

/* The text appended to the orders read so far (issue_refund's source).
 * Returns 0, or -1 out of memory. */
static int append(char **text, size_t *len, const char *more)
{
    size_t n = strlen(more);
    char *grown = realloc(*text, *len + n + 2);
    if (!grown)
        return -1;
    memcpy(grown + *len, more, n);
    grown[*len + n] = '\n';
    grown[*len + n + 1] = '\0';
    *text = grown;
    *len += n + 1;
    return 0;
}

/* Answers every call of the accepted turn but the first (which the program
 * acts on): the agent asked for one call at a time.  The turn's calls are
 * the transcript's messages first .. first + count - 1. */
static contractc_status_t answer_the_others(contractc_transcript_t *t, size_t first, size_t count)
{
    static const char one_at_a_time[] = "Not run: call one tool at a time.";
    contractc_status_t st = CONTRACTC_OK;
    for (size_t k = 1; st == CONTRACTC_OK && k < count; k++) {
        const char *id = contractc_transcript_at(t, (long)(first + k))->tool_call_id;
        st = contractc_transcript_add_tool_result(t, id, one_at_a_time, sizeof one_at_a_time - 1,
                                                  true);
    }
    return st;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : AGENT_DATA_DIR;
    const char *log_path = argc > 2 ? argv[2] : AGENT_LOG;
    size_t email_len = 0;
    char *email = example_read_file(dir, "ticket-7.email.txt", &email_len);
    if (!email) {
        fprintf(stderr, "agent_example: cannot read %s/ticket-7.email.txt\n", dir);
        return 2;
    }
    FILE *log_file = fopen(log_path, "w");
    if (!log_file) {
        fprintf(stderr, "agent_example: cannot write the decision log %s\n", log_path);
        free(email);
        return 2;
    }
    contractc_log_t log = {contractc_log_file_sink, log_file, NULL, NULL};
    const contractc_setting_t settings[] = {{"temperature", "0", true}};

    printf("tools offered (Anthropic definitions, generated from the contracts):\n");
    printf("  lookup_order  %s  (%zu bytes)\n", lookup_order_contract_hash,
           (size_t)lookup_order_tool_anthropic_json_len);
    printf("  issue_refund  %s  (%zu bytes)\n\n", issue_refund_contract_hash,
           (size_t)issue_refund_tool_anthropic_json_len);

    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_status_t st = contractc_transcript_add(&t, CONTRACTC_ROLE_SYSTEM, agent_instruction,
                                                     sizeof agent_instruction - 1);
    if (st == CONTRACTC_OK)
        st = contractc_transcript_add(&t, CONTRACTC_ROLE_USER, email, email_len);

    scripted_t model;
    memset(&model, 0, sizeof model);
    model.dir = dir;
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.model = scripted_model;
    loop.model_user = &model;
    loop.escalate = to_a_person;

    /* What lookup_order returned so far: issue_refund's source, so a refund
     * can only name an order the agent has read. */
    char *read_orders = calloc(1, 1);
    size_t read_orders_len = 0;
    int errors = read_orders ? 0 : 1, decisions = 0, accepted = 0, escalated = 0, failed = 0;
    int refunded = 0;
    for (int step = 1; st == CONTRACTC_OK && !refunded && step <= MAX_STEPS; step++) {
        agent_tools_call_t call; /* call.tool says which of call.as holds it */
        contractc_decision_t d;
        st = agent_tools_loop_run(&loop, &t, read_orders, read_orders_len, &call, &d);
        if (st != CONTRACTC_OK && st != CONTRACTC_REJECTED) {
            printf("step %d: error: %s\n", step, contractc_status_name(st));
            errors++;
            contractc_decision_free(&d);
            break;
        }
        decisions++;
        printf("step %d: %zu attempt%s, outcome %s\n", step, d.attempt_count,
               d.attempt_count == 1 ? "" : "s", contractc_outcome_name(d.outcome));
        for (size_t i = 0; i < d.attempt_count; i++) {
            const contractc_attempt_t *a = &d.attempts[i];
            printf("  attempt %zu: %s", i + 1, contractc_attempt_outcome_name(a->outcome));
            if (a->outcome == CONTRACTC_ATTEMPT_MODEL_ERROR)
                printf(" (%s)", a->error);
            for (size_t k = 0; k < a->tool_call_count; k++)
                printf(" %s", a->tool_calls[k].tool ? a->tool_calls[k].tool : "(no such tool)");
            for (size_t k = 0; k < a->problem_count; k++)
                printf(" %s[%s]", a->problems[k].path, contractc_kind_name(a->problems[k].kind));
            printf("\n");
        }
        contractc_log_entry_t entry;
        memset(&entry, 0, sizeof entry);
        char record_id[32];
        snprintf(record_id, sizeof record_id, "ticket-7/%d", step);
        entry.record_id = record_id;
        entry.model = "recorded-replay";
        entry.dialect = "anthropic"; /* the tool definitions sent */
        entry.settings = settings;
        entry.setting_count = sizeof settings / sizeof settings[0];

        /* Act on the first call; the tool's result goes back to the model. */
        char result[512];
        bool result_is_error = false;
        result[0] = '\0';
        if (d.outcome == CONTRACTC_OUTCOME_ACCEPTED) {
            accepted++;
            /* the accepted turn's calls are the transcript's last ones */
            const size_t calls = d.attempts[d.attempt_count - 1].tool_call_count;
            const size_t first = contractc_transcript_count(&t) - calls;
            const char *call_id = contractc_transcript_at(&t, (long)first)->tool_call_id;
            if (call.tool == AGENT_TOOLS_TOOL_LOOKUP_ORDER) {
                const lookup_order_t *lookup = &call.as.lookup_order;
                const order_t *o = find_order(lookup->order_id);
                if (o) {
                    snprintf(result, sizeof result, "%s", o->json);
                    if (append(&read_orders, &read_orders_len, o->json) != 0)
                        errors++;
                    printf("  lookup_order %s: found, total %" PRId64 ".%02" PRId64 "\n",
                           lookup->order_id, o->total_cents / 100, o->total_cents % 100);
                } else {
                    snprintf(result, sizeof result, "There is no order %s.", lookup->order_id);
                    result_is_error = true;
                    printf("  lookup_order %s: no such order\n", lookup->order_id);
                }
            } else {
                /* Grounding made sure the order was read; the amount is
                 * the application's rule: never more than the total. */
                const issue_refund_t *refund = &call.as.issue_refund;
                const order_t *o = find_order(refund->order_id);
                if (o && refund->amount > 0 && refund->amount <= o->total_cents) {
                    snprintf(result, sizeof result,
                             "{\"refund_id\":\"R-0001\",\"order_id\":\"%s\",\"amount\":\"%" PRId64
                             ".%02" PRId64 "\",\"status\":\"issued\"}",
                             refund->order_id, refund->amount / 100, refund->amount % 100);
                    printf("  issue_refund %s: refund R-0001 of %" PRId64 ".%02" PRId64
                           " (%s) issued\n",
                           refund->order_id, refund->amount / 100, refund->amount % 100,
                           issue_refund_reason_name(refund->reason));
                    refunded = 1;
                } else {
                    snprintf(result, sizeof result,
                             "Not refunded: the amount must be above 0 and at most the order's "
                             "total.");
                    result_is_error = true;
                    printf("  issue_refund %s: refused by the shop (amount)\n", refund->order_id);
                }
            }
            st = contractc_transcript_add_tool_result(&t, call_id, result, strlen(result),
                                                      result_is_error);
            if (st == CONTRACTC_OK)
                st = answer_the_others(&t, first, calls);
        } else if (d.outcome == CONTRACTC_OUTCOME_ESCALATED) {
            escalated++;
        } else {
            failed++;
        }
        contractc_status_t ls = contractc_log_write(&log, &d, &entry,
                                                    call.tool ? (const void *)&call.as : NULL);
        if (ls != CONTRACTC_OK) {
            fprintf(stderr, "agent_example: the decision of %s was NOT logged (%s)\n", record_id,
                    contractc_status_name(ls));
            errors++;
        }
        agent_tools_call_free(&call);
        const contractc_outcome_t outcome = d.outcome;
        contractc_decision_free(&d);
        if (outcome != CONTRACTC_OUTCOME_ACCEPTED)
            break; /* a person takes over */
    }
    if (st != CONTRACTC_OK && st != CONTRACTC_REJECTED) {
        printf("error: %s\n", contractc_status_name(st));
        errors++;
    }

    printf("\nthe conversation (the transcript after the last step):\n");
    for (size_t i = 0; i < contractc_transcript_count(&t); i++)
        print_message(i, contractc_transcript_at(&t, (long)i));

    contractc_transcript_clear(&t);
    contractc_tool_calls_free(&model.read);
    free(read_orders);
    free(email);
    if (fclose(log_file) != 0) {
        fprintf(stderr, "agent_example: closing the decision log %s failed\n", log_path);
        errors++;
    }
    printf("\n%d decisions: %d accepted, %d escalated, %d failed; %d refund issued; "
           "%zu model calls; errors of this program %d\n",
           decisions, accepted, escalated, failed, refunded, model.calls, errors);
    printf("decision log: %s\n", log_path);
    return errors ? 1 : 0;
}
