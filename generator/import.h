/* SPDX-License-Identifier: MIT */
/*
 * import.h - a JSON Schema (drafts 2020-12, 2019-09, 07, 06, 04) or an
 * OpenAPI 3.0/3.1 document's schema read back into a contract
 * (docs/contract-language.md §17, "Importing a JSON Schema"); internal to
 * the generator, used by `contractc import` (cli.c).
 */
#ifndef CONTRACTC_IMPORT_H
#define CONTRACTC_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "text.h"

/* What `contractc import` was asked for; every member may be NULL/false. */
typedef struct cc_import_options {
    const char *name;      /* --name: the contract's name (already checked) */
    const char *pointer;   /* --pointer: a JSON Pointer to the schema ("/a/b") */
    const char *file_name; /* the input's name: a name when there is none */
    bool lenient;          /* --lenient: drop what cannot be carried */
    /* type names not to give (the loader found their C names taken by a
     * field's, cli.c); not owned, avoid_count entries */
    const char *const *avoid;
    size_t avoid_count;
} cc_import_options_t;

/* Exit statuses of cc_import (those of `contractc import`). */
#define CC_IMPORT_OK 0         /* imported */
#define CC_IMPORT_REFUSED 1    /* not importable: `report` lists every blocker */
#define CC_IMPORT_BAD_INPUT 2  /* invalid JSON, a duplicate key, a bad --pointer */

/*
 * Imports the JSON text json[0..len) (need not be NUL-terminated).
 * On CC_IMPORT_OK, *yaml is the contract (malloc'd, NUL-terminated, the
 * caller frees it; *yaml_len its length) and `report` holds the ledger,
 * one "POINTER: CLASS: text" line per change of meaning (§17).  On
 * CC_IMPORT_REFUSED, *yaml is NULL and `report` holds one
 * "POINTER: cannot carry: text" line per blocker; on CC_IMPORT_BAD_INPUT
 * one line saying why.  The contract is not loaded here: the caller lints
 * it (cli.c does).  Out of memory is CC_IMPORT_BAD_INPUT with "out of
 * memory" in `report`.  `report` is the caller's buffer (appended to).
 */
int cc_import(const char *json, size_t len, const cc_import_options_t *opt, char **yaml,
              size_t *yaml_len, cc_buf_t *report);

/* True when `name` is a contract name the loader takes: [a-z][a-z0-9_]*,
 * not a C keyword or a reserved name (docs/contract-language.md §7.2). */
bool cc_import_name_ok(const char *name);

#endif /* CONTRACTC_IMPORT_H */
