/*
 * generate.c - the pipeline from a loaded contract to its artifacts:
 * prompt and schema first (the hash covers them), then the hash, then the
 * descriptor tables and NAME.h / NAME.c.
 */
#include <stdlib.h>
#include <string.h>

#include "generator.h"
#include "tables.h"

void cc_artifacts_free(cc_artifacts_t *a)
{
    if (!a)
        return;
    free(a->prompt);
    free(a->schema);
    free(a->header);
    free(a->source);
    memset(a, 0, sizeof *a);
}

bool cc_build_artifacts(const cc_contract_t *m, cc_artifacts_t *a)
{
    memset(a, 0, sizeof *a);
    a->prompt = cc_emit_prompt(m, &a->prompt_len);
    a->schema = cc_emit_schema(m, &a->schema_len);
    if (!a->prompt || !a->schema ||
        !cc_contract_hash(m, a->schema, a->schema_len, a->prompt, a->prompt_len, a->hash)) {
        cc_artifacts_free(a);
        return false;
    }
    cc_tables_t *t = cc_tables_build(m, a->hash);
    if (!t) {
        cc_artifacts_free(a);
        return false;
    }
    cc_c_inputs_t in = {a->hash, a->prompt, a->prompt_len, a->schema, a->schema_len, NULL, 0};
    bool ok = cc_emit_c(m, t, &in, &a->header, &a->header_len, &a->source, &a->source_len);
    cc_tables_free(t);
    if (!ok)
        cc_artifacts_free(a);
    return ok;
}
