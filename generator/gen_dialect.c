/*
 * gen_dialect.c - placeholder: the provider dialects of dialects.md are
 * refused until their rewriting lands.
 */
#include <stdlib.h>
#include <string.h>

#include "generator.h"

const char *const cc_dialect_names[] = {"openai-strict", "gemini", "anthropic", "llama-cpp"};
const size_t cc_dialect_count = sizeof cc_dialect_names / sizeof cc_dialect_names[0];

bool cc_dialect_known(const char *dialect)
{
    for (size_t i = 0; i < cc_dialect_count; i++)
        if (strcmp(cc_dialect_names[i], dialect) == 0)
            return true;
    return false;
}

int cc_emit_schema_dialect(const cc_contract_t *contract, const char *dialect,
                           char **schema, size_t *schema_len, char **notes,
                           size_t *notes_len, char **summary, cc_diags_t *diags)
{
    *schema = *notes = *summary = NULL;
    *schema_len = *notes_len = 0;
    cc_mark_t whole = {0, 0};
    cc_error(diags, contract->path, whole, "the %s dialect is not implemented yet", dialect);
    return 1;
}
