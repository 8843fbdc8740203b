/* SPDX-License-Identifier: MIT */
/*
 * codemap_example - a map of one source file end to end: each reply of
 * data/cases.txt is parsed with the generated strict parser against the
 * source file beside it (names and evidence must occur in it verbatim), and
 * the user's C check (codemap_checks.c) refuses a line beyond the file's
 * end.  The program prints the accepted map, or every problem with its path
 * and the repair turn, and checks the outcome against the expectation
 * written in cases.txt ("accept", or "reject PATH:kind,PATH:kind").
 *
 *   usage: codemap_example [DATA_DIR]     (default: the data/ beside this file)
 *   exit:  0 every case as expected; 1 a case differed or a file is missing
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codemap.h"
#include "example_cases.h"

#ifndef CODEMAP_DATA_DIR
#define CODEMAP_DATA_DIR "data"
#endif

static const char *kind_name(codemap_symbol_kind_t k)
{
    switch (k) {
    case CODEMAP_SYMBOL_KIND_MODULE: return "module";
    case CODEMAP_SYMBOL_KIND_CLASS: return "class";
    case CODEMAP_SYMBOL_KIND_FUNCTION: return "function";
    case CODEMAP_SYMBOL_KIND_CONSTANT: return "constant";
    case CODEMAP_SYMBOL_KIND_ENTRYPOINT: return "entrypoint";
    default: return "?";
    }
}

/* What an application would act on: the typed record. */
static void print_record(const void *record)
{
    const codemap_t *r = record;
    printf("  accepted: %zu symbols, %zu findings\n", r->symbols_count, r->findings_count);
    for (size_t i = 0; i < r->symbols_count; i++)
        printf("    %s:%" PRId64 " %-10s %s\n", r->symbols[i].file, r->symbols[i].line,
               kind_name(r->symbols[i].kind), r->symbols[i].name);
    for (size_t i = 0; i < r->findings_count; i++)
        printf("    finding (%.2f): %s\n      evidence: %s\n", r->findings[i].confidence,
               r->findings[i].claim, r->findings[i].evidence);
    char *json = codemap_to_json(r, NULL);
    if (json)
        printf("  canonical: %s\n", json);
    free(json);
}

int main(int argc, char **argv)
{
    const example_t example = {"codemap_example", &codemap_contract, "source file", print_record};
    return example_run(&example, argc, argv, CODEMAP_DATA_DIR);
}
