/* SPDX-License-Identifier: MIT */
/*
 * generate.c - the pipeline from a loaded contract to its artifacts:
 * prompt and schema first (the hash covers them), then the hash, then the
 * descriptor tables and NAME.h / NAME.c.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_gbnf.h"
#include "generator.h"
#include "tables.h"

void cc_artifacts_free(cc_artifacts_t *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->dialect_count; i++) {
        free(a->dialects[i].schema);
        free(a->dialects[i].notes);
        free(a->dialects[i].summary);
    }
    free(a->prompt);
    free(a->schema);
    free(a->header);
    free(a->source);
    free(a->gbnf);
    free(a->gbnf_notes);
    for (size_t i = 0; i < a->tool_count; i++) {
        free(a->tools[i].schema);
        free(a->tools[i].notes);
        free(a->tools[i].summary);
    }
    memset(a, 0, sizeof *a);
}

bool cc_build_artifacts(const cc_contract_t *m, cc_artifacts_t *a)
{
    return cc_build_artifacts_with(m, NULL, 0, a, NULL) == 0;
}

int cc_build_artifacts_with(const cc_contract_t *m, const char *const *dialects,
                            size_t dialect_count, cc_artifacts_t *a, cc_diags_t *diags)
{
    return cc_build_artifacts_grammar(m, dialects, dialect_count, false, a, diags);
}

int cc_build_artifacts_grammar(const cc_contract_t *m, const char *const *dialects,
                               size_t dialect_count, bool gbnf, cc_artifacts_t *a,
                               cc_diags_t *diags)
{
    return cc_build_artifacts_tools(m, dialects, dialect_count, gbnf, NULL, 0, a, diags);
}

int cc_build_artifacts_tools(const cc_contract_t *m, const char *const *dialects,
                             size_t dialect_count, bool gbnf, const char *const *tools,
                             size_t tool_count, cc_artifacts_t *a, cc_diags_t *diags)
{
    memset(a, 0, sizeof *a);
    int refused = 0;
    for (size_t i = 0; i < dialect_count; i++) {
        const char *name = NULL;
        for (size_t k = 0; k < cc_dialect_count; k++)
            if (strcmp(cc_dialect_names[k], dialects[i]) == 0)
                name = cc_dialect_names[k];
        bool seen = false;
        for (size_t k = 0; k < a->dialect_count; k++)
            seen = seen || a->dialects[k].name == name;
        if (!name || seen || a->dialect_count == CC_MAX_DIALECTS)
            continue;
        cc_dialect_artifacts_t *d = &a->dialects[a->dialect_count];
        cc_diags_t local;
        cc_diags_init(&local);
        int rc = cc_emit_schema_dialect(m, name, &d->schema, &d->schema_len, &d->notes,
                                        &d->notes_len, &d->summary, diags ? diags : &local);
        cc_diags_free(&local);
        if (rc < 0) {
            cc_artifacts_free(a);
            return -1;
        }
        if (rc > 0) {
            refused = 1;
            continue;
        }
        d->name = name;
        a->dialect_count++;
    }
    /* the tool definitions (gen_tool.c), as the dialects above */
    for (size_t i = 0; i < tool_count; i++) {
        const char *name = NULL;
        for (size_t k = 0; k < cc_tool_count; k++)
            if (strcmp(cc_tool_names[k], tools[i]) == 0)
                name = cc_tool_names[k];
        bool seen = false;
        for (size_t k = 0; k < a->tool_count; k++)
            seen = seen || a->tools[k].name == name;
        if (!name || seen || a->tool_count == CC_MAX_TOOLS)
            continue;
        cc_dialect_artifacts_t *d = &a->tools[a->tool_count];
        cc_diags_t local;
        cc_diags_init(&local);
        int rc = cc_emit_tool(m, name, &d->schema, &d->schema_len, &d->notes, &d->notes_len,
                              &d->summary, diags ? diags : &local);
        cc_diags_free(&local);
        if (rc < 0) {
            cc_artifacts_free(a);
            return -1;
        }
        if (rc > 0) {
            refused = 1;
            continue;
        }
        d->name = name;
        a->tool_count++;
    }
    a->prompt = cc_emit_prompt(m, &a->prompt_len);
    a->schema = cc_emit_schema(m, &a->schema_len);
    if (!a->prompt || !a->schema ||
        !cc_contract_hash(m, a->schema, a->schema_len, a->prompt, a->prompt_len, a->hash)) {
        cc_artifacts_free(a);
        return -1;
    }
    if (gbnf && !cc_emit_gbnf(m, &a->gbnf, &a->gbnf_len, &a->gbnf_notes, &a->gbnf_notes_len)) {
        cc_artifacts_free(a);
        return -1;
    }
    cc_tables_t *t = cc_tables_build(m, a->hash);
    if (!t) {
        cc_artifacts_free(a);
        return -1;
    }
    cc_dialect_text_t texts[CC_MAX_DIALECTS];
    for (size_t i = 0; i < a->dialect_count; i++) {
        texts[i].dialect = a->dialects[i].name;
        texts[i].schema = a->dialects[i].schema;
        texts[i].schema_len = a->dialects[i].schema_len;
    }
    cc_dialect_text_t tool_texts[CC_MAX_TOOLS];
    for (size_t i = 0; i < a->tool_count; i++) {
        tool_texts[i].dialect = a->tools[i].name;
        tool_texts[i].schema = a->tools[i].schema;
        tool_texts[i].schema_len = a->tools[i].schema_len;
    }
    cc_c_inputs_t in = {a->hash, a->prompt, a->prompt_len, a->schema, a->schema_len,
                        texts, a->dialect_count, a->gbnf, a->gbnf_len, tool_texts, a->tool_count};
    bool ok = cc_emit_c(m, t, &in, &a->header, &a->header_len, &a->source, &a->source_len);
    cc_tables_free(t);
    if (!ok) {
        cc_artifacts_free(a);
        return -1;
    }
    return refused;
}
