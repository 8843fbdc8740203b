/*
 * refund_example - the refund story end to end: each reply of data/cases.txt
 * is parsed with the generated strict parser against its source email, and
 * the program prints the accepted record, or every problem and the repair
 * turn that would go back to the model.
 *
 *   usage: refund_example [DATA_DIR]     (default: the data/ beside this file)
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refund_request.h"

#ifndef REFUND_DATA_DIR
#define REFUND_DATA_DIR "data"
#endif

/* Reads a whole file, NUL-terminated; NULL on error.  The caller frees it. */
static char *read_file(const char *dir, const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
        n += got;
        if (n == cap - 1) {
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
            }
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

static const char *reason_name(refund_request_reason_t r)
{
    switch (r) {
    case REFUND_REQUEST_REASON_DUPLICATE_CHARGE: return "duplicate_charge";
    case REFUND_REQUEST_REASON_NOT_RECEIVED: return "not_received";
    case REFUND_REQUEST_REASON_DAMAGED: return "damaged";
    case REFUND_REQUEST_REASON_OTHER: return "other";
    default: return "?";
    }
}

static const char *currency_name(refund_request_currency_t c)
{
    switch (c) {
    case REFUND_REQUEST_CURRENCY_EUR: return "EUR";
    case REFUND_REQUEST_CURRENCY_GBP: return "GBP";
    case REFUND_REQUEST_CURRENCY_USD: return "USD";
    default: return "?";
    }
}

/* Prints the typed record: what an application would act on. */
static void print_record(const refund_request_t *r)
{
    printf("  accepted: order %s, reason %s\n", r->order_id, reason_name(r->reason));
    if (r->has_amount)
        printf("  refund %" PRId64 ".%02" PRId64 " %s (the email says \"%s\")\n", r->amount / 100,
               r->amount % 100, currency_name(r->currency), r->amount_text);
    else
        printf("  no amount stated: route to a person, never refund a guessed amount\n");
    char *json = refund_request_to_json(r, NULL);
    if (json)
        printf("  canonical: %s\n", json);
    free(json);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : REFUND_DATA_DIR;
    size_t list_len = 0;
    char *list = read_file(dir, "cases.txt", &list_len);
    if (!list) {
        fprintf(stderr, "refund_example: cannot read %s/cases.txt\n", dir);
        return 2;
    }
    printf("contract %s\n\n", refund_request_contract_hash);
    int accepted = 0, rejected = 0, errors = 0;
    char *save = NULL;
    for (char *line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char reply_name[256], email_name[256];
        int consumed = 0;
        if (line[0] == '#' || sscanf(line, "%255s %255s %n", reply_name, email_name, &consumed) < 2)
            continue;
        size_t reply_len = 0, email_len = 0;
        char *reply = read_file(dir, reply_name, &reply_len);
        char *email = read_file(dir, email_name, &email_len);
        printf("%s (%s)\n", reply_name, line + consumed);
        if (!reply || !email) {
            printf("  cannot read the reply or the email\n\n");
            errors++;
            free(reply);
            free(email);
            continue;
        }
        refund_request_t record;
        contractc_problems_t problems;
        contractc_problems_init(&problems);
        contractc_status_t rc = refund_request_parse(reply, reply_len, email, email_len, &record, &problems);
        if (rc == CONTRACTC_OK) {
            accepted++;
            print_record(&record);
            refund_request_free(&record);
        } else if (rc == CONTRACTC_REJECTED) {
            rejected++;
            for (size_t i = 0; i < contractc_problems_count(&problems); i++) {
                const contractc_problem_t *p = contractc_problem_at(&problems, i);
                printf("  %s [%s]: %s\n", p->path, contractc_kind_name(p->kind), p->message);
            }
            char *repair = NULL;
            if (refund_request_repair_prompt(&problems, &repair, NULL) == CONTRACTC_OK) {
                printf("  repair turn:\n");
                char *save_line = NULL;
                for (char *l = strtok_r(repair, "\n", &save_line); l; l = strtok_r(NULL, "\n", &save_line))
                    printf("    %s\n", l);
            }
            free(repair);
        } else {
            errors++;
            printf("  error: %s\n", problems.error ? problems.error : contractc_status_name(rc));
        }
        printf("\n");
        contractc_problems_clear(&problems);
        free(reply);
        free(email);
    }
    free(list);
    printf("%d accepted, %d rejected, %d errors\n", accepted, rejected, errors);
    return errors ? 1 : 0;
}
