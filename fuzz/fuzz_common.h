/* SPDX-License-Identifier: MIT */
/*
 * fuzz_common.h - shared by the libFuzzer targets in fuzz/ (test-only code).
 *
 * Every target states properties that must hold for every input and aborts
 * (which libFuzzer reports as a crash, saving the input) when one does not.
 * ASan and UBSan report memory and undefined-behaviour errors the same way.
 */
#ifndef CONTRACTC_FUZZ_COMMON_H
#define CONTRACTC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contractc/contractc.h"

/* libFuzzer's entry point (declared here: -Wmissing-prototypes). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property that must hold: else print it and abort (a libFuzzer crash). */
#define FUZZ_CHECK(cond, ...)                                                 \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "%s:%d: property failed: %s\n  ", __FILE__,       \
                    __LINE__, #cond);                                         \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
            abort();                                                          \
        }                                                                     \
    } while (0)

/* True when all `size` bytes at p are zero (a rejected reply's record). */
static inline int fuzz_all_zero(const void *p, size_t size)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < size; i++)
        if (b[i])
            return 0;
    return 1;
}

/* The invariants of any problem list after contractc_parse returned
 * `status`: OK has no problem; REJECTED has at least one; a document-level
 * problem is alone and at "$" with a line and column; every path starts
 * with '$'; every kind is known; every message is non-empty. */
static inline void fuzz_check_problems(contractc_status_t status,
                                       const contractc_problems_t *problems)
{
    size_t n = contractc_problems_count(problems);
    if (status == CONTRACTC_OK) {
        FUZZ_CHECK(n == 0 && problems->dropped == 0, "accepted with %zu problems", n);
        return;
    }
    if (status != CONTRACTC_REJECTED)
        return;
    FUZZ_CHECK(n >= 1, "rejected without a problem");
    FUZZ_CHECK(n <= problems->cap, "%zu problems over the cap %zu", n, problems->cap);
    for (size_t i = 0; i < n; i++) {
        const contractc_problem_t *p = contractc_problems_at(problems, i);
        FUZZ_CHECK(p != NULL, "problem %zu is NULL", i);
        FUZZ_CHECK((int)p->kind >= 0 && p->kind < CONTRACTC_KIND_COUNT_, "kind %d", (int)p->kind);
        FUZZ_CHECK(p->path && p->path[0] == '$', "path \"%s\"", p->path ? p->path : "(null)");
        FUZZ_CHECK(p->message && p->message[0], "empty message at %s", p->path);
        FUZZ_CHECK(p->log_message && p->log_message[0], "empty log message at %s", p->path);
        if (contractc_kind_is_document_level(p->kind)) {
            FUZZ_CHECK(n == 1 && strcmp(p->path, "$") == 0,
                       "document-level %s is one of %zu problems, at %s",
                       contractc_kind_name(p->kind), n, p->path);
            FUZZ_CHECK(p->line >= 1 && p->column >= 1, "document-level problem at %zu:%zu",
                       p->line, p->column);
        }
    }
}

#endif /* CONTRACTC_FUZZ_COMMON_H */
