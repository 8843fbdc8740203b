/* SPDX-License-Identifier: MIT */
/*
 * pattern.h - the contract's regular pattern subset compiled to a DFA
 * (internal to the generator).
 *
 * Supported (docs/contract-language.md §6.2, "Patterns"): a regular subset of
 * ECMA-262 matched against the whole string: literals, escapes, [...] classes
 * with ranges and negation, \d and \w (ASCII), (...) and (?:...), |, ?, *, +,
 * {m}, {m,}, {m,n}.  Refused with an error naming the construct: '.', \s, \b,
 * backreferences, lookaround, flags, ^ and $ inside the pattern.
 *
 * The DFA runs over UTF-8 bytes (the runtime has already validated the
 * string's UTF-8): a class such as [^a-z] matches whole code points through
 * byte sequences.  The automaton is minimised; over CC_DFA_MAX_STATES
 * states is an error.
 */
#ifndef CONTRACTC_PATTERN_H
#define CONTRACTC_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CC_DFA_MAX_STATES 4096

/* Same shape as contractc_dfa_t, but owning its arrays. */
typedef struct cc_dfa {
    uint32_t state_count;   /* including the dead state 0 */
    uint32_t class_count;
    uint32_t start;
    uint8_t byte_class[256];
    uint16_t *next;         /* [state_count * class_count] */
    uint8_t *accepting;     /* [state_count] */
} cc_dfa_t;

typedef struct cc_pattern_error {
    size_t offset;          /* byte offset in the pattern (0-based) */
    char message[160];      /* "'\\b' (word boundary) is not supported" */
} cc_pattern_error_t;

/* Compiles `pattern` (UTF-8, NUL-terminated).  NULL on error (err filled) or
 * out of memory (err->message says so).  Free with cc_dfa_free. */
cc_dfa_t *cc_pattern_compile(const char *pattern, cc_pattern_error_t *err);

/*
 * What compiling a contract's patterns may cost in total, summed over every
 * pattern (each one also stays within its own limits): DFA states built
 * (before minimisation, where most of the time goes) and work units (NFA
 * states built, NFA states visited by closures, edges followed).  About one
 * to two seconds of CPU at most.  Common patterns (an id, a date, a UUID)
 * build 5 to 40 DFA states and spend a few hundred units, so the totals are
 * far above any contract within the other limits.
 */
#define CC_PATTERN_TOTAL_STATES 500000u
#define CC_PATTERN_TOTAL_WORK 200000000u

/* A contract's running total (zero it before the first pattern). */
typedef struct cc_pattern_budget {
    uint64_t states;        /* DFA states built so far */
    uint64_t work;          /* work units so far */
    bool spent;             /* a pattern passed a total: the rest are not compiled */
    /* the totals; 0: CC_PATTERN_TOTAL_STATES and CC_PATTERN_TOTAL_WORK
     * (the loader's; tests set smaller ones) */
    uint64_t max_states, max_work;
} cc_pattern_budget_t;

/* cc_pattern_compile, counted against `budget`: what the pattern used is
 * added whether it compiles or not.  When it passes a total, NULL with an
 * error naming the limit, and budget->spent is set; once spent, every call
 * returns NULL with that error at once. */
cc_dfa_t *cc_pattern_compile_budget(const char *pattern, cc_pattern_budget_t *budget,
                                    cc_pattern_error_t *err);

void cc_dfa_free(cc_dfa_t *dfa);

/* The class count of the runtime's table for `dfa`: the next power of two
 * when the table then has at most CC_DFA_PAD_MAX entries, else
 * dfa->class_count.  With a power of two the runtime finds a state's row
 * with a shift rather than a multiply, on its byte loop's critical path
 * (runtime/src/dfa.c); no byte maps to the padding classes. */
#define CC_DFA_PAD_MAX 65536u
uint32_t cc_dfa_table_classes(const cc_dfa_t *dfa);

/* Writes dfa->next with `classes` (>= dfa->class_count) columns to
 * next[0..state_count * classes): the padding columns lead to the dead
 * state 0. */
void cc_dfa_table_next(const cc_dfa_t *dfa, uint32_t classes, uint16_t *next);

/* Whole-string match on the compiled DFA (for tests and examples). */
bool cc_dfa_matches(const cc_dfa_t *dfa, const char *s, size_t len);

#endif /* CONTRACTC_PATTERN_H */
