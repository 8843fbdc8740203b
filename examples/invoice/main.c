/*
 * invoice_example - the invoice story end to end: each reply of
 * data/cases.txt (what a model read from the invoice text beside it) is
 * parsed with the generated strict parser.  The program prints the accepted
 * record, or every problem with its path and the repair turn that would go
 * back to the model, and checks the outcome against the expectation written
 * in cases.txt ("accept", or "reject PATH:kind,PATH:kind").
 *
 * The story: a model that reads the subtotal as the total gives a record
 * whose line items do not add up; the contract's sum rule (within one cent)
 * rejects it, while per-line rounding of one cent is accepted.
 *
 *   usage: invoice_example [DATA_DIR]     (default: the data/ beside this file)
 *   exit:  0 every case as expected; 1 a case differed or a file is missing
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "invoice.h"

#ifndef INVOICE_DATA_DIR
#define INVOICE_DATA_DIR "data"
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

/* Money in cents as "154.46". */
static void print_cents(int64_t cents)
{
    printf("%" PRId64 ".%02" PRId64, cents / 100, cents % 100);
}

/* What an application would act on: the typed record. */
static void print_record(const invoice_t *r)
{
    printf("  accepted: %s, total ", r->vendor_name);
    print_cents(r->invoice_total_cents);
    printf(", %zu line items\n", r->line_items_count);
    int64_t sum = 0;
    for (size_t i = 0; i < r->line_items_count; i++) {
        printf("    %-34s ", r->line_items[i].description);
        print_cents(r->line_items[i].amount_cents);
        printf("\n");
        sum += r->line_items[i].amount_cents;
    }
    printf("    lines add up to ");
    print_cents(sum);
    printf("\n");
    char *json = invoice_to_json(r, NULL);
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
    const char *dir = argc > 1 ? argv[1] : INVOICE_DATA_DIR;
    size_t list_len = 0;
    char *list = read_file(dir, "cases.txt", &list_len);
    if (!list) {
        fprintf(stderr, "invoice_example: cannot read %s/cases.txt\n", dir);
        return 1;
    }
    printf("contract %s, version %" PRIu32 "\n\n", invoice_contract.name, invoice_contract.version);
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
            printf("  cannot read the reply or the invoice text\n\n");
            unexpected++;
            free(reply);
            free(text);
            continue;
        }
        /* The contract has no `source`: the invoice text is what the model
         * read, shown here for the story; the parser needs only the reply. */
        invoice_t record;
        contractc_problems_t problems;
        contractc_problems_init(&problems);
        contractc_status_t rc = invoice_parse(reply, reply_len, NULL, 0, &record, &problems);
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
            if (invoice_repair_prompt(&problems, &repair, NULL) == CONTRACTC_OK) {
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
            invoice_free(&record);
        contractc_problems_clear(&problems);
        free(reply);
        free(text);
    }
    free(list);
    printf("%d accepted, %d rejected, %d not as expected\n", accepted, rejected, unexpected);
    return unexpected ? 1 : 0;
}
