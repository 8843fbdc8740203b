/* SPDX-License-Identifier: MIT */
/*
 * generator.h - the generator's stages after loading (internal).
 *
 *   load.c: parse_yaml.c -> check.c -> naming.c   (load.h: cc_contract_load)
 *   phrase.c       the phrase book: examples, rule sentences, constraints in words
 *   gen_prompt.c   NAME.prompt.txt
 *   gen_schema.c   NAME.schema.json (draft 2020-12) and the dialects
 *   hash.c         canonical model + NAME_contract_hash
 *   gen_c.c        NAME.h and NAME.c from templates/
 *   tables.c       the same descriptor tables, in memory (contractc validate)
 *   cli.c          the `contractc` command line
 *
 * Every function returning `char *` returns malloc'd, NUL-terminated text
 * that the caller frees with free(); NULL means out of memory.
 */
#ifndef CONTRACTC_GENERATOR_H
#define CONTRACTC_GENERATOR_H

#include <stdio.h>

#include "load.h" /* cc_contract_load, for the command line */
#include "model.h"
#include "text.h"

/* ---- gen_prompt.c ---------------------------------------------------- */

/* NAME.prompt.txt: the instruction, the key list with each field's line, the
 * rule sentences and the closing line (docs/contract-language.md §9, "The
 * prompt"). */
char *cc_emit_prompt(const cc_contract_t *contract, size_t *len);

/* ---- phrase.c: the phrase book ---------------------------------------- */
/* Every English phrase the model reads about a contract: the prompt, the
 * schema and dialect descriptions and the rule problems' messages (hence
 * the repair turn) are written with these, so one constraint reads the
 * same everywhere. */
/* A valid example of a scalar field's value as JSON text ("\"1250.00\"",
 * "3", "\"2024-03-01\""): the field's `example` when set, else one made from
 * the type and constraints; NULL for objects, arrays and patterned strings
 * without an example. */
char *cc_value_example(const cc_field_t *field);

/* True when cc_value_example() gives an example for this field, so that its
 * NULL can be told apart: "none" when this is false, out of memory when it
 * is true. */
bool cc_value_has_example(const cc_field_t *field);

/* The rule in words, e.g. "amount, currency and amount_text must be all
 * null or all set": the rule problem's message and, when the rule has no
 * `prompt:`, its prompt sentence (a `check`'s is its `message:`, used for
 * the repair turn only: see cc_rule_prompted). */
char *cc_rule_sentence(const cc_object_t *owner, const cc_rule_t *rule);

/* The prompt's phrases, shared with the dialects' descriptions so both say
 * a constraint in the same words: a count ("exactly N", "N to M", "at
 * least N", "at most M" + noun; a minimum of 0 says nothing), one bound of
 * an integer, number or decimal (as written in the contract when known),
 * and a value's bounds (" from A to B", " A or more", " B or less"). */
/* ", each " and, for items that may be null, "null or "
 * (docs/contract-language.md §4.6). */
void cc_phrase_each_item(cc_buf_t *b, const cc_value_t *items);
void cc_phrase_count(cc_buf_t *b, bool has_min, uint32_t min, bool has_max, uint32_t max,
                     const char *one, const char *many);
void cc_phrase_bound(cc_buf_t *b, const cc_value_t *v, bool low);
void cc_phrase_bounds(cc_buf_t *b, const cc_value_t *v);

/* A decimal's whole phrase: 'like "1250.00" (dot, two decimals, no
 * separators)' (the form's words from cc_decimal_form, as the repair
 * message has them), then ", from A to B" etc.; `written` is the field's
 * example (NULL: synthesized). */
void cc_phrase_decimal(cc_buf_t *b, const cc_value_t *v, const char *written);

/* A date's or datetime's phrase: 'like "2024-03-01" (YYYY-MM-DD)', 'like
 * "2024-03-01T14:30:00Z" (RFC 3339 with seconds and an offset)';
 * `written` is the field's example (NULL: the default one). */
void cc_phrase_date(cc_buf_t *b, const cc_value_t *v, const char *written);

/* A tagged union's phrase (docs/contract-language.md §4.11): 'an object of
 * one of these kinds, said by its key "intent": "refund", "complaint" or
 * "question"' (the prompt's, and the dialects' descriptions). */
void cc_phrase_union(cc_buf_t *b, const cc_value_t *v);

/* Any JSON value's phrase (docs/contract-language.md §4.14): 'any JSON
 * value (an object, a list, ...; no key twice in one object)', then ', at
 * most N bytes of JSON text' for max_bytes (the prompt's, and the
 * dialects' descriptions). */
void cc_phrase_json(cc_buf_t *b, const cc_value_t *v);

/* A variant's heading line in the prompt, without its end: 'when
 * route.intent is "refund"' (`path` as the prompt writes it). */
void cc_phrase_variant(cc_buf_t *b, const char *path, const cc_value_t *v, size_t variant);

/* What comes before alternative i of a value union's phrase (docs/
 * contract-language.md §4.13): "either " before the first, "; or " before
 * each other ('either text, at most 10 characters; or a whole number 0 or
 * more'). */
void cc_phrase_alternative(cc_buf_t *b, size_t i);

/* Text on one line: trimmed, every run of CR, LF and TAB as one space (how
 * descriptions, format texts and rule prompts enter the prompt). */
void cc_phrase_one_line(cc_buf_t *b, const char *s);

/* Grounding in words, one phrase for the prompt, the schema descriptions and
 * the dialect notes: "copied exactly from " + `source.description` (one
 * line), else "the " + `source.name`. */
void cc_phrase_grounded(cc_buf_t *b, const cc_contract_t *contract);

/* True when the field's value is a grounded string, or an array whose
 * innermost items are grounded strings. */
bool cc_value_grounded(const cc_value_t *v);

/* True when the field's description or format_text already says that its
 * value is copied from the source: it contains "verbatim", "copied exactly"
 * or "exactly as" (ASCII, any case).  Then cc_phrase_grounded is not
 * added. */
bool cc_grounding_stated(const cc_field_t *field);

/* False for a `check` without `prompt:`: it has no prompt line and no
 * sentence in a schema description (its message is for the repair turn). */
bool cc_rule_prompted(const cc_rule_t *rule);

/* ---- gen_schema.c ---------------------------------------------------- */

/* NAME.schema.json: the portable draft 2020-12 schema (dialects.md section
 * 0), pretty-printed with two-space indents and a final newline. */
char *cc_emit_schema(const cc_contract_t *contract, size_t *len);

/* Prints a schema tree in the layout of NAME.schema.json: two-space
 * indents, keys in insertion order, integral numbers as integers, others
 * as the shortest round-trip text (never through the C locale).  No final
 * newline. */
struct cJSON;
void cc_print_schema_json(cc_buf_t *b, const struct cJSON *item);

/* ---- hash.c ---------------------------------------------------------- */

/* The canonical contract model: every resolved setting that affects a
 * verdict, as compact JSON in contract order. */
char *cc_canonical_model(const cc_contract_t *contract, size_t *len);

/* "sha256:" + 64 lowercase hex over "contractc-hash-v1\n", then the
 * canonical model, the schema and the prompt, each preceded by its length
 * in decimal and a newline.  out holds 72 bytes.  false when out of memory
 * or libcrypto fails. */
bool cc_contract_hash(const cc_contract_t *contract, const char *schema,
                      size_t schema_len, const char *prompt, size_t prompt_len,
                      char out[72]);

/* ---- gen_c.c ----------------------------------------------------------- */

struct cc_tables;

/* One dialect's schema, embedded in NAME.c as NAME_schema_D_json[]. */
typedef struct cc_dialect_text {
    const char *dialect;   /* "openai-strict" */
    const char *schema;
    size_t schema_len;
} cc_dialect_text_t;

/* The texts NAME.c embeds and the banner's hash. */
typedef struct cc_c_inputs {
    const char *hash;
    const char *prompt;
    size_t prompt_len;
    const char *schema;
    size_t schema_len;
    const cc_dialect_text_t *dialects;
    size_t dialect_count;
    const char *gbnf;      /* NAME.gbnf, embedded as NAME_gbnf[]; NULL: not asked for */
    size_t gbnf_len;
    /* tool definitions (gen_tool.c), embedded as NAME_tool_D_json[]: dialect
     * is the tool's name ("openai"), schema its NAME.D.tool.json */
    const cc_dialect_text_t *tools;
    size_t tool_count;
} cc_c_inputs_t;

/*
 * NAME.h and NAME.c, from templates/header.h.tmpl and templates/source.c.tmpl
 * and the tables of tables.c.  *header and *source are malloc'd (free()
 * them); false when out of memory (then both are NULL).
 */
bool cc_emit_c(const cc_contract_t *contract, const struct cc_tables *tables,
               const cc_c_inputs_t *in, char **header, size_t *header_len,
               char **source, size_t *source_len);

/* Renders template `name` with {{key}} replaced by values[i] for keys[i].
 * An unknown name or key is a programming error: returns false. */
bool cc_render_template(const char *name, const char *const *keys,
                        const char *const *values, size_t count, cc_buf_t *out);

/* ---- gen_dialect.c -------------------------------------------------------- */

/* The provider dialects of dialects.md, in the order they are documented. */
extern const char *const cc_dialect_names[];
extern const size_t cc_dialect_count;

/* True for a known dialect name ("openai-strict", "gemini", "anthropic",
 * "llama-cpp"). */
bool cc_dialect_known(const char *dialect);

/*
 * NAME.D.schema.json and NAME.D.notes.txt: the portable schema rewritten
 * into dialect D's subset (dialects.md), and the constraints D cannot carry,
 * one line per path.  Returns 0 on success; 1 when the contract is over the
 * dialect's limits (a diagnostic naming the limit is added to diags, and
 * nothing is returned: never a tightened schema); -1 when out of memory or
 * the dialect is unknown.  *schema and *notes are malloc'd (free() them).
 * *summary (malloc'd) is the one line `generate` prints for D.  D may also
 * be "mcp", no --schema-dialect: an MCP tool's inputSchema (gen_tool.c),
 * the portable schema without $schema/$id, with the no-form notes.
 */
int cc_emit_schema_dialect(const cc_contract_t *contract, const char *dialect,
                           char **schema, size_t *schema_len, char **notes,
                           size_t *notes_len, char **summary, cc_diags_t *diags);

/* ---- gen_tool.c ---------------------------------------------------------- */

/* The tool definitions of `generate --tool D` (docs/tools.md), in the
 * order documented: "openai", "anthropic", "gemini", "mcp". */
extern const char *const cc_tool_names[];
extern const size_t cc_tool_count;

/* True for a known tool name. */
bool cc_tool_known(const char *tool);

/*
 * NAME.D.tool.json and NAME.D.tool.notes.txt: the contract as one tool
 * definition for D, its parameters the schema of D's dialect (openai:
 * openai-strict, anthropic, gemini, mcp: the portable schema), and the
 * dialect's not-carried notes.  Returns 0; 1 when D is refused (the
 * dialect's limits, or the contract name outside D's tool-name rule: a
 * diagnostic in diags); -1 when out of memory or D is unknown.  *json,
 * *notes and *summary (the line `generate` prints) are malloc'd.
 */
int cc_emit_tool(const cc_contract_t *contract, const char *tool, char **json, size_t *json_len,
                 char **notes, size_t *notes_len, char **summary, cc_diags_t *diags);

/* ---- gen_toolset.c --------------------------------------------------------- */

/* One contract of a generated toolset: its name, the base name of its file
 * and its hash ("sha256:..."), all borrowed. */
typedef struct cc_toolset_member {
    const char *name;
    const char *file_name;
    const char *hash;
} cc_toolset_member_t;

/* True when `name` can name a toolset of members[0..count): [a-z][a-z0-9_]*
 * of at most 64 characters, no C keyword, no C prefix shared with a member
 * (docs/tools.md, "Generated toolsets"), distinct member names, at least
 * one member.  Otherwise false with the reason in why[0..why_size). */
bool cc_toolset_name_ok(const char *name, const cc_toolset_member_t *members, size_t count,
                        char *why, size_t why_size);

/* NAME.h and NAME.c of the toolset `name` over members[0..count), tools in
 * that order (templates/toolset.h.tmpl, toolset.c.tmpl).  *header and
 * *source are malloc'd and NUL-terminated; false out of memory. */
bool cc_emit_toolset(const char *name, const cc_toolset_member_t *members, size_t count,
                     char **header, size_t *header_len, char **source, size_t *source_len);

/* ---- stats.c --------------------------------------------------------------- */

/* `contractc stats LOG... [--json]` (docs/contract-language.md §15, "The
 * decision log"; docs/contract-language.md, "The decision log").  Exit 0; 1
 * out of memory or an error writing `out`; 2 usage or an unreadable log. */
int cc_stats_main(int argc, char **argv, FILE *out, FILE *err);

/* The longest log line `stats` reads, in bytes (64 MiB); a longer one is
 * a bad line, skipped as it is read.  Above the longest line the runtime's
 * writer makes at the loop's limits: 100 attempts of 64 problems (the
 * default cap), each path at most 4 KiB (8 KiB escaped), is 53 MB; the
 * rest is the opted-in value and the caller's own texts. */
#define CC_STATS_MAX_LINE ((size_t)64 << 20)

/* The same report for one open log `in`, named `name` in messages, with
 * lines capped at max_line bytes (0: CC_STATS_MAX_LINE); the fuzz target's
 * entry.  Same exit codes; `in` is not closed. */
int cc_stats_stream(FILE *in, const char *name, size_t max_line, bool json, FILE *out,
                    FILE *err);

/* ---- vendor.c -------------------------------------------------------------- */

/* `contractc vendor DIR`: writes the runtime's files for vendoring (DIR
 * and its parents made if missing; unchanged files left alone).  Each
 * file's path is a line on info (NULL: none, for -q); errors on err. */
int cc_vendor_main(int argc, char **argv, FILE *info, FILE *err);

/* ---- generate.c ---------------------------------------------------------- */

#define CC_MAX_DIALECTS 8
#define CC_MAX_TOOLS 4

/* One dialect's artifacts. */
typedef struct cc_dialect_artifacts {
    const char *name;        /* static: one of cc_dialect_names */
    char *schema, *notes, *summary;
    size_t schema_len, notes_len;
} cc_dialect_artifacts_t;

/* Every artifact of one contract, in memory. */
typedef struct cc_artifacts {
    char hash[72];
    char *prompt, *schema, *header, *source; /* malloc'd, NUL-terminated */
    size_t prompt_len, schema_len, header_len, source_len;
    cc_dialect_artifacts_t dialects[CC_MAX_DIALECTS];
    size_t dialect_count;
    char *gbnf, *gbnf_notes;   /* NAME.gbnf and its notes; NULL unless asked for */
    size_t gbnf_len, gbnf_notes_len;
    /* tool definitions (--tool D): name is one of cc_tool_names, schema
     * NAME.D.tool.json, notes NAME.D.tool.notes.txt */
    cc_dialect_artifacts_t tools[CC_MAX_TOOLS];
    size_t tool_count;
} cc_artifacts_t;

/* Builds the four artifacts of a loaded contract.  false when out of
 * memory (a is then empty).  Release with cc_artifacts_free. */
bool cc_build_artifacts(const cc_contract_t *contract, cc_artifacts_t *a);

/*
 * The same, plus the schemas of `dialects` (names; duplicates ignored),
 * which NAME.c then embeds as NAME_schema_D_json[].  Returns 0; 1 when a
 * dialect was refused (its diagnostic is in diags; the other artifacts are
 * built without it); -1 when out of memory.
 */
int cc_build_artifacts_with(const cc_contract_t *contract, const char *const *dialects,
                            size_t dialect_count, cc_artifacts_t *a, cc_diags_t *diags);
void cc_artifacts_free(cc_artifacts_t *a);

/* cc_build_artifacts_grammar, and with `tools` (names of cc_tool_names;
 * duplicates ignored) also NAME.D.tool.json and its notes (gen_tool.c),
 * which NAME.c then embeds as NAME_tool_D_json[].  Same returns (1: a
 * dialect or a tool was refused). */
int cc_build_artifacts_tools(const cc_contract_t *contract, const char *const *dialects,
                             size_t dialect_count, bool gbnf, const char *const *tools,
                             size_t tool_count, cc_artifacts_t *a, cc_diags_t *diags);

/* cc_build_artifacts_with, and with `gbnf` also NAME.gbnf and its notes
 * (gen_gbnf.c), which NAME.c then embeds as NAME_gbnf[].  Same returns. */
int cc_build_artifacts_grammar(const cc_contract_t *contract, const char *const *dialects,
                               size_t dialect_count, bool gbnf, cc_artifacts_t *a,
                               cc_diags_t *diags);

/* The `contractc` command line (cli.c); tests call it in process.  Results
 * go to out, diagnostics to err; out is flushed and checked before it
 * returns (a failed write is an error exit with a message on err).
 * Returns the exit code. */
int cc_cli_main(int argc, char **argv, FILE *out, FILE *err);

#endif /* CONTRACTC_GENERATOR_H */
