/* SPDX-License-Identifier: MIT */
/*
 * refund_example - the refund story end to end: each reply of data/cases.txt
 * is parsed with the generated strict parser against its source email, and
 * the program prints the accepted record, or every problem and the repair
 * turn that would go back to the model, and checks the outcome against the
 * expectation in cases.txt (examples/common/example_cases.h).
 *
 *   usage: refund_example [DATA_DIR]     (default: the data/ beside this file)
 *   exit:  0 every case as expected; 1 a case differed or a file is missing
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refund_request.h"
#include "example_cases.h"

#ifndef REFUND_DATA_DIR
#define REFUND_DATA_DIR "data"
#endif

/* The generated NAME_F_name() gives a value's text (NULL for none). */
static const char *or_unknown(const char *name) { return name ? name : "?"; }

/* Prints the typed record: what an application would act on. */
static void print_record(const void *record)
{
    const refund_request_t *r = record;
    printf("  accepted: order %s, reason %s\n", r->order_id,
           or_unknown(refund_request_reason_name(r->reason)));
    if (r->has_amount)
        printf("  refund %" PRId64 ".%02" PRId64 " %s (the email says \"%s\")\n", r->amount / 100,
               r->amount % 100, or_unknown(refund_request_currency_name(r->currency)),
               r->amount_text);
    else
        printf("  no amount stated: route to a person, never refund a guessed amount\n");
    char *json = refund_request_to_json(r, NULL);
    if (json)
        printf("  canonical: %s\n", json);
    free(json);
}

int main(int argc, char **argv)
{
    const example_t example = {"refund_example", &refund_request_contract, "customer email",
                               print_record};
    return example_run(&example, argc, argv, REFUND_DATA_DIR);
}
