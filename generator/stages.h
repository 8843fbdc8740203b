/* SPDX-License-Identifier: MIT */
/*
 * stages.h - the stages of the generator's front end, in pipeline order
 * (internal to the generator; load.c runs them):
 *
 *   cc_parse_yaml       parse_yaml.c  YAML text -> model, syntax and local checks
 *   cc_check_contract   check.c       semantics: named types, rules,
 *                                     grounding, depth, examples
 *   cc_name_contract    naming.c      every generated C name, collisions
 *
 * Each stage adds its diagnostics to one list and keeps going after an
 * error, so one run reports every problem.  A later stage only looks at
 * what an earlier stage left consistent (e.g. an unresolved type reference
 * is skipped, not reported twice).  Stages call the model (model.h) and
 * the lexical predicates (lexical.h), never the driver or each other.
 */
#ifndef CONTRACTC_STAGES_H
#define CONTRACTC_STAGES_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

/*
 * Parses `text` (len bytes, need not be NUL-terminated) as a contract and
 * fills a new model: every key typed and checked where it stands (key
 * names, value types, ranges, min <= max, decimal bounds, patterns).
 * Returns the model, or NULL only when out of memory; the model may be
 * partial when errors were reported.  `path` names the file in
 * diagnostics; the model keeps a copy.  Free with cc_contract_free().
 */
cc_contract_t *cc_parse_yaml(const char *path, const char *text, size_t len,
                             cc_diags_t *diags);

/*
 * Checks what spans more than one place: resolves `type: NAME` references
 * (setting object/enumeration pointers), refuses a named type that reaches
 * itself, resolves rule paths into field indexes, checks `grounded`
 * against `source`, computes contract->depth against its caps, checks each
 * `example` against its field.  Call after cc_parse_yaml.
 */
void cc_check_contract(cc_contract_t *contract, cc_diags_t *diags);

/*
 * Derives every generated C name (docs/contract-language.md §7, "Generated C
 * surface"): c_type/c_struct of each object and enum, enum constants, C
 * members with keyword escapes (a note each), and reports every collision with
 * both locations.  Call after cc_check_contract.  Returns false only when out
 * of memory.
 */
bool cc_name_contract(cc_contract_t *contract, cc_diags_t *diags);

#endif /* CONTRACTC_STAGES_H */
