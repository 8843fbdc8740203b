/* SPDX-License-Identifier: MIT */
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
#include "example_cases.h"

#ifndef INVOICE_DATA_DIR
#define INVOICE_DATA_DIR "data"
#endif

/* Money in cents as "154.46". */
static void print_cents(int64_t cents)
{
    printf("%" PRId64 ".%02" PRId64, cents / 100, cents % 100);
}

/* What an application would act on: the typed record. */
static void print_record(const void *record)
{
    const invoice_t *r = record;
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

int main(int argc, char **argv)
{
    const example_t example = {"invoice_example", &invoice_contract, "invoice text", print_record};
    return example_run(&example, argc, argv, INVOICE_DATA_DIR);
}
