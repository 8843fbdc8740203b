/* SPDX-License-Identifier: MIT */
/*
 * refund_loop_example - the refund story through the repair loop, with a
 * scripted model (recorded replies, no network).  For each record of
 * data/loop/cases.txt the program begins a transcript with the generated
 * prompt and the customer email, runs contractc_loop_run() with a model
 * function that answers from the record's reply files, prints the
 * transcript as the model saw it, acts on the outcome, and logs the
 * decision (`contractc-log/1`) with the contract's hash.
 *
 *   A-1063  "1.250,00" is rejected; the repair turn names $.amount; the
 *           second reply "1250.00" (amount_text "1.250,00 EUR") is accepted.
 *   A-1077  no amount in the email: all amount fields null, accepted on the
 *           first try, and the application routes it to a person.
 *   A-1090  never converges: escalated to a person after the first try and
 *           two repairs (its fourth recorded reply is never asked for).
 *   A-1102  a failed model call, then a reply cut by the token limit: not a
 *           wrong answer, so no repair turn is sent (it could not help);
 *           the decision ends `truncated` and goes to a person (its third
 *           recorded reply is never asked for).
 *   A-1063s A-1063 again, the model streaming its reply 8 bytes at a time
 *           (loop.stream): "1.250,00" is dead at its closing quote, so the
 *           model stops after 40 of its 107 bytes; the repair
 *           turn shows the bytes read, "[... reply stopped here]" and the
 *           problem with $.amount, and the corrected reply is accepted.
 *
 *   usage: refund_loop_example [DATA_DIR [LOG]]
 *          (defaults: data/loop beside this file; refund-decisions.log in
 *          the build folder; the log is rewritten on every run)
 *
 * `contractc stats LOG` then summarises the log (scripts/main-job.sh runs
 * it).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refund_request.h"

#ifndef REFUND_LOOP_DATA_DIR
#define REFUND_LOOP_DATA_DIR "data/loop"
#endif
#ifndef REFUND_LOOP_LOG
#define REFUND_LOOP_LOG "refund-decisions.log"
#endif

#define MAX_REPLIES 8

/* Reads a whole file; NULL on error.  The caller frees it. */
static char *read_file(const char *dir, const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *grown = realloc(buf, cap * 2);
            if (!grown)
                free(buf);
            buf = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf && n == cap) { /* room for the NUL */
        char *grown = realloc(buf, cap + 1);
        if (!grown)
            free(buf);
        buf = grown;
    }
    if (buf) {
        buf[n] = '\0'; /* the list is read with strtok_r */
        *len = n;
    }
    return buf;
}

/* The file NAME of the folder DIR as the output shows it: relative to the
 * folder two levels above DIR (for data/loop: examples/refund), with "x/.."
 * taken out, so "../a1063.email.txt" and "a1090.email.txt" of data/loop
 * read "data/a1063.email.txt" and "data/loop/a1090.email.txt". */
static void shown_path(const char *dir, const char *name, char *out, size_t size)
{
    char path[4096];
    const char *tail = dir + strlen(dir);
    while (tail > dir && tail[-1] == '/')
        tail--;
    const char *end = tail;
    for (int parts = 0; tail > dir && parts < 2; parts++) {
        while (tail > dir && tail[-1] != '/')
            tail--;
        if (parts == 0 && tail > dir)
            tail--; /* past the '/' between the two parts */
    }
    snprintf(path, sizeof path, "%.*s/%s", (int)(end - tail), tail, name);
    /* the parts, one at a time; ".." removes the part before it */
    size_t n = 0;
    out[0] = '\0';
    char *save = NULL;
    for (char *part = strtok_r(path, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
        if (strcmp(part, "..") == 0 && n > 0) {
            char *slash = strrchr(out, '/');
            n = slash ? (size_t)(slash - out) : 0;
            out[n] = '\0';
        } else if (strcmp(part, ".") != 0) {
            int w = snprintf(out + n, size - n, "%s%s", n ? "/" : "", part);
            if (w < 0 || (size_t)w >= size - n)
                return; /* cut: still a string */
            n += (size_t)w;
        }
    }
}

/* ---- the scripted model --------------------------------------------------
 * Answers the i-th call with the i-th recorded reply.  It looks at the
 * transcript only to show that it receives the whole conversation.  A
 * reply FILE~N is streamed: fed to the loop's stream (reply->stream) N
 * bytes at a time, as a streaming client feeds what arrives, and not read
 * further once the stream says DEAD (reply->stopped). */
typedef struct scripted {
    const char *dir;
    char *tokens[MAX_REPLIES];
    size_t count, calls;
    char *current; /* the reply handed out last: valid until the next call */
    size_t whole[MAX_REPLIES]; /* each streamed reply's length, for the output */
} scripted_t;

/* Feeds text[0..len) to `stream` `chunk` bytes at a time; returns how many
 * bytes were fed before it said DEAD (len when it never did). */
static size_t stream_reply(contractc_stream_t *stream, const char *text, size_t len, size_t chunk)
{
    size_t fed = 0;
    while (fed < len) {
        size_t n = len - fed < chunk ? len - fed : chunk;
        contractc_stream_state_t state = contractc_stream_feed(stream, text + fed, n);
        fed += n;
        if (state == CONTRACTC_STREAM_DEAD)
            return fed;
    }
    return len;
}

static int scripted_model(void *user, const contractc_transcript_t *transcript,
                          contractc_model_reply_t *reply)
{
    scripted_t *s = user;
    free(s->current);
    s->current = NULL;
    (void)transcript;
    if (s->calls >= s->count) {
        snprintf(reply->error, sizeof reply->error, "the script has no reply %zu", s->calls + 1);
        s->calls++;
        return 1;
    }
    const char *token = s->tokens[s->calls++];
    if (strncmp(token, "!error:", 7) == 0) {
        snprintf(reply->error, sizeof reply->error, "%s", token + 7);
        for (char *p = reply->error; *p; p++)
            if (*p == '_')
                *p = ' ';
        return 1;
    }
    char name[256];
    snprintf(name, sizeof name, "%s", token);
    char *tilde = strchr(name, '~');
    size_t chunk = tilde ? (size_t)strtoul(tilde + 1, NULL, 10) : 0;
    if (tilde)
        *tilde = '\0';
    char *at = strchr(name, '@');
    snprintf(reply->finish_reason, sizeof reply->finish_reason, "%s", at ? at + 1 : "stop");
    if (at)
        *at = '\0';
    size_t len = 0;
    s->current = read_file(s->dir, name, &len);
    if (!s->current) {
        snprintf(reply->error, sizeof reply->error, "cannot read the recorded reply %.200s", name);
        return 1;
    }
    reply->text = s->current;
    reply->len = len;
    if (chunk && reply->stream) {
        size_t fed = stream_reply(reply->stream, s->current, len, chunk);
        if (fed < len || contractc_stream_dead_at(reply->stream) != SIZE_MAX) {
            reply->stopped = true; /* the rest is never read */
            reply->len = fed;
            reply->finish_reason[0] = '\0';
        }
        s->whole[s->calls - 1] = len;
    }
    return 0;
}

/* ---- escalation: what a person would get -------------------------------- */
static void to_a_person(void *user, const contractc_decision_t *decision, const char *reply,
                        size_t reply_len, const contractc_problems_t *problems)
{
    const char *record_id = user;
    if (decision->outcome == CONTRACTC_OUTCOME_TRUNCATED)
        printf("  cut by the token limit after %zu attempts, not repaired: a repair cannot\n"
               "  finish a cut reply; to a person.  The cut reply (%zu bytes) had:\n",
               decision->attempt_count, reply_len);
    else
        printf("  %s: to a person after %zu attempts; the last reply (%zu bytes) had:\n",
               contractc_outcome_name(decision->outcome), decision->attempt_count, reply_len);
    (void)reply;
    for (size_t i = 0; i < contractc_problems_count(problems); i++) {
        const contractc_problem_t *p = contractc_problems_at(problems, i);
        printf("    %s [%s]: %s\n", p->path, contractc_kind_name(p->kind), p->message);
    }
    printf("  (%s: the refund waits for a person; nothing is paid)\n", record_id);
}

/* Prints one message, every line indented, long lines cut for the screen. */
static void print_message(long index, const contractc_message_t *m, bool first)
{
    printf("  [%ld] %-9s ", index, contractc_role_name(m->role));
    if (first) {
        printf("the prompt (%zu bytes) and the customer email\n", refund_request_prompt_len);
        return;
    }
    if (m->len == 0) {
        printf("(empty)\n");
        return;
    }
    size_t start = 0, line = 0;
    while (start < m->len) {
        const char *nl = memchr(m->text + start, '\n', m->len - start);
        size_t end = nl ? (size_t)(nl - m->text) : m->len;
        size_t n = end - start;
        if (n > 0 || !nl) {
            printf("%s%.*s%s\n", line ? "                " : "", (int)(n > 110 ? 110 : n),
                   m->text + start, n > 110 ? "..." : "");
            line++;
        }
        start = end + 1;
    }
}

/* The generated NAME_F_name() gives a value's text (NULL for none). */
static const char *or_unknown(const char *name) { return name ? name : "?"; }

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : REFUND_LOOP_DATA_DIR;
    const char *log_path = argc > 2 ? argv[2] : REFUND_LOOP_LOG;
    size_t list_len = 0;
    char *list = read_file(dir, "cases.txt", &list_len);
    if (!list) {
        fprintf(stderr, "refund_loop_example: cannot read %s/cases.txt\n", dir);
        return 2;
    }
    FILE *log_file = fopen(log_path, "w");
    if (!log_file) {
        fprintf(stderr, "refund_loop_example: cannot write the decision log %s\n", log_path);
        free(list);
        return 2;
    }
    /* The sink is a file; the clock is the runtime's UTC clock. */
    contractc_log_t log = {contractc_log_file_sink, log_file, NULL, NULL};
    const contractc_setting_t settings[] = {{"temperature", "0", true}};

    printf("contract refund_request %s\n\n", refund_request_contract_hash);
    /* errors: of this program (a file it cannot read, a decision it cannot
     * log); model_errors: failed model calls, each an attempt of a
     * decision, as `contractc stats` counts them ("model errors") */
    int errors = 0, accepted = 0, escalated = 0, failed = 0, truncated = 0, routed = 0;
    int decisions = 0, model_errors = 0;
    char *save = NULL;
    for (char *line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *fields = NULL;
        char *record_id = strtok_r(line, " \t", &fields);
        char *email_name = strtok_r(NULL, " \t", &fields);
        if (!record_id || !email_name)
            continue;
        scripted_t model;
        memset(&model, 0, sizeof model);
        model.dir = dir;
        for (char *t; model.count < MAX_REPLIES && (t = strtok_r(NULL, " \t", &fields));)
            model.tokens[model.count++] = t;
        size_t email_len = 0;
        char *email = read_file(dir, email_name, &email_len);
        if (!email) {
            printf("%s: cannot read %s\n\n", record_id, email_name);
            errors++;
            continue;
        }

        contractc_transcript_t transcript;
        contractc_transcript_init(&transcript, NULL);
        contractc_status_t st = contractc_transcript_begin(&transcript, &refund_request_contract,
                                                           refund_request_prompt,
                                                           refund_request_prompt_len, email, email_len);
        contractc_loop_t loop;
        memset(&loop, 0, sizeof loop);
        loop.contract = &refund_request_contract;
        loop.model = scripted_model;
        loop.model_user = &model;
        loop.escalate = to_a_person;
        loop.escalate_user = record_id;
        loop.stream = true; /* offered; the model streams the replies marked ~N */
        refund_request_t rec;
        contractc_decision_t decision;
        memset(&decision, 0, sizeof decision);
        char shown[512];
        shown_path(dir, email_name, shown, sizeof shown);
        printf("%s (%s, %zu recorded repl%s)\n", record_id, shown, model.count,
               model.count == 1 ? "y" : "ies");
        if (st == CONTRACTC_OK)
            st = contractc_loop_run(&loop, &transcript, email, email_len, &rec, &decision);
        if (st != CONTRACTC_OK && st != CONTRACTC_REJECTED) {
            printf("  error: %s\n\n", contractc_status_name(st));
            errors++;
            goto next;
        }
        printf("  the transcript, as the model saw it:\n");
        for (size_t i = 0; i < contractc_transcript_count(&transcript); i++)
            print_message((long)i, contractc_transcript_at(&transcript, (long)i), i == 0);
        for (size_t i = 0; i < decision.attempt_count; i++) {
            const contractc_attempt_t *a = &decision.attempts[i];
            printf("  attempt %zu: %s", i + 1, contractc_attempt_outcome_name(a->outcome));
            if (a->outcome == CONTRACTC_ATTEMPT_MODEL_ERROR) {
                printf(" (%s)", a->error);
                model_errors++;
            }
            if (a->finish_reason[0] && strcmp(a->finish_reason, "stop") != 0)
                printf(" finish_reason %s", a->finish_reason);
            if (a->fenced)
                printf(" fenced");
            if (a->stopped)
                printf(" (streamed: dead at byte %zu, stopped after %zu of %zu bytes)",
                       a->stopped_at, a->received, i < MAX_REPLIES ? model.whole[i] : 0);
            for (size_t k = 0; k < a->problem_count; k++)
                printf(" %s[%s]", a->problems[k].path, contractc_kind_name(a->problems[k].kind));
            printf("\n");
        }

        contractc_log_entry_t entry;
        memset(&entry, 0, sizeof entry);
        entry.record_id = record_id;
        entry.model = "scripted-replay";
        entry.settings = settings;
        entry.setting_count = sizeof settings / sizeof settings[0];
        printf("  outcome: %s\n", contractc_outcome_name(decision.outcome));
        decisions++;
        if (decision.outcome == CONTRACTC_OUTCOME_ACCEPTED) {
            accepted++;
            if (rec.has_amount) {
                printf("  refund %" PRId64 ".%02" PRId64 " %s (the email says \"%s\")\n",
                       rec.amount / 100, rec.amount % 100,
                       or_unknown(refund_request_currency_name(rec.currency)), rec.amount_text);
            } else {
                /* Accepted, but the email states no amount: never refund a
                 * guessed one; a person decides, and the log says so. */
                entry.route = "person";
                routed++;
                printf("  no amount stated: routed to a person (route: person)\n");
            }
        } else if (decision.outcome == CONTRACTC_OUTCOME_ESCALATED) {
            escalated++;
        } else if (decision.outcome == CONTRACTC_OUTCOME_TRUNCATED) {
            truncated++;
        } else {
            failed++;
        }
        contractc_status_t ls = contractc_log_write(&log, &decision, &entry, &rec);
        if (ls != CONTRACTC_OK) {
            /* Never lose a decision silently: say so, and keep the line. */
            char *text = NULL;
            contractc_log_format(&decision, &entry, &rec, NULL, NULL, &text, NULL);
            fprintf(stderr, "refund_loop_example: the decision of %s was NOT logged (%s)%s%s",
                    record_id, contractc_status_name(ls), text ? "; the line:\n" : "\n",
                    text ? text : "");
            free(text);
            errors++;
        }
        if (decision.outcome == CONTRACTC_OUTCOME_ACCEPTED)
            refund_request_free(&rec);
        printf("\n");
    next:
        contractc_decision_free(&decision);
        contractc_transcript_clear(&transcript);
        free(model.current);
        free(email);
    }
    free(list);
    if (fclose(log_file) != 0) {
        fprintf(stderr, "refund_loop_example: closing the decision log %s failed\n", log_path);
        errors++;
    }
    printf("%d decisions: %d accepted (%d routed to a person), %d escalated, %d truncated, %d failed\n",
           decisions, accepted, routed, escalated, truncated, failed);
    printf("model errors %d (failed model calls, as `contractc stats` counts them); "
           "errors of this program %d\n",
           model_errors, errors);
    printf("decision log: %s\n", log_path);
    return errors ? 1 : 0;
}
