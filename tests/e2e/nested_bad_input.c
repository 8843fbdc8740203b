/* SPDX-License-Identifier: MIT */
/*
 * nested_bad_input - builds one bad reply of nested_bad_input.h and parses it
 * once with the nested_limits contract; bench_nested.sh runs it under
 * callgrind, counting the instructions of contractc_parse alone.
 *
 *   usage: nested_bad_input KIND BYTES
 *   KIND: wide-nesting, deep-nesting, many-keys, many-numbers, long-string
 *   prints: KIND LEN PARTS PROBLEMS DROPPED FIRST-PATH FIRST-KIND
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nested_bad_input.h"
#include "nested_limits.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: nested_bad_input KIND BYTES\n");
        return 2;
    }
    int kind = 0;
    while (kind < BAD_KIND_COUNT_ && strcmp(argv[1], bad_kind_names[kind]) != 0)
        kind++;
    size_t bytes = (size_t)strtoull(argv[2], NULL, 10);
    if (kind == BAD_KIND_COUNT_ || bytes < 4096) {
        fprintf(stderr, "nested_bad_input: unknown kind '%s' or size under 4096\n", argv[1]);
        return 2;
    }
    size_t len = 0, items = 0;
    char *reply = bad_reply((bad_kind_t)kind, bytes, &len, &items);
    if (!reply) {
        fprintf(stderr, "nested_bad_input: out of memory\n");
        return 1;
    }
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    nested_limits_t rec;
    contractc_status_t rc = nested_limits_parse(reply, len, NULL, 0, &rec, &problems);
    if (rc == CONTRACTC_OK)
        nested_limits_free(&rec);
    const contractc_problem_t *p = contractc_problems_at(&problems, 0);
    printf("%s %zu %zu %zu %zu %s %s\n", argv[1], len, items, contractc_problems_count(&problems),
           problems.dropped, p ? p->path : "-", p ? contractc_kind_name(p->kind) : "-");
    contractc_problems_clear(&problems);
    free(reply);
    return rc == CONTRACTC_REJECTED ? 0 : 1;
}
