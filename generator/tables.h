/* SPDX-License-Identifier: MIT */
/*
 * tables.h - descriptor tables built in memory from a contract model.
 *
 * One builder serves both consumers, so they cannot disagree:
 *   - `contractc validate` hands the in-memory tables to contractc_parse();
 *   - gen_c.c writes the same tables out as C (NAME.c), taking every value
 *     from here and leaving only sizes and offsets to the C compiler
 *     (sizeof/offsetof), which test_tables compares with the layout
 *     computed here.
 *
 * The tables are listed in a fixed order (depth-first, contract order, each
 * node at its first use) so the emitted C is deterministic.
 */
#ifndef CONTRACTC_TABLES_H
#define CONTRACTC_TABLES_H

#include "model.h"

/* An object type of the contract and its table. */
typedef struct cc_table_object {
    const cc_object_t *model;
    contractc_object_t *table;
    contractc_field_t *fields;     /* table->fields, writable */
    uint16_t *lookup;
    contractc_rule_t *rules;
    uint16_t **rule_fields;        /* [rule_count]: all_or_none etc. operands */
    char *ident;                   /* C identifier stem of its tables: "refund_request" */
} cc_table_object_t;

/* An enum of the contract (inline or named) and its table. */
typedef struct cc_table_enum {
    const cc_enum_t *model;
    contractc_enum_t *table;
    contractc_enum_value_t *values;
    char *ident;
} cc_table_enum_t;

/* A pattern DFA and its table. */
typedef struct cc_table_dfa {
    const cc_value_t *model;
    contractc_dfa_t *table;
    char *ident;
} cc_table_dfa_t;

/* An array's item value, or a map's values (stored apart from fields,
 * which hold theirs). */
typedef struct cc_table_items {
    const cc_value_t *model;
    contractc_value_t *table;
    char *ident;
    bool map_values;   /* the values of a map (docs/contract-language.md §4.12) */
} cc_table_items_t;

/* The alternatives of a value union (docs/contract-language.md §4.13):
 * one array of value tables, in contract order. */
typedef struct cc_table_alternatives {
    const cc_value_t *model;       /* the value union */
    contractc_value_t *table;      /* [model->alternative_count] */
    char *ident;                   /* "NAME_F_alternatives" */
} cc_table_alternatives_t;

typedef struct cc_tables {
    const cc_contract_t *model;
    contractc_contract_t contract;
    cc_table_object_t *objects;    /* objects[0] is the record */
    size_t object_count;
    cc_table_enum_t *enums;
    size_t enum_count;
    cc_table_dfa_t *dfas;
    size_t dfa_count;
    cc_table_items_t *items;       /* innermost first: each may point at the next */
    size_t item_count;
    cc_table_alternatives_t *alternatives; /* value unions, innermost first */
    size_t alternatives_count;
    void *pool_;                   /* every allocation, freed by cc_tables_free */
} cc_tables_t;

/*
 * Builds the tables of a checked, named contract (cc_contract_load's
 * result).  `hash` is copied.  NULL when out of memory.  Free with
 * cc_tables_free (NULL-safe).
 */
cc_tables_t *cc_tables_build(const cc_contract_t *contract, const char *hash);
void cc_tables_free(cc_tables_t *tables);

/* The table entry of a model node, or NULL. */
const cc_table_object_t *cc_tables_object(const cc_tables_t *t, const cc_object_t *o);
const cc_table_enum_t *cc_tables_enum(const cc_tables_t *t, const cc_enum_t *e);
const cc_table_dfa_t *cc_tables_dfa(const cc_tables_t *t, const cc_value_t *v);
const cc_table_items_t *cc_tables_items(const cc_tables_t *t, const cc_value_t *v);
const cc_table_alternatives_t *cc_tables_alternatives(const cc_tables_t *t, const cc_value_t *v);

#endif /* CONTRACTC_TABLES_H */
