/*
 * ticket_example - triage of support tickets end to end: each reply of
 * data/cases.txt is parsed with the generated strict parser against the
 * ticket text beside it (customer_quote must occur in it verbatim).  The
 * program prints the accepted record, or every problem with its path and
 * the repair turn, and checks the outcome against the expectation written
 * in cases.txt ("accept", or "reject PATH:kind,PATH:kind").
 *
 * The story: a reply with "urgency": "urgent", "score": "4" and a number
 * among the tags gets three problems at three paths in one pass, so the
 * model can fix them all in one repair turn.
 *
 *   usage: ticket_example [DATA_DIR]     (default: the data/ beside this file)
 *   exit:  0 every case as expected; 1 a case differed or a file is missing
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ticket.h"

#ifndef TICKET_DATA_DIR
#define TICKET_DATA_DIR "data"
#endif

/* Reads a whole file and NUL-terminates it; NULL on error.  The caller
 * frees it. */
static char *read_file(const char *dir, const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
        n += got;
        if (n == cap - 1) {
            char *grown = realloc(buf, cap * 2);
            if (!grown)
                free(buf);
            buf = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;
}

static const char *urgency_name(ticket_urgency_t u)
{
    switch (u) {
    case TICKET_URGENCY_LOW: return "low";
    case TICKET_URGENCY_MEDIUM: return "medium";
    case TICKET_URGENCY_HIGH: return "high";
    default: return "?";
    }
}

/* What an application would act on: the typed record. */
static void print_record(const ticket_t *r)
{
    printf("  accepted: urgency %s, score %" PRId64 "/5: %s\n", urgency_name(r->urgency), r->score,
           r->summary);
    printf("    tags:");
    for (size_t i = 0; i < r->tags_count; i++)
        printf(" %s", r->tags[i].data);
    printf("\n");
    if (r->has_customer_quote)
        printf("    the ticket says: \"%s\"\n", r->customer_quote);
    else
        printf("    no quote\n");
    char *json = ticket_to_json(r, NULL);
    if (json)
        printf("  canonical: %s\n", json);
    free(json);
}

/*
 * True when the problems are exactly the expectation: "accept" for none,
 * else "reject" and a comma-separated list of PATH:kind in any order.
 */
static int as_expected(const char *expect, const char *list, contractc_status_t rc,
                       const contractc_problems_t *problems)
{
    if (strcmp(expect, "accept") == 0)
        return rc == CONTRACTC_OK;
    if (strcmp(expect, "reject") != 0 || rc != CONTRACTC_REJECTED)
        return 0;
    size_t n = contractc_problems_count(problems), listed = 0;
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int found = 0;
        for (size_t i = 0; i < n && !found; i++) {
            const contractc_problem_t *q = contractc_problem_at(problems, i);
            char item[512];
            snprintf(item, sizeof item, "%s:%s", q->path, contractc_kind_name(q->kind));
            found = strlen(item) == len && strncmp(item, p, len) == 0;
        }
        if (!found)
            return 0;
        listed++;
        p += len + (end ? 1 : 0);
    }
    return listed == n;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : TICKET_DATA_DIR;
    size_t list_len = 0;
    char *list = read_file(dir, "cases.txt", &list_len);
    if (!list) {
        fprintf(stderr, "ticket_example: cannot read %s/cases.txt\n", dir);
        return 1;
    }
    printf("contract %s, version %" PRIu32 "\n\n", ticket_contract.name, ticket_contract.version);
    int accepted = 0, rejected = 0, unexpected = 0;
    char *save = NULL;
    for (char *line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char reply_name[256], text_name[256], expect[16], problems_list[1024] = "";
        int consumed = 0;
        if (line[0] == '#' ||
            sscanf(line, "%255s %255s %15s %n", reply_name, text_name, expect, &consumed) < 3)
            continue;
        if (strcmp(expect, "reject") == 0) {
            int more = 0;
            sscanf(line + consumed, "%1023s %n", problems_list, &more);
            consumed += more;
        }
        size_t reply_len = 0, text_len = 0;
        char *reply = read_file(dir, reply_name, &reply_len);
        char *text = read_file(dir, text_name, &text_len);
        printf("%s (%s)\n", reply_name, line + consumed);
        if (!reply || !text) {
            printf("  cannot read the reply or the ticket text\n\n");
            unexpected++;
            free(reply);
            free(text);
            continue;
        }
        /* customer_quote is grounded: the parser searches the ticket text */
        ticket_t record;
        contractc_problems_t problems;
        contractc_problems_init(&problems);
        contractc_status_t rc = ticket_parse(reply, reply_len, text, text_len, &record, &problems);
        if (rc == CONTRACTC_OK) {
            accepted++;
            print_record(&record);
        } else if (rc == CONTRACTC_REJECTED) {
            rejected++;
            if (problems.fenced)
                printf("  (the reply was wrapped in a Markdown fence)\n");
            for (size_t i = 0; i < contractc_problems_count(&problems); i++) {
                const contractc_problem_t *p = contractc_problem_at(&problems, i);
                printf("  %s [%s]: %s\n", p->path, contractc_kind_name(p->kind), p->message);
            }
            char *repair = NULL;
            if (ticket_repair_prompt(&problems, &repair, NULL) == CONTRACTC_OK) {
                printf("  repair turn:\n");
                char *save_line = NULL;
                for (char *l = strtok_r(repair, "\n", &save_line); l; l = strtok_r(NULL, "\n", &save_line))
                    printf("    %s\n", l);
            }
            free(repair);
        } else {
            printf("  error: %s\n", problems.error ? problems.error : contractc_status_name(rc));
        }
        if (as_expected(expect, problems_list, rc, &problems)) {
            printf("  as expected\n\n");
        } else {
            printf("  UNEXPECTED: expected %s %s\n\n", expect, problems_list);
            unexpected++;
        }
        if (rc == CONTRACTC_OK)
            ticket_free(&record);
        contractc_problems_clear(&problems);
        free(reply);
        free(text);
    }
    free(list);
    printf("%d accepted, %d rejected, %d not as expected\n", accepted, rejected, unexpected);
    return unexpected ? 1 : 0;
}
