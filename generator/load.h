/* SPDX-License-Identifier: MIT */
/*
 * load.h - the stages behind cc_contract_load (internal to the generator).
 *
 *   cc_load_yaml        load_yaml.c  YAML text -> model, syntax and local checks
 *   cc_check_contract   check.c      cross references: named types, rules,
 *                                    grounding, depth, examples
 *   cc_name_contract    naming.c     every generated C name, collisions
 *
 * Each stage adds its diagnostics to one list and keeps going after an
 * error, so one run reports every problem.  A later stage only looks at
 * what an earlier stage left consistent (e.g. an unresolved type reference
 * is skipped, not reported twice).
 */
#ifndef CONTRACTC_LOAD_H
#define CONTRACTC_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

/* Caps of the design page ("YAML typing"). */
#define CC_MAX_CONTRACT_BYTES ((size_t)1 << 20)  /* 1 MiB */
#define CC_MAX_FIELDS CONTRACTC_MAX_FIELDS        /* per object */
#define CC_MAX_DEPTH 32                          /* levels of the contract's values */
#define CC_MAX_YAML_NODES 65536
#define CC_MAX_YAML_NESTING 128                  /* YAML collections inside each other */
#define CC_MAX_REPLY_BYTES ((uint64_t)1 << 30)   /* reply.max_bytes: 1 GiB */
#define CC_DEFAULT_REPLY_BYTES ((uint64_t)CONTRACTC_DEFAULT_MAX_BYTES)
#define CC_DEFAULT_REPLY_DEPTH CONTRACTC_DEFAULT_MAX_DEPTH
#define CC_MAX_REPLY_DEPTH CONTRACTC_MAX_DEPTH
/* Fields, rules and enum values once every use of a named type is written
 * out in full, as the prompt, the schemas and the canonical model write it
 * (check.c counts them before anything is expanded). */
#define CC_MAX_EXPANDED 10000u

/*
 * Parses `text` (len bytes, need not be NUL-terminated) as a contract and
 * fills a new model: every key typed and checked where it stands (key
 * names, value types, ranges, min <= max, decimal bounds, patterns).
 * Returns the model, or NULL only when out of memory; the model may be
 * partial when errors were reported.  `path` names the file in
 * diagnostics; the model keeps a copy.  Free with cc_contract_free().
 */
cc_contract_t *cc_load_yaml(const char *path, const char *text, size_t len,
                            cc_diags_t *diags);

/*
 * Checks what spans more than one place: resolves `type: NAME` references
 * (setting object/enumeration pointers), refuses a named type that reaches
 * itself, resolves rule paths into field indexes, checks `grounded`
 * against `source`, computes contract->depth against its caps, checks each
 * `example` against its field.  Call after cc_load_yaml.
 */
void cc_check_contract(cc_contract_t *contract, cc_diags_t *diags);

/*
 * Derives every generated C name (design page, "Generated C surface"):
 * c_type/c_struct of each object and enum, enum constants, C members with
 * keyword escapes (a note each), and reports every collision with both
 * locations.  Call after cc_check_contract.  Returns false only when out of
 * memory.
 */
bool cc_name_contract(cc_contract_t *contract, cc_diags_t *diags);

/* True when `word` is a C11, C23 or C++20 keyword (or a C alternative
 * spelling such as `and`): it cannot be a C or C++ identifier. */
bool cc_is_c_keyword(const char *word);

/* True for -?(0|[1-9][0-9]*): the only integers a contract writes. */
bool cc_is_integer_text(const char *s);

/* True for an RFC 8259 number token (section 6). */
bool cc_is_json_number(const char *s);

/* True for [A-Za-z_][A-Za-z0-9_]*. */
bool cc_is_identifier(const char *s);


/* Frees what a value owns (not the value itself). */
void cc_value_clear(cc_value_t *value);

/* Frees an object's fields and rules, then the object (NULL-safe). */
void cc_object_free(cc_object_t *object);

/* Frees an enum (NULL-safe). */
void cc_enum_free(cc_enum_t *enumeration);

#endif /* CONTRACTC_LOAD_H */
