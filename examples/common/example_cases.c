/* SPDX-License-Identifier: MIT */
/*
 * example_cases.c - the example programs' shared harness (example_cases.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example_cases.h"

char *example_read_file(const char *dir, const char *name, size_t *len)
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
            const contractc_problem_t *q = contractc_problems_at(problems, i);
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

/* Prints every problem and the repair turn that would go back to the model. */
static void print_rejection(const contractc_problems_t *problems)
{
    if (problems->fenced)
        printf("  (the reply was wrapped in a Markdown fence)\n");
    for (size_t i = 0; i < contractc_problems_count(problems); i++) {
        const contractc_problem_t *p = contractc_problems_at(problems, i);
        printf("  %s [%s]: %s\n", p->path, contractc_kind_name(p->kind), p->message);
    }
    char *repair = NULL;
    if (contractc_repair_prompt(problems, &repair, NULL) == CONTRACTC_OK) {
        printf("  repair turn:\n");
        char *save_line = NULL;
        for (char *l = strtok_r(repair, "\n", &save_line); l; l = strtok_r(NULL, "\n", &save_line))
            printf("    %s\n", l);
    }
    free(repair);
}

int example_run(const example_t *e, int argc, char **argv, const char *default_dir)
{
    const contractc_contract_t *c = e->contract;
    const char *dir = argc > 1 ? argv[1] : default_dir;
    size_t list_len = 0;
    char *list = example_read_file(dir, "cases.txt", &list_len);
    if (!list) {
        fprintf(stderr, "%s: cannot read %s/cases.txt\n", e->program, dir);
        return 1;
    }
    printf("contract %s, version %" PRIu32 "\n\n", c->name, c->version);
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
        char *reply = example_read_file(dir, reply_name, &reply_len);
        char *text = example_read_file(dir, text_name, &text_len);
        printf("%s (%s)\n", reply_name, line + consumed);
        if (!reply || !text) {
            printf("  cannot read the reply or the %s\n\n", e->text_what);
            unexpected++;
            free(reply);
            free(text);
            continue;
        }
        /* The text is the source of grounded values when the contract has
         * one; otherwise it is only what the model read, and the parser
         * needs the reply alone. */
        void *record = calloc(1, c->root->size);
        contractc_problems_t problems;
        contractc_problems_init(&problems);
        contractc_status_t rc = record ? contractc_parse(c, reply, reply_len,
                                                         c->needs_source ? text : NULL,
                                                         c->needs_source ? text_len : 0, NULL,
                                                         record, &problems)
                                       : CONTRACTC_ENOMEM;
        if (rc == CONTRACTC_OK) {
            accepted++;
            e->print_record(record);
        } else if (rc == CONTRACTC_REJECTED) {
            rejected++;
            print_rejection(&problems);
        } else {
            printf("  error: %s\n", problems.error ? problems.error : contractc_status_name(rc));
        }
        if (as_expected(expect, problems_list, rc, &problems)) {
            printf("  as expected\n\n");
        } else {
            printf("  UNEXPECTED: expected %s %s\n\n", expect, problems_list);
            unexpected++;
        }
        contractc_record_free(c, record);
        free(record);
        contractc_problems_clear(&problems);
        free(reply);
        free(text);
    }
    free(list);
    printf("%d accepted, %d rejected, %d not as expected\n", accepted, rejected, unexpected);
    return unexpected ? 1 : 0;
}
