/* SPDX-License-Identifier: MIT */
/*
 * load.h - the generator's front end: contract file -> checked, named model
 * (internal to the generator).  load.c drives the stages of stages.h in
 * order (parse_yaml.c -> check.c -> naming.c); a contract with any error is
 * freed and NULL returned, so later stages (emitters, hash, tables) only
 * ever see a checked, named model.
 */
#ifndef CONTRACTC_LOAD_H
#define CONTRACTC_LOAD_H

#include <stddef.h>

#include "model.h"

/*
 * Reads, checks and names a contract file.  Returns the model, or NULL when
 * it has errors; every diagnostic (errors and notes) is added to `diags`.
 * `path` is used as given in diagnostics; "-" reads standard input, named
 * "<stdin>" in diagnostics.  At most CC_MAX_CONTRACT_BYTES + 1 bytes are
 * read either way (a larger contract is an error).  The caller frees the model with
 * cc_contract_free().
 */
cc_contract_t *cc_contract_load(const char *path, cc_diags_t *diags);

/* The same from memory (tests, fuzzing); `display_path` names it. */
cc_contract_t *cc_contract_load_buffer(const char *display_path, const char *text,
                                       size_t len, cc_diags_t *diags);

#endif /* CONTRACTC_LOAD_H */
