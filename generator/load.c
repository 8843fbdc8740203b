/* SPDX-License-Identifier: MIT */
/*
 * load.c - the front end's driver (load.h): reads the contract, then runs
 * the stages of stages.h in order and keeps the model only when no stage
 * reported an error.  Calls go one way: load.c -> parse_yaml.c, check.c,
 * naming.c -> model.c.
 */
#include "load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stages.h"

cc_contract_t *cc_contract_load_buffer(const char *display_path, const char *text,
                                       size_t len, cc_diags_t *diags)
{
    const cc_mark_t whole = {0, 0};
    if (len > CC_MAX_CONTRACT_BYTES) {
        cc_error(diags, display_path, whole,
                 "the contract is %zu bytes; at most %zu (1 MiB) are allowed", len,
                 CC_MAX_CONTRACT_BYTES);
        return NULL;
    }
    size_t errors_before = diags->errors;
    cc_contract_t *c = cc_parse_yaml(display_path, text, len, diags);
    if (!c) {
        cc_error(diags, display_path, whole, "out of memory");
        return NULL;
    }
    cc_check_contract(c, diags);
    if (!cc_name_contract(c, diags))
        cc_error(diags, display_path, whole, "out of memory");
    if (diags->errors != errors_before) {
        cc_contract_free(c);
        return NULL;
    }
    return c;
}

cc_contract_t *cc_contract_load(const char *path, cc_diags_t *diags)
{
    const cc_mark_t whole = {0, 0};
    bool from_stdin = strcmp(path, "-") == 0;
    if (from_stdin)
        path = "<stdin>"; /* the name diagnostics give it, as gcc does */
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        cc_error(diags, path, whole, "cannot open: %s", strerror(errno));
        return NULL;
    }
    /* Read at most one byte past the cap: a huge file (or /dev/zero) is
     * refused without being read whole. */
    char *text = malloc(CC_MAX_CONTRACT_BYTES + 1);
    if (!text) {
        fclose(f);
        cc_error(diags, path, whole, "out of memory");
        return NULL;
    }
    size_t len = fread(text, 1, CC_MAX_CONTRACT_BYTES + 1, f);
    int failed = ferror(f);
    if (!from_stdin)
        fclose(f);
    if (failed) {
        free(text);
        cc_error(diags, path, whole, "cannot read the file");
        return NULL;
    }
    if (len > CC_MAX_CONTRACT_BYTES) {
        free(text);
        cc_error(diags, path, whole,
                 "the contract is larger than 1 MiB (%zu bytes), the limit", CC_MAX_CONTRACT_BYTES);
        return NULL;
    }
    cc_contract_t *c = cc_contract_load_buffer(path, text, len, diags);
    free(text);
    return c;
}
