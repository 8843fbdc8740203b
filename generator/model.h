/* SPDX-License-Identifier: MIT */
/*
 * model.h - the contract model: what a contract file means, after parsing
 * (parse_yaml.c), checking (check.c) and naming (naming.c), the stages
 * load.c runs (load.h: cc_contract_load).
 *
 * Every later stage reads only this model: the emitters (gen_*.c), the hash
 * (hash.c) and the in-memory descriptor tables of `contractc validate`
 * (tables.c).  Every node keeps the 1-based mark of its YAML node so that
 * later checks can point at FILE:LINE:COL.
 *
 * Ownership: a cc_contract_t owns everything reachable from it (strings,
 * arrays, named types); cc_contract_free() releases it.  A field whose value
 * is `type: NAME` of a named object type points at that type's cc_object_t
 * (`object` with `named` set) and does not own it.
 */
#ifndef CONTRACTC_MODEL_H
#define CONTRACTC_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "contractc/contractc.h"
#include "diag.h"
#include "pattern.h"

/* Caps of a contract (docs/contract-language.md §3.2). */
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

typedef struct cc_object cc_object_t;
typedef struct cc_enum cc_enum_t;

/* One variant of a tagged union (docs/contract-language.md §4.11): the tag
 * value and the named object type it selects (not owned). */
typedef struct cc_variant {
    char *name;                /* the tag value, as written */
    cc_mark_t mark;            /* of the key */
    char *type_ref;            /* the named type, as written */
    cc_mark_t type_mark;
    cc_object_t *object;       /* the named type's object; NULL: unresolved */
    /* naming.c */
    char *c_constant;          /* "NAME_F_KIND_REFUND" */
    char *c_member;            /* "refund": the member of `as` */
} cc_variant_t;

/* The type and constraints of a value: a field's, or an array's items. */
typedef struct cc_value {
    contractc_type_t type;
    cc_mark_t mark;            /* of the `type:` value (or of the node) */

    /* string */
    bool has_min_length, has_max_length;
    uint32_t min_length, max_length;   /* code points */
    char *pattern;                     /* as written; NULL: none */
    cc_mark_t pattern_mark;
    cc_dfa_t *dfa;                     /* compiled pattern (owned) */
    bool grounded;

    /* integer: bounds as integers; decimal: bounds in minor units */
    bool has_minimum, has_maximum;
    int64_t minimum, maximum;
    /* number: bounds as doubles */
    double number_minimum, number_maximum;
    /* decimal and number: the bounds as written ("0.01"); NULL otherwise */
    char *minimum_text, *maximum_text;
    cc_mark_t minimum_mark, maximum_mark;

    /* decimal */
    uint8_t scale;                     /* 0..18 */
    bool is_signed;

    /* enum: inline values, or a named enum (`type: NAME` of an enum type) */
    cc_enum_t *enumeration;            /* owned unless enumeration->named */

    /* object: inline `fields`, or a named type (`object->named`) */
    cc_object_t *object;               /* owned unless object->named */

    /* array */
    struct cc_value *items;            /* owned */
    bool has_min_items, has_max_items;
    uint32_t min_items, max_items;

    /* `type: NAME` as written, before resolution; NULL for built-in types */
    char *type_ref;

    /* naming.c: for an array that is the item of an array, the C struct of
     * one inner list ({ T *items; size_t count; }): "NAME_F_list_t" */
    char *c_list_type;

    /* v2 map (docs/contract-language.md §4.12): `values:` is `items` (owned),
     * `key_pattern:` is pattern/pattern_mark/dfa, `min_entries:` and
     * `max_entries:` are has_min_items/min_items and has_max_items/max_items.
     * naming.c: the C struct of one entry, "NAME_F_entry_t". */
    char *c_entry_type;

    /* union (tagged): `tag:` and `variants:` (docs/contract-language.md §4.11) */
    char *tag;                         /* the tag key; NULL: not given */
    cc_mark_t tag_mark;
    cc_variant_t *variants;            /* owned, in written order */
    size_t variant_count;
    /* naming.c: "NAME_F_t", "NAME_F" (struct tag), "NAME_F_kind_t", "NAME_F_KIND" */
    char *c_union_type, *c_union_struct, *c_kind_type, *c_kind_prefix;

    /* v2: the items of an array that may be null (`nullable: true` on the
     * items, docs/contract-language.md §4.6); set on the items value only */
    bool nullable;
    cc_mark_t nullable_mark;           /* of the items' `nullable:` key */
    /* naming.c: "NAME_F_item_t", the C struct of one such item
     * ({ bool has_value; T value; }); NULL unless nullable */
    char *c_item_type;

    /* v2 value union (`type: [T1, T2, ...]`, docs/contract-language.md
     * §4.13): the alternatives in written order (owned), each a value of
     * its own type and constraints, at most one per JSON type.  naming.c
     * names the struct, the kind enum and its prefix in c_union_type,
     * c_union_struct, c_kind_type and c_kind_prefix (as for `type: union`),
     * and each alternative's constant and member in c_alt_constant and
     * c_alt_member. */
    struct cc_value *alternatives;
    size_t alternative_count;
    char *c_alt_constant;              /* of an alternative: "NAME_F_KIND_STRING" */
    const char *c_alt_member;          /* of an alternative: "string" (static) */
} cc_value_t;

typedef struct cc_field {
    char *name;                /* the JSON key */
    cc_mark_t mark;            /* of the key */
    char *description;         /* NULL: none */
    char *format_text;         /* NULL: none (then the generated phrase) */
    char *example;             /* as written (a YAML scalar); NULL: none */
    cc_mark_t example_mark;
    bool nullable;
    cc_value_t value;

    /* naming.c */
    char *c_member;            /* the C member: name, or name_ for a keyword */

    /* v2 keys and optional (docs/contract-language.md §4.9, §4.10) */
    bool optional;             /* `optional: true`: the key may be absent */
    cc_mark_t optional_mark;   /* of the `optional:` key */
    char *c_name;              /* `c_name:` as written; NULL: derived from the key */
    cc_mark_t c_name_mark;
    char *c_stem;              /* naming.c: c_name, or the key with every byte outside
                                  [A-Za-z0-9_] as '_' (and "f_" before a first byte
                                  that is not a letter); the member before a keyword's
                                  '_', and the stem of the names derived from the field */
} cc_field_t;

struct cc_enum {
    char **values;             /* exactly as written */
    cc_mark_t *value_marks;
    size_t count;
    bool named;                /* from `types:` */
    char *type_name;           /* the named type's key; NULL when inline */
    cc_mark_t mark;
    /* naming.c */
    char *c_type;              /* "refund_request_currency_t" */
    char *c_prefix;            /* "REFUND_REQUEST_CURRENCY" */
    char **c_constants;        /* [count]: "REFUND_REQUEST_CURRENCY_EUR" */
    char *c_name_function;     /* "refund_request_currency_name" */
    char *c_from_name_function; /* "refund_request_currency_from_name" */

    /* v2: a value written as {value: V, c_name: IDENT} names its constant */
    char **c_names;            /* [count] or NULL: `c_name:` of each value, NULL: derived */
    cc_mark_t *c_name_marks;   /* [count] when c_names is set */
};

typedef enum cc_rule_kind {
    CC_RULE_ALL_OR_NONE = CONTRACTC_RULE_ALL_OR_NONE,
    CC_RULE_AT_MOST_ONE = CONTRACTC_RULE_AT_MOST_ONE,
    CC_RULE_EXACTLY_ONE = CONTRACTC_RULE_EXACTLY_ONE,
    CC_RULE_SUM = CONTRACTC_RULE_SUM,
    CC_RULE_COMPARE = CONTRACTC_RULE_COMPARE,
    CC_RULE_CHECK = CONTRACTC_RULE_CHECK
} cc_rule_kind_t;

/* A field path in a rule as written ("amount", "line_items[].amount_cents",
 * "items[]['unit-price']": RFC 9535 brackets around a key that is not an
 * identifier). */
typedef struct cc_path {
    char *text;
    cc_mark_t mark;
    /* check.c: resolved field indexes, one per step (the array step first).
     * A sum's `of`: "name[]" has one step (the array; its items are summed),
     * "name[].f" two (the array, then f in its item object). */
    uint16_t steps[4];
    size_t step_count;
} cc_path_t;

typedef struct cc_rule {
    cc_rule_kind_t kind;
    cc_mark_t mark;            /* of the rule's mapping */
    char *id;                  /* as written, or "rules[N]" */
    char *prompt;              /* NULL: a generated sentence */
    /* all_or_none, at_most_one, exactly_one */
    cc_path_t *fields;
    size_t field_count;
    /* sum */
    cc_path_t of, equals;
    int64_t tolerance;         /* in the operands' units (minor units) */
    char *tolerance_text;      /* as written; NULL: 0 */
    cc_mark_t tolerance_mark;
    bool tolerance_quoted;     /* written as a quoted YAML scalar */
    /* compare */
    cc_path_t left, right;
    contractc_compare_op_t op;
    /* check */
    char *function;
    cc_mark_t function_mark;   /* of the `function:` value */
    char *message;
} cc_rule_t;

struct cc_object {
    cc_field_t *fields;        /* contract order */
    size_t field_count;
    cc_rule_t *rules;
    size_t rule_count;
    bool named;                /* from `types:` */
    char *type_name;           /* the named type's key; NULL when inline */
    cc_mark_t mark;
    /* naming.c */
    char *c_type;              /* "refund_request_t", "invoice_line_item_t" */
    char *c_struct;            /* struct tag: "refund_request" */
};

/* A named type from `types:` (an object or an enum). */
typedef struct cc_named_type {
    char *name;
    cc_mark_t mark;
    cc_object_t *object;       /* exactly one of object/enumeration */
    cc_enum_t *enumeration;
} cc_named_type_t;

typedef enum cc_fence { CC_FENCE_ALLOW, CC_FENCE_REJECT } cc_fence_t;

typedef struct cc_contract {
    char *path;                /* as given (for diagnostics) */
    char *file_name;           /* base name (for banners) */

    char *name;                /* `contract` */
    cc_mark_t name_mark;
    uint32_t version;
    char *description;         /* NULL: none */
    char *instruction;
    bool has_source;
    char *source_name;         /* `source.name` */
    char *source_description;
    cc_mark_t source_mark;

    cc_named_type_t *types;
    size_t type_count;

    cc_object_t root;          /* `fields` and `rules` (named = false) */

    /* reply */
    cc_fence_t fence;
    uint64_t max_bytes;        /* default 1 MiB, at most 1 GiB */
    uint32_t max_depth;        /* default 64, 1..1024, >= the contract's depth */
    bool has_max_depth;
    cc_mark_t max_depth_mark;

    /* schema */
    char *default_dialect;     /* `schema.dialect`; NULL: none */
    cc_mark_t dialect_mark;

    /* check.c: levels of nesting of the contract's own values (root = 1) */
    uint32_t depth;
} cc_contract_t;

/* Frees the model and everything it owns (NULL-safe). */
void cc_contract_free(cc_contract_t *contract);

/* Frees what a value owns (not the value itself). */
void cc_value_clear(cc_value_t *value);

/* Frees an object's fields and rules, then the object (NULL-safe). */
void cc_object_free(cc_object_t *object);

/* Frees an enum (NULL-safe). */
void cc_enum_free(cc_enum_t *enumeration);

/* The contract-language name of a type ("string", "decimal", ...); "?" for
 * a value out of range. */
const char *cc_type_name(contractc_type_t type);

/* True for the types whose C member is a pointer to NUL-terminated bytes
 * and a size_t X_len (contractc_string_t as an item): string, and json,
 * whose bytes are the value's JSON text (docs/contract-language.md §4.14). */
bool cc_type_has_len(contractc_type_t type);

/* The descriptor ABI (contractc.h) the contract's tables are written for:
 * 1 unless it uses what ABI 2 added (an optional field, a union, nullable
 * array items, a map), so that the
 * generated files of a v1 contract stay as they were. */
uint32_t cc_contract_abi(const cc_contract_t *contract);

/* The value a field path of a rule leads to, after check.c resolved it. */
const cc_field_t *cc_path_field(const cc_object_t *owner, const cc_path_t *path);

#endif /* CONTRACTC_MODEL_H */
