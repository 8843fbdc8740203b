/* SPDX-License-Identifier: MIT */
/*
 * test_gen_texts.c - the generated texts agree with each other: the prompt,
 * the portable schema, the dialect schemas and notes, and the runtime's
 * repair messages say one thing in one wording (docs/contract-language.md,
 * "The prompt"; docs/dialects.md).  Then the bounds on what a contract may
 * expand to (named types written out at every use) and on its patterns'
 * total work, each refused in bounded time.
 *
 * Contracts are YAML loaded from memory (cc_contract_load_buffer), so every
 * case goes through the loader, the checks and the naming as a user's does.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "generator.h"
#include "load.h"
#include "tables.h"

/* ---- helpers ------------------------------------------------------------ */

static cc_contract_t *load_ok(const char *yaml)
{
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *c = cc_contract_load_buffer("t.contract.yaml", yaml, strlen(yaml), &d);
    if (!c || d.errors)
        cc_diags_print(&d, stderr);
    ck_assert_msg(c && d.errors == 0, "contract does not load:\n%s", yaml);
    cc_diags_free(&d);
    return c;
}

/* The printed diagnostics of a contract that must not load. */
static char *load_errors(const char *yaml, size_t len)
{
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *c = cc_contract_load_buffer("t.contract.yaml", yaml, len, &d);
    ck_assert_ptr_null(c);
    ck_assert_int_gt((int)d.errors, 0);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    ck_assert_ptr_nonnull(f);
    cc_diags_print(&d, f);
    fclose(f);
    cc_diags_free(&d);
    return buf;
}

/* The line of `text` that starts with `prefix` (a copy), or NULL. */
static char *line_starting(const char *text, const char *prefix)
{
    size_t n = strlen(prefix);
    for (const char *p = text; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len >= n && memcmp(p, prefix, n) == 0)
            return cc_strndup(p, len);
        p = end ? end + 1 : NULL;
    }
    return NULL;
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* properties.KEY of an object schema node. */
static const cJSON *property(const cJSON *node, const char *key)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(node, "properties"), key);
    ck_assert_msg(p != NULL, "no property %s", key);
    return p;
}

/* The value branch of a nullable enum, object or array (anyOf[0]). */
static const cJSON *unwrap(const cJSON *p)
{
    const cJSON *any = cJSON_GetObjectItemCaseSensitive(p, "anyOf");
    return any ? cJSON_GetArrayItem(any, 0) : p;
}

static const char *description(const cJSON *node)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(node, "description");
    return cJSON_IsString(d) ? d->valuestring : NULL;
}

typedef struct dialect_out {
    char *schema, *notes, *summary;
    size_t schema_len, notes_len;
} dialect_out_t;

static dialect_out_t dialect(const cc_contract_t *c, const char *name)
{
    dialect_out_t o;
    cc_diags_t d;
    cc_diags_init(&d);
    int rc = cc_emit_schema_dialect(c, name, &o.schema, &o.schema_len, &o.notes, &o.notes_len,
                                    &o.summary, &d);
    ck_assert_msg(rc == 0, "dialect %s refused", name);
    cc_diags_free(&d);
    return o;
}

static void dialect_free(dialect_out_t *o)
{
    free(o->schema);
    free(o->notes);
    free(o->summary);
}

/* ---- grounding: one phrase in the prompt, the schemas and the notes ------- */

static const char k_grounded[] =
    "contract: t\nversion: 1\ninstruction: x\n"
    "source: {name: email, description: the customer email}\n"
    "fields:\n"
    /* "exactly" alone does not say that the value is copied */
    "  code: {type: string, grounded: true, description: exactly 3 letters of the order code}\n"
    /* says so: no second phrase */
    "  said: {type: string, grounded: true, description: the amount exactly as written}\n"
    "  plain: {type: string, grounded: true, nullable: true}\n"
    "  quotes:\n"
    "    type: array\n"
    "    description: the sentences that ask for a refund\n"
    "    items: {type: string, grounded: true}\n"
    "  maybe_quotes:\n"
    "    type: array\n"
    "    nullable: true\n"
    "    items: {type: string, grounded: true}\n"
    "  verbatim_quotes:\n"
    "    type: array\n"
    "    format_text: each sentence verbatim\n"
    "    items: {type: string, grounded: true}\n"
    "  free_text:\n"
    "    type: array\n"
    "    items: {type: string}\n";

START_TEST(grounded_fields_and_items_are_described_alike_in_prompt_schema_and_notes)
{
    cc_contract_t *c = load_ok(k_grounded);
    cc_buf_t pb = CC_BUF_INIT;
    cc_phrase_grounded(&pb, c);
    ck_assert_str_eq(pb.data, "copied exactly from the customer email");
    const char *phrase = pb.data;

    /* the prompt */
    char *prompt = cc_emit_prompt(c, NULL);
    ck_assert_ptr_nonnull(prompt);
    static const struct {
        const char *prefix, *line;
    } lines[] = {
        {"code: ", "code: exactly 3 letters of the order code; copied exactly from the customer email"},
        {"said: ", "said: the amount exactly as written"},
        {"plain: ", "plain: text, copied exactly from the customer email, or null"},
        {"quotes: ", "quotes: the sentences that ask for a refund; a list of items, each text, "
                     "copied exactly from the customer email"},
        {"maybe_quotes: ", "maybe_quotes: a list of items, each text, copied exactly from the "
                           "customer email, or null"},
        {"verbatim_quotes: ", "verbatim_quotes: each sentence verbatim"},
        {"free_text: ", "free_text: a list of items, each text"},
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char *got = line_starting(prompt, lines[i].prefix);
        ck_assert_msg(got && strcmp(got, lines[i].line) == 0, "prompt line\n got: %s\nwant: %s",
                      got ? got : "(none)", lines[i].line);
        free(got);
    }

    /* the portable schema: the field's description, or the items' own */
    char *schema = cc_emit_schema(c, NULL);
    cJSON *s = cJSON_Parse(schema);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(description(property(s, "code")),
                     "exactly 3 letters of the order code; copied exactly from the customer email");
    ck_assert_str_eq(description(property(s, "said")), "the amount exactly as written");
    ck_assert_str_eq(description(property(s, "plain")), phrase);
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(property(s, "quotes"), "items");
    ck_assert_str_eq(description(items), phrase);
    ck_assert_str_eq(description(property(s, "quotes")), "the sentences that ask for a refund");
    items = cJSON_GetObjectItemCaseSensitive(unwrap(property(s, "maybe_quotes")), "items");
    ck_assert_str_eq(description(items), phrase);
    items = cJSON_GetObjectItemCaseSensitive(property(s, "verbatim_quotes"), "items");
    ck_assert_ptr_null(description(items));
    items = cJSON_GetObjectItemCaseSensitive(property(s, "free_text"), "items");
    ck_assert_ptr_null(description(items));
    cJSON_Delete(s);

    /* every dialect: the notes name the same phrase for each grounded value,
     * and the schema (derived from the portable one) carries it */
    for (size_t d = 0; d < cc_dialect_count; d++) {
        dialect_out_t o = dialect(c, cc_dialect_names[d]);
        static const char *const paths[] = {"$.code: ", "$.said: ", "$.plain: ", "$.quotes[*]: ",
                                            "$.maybe_quotes[*]: ", "$.verbatim_quotes[*]: "};
        for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
            char *note = line_starting(o.notes, paths[i]);
            ck_assert_msg(note != NULL, "%s: no note for %s", cc_dialect_names[d], paths[i]);
            cc_buf_t want = CC_BUF_INIT;
            cc_buf_printf(&want, "grounded (%s) not carried by %s", phrase, cc_dialect_names[d]);
            ck_assert_msg(strstr(note, want.data) && strstr(note, "stated in the"),
                          "%s: note \"%s\" lacks \"%s\"", cc_dialect_names[d], note, want.data);
            cc_buf_free(&want);
            free(note);
        }
        ck_assert_ptr_null(line_starting(o.notes, "$.free_text"));
        /* code, plain, quotes[*] and maybe_quotes[*] carry the phrase */
        ck_assert_int_eq(count_of(o.schema, phrase), 4);
        dialect_free(&o);
    }
    ck_assert_int_eq(count_of(prompt, phrase), 4);
    free(schema);
    free(prompt);
    cc_buf_free(&pb);
    cc_contract_free(c);
}
END_TEST

START_TEST(the_source_is_named_by_its_name_without_a_description)
{
    cc_contract_t *c = load_ok("contract: t\nversion: 1\ninstruction: x\n"
                               "source: {name: ticket}\n"
                               "fields:\n  q: {type: array, items: {type: string, grounded: true}}\n");
    char *prompt = cc_emit_prompt(c, NULL);
    char *line = line_starting(prompt, "q: ");
    ck_assert_str_eq(line, "q: a list of items, each text, copied exactly from the ticket");
    dialect_out_t o = dialect(c, "openai-strict");
    ck_assert_ptr_nonnull(strstr(o.notes, "$.q[*]: grounded (copied exactly from the ticket)"));
    dialect_free(&o);
    free(line);
    free(prompt);
    cc_contract_free(c);
}
END_TEST

/* ---- a check's message is for the repair turn only ------------------------- */

static const char k_checks[] =
    "contract: t\nversion: 1\ninstruction: x\n"
    "types:\n"
    "  line:\n"
    "    fields: {n: {type: integer}}\n"
    "    rules:\n"
    "      - check: {function: line_ok, message: the line is not acceptable}\n"
    "fields:\n"
    "  lines: {type: array, items: {type: line}}\n"
    "  a: {type: integer}\n"
    "rules:\n"
    "  - check: {function: claim_ok, message: the claim is not acceptable}\n"
    "  - check: {function: total_ok, message: the total is wrong}\n"
    "    prompt: The total is the sum of the lines.\n";

START_TEST(a_check_without_prompt_says_nothing_to_the_model)
{
    cc_contract_t *c = load_ok(k_checks);
    char *prompt = cc_emit_prompt(c, NULL);
    ck_assert_ptr_null(strstr(prompt, "acceptable"));
    ck_assert_ptr_null(strstr(prompt, "For each lines[] item"));
    ck_assert_ptr_nonnull(strstr(prompt, "\nThe total is the sum of the lines.\n"));

    char *schema = cc_emit_schema(c, NULL);
    ck_assert_ptr_null(strstr(schema, "acceptable"));
    for (size_t d = 0; d < cc_dialect_count; d++) {
        dialect_out_t o = dialect(c, cc_dialect_names[d]);
        ck_assert_msg(strstr(o.schema, "acceptable") == NULL, "%s schema", cc_dialect_names[d]);
        ck_assert_ptr_nonnull(strstr(o.schema, "The total is the sum of the lines."));
        /* the notes still list the rule, and say that the model is not told */
        char *note = line_starting(o.notes, "$: rule rules[0] ");
        ck_assert_ptr_nonnull(note);
        ck_assert_ptr_nonnull(strstr(note, "\"the claim is not acceptable\""));
        ck_assert_ptr_nonnull(strstr(note, "not stated to the model"));
        free(note);
        note = line_starting(o.notes, "$.lines[*]: rule ");
        ck_assert_ptr_nonnull(note);
        ck_assert_ptr_nonnull(strstr(note, "not stated to the model"));
        free(note);
        dialect_free(&o);
    }

    /* the rule problem (the repair turn) still says the message */
    cc_tables_t *t = cc_tables_build(c, "sha256:test");
    ck_assert_ptr_nonnull(t);
    ck_assert_str_eq(t->objects[0].rules[0].message, "the claim is not acceptable");
    cc_tables_free(t);
    free(schema);
    free(prompt);
    cc_contract_free(c);
}
END_TEST

/* ---- the decimal phrase: one wording in the prompt, gemini and the repair -- */

/* The parenthesised form after the example in `text`, from "like " on. */
static char *form_after_like(const char *text, const char *example)
{
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_printf(&b, "ike %s (", example); /* "like" or, starting a sentence, "Like" */
    const char *p = strstr(text, b.data);
    cc_buf_free(&b);
    if (!p)
        return NULL;
    p = strchr(p, '(');
    const char *end = strchr(p, ')');
    return end ? cc_strndup(p, (size_t)(end - p + 1)) : NULL;
}

START_TEST(the_decimal_phrase_is_one_wording_in_prompt_dialects_and_repair)
{
    static const struct {
        const char *field, *example, *form;
    } cases[] = {
        {"whole: {type: decimal, scale: 0}", "\"1250\"", "(whole number, no dot, no separators)"},
        {"tenths: {type: decimal, scale: 1}", "\"1250.0\"", "(dot, one decimal, no separators)"},
        {"money: {type: decimal, scale: 2}", "\"1250.00\"", "(dot, two decimals, no separators)"},
        {"signed: {type: decimal, scale: 3, signed: true}", "\"1250.000\"",
         "(dot, three decimals, may start with -, no separators)"},
        {"fine: {type: decimal, scale: 6}", "\"1250.000000\"", "(dot, 6 decimals, no separators)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cc_buf_t y = CC_BUF_INIT;
        cc_buf_printf(&y, "contract: t\nversion: 1\ninstruction: x\nfields:\n  %s\n", cases[i].field);
        cc_contract_t *c = load_ok(y.data);
        cc_buf_free(&y);

        char *prompt = cc_emit_prompt(c, NULL);
        char *got = form_after_like(prompt, cases[i].example);
        ck_assert_msg(got && strcmp(got, cases[i].form) == 0, "prompt: %s", got ? got : prompt);
        free(got);

        dialect_out_t o = dialect(c, "gemini"); /* gemini states the whole form */
        cc_buf_t esc = CC_BUF_INIT;             /* the example inside a JSON string */
        cc_buf_printf(&esc, "\\\"%.*s\\\"", (int)strlen(cases[i].example) - 2, cases[i].example + 1);
        got = form_after_like(o.schema, esc.data);
        ck_assert_msg(got && strcmp(got, cases[i].form) == 0, "gemini: %s", got ? got : o.schema);
        free(got);
        cc_buf_free(&esc);
        dialect_free(&o);

        /* the repair message of a reply in another notation */
        cc_tables_t *t = cc_tables_build(c, "sha256:test");
        ck_assert_ptr_nonnull(t);
        const contractc_contract_t *k = &t->contract;
        cc_buf_t reply = CC_BUF_INIT;
        cc_buf_printf(&reply, "{\"%s\":\"1.250,00\"}", c->root.fields[0].name);
        void *record = calloc(1, k->root->size);
        contractc_problems_t p;
        contractc_problems_init(&p);
        ck_assert_int_eq(contractc_parse(k, reply.data, reply.len, NULL, 0, NULL, record, &p),
                         CONTRACTC_REJECTED);
        char *repair = NULL;
        size_t repair_len = 0;
        ck_assert_int_eq(contractc_repair_prompt(&p, &repair, &repair_len), CONTRACTC_OK);
        cc_buf_t want = CC_BUF_INIT;
        cc_buf_printf(&want, "\"1.250,00\" is not a decimal like %s %s", cases[i].example,
                      cases[i].form);
        ck_assert_msg(strstr(repair, want.data) != NULL, "repair:\n%s\nlacks: %s", repair,
                      want.data);
        cc_buf_free(&want);
        free(repair);
        contractc_problems_clear(&p);
        free(record);
        cc_buf_free(&reply);
        cc_tables_free(t);
        free(prompt);
        cc_contract_free(c);
    }
}
END_TEST

/* ---- the date phrase: one wording in the prompt, llama-cpp and the repair - */

START_TEST(the_date_phrase_is_one_wording_in_prompt_dialects_and_repair)
{
    static const struct {
        const char *field, *bad, *phrase, *dialect_words;
    } cases[] = {
        {"d: {type: date}", "03/01/2024", "like \"2024-03-01\" (YYYY-MM-DD)",
         "real calendar date, "},
        {"d: {type: date, example: 2023-12-31}", "31.12.2023", "like \"2023-12-31\" (YYYY-MM-DD)",
         "real calendar date, "},
        {"d: {type: datetime}", "2024-03-01 14:30",
         "like \"2024-03-01T14:30:00Z\" (RFC 3339 with seconds and an offset)",
         "real calendar date and time, "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cc_buf_t y = CC_BUF_INIT;
        cc_buf_printf(&y, "contract: t\nversion: 1\ninstruction: x\nfields:\n  %s\n", cases[i].field);
        cc_contract_t *c = load_ok(y.data);
        cc_buf_free(&y);

        char *prompt = cc_emit_prompt(c, NULL);
        cc_buf_t want = CC_BUF_INIT;
        cc_buf_printf(&want, "d: %s\n", cases[i].phrase);
        ck_assert_msg(strstr(prompt, want.data) != NULL, "prompt:\n%s\nlacks: %s", prompt,
                      want.data);

        /* llama-cpp describes the form it cannot carry in the prompt's words
         * (inside a JSON string: the quotes escaped) */
        dialect_out_t o = dialect(c, "llama-cpp");
        cc_buf_t esc = CC_BUF_INIT;
        cc_buf_puts(&esc, cases[i].dialect_words);
        for (const char *q = cases[i].phrase; *q; q++) {
            if (*q == '"')
                cc_buf_putc(&esc, '\\');
            cc_buf_putc(&esc, *q);
        }
        ck_assert_msg(o.schema && strstr(o.schema, esc.data) != NULL, "llama-cpp:\n%s\nlacks: %s",
                      o.schema ? o.schema : "(none)", esc.data);
        cc_buf_free(&esc);
        dialect_free(&o);

        /* the repair message of a reply in another notation */
        cc_tables_t *t = cc_tables_build(c, "sha256:test");
        ck_assert_ptr_nonnull(t);
        const contractc_contract_t *k = &t->contract;
        cc_buf_t reply = CC_BUF_INIT;
        cc_buf_printf(&reply, "{\"d\":\"%s\"}", cases[i].bad);
        void *record = calloc(1, k->root->size);
        contractc_problems_t p;
        contractc_problems_init(&p);
        ck_assert_int_eq(contractc_parse(k, reply.data, reply.len, NULL, 0, NULL, record, &p),
                         CONTRACTC_REJECTED);
        char *repair = NULL;
        size_t repair_len = 0;
        ck_assert_int_eq(contractc_repair_prompt(&p, &repair, &repair_len), CONTRACTC_OK);
        ck_assert_msg(strstr(repair, cases[i].phrase) != NULL, "repair:\n%s\nlacks: %s", repair,
                      cases[i].phrase);
        free(repair);
        contractc_problems_clear(&p);
        free(record);
        cc_buf_free(&reply);
        cc_tables_free(t);
        cc_buf_free(&want);
        free(prompt);
        cc_contract_free(c);
    }
}
END_TEST

/* ---- the expanded size is bounded before anything is expanded ------------ */

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Named types t0..t(depth-1) that each use the next one twice; t(depth)
 * holds one string; the record has one field of type t0. */
static char *doubling_contract(unsigned depth)
{
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, "contract: t\nversion: 1\ninstruction: x\ntypes:\n");
    for (unsigned i = 0; i < depth; i++)
        cc_buf_printf(&b, "  t%u:\n    fields:\n      a: {type: t%u}\n      b: {type: t%u}\n", i,
                      i + 1, i + 1);
    cc_buf_printf(&b, "  t%u:\n    fields:\n      v: {type: string}\nfields:\n  root: {type: t0}\n",
                  depth);
    char *s = cc_buf_take(&b, NULL);
    ck_assert_ptr_nonnull(s);
    return s;
}

START_TEST(named_types_that_double_at_each_level_are_refused_before_expanding)
{
    char *yaml = doubling_contract(30); /* 2 KB; 3 * 2^30 - 1 fields written out */
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char *got = load_errors(yaml, strlen(yaml));
    double took = seconds_since(&t0);
    ck_assert_str_eq(got,
                     "t.contract.yaml:129:3: error: the contract expands to 3221225471 fields, "
                     "rules and enum values when every use of a named type is written out in full "
                     "(as the prompt, the schemas and the contract hash write them), over the "
                     "limit of 10000: field 'root' is all of it; use large named types in fewer "
                     "places\n");
    ck_assert_msg(took < 1.0, "refusing took %.2f s", took);
    free(got);
    free(yaml);

    /* so wide that the count saturates: 64 fields of the next type per level */
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, "contract: t\nversion: 1\ninstruction: x\ntypes:\n");
    for (unsigned i = 0; i < 30; i++) {
        cc_buf_printf(&b, "  t%u:\n    fields:\n", i);
        for (unsigned k = 0; k < 64; k++)
            cc_buf_printf(&b, "      f%u: {type: t%u}\n", k, i + 1);
    }
    cc_buf_puts(&b, "  t30:\n    fields: {v: {type: string}}\nfields:\n  s: {type: string}\n"
                    "  root: {type: t0}\n");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    got = load_errors(b.data, b.len);
    took = seconds_since(&t0);
    ck_assert_msg(strstr(got, "error: the contract expands to more than 18446744073709551615 "
                              "fields, rules and enum values") != NULL, "%s", got);
    ck_assert_msg(strstr(got, "field 'root' alone expands to more than 18446744073709551615;"),
                  "%s", got);
    ck_assert_msg(took < 1.0, "refusing took %.2f s", took);
    free(got);
    cc_buf_free(&b);
}
END_TEST

/* 99 fields of a 100-field named type and `extra` more strings (and an enum
 * of `values` values used `uses` times). */
static char *sized_contract(unsigned extra)
{
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, "contract: t\nversion: 1\ninstruction: x\ntypes:\n  row:\n    fields:\n");
    for (unsigned k = 0; k < 100; k++)
        cc_buf_printf(&b, "      c%u: {type: string}\n", k);
    cc_buf_puts(&b, "fields:\n");
    for (unsigned k = 0; k < 99; k++)
        cc_buf_printf(&b, "  r%u: {type: row}\n", k);
    for (unsigned k = 0; k < extra; k++)
        cc_buf_printf(&b, "  z%u: {type: string}\n", k);
    char *s = cc_buf_take(&b, NULL);
    ck_assert_ptr_nonnull(s);
    return s;
}

START_TEST(the_expanded_size_limit_counts_fields_rules_and_enum_values)
{
    char *yaml = sized_contract(1); /* 99 * 101 + 1 = 10000: the limit itself */
    cc_contract_t *c = load_ok(yaml);
    cc_contract_free(c);
    free(yaml);
    yaml = sized_contract(2); /* 10001 */
    char *got = load_errors(yaml, strlen(yaml));
    ck_assert_str_eq(got,
                     "t.contract.yaml:208:3: error: the contract expands to 10001 fields, rules "
                     "and enum values when every use of a named type is written out in full (as "
                     "the prompt, the schemas and the contract hash write them), over the limit of "
                     "10000: field 'z1' alone expands to 1; use large named types in fewer "
                     "places\n");
    free(got);
    free(yaml);

    /* an enum's values are written at each use */
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, "contract: t\nversion: 1\ninstruction: x\ntypes:\n  code:\n    values: [");
    for (unsigned k = 0; k < 4999; k++)
        cc_buf_printf(&b, "%sv%u", k ? ", " : "", k);
    cc_buf_puts(&b, "]\nfields:\n  a: {type: code}\n  b: {type: code}\n");
    c = load_ok(b.data); /* 2 * (1 + 4999) = 10000 */
    cc_contract_free(c);
    cc_buf_puts(&b, "  c: {type: array, items: {type: code}}\n");
    got = load_errors(b.data, b.len);
    ck_assert_msg(strstr(got, ":10:3: error: the contract expands to 15000 fields, rules and enum "
                              "values") != NULL, "%s", got);
    free(got);
    cc_buf_free(&b);

    /* rules count too */
    yaml = sized_contract(1);
    b = (cc_buf_t)CC_BUF_INIT;
    cc_buf_puts(&b, yaml);
    cc_buf_puts(&b, "rules:\n  - all_or_none: [z0]\n");
    got = load_errors(b.data, b.len);
    ck_assert_msg(strstr(got, "error: the contract expands to 10001 fields") != NULL, "%s", got);
    free(got);
    cc_buf_free(&b);
    free(yaml);
}
END_TEST

START_TEST(tables_share_one_descriptor_per_named_type)
{
    char *yaml = doubling_contract(10); /* 3071 fields written out, 12 object types */
    cc_contract_t *c = load_ok(yaml);
    cc_tables_t *t = cc_tables_build(c, "sha256:test");
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(t->object_count, 12); /* the record and t0..t10, once each */
    const contractc_object_t *t0 = t->objects[0].fields[0].value.object;
    ck_assert_ptr_nonnull(t0);
    ck_assert_ptr_eq(t0->fields[0].value.object, t0->fields[1].value.object);

    cc_artifacts_t a;
    ck_assert(cc_build_artifacts(c, &a));
    ck_assert_int_eq(count_of(a.source, "static const contractc_object_t "), 12);
    ck_assert_int_eq(count_of(a.source, ".object = &t_t1_object\n"), 2); /* t0.a and t0.b */
    /* the texts write every field out: instruction, blank line, reply line,
     * 3071 field lines, closing line */
    ck_assert_int_eq(count_of(a.prompt, "\n"), 4 + 3071);
    cc_artifacts_free(&a);
    cc_tables_free(t);
    cc_contract_free(c);
    free(yaml);
}
END_TEST

/* ---- the contract's patterns share one budget ------------------------------ */

START_TEST(ten_thousand_patterns_stop_at_the_contracts_pattern_budget)
{
    /* 9,980 fields (under the expansion limit) in 10 named types, each with
     * a pattern of 1,001 DFA states, well within its own limits */
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, "contract: t\nversion: 1\ninstruction: x\ntypes:\n");
    for (unsigned t = 0; t < 10; t++) {
        cc_buf_printf(&b, "  p%u:\n    fields:\n", t);
        for (unsigned k = 0; k < 998; k++)
            cc_buf_printf(&b, "      f%u: {type: string, pattern: '[a-z]{1000}'}\n", k);
    }
    cc_buf_puts(&b, "fields:\n");
    for (unsigned t = 0; t < 10; t++)
        cc_buf_printf(&b, "  g%u: {type: p%u}\n", t, t);
    ck_assert(!b.failed);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char *got = load_errors(b.data, b.len);
    double took = seconds_since(&t0);
    /* one error, at the 500th pattern (line 7 + 499): 499 * 1,001 states
     * fit in 500,000; the rest are not compiled */
    ck_assert_str_eq(got,
                     "t.contract.yaml:506:38: error: pattern not compiled: the contract's "
                     "patterns together pass the limit for one contract (500000 DFA states "
                     "built, 200000000 work units); simplify them or use fewer\n");
    ck_assert_msg(took < 30.0, "refusing took %.2f s", took); /* 0.3 s in a Release build */
    free(got);
    cc_buf_free(&b);
}
END_TEST

Suite *gen_texts_suite(void);

Suite *gen_texts_suite(void)
{
    Suite *s = suite_create("gen_texts");
    TCase *agree = tcase_create("agree");
    tcase_add_test(agree, grounded_fields_and_items_are_described_alike_in_prompt_schema_and_notes);
    tcase_add_test(agree, the_source_is_named_by_its_name_without_a_description);
    tcase_add_test(agree, a_check_without_prompt_says_nothing_to_the_model);
    tcase_add_test(agree, the_decimal_phrase_is_one_wording_in_prompt_dialects_and_repair);
    tcase_add_test(agree, the_date_phrase_is_one_wording_in_prompt_dialects_and_repair);
    suite_add_tcase(s, agree);
    TCase *size = tcase_create("size");
    tcase_add_test(size, named_types_that_double_at_each_level_are_refused_before_expanding);
    tcase_add_test(size, the_expanded_size_limit_counts_fields_rules_and_enum_values);
    tcase_add_test(size, tables_share_one_descriptor_per_named_type);
    tcase_add_test(size, ten_thousand_patterns_stop_at_the_contracts_pattern_budget);
    tcase_set_timeout(size, 60);
    suite_add_tcase(s, size);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(gen_texts_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
