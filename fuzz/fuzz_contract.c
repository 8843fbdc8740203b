/* SPDX-License-Identifier: MIT */
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
 *   - an accepted contract's record has at least one field, and it builds
 *     its tables, its prompt, its schema and all its artifacts (only out of
 *     memory may stop that; the schema up to FUZZ_SCHEMA_MAX_NODES and the
 *     rest of the artifacts up to FUZZ_BUILD_MAX_NODES, for speed);
 *   - a size budget, checked before anything is expanded: an accepted
 *     contract, written out with every named type in full at each use (as
 *     the prompt and the schemas write it), has at most
 *     FUZZ_EXPANDED_BUDGET fields, rules and enum values.  Counted here on
 *     the model, once per named type, so a contract that doubles at each
 *     level is a failed property in microseconds, where a time-out would
 *     need it to run for seconds and only the deepest would be caught;
 *   - the tables are the contract's, each named type once: their objects,
 *     fields, rules, enums, enum values, patterns and item values number at
 *     most the input's bytes;
 *   - the prompt, the schema and all the artifacts together each grow with
 *     that size, the depth and the texts the contract repeats, no faster
 *     (artifact_budget, the FUZZ_ARTIFACT_* bounds below);
 *   - libFuzzer's -timeout and -rss_limit_mb stay as the last resort.
 *
 * Input: a contract file, or, after a NUL byte, a graph of named types that
 * is written out as one (type_graph).
 */
#include "fuzz_common.h"
#include "generator.h"
#include "load.h"
#include "tables.h"

/* What the fuzz run can build within its time-out: a contract written out
 * to 12,000 nodes takes 16 s under ASan (a 40 MB NAME.c).  Independent of
 * the loader's own limit, which must be lower. */
#define FUZZ_EXPANDED_BUDGET 20000u
#if CC_MAX_EXPANDED >= FUZZ_EXPANDED_BUDGET
#error "CC_MAX_EXPANDED must stay below FUZZ_EXPANDED_BUDGET: the loader refuses first"
#endif
/* Accepted contracts are built (tables, artifacts) up to this size only:
 * one written out to 1,000 nodes takes 0.7 s under ASan, 10,000 some 13 s,
 * and a run of such inputs tests little at 22 executions a second.  Their
 * generation is the generator tests' business; the budget above still
 * holds for every input. */
#define FUZZ_BUILD_MAX_NODES 200u
/* The tables and the prompt are built for every accepted contract (8,191
 * nodes: tables 5 ms, prompt 40 ms and 460 KB under ASan), the schema up
 * to this size (511 nodes: 12 ms, 140 KB; 8,191: 230 ms, 3 MB): a replay
 * of 1,025 fuzzed contracts then costs what it did without them. */
#define FUZZ_SCHEMA_MAX_NODES 500u
/* Measured: at most ~1.6 KB per node on the corpus, 3.2 KB for a chain of
 * named types 13 levels deep, 4.9 KB at 30 levels (the schemas indent
 * every level, and NAME.c embeds them escaped).  Per node: PER_LEVEL for
 * each level of the contract's depth, PER_BYTE for each input byte (a
 * named type repeats its descriptions at every use); and BASE once. */
#define FUZZ_ARTIFACT_BASE (64u << 10)
#define FUZZ_ARTIFACT_PER_LEVEL 1024u
#define FUZZ_ARTIFACT_PER_BYTE 32u

static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* The bytes a contract of `size` input bytes, `nodes` written out and
 * `depth` levels may generate, for any one artifact or all of them. */
static uint64_t artifact_budget(size_t size, uint64_t nodes, unsigned depth)
{
    return FUZZ_ARTIFACT_BASE + nodes * ((uint64_t)FUZZ_ARTIFACT_PER_LEVEL * (1 + depth) +
                                         (uint64_t)FUZZ_ARTIFACT_PER_BYTE * size);
}

static void check_artifact(const char *what, uint64_t bytes, size_t size, uint64_t nodes,
                           unsigned depth)
{
    uint64_t allowed = artifact_budget(size, nodes, depth);
    FUZZ_CHECK(bytes <= allowed,
               "%llu bytes of %s from %zu input bytes, %llu nodes, depth %u (budget %llu)",
               (unsigned long long)bytes, what, size, (unsigned long long)nodes, depth,
               (unsigned long long)allowed);
}

/* The tables' entries: each object, field, rule, enum, enum value, pattern
 * and item value once. */
static uint64_t table_entries(const cc_tables_t *t)
{
    uint64_t n = t->object_count + t->enum_count + t->dfa_count + t->item_count;
    for (size_t i = 0; i < t->object_count; i++)
        n += t->objects[i].table->field_count + t->objects[i].table->rule_count;
    for (size_t i = 0; i < t->enum_count; i++)
        n += t->enums[i].table->count;
    return n;
}

typedef struct expansion {
    const cc_contract_t *c;
    uint64_t *memo; /* per named type: its size written out, + 1; 0: not yet */
} expansion_t;

static uint64_t object_size(expansion_t *e, const cc_object_t *o);

static uint64_t value_size(expansion_t *e, const cc_value_t *v)
{
    uint64_t n = 0;
    if (v->enumeration)
        n = add_sat(n, v->enumeration->count);
    if (v->object)
        n = add_sat(n, object_size(e, v->object));
    if (v->items)
        n = add_sat(n, value_size(e, v->items));
    return n;
}

static uint64_t object_size(expansion_t *e, const cc_object_t *o)
{
    size_t slot = e->c->type_count;
    if (o->named)
        for (size_t i = 0; i < e->c->type_count; i++)
            if (e->c->types[i].object == o)
                slot = i;
    if (slot < e->c->type_count && e->memo[slot])
        return e->memo[slot] - 1;
    uint64_t n = o->rule_count;
    for (size_t i = 0; i < o->field_count; i++)
        n = add_sat(n, add_sat(1, value_size(e, &o->fields[i].value)));
    if (slot < e->c->type_count)
        e->memo[slot] = n == UINT64_MAX ? n : n + 1;
    return n;
}

/* The type-graph mode: named types that use one another, written as a
 * contract.  Byte pairs (a, b), one per type t0..t(n-1), n <= 48: type k
 * has 1 + (a & 3) fields; field j is an array when bit 2 + j of a is set,
 * and its type is t(k + 1 + (b >> 2j & 3)), or string past the last type.
 * The root is one field of type t0.  A few bytes make any sharing of named
 * types, deep or wide, which byte mutations of YAML text seldom reach. */
static char *type_graph(const uint8_t *spec, size_t size, size_t *len)
{
    size_t n = size / 2 > 48 ? 48 : size / 2;
    size_t cap = 128 + n * 4 * 64, o = 0;
    char *t = malloc(cap);
    FUZZ_CHECK(t != NULL, "out of memory");
    o += (size_t)snprintf(t + o, cap - o, "contract: g\nversion: 1\ninstruction: Read it.\n%s",
                          n ? "types:\n" : "");
    for (size_t k = 0; k < n; k++) {
        uint8_t a = spec[2 * k], b = spec[2 * k + 1];
        o += (size_t)snprintf(t + o, cap - o, "  t%zu:\n    fields:\n", k);
        for (unsigned j = 0; j < 1u + (a & 3u); j++) {
            size_t to = k + 1 + ((b >> (2 * j)) & 3u);
            char type[16];
            if (to < n)
                snprintf(type, sizeof type, "t%zu", to);
            else
                snprintf(type, sizeof type, "string");
            if (a >> (2 + j) & 1)
                o += (size_t)snprintf(t + o, cap - o, "      f%u: {type: array, items: {type: %s}}\n",
                                      j, type);
            else
                o += (size_t)snprintf(t + o, cap - o, "      f%u: {type: %s}\n", j, type);
        }
    }
    o += (size_t)snprintf(t + o, cap - o, "fields:\n  root: {type: %s}\n", n ? "t0" : "string");
    FUZZ_CHECK(o < cap, "type graph text overflow");
    *len = o;
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256 * 1024)
        return 0;
    /* A contract never starts with a NUL byte (the loader refuses it): an
     * input that does is a type graph instead (type_graph) */
    char *text;
    if (size && data[0] == 0) {
        text = type_graph(data + 1, size - 1, &size);
    } else {
        text = malloc(size ? size : 1);
        if (!text)
            abort();
        memcpy(text, data, size);
    }
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
        expansion_t e = {c, calloc(c->type_count + 1, sizeof(uint64_t))};
        FUZZ_CHECK(e.memo != NULL, "out of memory");
        uint64_t nodes = object_size(&e, &c->root);
        free(e.memo);
        FUZZ_CHECK(nodes <= FUZZ_EXPANDED_BUDGET,
                   "an accepted contract of %zu bytes expands to %llu fields, rules and enum "
                   "values (budget %u)",
                   size, (unsigned long long)nodes, FUZZ_EXPANDED_BUDGET);
        cc_tables_t *t = cc_tables_build(c, "sha256:fuzz");
        FUZZ_CHECK(t != NULL, "no tables for an accepted contract");
        FUZZ_CHECK(t->contract.root && t->contract.root->field_count == c->root.field_count,
                   "tables lost fields");
        uint64_t entries = table_entries(t);
        FUZZ_CHECK(entries <= size, "%llu table entries from %zu input bytes",
                   (unsigned long long)entries, size);
        cc_tables_free(t);
        size_t len = 0;
        char *prompt = cc_emit_prompt(c, &len);
        FUZZ_CHECK(prompt != NULL, "no prompt for an accepted contract");
        check_artifact("prompt", len, size, nodes, c->depth);
        free(prompt);
        if (nodes <= FUZZ_SCHEMA_MAX_NODES) {
            char *schema = cc_emit_schema(c, &len);
            FUZZ_CHECK(schema != NULL, "no schema for an accepted contract");
            check_artifact("schema", len, size, nodes, c->depth);
            free(schema);
        }
        if (nodes <= FUZZ_BUILD_MAX_NODES) {
            cc_artifacts_t a;
            FUZZ_CHECK(cc_build_artifacts(c, &a), "no artifacts for an accepted contract");
            FUZZ_CHECK(a.header && a.source && a.schema && a.prompt, "an artifact is missing");
            uint64_t bytes = (uint64_t)a.header_len + a.source_len + a.schema_len + a.prompt_len;
            check_artifact("artifacts", bytes, size, nodes, c->depth);
            FUZZ_CHECK(strncmp(a.hash, "sha256:", 7) == 0 && strlen(a.hash) == 71, "hash %s", a.hash);
            cc_artifacts_free(&a);
        }
    }
    cc_contract_free(c);
    cc_diags_free(&d);
    free(text);
    return 0;
}
