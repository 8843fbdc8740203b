/*
 * fuzz_contract.c - the contract loader (YAML -> checked, named model) on
 * arbitrary bytes, and everything the generator does with a contract it
 * accepts: the descriptor tables, the prompt, the schema, the hash and the
 * C files.
 *
 * Properties, for every input:
 *   - cc_contract_load_buffer returns a model exactly when no error was
 *     reported, and an error always has a position (FILE:LINE:COL, or the
 *     file as a whole) and a message;
 *   - an accepted contract builds its tables and its artifacts (only out of
 *     memory may stop that), and its record has at least one field;
 *   - bounded work: libFuzzer's -timeout and -rss_limit_mb catch a hang or
 *     a blow-up (the DFA state cap, the node, field and nesting caps).
 */
#include "fuzz_common.h"
#include "generator.h"
#include "tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256 * 1024)
        return 0;
    char *text = malloc(size ? size : 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *c = cc_contract_load_buffer("fuzz.contract.yaml", text, size, &d);
    FUZZ_CHECK((c != NULL) == (d.errors == 0), "model %s with %zu errors", c ? "returned" : "NULL",
               d.errors);
    for (size_t i = 0; i < d.count; i++) {
        FUZZ_CHECK(d.items[i].message && d.items[i].message[0], "an empty diagnostic");
        FUZZ_CHECK(d.items[i].file && strcmp(d.items[i].file, "fuzz.contract.yaml") == 0,
                   "a diagnostic names another file");
        FUZZ_CHECK(d.items[i].mark.line <= size + 2, "line %u beyond the input",
                   d.items[i].mark.line);
    }
    if (c) {
        FUZZ_CHECK(c->root.field_count >= 1, "an accepted contract without fields");
        cc_tables_t *t = cc_tables_build(c, "sha256:fuzz");
        FUZZ_CHECK(t != NULL, "no tables for an accepted contract");
        FUZZ_CHECK(t->contract.root && t->contract.root->field_count == c->root.field_count,
                   "tables lost fields");
        cc_tables_free(t);
        cc_artifacts_t a;
        FUZZ_CHECK(cc_build_artifacts(c, &a), "no artifacts for an accepted contract");
        FUZZ_CHECK(a.header && a.source && a.schema && a.prompt, "an artifact is missing");
        FUZZ_CHECK(strncmp(a.hash, "sha256:", 7) == 0 && strlen(a.hash) == 71, "hash %s", a.hash);
        cc_artifacts_free(&a);
    }
    cc_contract_free(c);
    cc_diags_free(&d);
    free(text);
    return 0;
}
