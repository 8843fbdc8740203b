/* SPDX-License-Identifier: MIT */
/*
 * contractc/gbnf.h - grounded GBNF grammars for local models (libc only;
 * docs/grammar.md, "Grounded grammars").
 *
 * `contractc generate --grammar gbnf` embeds NAME.gbnf in NAME.c as
 * NAME_gbnf[] (NAME_gbnf_len bytes).  Its grounded strings are rules named
 * grounded-PATH that admit any string.  contractc_gbnf_grounded() rewrites
 * them for one request: each then admits exactly the non-empty substrings
 * of that request's source text, written as the canonical JSON form writes
 * them (only '"', '\' and control characters escaped), so a local model
 * cannot invent a quote.  A grounded string's pattern and length are then
 * left to the parser (it checks them, and grounding, either way).
 */
#ifndef CONTRACTC_GBNF_H
#define CONTRACTC_GBNF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest source grounded in the grammar: 64 KiB.  Beyond, grounding
 * is left to the parser (contractc_gbnf_grounded returns 1). */
#define CONTRACTC_GBNF_MAX_SOURCE 65536u

/*
 * Writes to *text (malloc'd, NUL-terminated, *len bytes without the NUL;
 * free() it) the grammar `grammar` (grammar_len bytes, e.g. NAME_gbnf,
 * NAME_gbnf_len) with every grounded-* rule restricted to substrings of
 * `source` (source_len bytes of UTF-8; bytes that are not valid UTF-8 and
 * NUL split it, since no JSON string the parser accepts holds them).  The
 * grammar's size is linear in the source: a suffix automaton of its code
 * points, one rule per state (at most 2 * source_len rules).
 *
 * Returns 0 when grounded; 1 when source_len is above
 * CONTRACTC_GBNF_MAX_SOURCE or the grammar has no grounded rule (then
 * *text is a copy of `grammar`); -1 when out of memory or an argument is
 * NULL (then *text is NULL).
 */
int contractc_gbnf_grounded(const char *grammar, size_t grammar_len, const char *source,
                            size_t source_len, char **text, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* CONTRACTC_GBNF_H */
