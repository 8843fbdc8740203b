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

/* An emitter of one dialect schema or one tool definition: the shape of
 * cc_emit_schema_dialect and cc_emit_tool (0 written, 1 refused, -1 error). */
typedef int (*emit_one_fn)(const cc_contract_t *, const char *, char **, size_t *, char **,
                           size_t *, char **, cc_diags_t *);

/*
 * Emits each requested name of `known` once, in request order, into out[]
 * (capacity max, count *n): unknown names and repeats are skipped.  Returns
 * -1 on an emitter error (out of memory), else 1 when an emitter refused a
 * name (its diagnostic is in diags), else 0.
 */
static int emit_each(const cc_contract_t *m, const char *const *want, size_t want_count,
                     const char *const *known, size_t known_count, emit_one_fn emit,
                     cc_dialect_artifacts_t *out, size_t *n, size_t max, cc_diags_t *diags)
{
    int refused = 0;
    for (size_t i = 0; i < want_count; i++) {
        const char *name = NULL;
        for (size_t k = 0; k < known_count; k++)
            if (strcmp(known[k], want[i]) == 0)
                name = known[k];
        bool seen = false;
        for (size_t k = 0; k < *n; k++)
            seen = seen || out[k].name == name;
        if (!name || seen || *n == max)
            continue;
        cc_dialect_artifacts_t *d = &out[*n];
        cc_diags_t local;
        cc_diags_init(&local);
        int rc = emit(m, name, &d->schema, &d->schema_len, &d->notes, &d->notes_len,
                      &d->summary, diags ? diags : &local);
        cc_diags_free(&local);
        if (rc < 0)
            return -1;
        if (rc > 0) {
            refused = 1;
            continue;
        }
        d->name = name;
        (*n)++;
    }
    return refused;
}

int cc_build_artifacts_tools(const cc_contract_t *m, const char *const *dialects,
                             size_t dialect_count, bool gbnf, const char *const *tools,
                             size_t tool_count, cc_artifacts_t *a, cc_diags_t *diags)
{
    memset(a, 0, sizeof *a);
    int rd = emit_each(m, dialects, dialect_count, cc_dialect_names, cc_dialect_count,
                       cc_emit_schema_dialect, a->dialects, &a->dialect_count,
                       CC_MAX_DIALECTS, diags);
    /* the tool definitions (gen_tool.c), as the dialects above */
    int rt = rd < 0 ? -1
                    : emit_each(m, tools, tool_count, cc_tool_names, cc_tool_count, cc_emit_tool,
                                a->tools, &a->tool_count, CC_MAX_TOOLS, diags);
    if (rd < 0 || rt < 0) {
        cc_artifacts_free(a);
        return -1;
    }
    int refused = rd || rt;
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
