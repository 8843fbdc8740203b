/* SPDX-License-Identifier: MIT */
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
#include "example_cases.h"

#ifndef TICKET_DATA_DIR
#define TICKET_DATA_DIR "data"
#endif

/* The generated NAME_F_name() gives a value's text (NULL for none). */
static const char *or_unknown(const char *name) { return name ? name : "?"; }

/* What an application would act on: the typed record. */
static void print_record(const void *record)
{
    const ticket_t *r = record;
    printf("  accepted: urgency %s, score %" PRId64 "/5: %s\n",
           or_unknown(ticket_urgency_name(r->urgency)), r->score, r->summary);
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

int main(int argc, char **argv)
{
    const example_t example = {"ticket_example", &ticket_contract, "ticket text", print_record};
    return example_run(&example, argc, argv, TICKET_DATA_DIR);
}
