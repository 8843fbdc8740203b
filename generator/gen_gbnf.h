/* SPDX-License-Identifier: MIT */
/*
 * gen_gbnf.h - NAME.gbnf and NAME.gbnf.notes.txt: the contract as a
 * llama.cpp GBNF grammar (docs/grammar.md), internal to the generator.
 */
#ifndef CONTRACTC_GEN_GBNF_H
#define CONTRACTC_GEN_GBNF_H

#include <stddef.h>

#include "model.h"

/* The name prefix of the rules that hold a grounded string's value:
 * "grounded-" + the rule's path name.  contractc_gbnf_grounded() finds
 * them by it (runtime/src/gbnf_grounded.c). */
#define CC_GBNF_GROUNDED_PREFIX "grounded-"

/* A DFA-by-length product for a pattern with a length has at most this
 * many rules; beyond, the length is left to the parser and noted. */
#define CC_GBNF_MAX_PRODUCT 4096u
/* A nullable group (all_or_none, at_most_one, exactly_one) becomes the
 * object's alternatives when there are at most this many; beyond, the
 * rules are left to the parser and noted. */
#define CC_GBNF_MAX_ALTERNATIVES 64u
/* llama.cpp's MAX_REPETITION_THRESHOLD: a count of repetitions at or above
 * it is refused by its parser, so such a length or item count is written
 * unbounded and noted. */
#define CC_GBNF_MAX_REPETITION 2000u

/*
 * The grammar (root rule `root`, no banner, one rule a line, rule names
 * from the JSON keys' paths) and its notes (what it does not carry, one
 * line per path, sorted).  *grammar and *notes are malloc'd (free() them);
 * false when out of memory (both NULL).
 */
bool cc_emit_gbnf(const cc_contract_t *contract, char **grammar, size_t *grammar_len,
                  char **notes, size_t *notes_len);

#endif /* CONTRACTC_GEN_GBNF_H */
