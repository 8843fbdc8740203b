/* SPDX-License-Identifier: MIT */
/*
 * fuzz_validate.c - `contractc validate`'s path on arbitrary replies: the
 * test contracts loaded from YAML (cc_contract_load), their descriptor
 * tables built in memory (cc_tables_build), then contractc_parse.
 *
 * Properties, for every input:
 *   - the problem-list invariants (fuzz_common.h), a zeroed record when not
 *     accepted;
 *   - the in-memory tables and the generated tables (NAME.c, compiled from
 *     the same contract) give the same outcome: the same status, the same
 *     problems in the same order (kind, path, both messages, line, column)
 *     and, when accepted, the same canonical form.  The CLI and the
 *     generated parser cannot disagree.
 *
 * Input: REPLY; refund_request gets the example email as its source.
 */
#include "fuzz_common.h"
#include "generator.h"
#include "invoice.h"
#include "refund_request.h"
#include "tables.h"

static const char email[] =
    "Hi team,\nI was charged twice for order A-20817. The second charge of \xE2\x82\xAC" "89.90 on 3 "
    "March is a duplicate. Please refund it.\nThanks,\nM.";

typedef struct loaded {
    cc_contract_t *model;
    cc_tables_t *tables;
} loaded_t;

/* Loaded once: the tables are read-only, like a generated NAME.c. */
static loaded_t refund, invoice;

static loaded_t load(const char *path)
{
    cc_diags_t d;
    cc_diags_init(&d);
    loaded_t l = {0};
    l.model = cc_contract_load(path, &d);
    if (!l.model || d.errors) {
        cc_diags_print(&d, stderr);
        abort();
    }
    cc_diags_free(&d);
    l.tables = cc_tables_build(l.model, "sha256:fuzz");
    if (!l.tables)
        abort();
    return l;
}

typedef struct result {
    contractc_status_t status;
    char *text; /* every problem, or the canonical form */
} result_t;

static result_t parse(const contractc_contract_t *contract, const char *reply, size_t len,
                      const char *source, size_t source_len)
{
    union {
        long double ld;
        void *p;
        unsigned char bytes[4096];
    } rec;
    FUZZ_CHECK(contract->root->size <= sizeof rec.bytes, "record too large");
    memset(rec.bytes, 0x5A, sizeof rec.bytes);
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    result_t r;
    r.status = contractc_parse(contract, reply, len, source, source_len, NULL, rec.bytes, &problems);
    fuzz_check_problems(r.status, &problems);
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_printf(&b, "%s fenced=%d dropped=%zu\n", contractc_status_name(r.status),
                  (int)problems.fenced, problems.dropped);
    for (size_t i = 0; i < contractc_problems_count(&problems); i++) {
        const contractc_problem_t *p = contractc_problems_at(&problems, i);
        cc_buf_printf(&b, "%s %s %zu:%zu %s | %s | %s\n", contractc_kind_name(p->kind), p->path,
                      p->line, p->column, p->message, p->log_message, p->rule ? p->rule : "-");
    }
    if (r.status == CONTRACTC_OK) {
        size_t n = 0;
        char *json = contractc_to_json(contract, rec.bytes, &n);
        FUZZ_CHECK(json != NULL, "no canonical form");
        cc_buf_append(&b, json, n);
        free(json);
        contractc_record_free(contract, rec.bytes);
    } else {
        FUZZ_CHECK(fuzz_all_zero(rec.bytes, contract->root->size), "record not zeroed");
    }
    contractc_problems_clear(&problems);
    r.text = cc_buf_take(&b, NULL);
    FUZZ_CHECK(r.text != NULL, "out of memory");
    return r;
}

static void compare(const char *name, const contractc_contract_t *generated,
                    const loaded_t *in_memory, const char *reply, size_t len, const char *source,
                    size_t source_len)
{
    result_t g = parse(generated, reply, len, source, source_len);
    result_t m = parse(&in_memory->tables->contract, reply, len, source, source_len);
    FUZZ_CHECK(g.status == m.status && strcmp(g.text, m.text) == 0,
               "%s: the generated parser and the in-memory tables disagree:\n--- generated\n%s\n"
               "--- in memory\n%s",
               name, g.text, m.text);
    free(g.text);
    free(m.text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!refund.tables) {
        refund = load(CONTRACTC_TEST_DATA "/contracts/refund_request.contract.yaml");
        invoice = load(CONTRACTC_TEST_DATA "/contracts/invoice.contract.yaml");
    }
    char *reply = malloc(size ? size : 1);
    if (!reply)
        abort();
    memcpy(reply, data, size);
    compare("refund_request", &refund_request_contract, &refund, reply, size, email,
            sizeof email - 1);
    compare("invoice", &invoice_contract, &invoice, reply, size, NULL, 0);
    free(reply);
    return 0;
}
