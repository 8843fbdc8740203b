/* SPDX-License-Identifier: MIT */
/*
 * inbox_example - the routing of customer emails in a support inbox, the
 * contract language v2 end to end: each reply of data/cases.txt is parsed
 * with the generated strict parser against the email beside it (quotes must
 * occur in it verbatim).  The program prints the accepted record, or every
 * problem with its path and the repair turn, and checks the outcome against
 * the expectation written in cases.txt ("accept", or "reject PATH:kind,...").
 *
 * The story: what the customer wants is a tagged union told apart by its
 * "intent" key (docs/contract-language.md §4.11), so the program switches
 * on request.kind and reads request.as.refund, .complaint or .question; the
 * customer number's key "customer-id" is not a C identifier (§4.9, member
 * customer_id) and may be null or left out (§4.10: has_customer_id false
 * for both, customer_id_null tells them apart, and nothing is defaulted);
 * the labels are a map (§4.12), its entries in reply order; JSON the
 * customer pasted is any JSON value (§4.14), its text exactly as sent; an
 * earlier ticket is a value union (§4.13), a number or a T- code, switched
 * on ticket.kind.
 *
 *   usage: inbox_example [DATA_DIR]     (default: the data/ beside this file)
 *   exit:  0 every case as expected; 1 a case differed or a file is missing
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "inbox_route.h"
#include "example_cases.h"

#ifndef INBOX_DATA_DIR
#define INBOX_DATA_DIR "data"
#endif

/* The generated NAME_F_name() gives a value's text (NULL for none). */
static const char *or_unknown(const char *name) { return name ? name : "?"; }

/* Which team's queue the request goes to: what the kind is for. */
static void print_request(const inbox_route_request_t *q)
{
    switch (q->kind) {
    case INBOX_ROUTE_REQUEST_KIND_REFUND: {
        const inbox_route_refund_t *r = &q->as.refund;
        printf("  accepted: refund for order %s", r->order_id);
        if (r->has_amount) /* minor units, scale 2; minimum 0.01, so positive */
            printf(", %" PRId64 ".%02" PRId64 "\n", r->amount / 100, r->amount % 100);
        else
            printf(", amount not stated\n");
        printf("    because: \"%s\"\n", r->reason_quote);
        break;
    }
    case INBOX_ROUTE_REQUEST_KIND_COMPLAINT:
        printf("  accepted: complaint, %s: %s\n",
               or_unknown(inbox_route_complaint_severity_name(q->as.complaint.severity)),
               q->as.complaint.summary);
        break;
    case INBOX_ROUTE_REQUEST_KIND_QUESTION:
        printf("  accepted: question about %s\n",
               or_unknown(inbox_route_question_topic_name(q->as.question.topic)));
        printf("    asked: \"%s\"\n", q->as.question.question_quote);
        break;
    case INBOX_ROUTE_REQUEST_KIND_NONE:
    default: /* never for an accepted reply: request is neither nullable nor optional */
        printf("  accepted: no request\n");
        break;
    }
}

/* What an application would act on: the typed record. */
static void print_record(const void *record)
{
    const inbox_route_t *r = record;
    print_request(&r->request);
    if (r->has_customer_id)
        printf("    customer %s\n", r->customer_id);
    else if (r->customer_id_null)
        printf("    customer not stated (\"customer-id\": null)\n");
    else
        printf("    customer not stated (no \"customer-id\" key)\n");
    printf("    language %s, labels:", or_unknown(inbox_route_language_name(r->language)));
    for (size_t i = 0; i < r->labels_count; i++)
        printf(" %s=%s", r->labels[i].key, r->labels[i].value.data);
    printf(r->labels_count ? "\n" : " none\n");
    if (r->has_ticket && r->ticket.kind == INBOX_ROUTE_TICKET_KIND_INTEGER)
        printf("    earlier ticket %" PRId64 "\n", r->ticket.as.integer);
    else if (r->has_ticket) /* INBOX_ROUTE_TICKET_KIND_STRING: the T- code */
        printf("    earlier ticket %s\n", r->ticket.as.string.data);
    if (r->has_pasted) /* the JSON text as the reply sent it, NUL-terminated */
        printf("    pasted JSON (%zu bytes): %s\n", r->pasted_len, r->pasted);
    char *json = inbox_route_to_json(r, NULL);
    if (json)
        printf("  canonical: %s\n", json);
    free(json);
}

int main(int argc, char **argv)
{
    const example_t example = {"inbox_example", &inbox_route_contract, "email", print_record};
    return example_run(&example, argc, argv, INBOX_DATA_DIR);
}
