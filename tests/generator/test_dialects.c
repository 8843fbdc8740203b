/* SPDX-License-Identifier: MIT */
/*
 * test_dialects.c - the provider dialects of the schema (docs/dialects.md):
 *   - the dialect files of the golden contracts equal tests/golden/;
 *   - each dialect file uses only its provider's keywords (allowlists);
 *   - every contract constraint is in the parser's tables, in the prompt,
 *     and in the 2020-12 schema or in each dialect's "not carried" list
 *     (with its sentence in the description, in the prompt's words);
 *   - contracts over a provider's limits fail that dialect only, with a
 *     diagnostic; Anthropic's minItems is loosened, never tightened;
 *   - llama.cpp patterns spell shorthand classes out;
 *   - `generate` prints one summary line per dialect (on stderr).
 * The contracts: the golden ones, tests/data/differential/all_types and
 * every examples/NAME/NAME.contract.yaml present when the test runs.
 */
#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "generator.h"
#include "lexical.h"
#include "tables.h"

#define ROOT CONTRACTC_SOURCE_DIR
#define GOLDEN ROOT "/tests/golden"

enum { D_OPENAI, D_GEMINI, D_ANTHROPIC, D_LLAMA, D_N };

/* ---- contracts ------------------------------------------------------------ */

typedef struct contract_list {
    char paths[64][1024];
    char golden[64][128]; /* golden dir name, "" when not golden */
    size_t n;
} contract_list_t;

static void add_contract(contract_list_t *l, const char *path, const char *golden)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->paths[i], path) == 0)
            return;
    if (l->n == 64)
        return;
    /* A path that does not fit is a broken test set-up, never a cut path. */
    int wp = snprintf(l->paths[l->n], sizeof l->paths[0], "%s", path);
    int wg = snprintf(l->golden[l->n], sizeof l->golden[0], "%s", golden ? golden : "");
    ck_assert_msg(wp >= 0 && (size_t)wp < sizeof l->paths[0], "path too long: %s", path);
    ck_assert_msg(wg >= 0 && (size_t)wg < sizeof l->golden[0], "golden path too long");
    l->n++;
}

static void list_contracts(contract_list_t *l)
{
    memset(l, 0, sizeof *l);
    size_t len;
    char *text = cc_read_file(GOLDEN "/contracts.txt", &len);
    ck_assert_ptr_nonnull(text);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[128], rel[400], path[1024];
        if (line[0] == '#' || sscanf(line, "%127s %399s", name, rel) != 2)
            continue;
        snprintf(path, sizeof path, "%s/%s", ROOT, rel);
        add_contract(l, path, name);
    }
    free(text);
    add_contract(l, CONTRACTC_TEST_DATA "/differential/all_types.contract.yaml", NULL);
    add_contract(l, CONTRACTC_TEST_DATA "/contracts/refund_request.contract.yaml", NULL);
    add_contract(l, CONTRACTC_TEST_DATA "/contracts/invoice.contract.yaml", NULL);
    DIR *d = opendir(ROOT "/examples");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, "consumer-", 9) == 0)
            continue;
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/examples/%s", ROOT, e->d_name);
        DIR *s = opendir(sub);
        struct dirent *f;
        while (s && (f = readdir(s))) {
            size_t n = strlen(f->d_name);
            if (n > 14 && strcmp(f->d_name + n - 14, ".contract.yaml") == 0) {
                char path[2200];
                snprintf(path, sizeof path, "%s/%s", sub, f->d_name);
                add_contract(l, path, NULL);
            }
        }
        if (s)
            closedir(s);
    }
    if (d)
        closedir(d);
}

static cc_contract_t *load(const char *path)
{
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *m = cc_contract_load(path, &d);
    if (!m || d.errors)
        cc_diags_print(&d, stderr);
    ck_assert_msg(m != NULL && d.errors == 0, "cannot load %s", path);
    cc_diags_free(&d);
    return m;
}

static cc_contract_t *load_text(const char *text)
{
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *m = cc_contract_load_buffer("inline.contract.yaml", text, strlen(text), &d);
    if (!m || d.errors)
        cc_diags_print(&d, stderr);
    ck_assert_msg(m != NULL && d.errors == 0, "cannot load the inline contract");
    cc_diags_free(&d);
    return m;
}

typedef struct dialect_out {
    int rc;
    char *schema, *notes, *summary;
    size_t schema_len, notes_len;
    cJSON *tree;
} dialect_out_t;

static void emit(const cc_contract_t *m, int d, dialect_out_t *o, cc_diags_t *diags)
{
    memset(o, 0, sizeof *o);
    o->rc = cc_emit_schema_dialect(m, cc_dialect_names[d], &o->schema, &o->schema_len, &o->notes,
                                   &o->notes_len, &o->summary, diags);
    if (o->rc == 0) {
        o->tree = cJSON_Parse(o->schema);
        ck_assert_msg(o->tree != NULL, "%s: the %s schema is not JSON", m->name, cc_dialect_names[d]);
    }
}

static void release(dialect_out_t *o)
{
    free(o->schema);
    free(o->notes);
    free(o->summary);
    cJSON_Delete(o->tree);
}

/* ---- goldens ------------------------------------------------------------------ */

START_TEST(dialect_files_equal_the_golden_files)
{
    contract_list_t l;
    list_contracts(&l);
    size_t compared = 0;
    for (size_t i = 0; i < l.n; i++) {
        if (!l.golden[i][0])
            continue;
        cc_contract_t *m = load(l.paths[i]);
        for (int d = 0; d < D_N; d++) {
            dialect_out_t o;
            emit(m, d, &o, NULL);
            const char *exts[] = {".schema.json", ".notes.txt"};
            const char *texts[] = {o.schema, o.notes};
            size_t lens[] = {o.schema_len, o.notes_len};
            for (int k = 0; k < 2; k++) {
                char path[2048];
                snprintf(path, sizeof path, "%s/%s/%s.%s%s", GOLDEN, l.golden[i], l.golden[i],
                         cc_dialect_names[d], exts[k]);
                size_t len = 0;
                char *want = cc_read_file(path, &len);
                if (o.rc != 0) {
                    ck_assert_msg(want == NULL, "%s exists, but the dialect is refused now", path);
                    continue;
                }
                ck_assert_msg(want != NULL, "missing golden file %s (run scripts/refresh-golden.sh)", path);
                ck_assert_msg(len == lens[k] && memcmp(want, texts[k], len) == 0,
                              "%s differs from the generated text; if intended, run "
                              "scripts/refresh-golden.sh and review the diff", path);
                free(want);
                compared++;
            }
            release(&o);
        }
        cc_contract_free(m);
    }
    ck_assert_uint_ge(compared, 16);
    printf("dialect goldens: %zu files equal\n", compared);
}
END_TEST

/* ---- allowlists ------------------------------------------------------------------ */

/* The keywords each dialect may emit (dialects.md tables, section 6.1). */
static const char *const allowed[D_N][20] = {
    [D_OPENAI] = {"title", "description", "type", "properties", "required",
                  "additionalProperties", "items", "anyOf", "enum", "pattern", "format",
                  "minimum", "maximum", "minItems", "maxItems", NULL},
    [D_GEMINI] = {"title", "description", "type", "properties", "required",
                  "additionalProperties", "items", "anyOf", "enum", "format", "minimum",
                  "maximum", "minItems", "maxItems", NULL},
    [D_ANTHROPIC] = {"title", "description", "type", "properties", "required",
                     "additionalProperties", "items", "anyOf", "enum", "pattern", "format",
                     "minItems", NULL},
    [D_LLAMA] = {"title", "description", "type", "properties", "required",
                 "additionalProperties", "items", "anyOf", "enum", "pattern", "format",
                 "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", NULL},
};

static bool is_allowed(int d, const char *key)
{
    for (size_t i = 0; allowed[d][i]; i++)
        if (strcmp(allowed[d][i], key) == 0)
            return true;
    return false;
}

static bool type_is(const cJSON *node, const char *t)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(node, "type");
    if (cJSON_IsString(type))
        return strcmp(type->valuestring, t) == 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, type) if (cJSON_IsString(e) && strcmp(e->valuestring, t) == 0) return true;
    return false;
}

/* Checks one schema node and its children; counts the nodes seen. */
static void check_node(int d, const char *contract, const cJSON *node, const char *where,
                       size_t *nodes)
{
    const char *D = cc_dialect_names[d];
    ck_assert_msg(cJSON_IsObject(node), "%s %s: %s is not a schema object", contract, D, where);
    (*nodes)++;
    const cJSON *kw;
    cJSON_ArrayForEach(kw, node)
    {
        ck_assert_msg(is_allowed(d, kw->string), "%s %s: keyword '%s' at %s is outside the %s subset",
                      contract, D, kw->string, where, D);
    }
    if (type_is(node, "object")) {
        const cJSON *props = cJSON_GetObjectItemCaseSensitive(node, "properties");
        const cJSON *req = cJSON_GetObjectItemCaseSensitive(node, "required");
        const cJSON *extra = cJSON_GetObjectItemCaseSensitive(node, "additionalProperties");
        if (cJSON_IsObject(extra)) {
            /* a map (v2, docs/contract-language.md §4.12): no properties, its
             * values' schema; only the dialects that carry maps write one */
            ck_assert_msg(d == D_GEMINI || d == D_LLAMA, "%s %s: a map at %s", contract, D, where);
            ck_assert_msg(!props && !req, "%s %s: a map with properties at %s", contract, D, where);
            char sub[1024];
            snprintf(sub, sizeof sub, "%s.*", where);
            check_node(d, contract, extra, sub, nodes);
        } else {
            ck_assert_msg(cJSON_IsFalse(extra), "%s %s: object at %s is not closed", contract, D,
                          where);
        }
        /* 'required': the keys in order, but the optional ones (walk_object
         * checks which those are) */
        const cJSON *p;
        int i = 0;
        cJSON_ArrayForEach(p, props)
        {
            const cJSON *r = cJSON_GetArrayItem(req, i);
            if (cJSON_IsString(r) && strcmp(r->valuestring, p->string) == 0)
                i++;
            char sub[1024];
            snprintf(sub, sizeof sub, "%s.%s", where, p->string);
            check_node(d, contract, p, sub, nodes);
        }
        ck_assert_msg(i == cJSON_GetArraySize(req),
                      "%s %s: 'required' at %s is not a list of its keys in order", contract, D, where);
    }
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(node, "items");
    if (items) {
        char sub[1024];
        snprintf(sub, sizeof sub, "%s[*]", where);
        check_node(d, contract, items, sub, nodes);
    }
    const cJSON *any = cJSON_GetObjectItemCaseSensitive(node, "anyOf"), *b;
    if (any) {
        ck_assert_msg(strcmp(where, "$") != 0, "%s %s: anyOf at the root", contract, D);
        cJSON_ArrayForEach(b, any) check_node(d, contract, b, where, nodes);
    }
    /* enum never inside a type array (OpenAI, Anthropic, llama.cpp rows) */
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(node, "type");
    ck_assert_msg(!(cJSON_IsArray(type) && cJSON_GetObjectItemCaseSensitive(node, "enum")),
                  "%s %s: enum beside a type array at %s", contract, D, where);
    const cJSON *min_items = cJSON_GetObjectItemCaseSensitive(node, "minItems");
    if (d == D_ANTHROPIC && min_items)
        ck_assert_msg(min_items->valuedouble <= 1, "%s anthropic: minItems %g at %s", contract,
                      min_items->valuedouble, where);
    if (d == D_LLAMA) {
        bool has_pattern = cJSON_GetObjectItemCaseSensitive(node, "pattern") != NULL;
        bool has_format = cJSON_GetObjectItemCaseSensitive(node, "format") != NULL;
        ck_assert_msg(!((has_pattern || has_format) &&
                        (cJSON_GetObjectItemCaseSensitive(node, "minLength") ||
                         cJSON_GetObjectItemCaseSensitive(node, "maxLength"))),
                      "%s llama-cpp: minLength/maxLength beside a pattern or format at %s (ignored)",
                      contract, where);
        ck_assert_msg(!(type_is(node, "number") && (cJSON_GetObjectItemCaseSensitive(node, "minimum") ||
                                                   cJSON_GetObjectItemCaseSensitive(node, "maximum"))),
                      "%s llama-cpp: bounds on a number at %s (ignored)", contract, where);
        const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(node, "format");
        ck_assert_msg(!fmt || strcmp(fmt->valuestring, "date") == 0,
                      "%s llama-cpp: format %s at %s", contract, fmt ? fmt->valuestring : "", where);
        const cJSON *pat = cJSON_GetObjectItemCaseSensitive(node, "pattern");
        if (pat) {
            const char *p = pat->valuestring;
            size_t n = strlen(p);
            ck_assert_msg(n >= 2 && p[0] == '^' && p[n - 1] == '$', "%s llama-cpp: pattern %s not ^...$",
                          contract, p);
            ck_assert_msg(!strstr(p, "\\d") && !strstr(p, "\\w") && !strstr(p, "\\D") && !strstr(p, "\\W"),
                          "%s llama-cpp: shorthand class left in %s", contract, p);
        }
    }
}

START_TEST(every_dialect_uses_only_its_allowed_keywords)
{
    contract_list_t l;
    list_contracts(&l);
    size_t files = 0, nodes = 0;
    for (size_t i = 0; i < l.n; i++) {
        cc_contract_t *m = load(l.paths[i]);
        for (int d = 0; d < D_N; d++) {
            dialect_out_t o;
            emit(m, d, &o, NULL);
            if (o.rc == 0) {
                ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(o.tree, "$schema"));
                ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(o.tree, "$id"));
                check_node(d, m->name, o.tree, "$", &nodes);
                files++;
            }
            release(&o);
        }
        cc_contract_free(m);
    }
    ck_assert_uint_ge(files, 12);
    printf("allowlists: %zu dialect files, %zu schema nodes, every keyword allowed\n", files, nodes);
}
END_TEST

/* ---- completeness (part 4) ------------------------------------------------------- */

typedef struct walk {
    const cc_contract_t *m;
    const char *prompt;
    dialect_out_t out[D_N];
    size_t checks;
} walk_t;

/* The schema of value v under the property node (through a nullable anyOf). */
static const cJSON *value_node(const cJSON *prop, const cc_field_t *f)
{
    const cJSON *any = cJSON_GetObjectItemCaseSensitive(prop, "anyOf");
    if (f && f->nullable && any)
        return cJSON_GetArrayItem(any, 0);
    return prop;
}

/* True when line `path: ...` of the prompt contains `needle`. */
static bool prompt_line_has(const char *prompt, const char *line_path, const char *needle)
{
    char head[512];
    int w = snprintf(head, sizeof head, "\n%s: ", line_path);
    if (w < 0 || (size_t)w >= sizeof head)
        ck_abort_msg("line path too long: %s", line_path);
    const char *p = strstr(prompt, head);
    if (!p)
        return false;
    p++;
    const char *end = strchr(p, '\n');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    char *line = cc_strndup(p, n);
    bool has = strstr(line, needle) != NULL;
    free(line);
    return has;
}

static bool case_contains(const char *hay, const char *needle)
{
    if (!hay)
        return false;
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && (hay[i] | 0x20) == (needle[i] | 0x20))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

static double num(const cJSON *node, const char *key, bool *present)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(node, key);
    *present = cJSON_IsNumber(x);
    return *present ? x->valuedouble : 0;
}

/* One constraint: `keyword` with `value` (NAN: any value) is in the
 * portable schema (unless no_form), and in each dialect either carried at
 * the node or listed as "PATH: keyword ..." in its notes; when not
 * carried and the field has no format_text, `phrase` (the prompt's words)
 * is in the description. */
static void expect(walk_t *w, const char *path, const char *line_path, const cc_field_t *f,
                   const cJSON *portable, const cJSON *nodes[D_N], const cJSON *props[D_N],
                   const char *keyword, double value, const char *note_key, const char *phrase,
                   bool no_form)
{
    bool present;
    if (!no_form) {
        double got = num(portable, keyword, &present);
        if (!present) {
            const cJSON *s = cJSON_GetObjectItemCaseSensitive(portable, keyword);
            present = s != NULL;
        } else if (value == value) {
            ck_assert_msg(got == value, "%s %s: portable %s is %g, the contract says %g", w->m->name,
                          path, keyword, got, value);
        }
        ck_assert_msg(present, "%s %s: %s missing from the 2020-12 schema", w->m->name, path, keyword);
    }
    if (phrase && !(f && f->format_text))
        ck_assert_msg(prompt_line_has(w->prompt, line_path, phrase),
                      "%s %s: the prompt line does not say \"%s\"", w->m->name, line_path, phrase);
    for (int d = 0; d < D_N; d++) {
        if (w->out[d].rc != 0)
            continue;
        double got = num(nodes[d], keyword, &present);
        bool carried = !no_form && (present ? (value != value || got == value)
                                            : cJSON_GetObjectItemCaseSensitive(nodes[d], keyword) != NULL);
        char head[600];
        snprintf(head, sizeof head, "\n%s: %s", path, note_key ? note_key : keyword);
        bool noted = strstr(w->out[d].notes, head) != NULL;
        ck_assert_msg(carried || noted, "%s %s: %s neither carried by %s nor in its notes", w->m->name,
                      path, keyword, cc_dialect_names[d]);
        if (!carried && phrase && !(f && f->format_text) && props[d]) {
            const cJSON *desc = cJSON_GetObjectItemCaseSensitive(props[d], "description");
            ck_assert_msg(desc && case_contains(desc->valuestring, phrase),
                          "%s %s: %s is not carried by %s, but the description does not say \"%s\"",
                          w->m->name, path, keyword, cc_dialect_names[d], phrase);
        }
        w->checks++;
    }
}

static void count_phrase(char *out, size_t cap, bool has_min, uint32_t min, bool has_max,
                         uint32_t max, const char *one, const char *many)
{
    if (has_min && min == 0)
        has_min = false;
    if (has_min && has_max && min == max)
        snprintf(out, cap, "exactly %" PRIu32 " %s", min, min == 1 ? one : many);
    else if (has_min && has_max)
        snprintf(out, cap, "%" PRIu32 " to %" PRIu32 " %s", min, max, many);
    else if (has_min)
        snprintf(out, cap, "at least %" PRIu32 " %s", min, min == 1 ? one : many);
    else
        snprintf(out, cap, "at most %" PRIu32 " %s", max, max == 1 ? one : many);
}

static void walk_object(walk_t *w, const cc_object_t *o, const contractc_object_t *table,
                        const cJSON *portable, const cJSON *nodes[D_N], const cJSON *props[D_N],
                        const char *path, const char *line_prefix);

static void walk_value(walk_t *w, const cc_value_t *v, const contractc_value_t *tv,
                       const cc_field_t *f, const cJSON *portable, const cJSON *nodes[D_N],
                       const cJSON *props[D_N], const char *path, const char *line_path)
{
    char phrase[256];
    ck_assert_msg(tv->type == v->type, "%s %s: table type differs", w->m->name, path);
    switch (v->type) {
    case CONTRACTC_TYPE_STRING:
        if (v->has_min_length && v->min_length > 0) {
            ck_assert_uint_eq(tv->min_length, v->min_length);
            count_phrase(phrase, sizeof phrase, true, v->min_length, v->has_max_length,
                         v->max_length, "character", "characters");
            expect(w, path, line_path, f, portable, nodes, props, "minLength", v->min_length, NULL,
                   phrase, false);
        }
        if (v->has_max_length) {
            ck_assert_uint_eq(tv->max_length, v->max_length);
            count_phrase(phrase, sizeof phrase, v->has_min_length, v->min_length, true,
                         v->max_length, "character", "characters");
            expect(w, path, line_path, f, portable, nodes, props, "maxLength", v->max_length, NULL,
                   phrase, false);
        }
        if (v->pattern) {
            ck_assert_msg(tv->pattern && strcmp(tv->pattern->source, v->pattern) == 0,
                          "%s %s: pattern not in the tables", w->m->name, path);
            snprintf(phrase, sizeof phrase, "matching %s", v->pattern);
            expect(w, path, line_path, f, portable, nodes, props, "pattern", NAN, NULL, phrase, false);
        }
        if (v->grounded) {
            ck_assert(tv->grounded);
            ck_assert_msg(prompt_line_has(w->prompt, line_path, "exactly") ||
                              prompt_line_has(w->prompt, line_path, "verbatim"),
                          "%s %s: the prompt does not say it is copied exactly", w->m->name, path);
            expect(w, path, line_path, f, portable, nodes, props, "grounded", NAN, NULL, NULL, true);
        }
        break;
    case CONTRACTC_TYPE_INTEGER:
        ck_assert(tv->minimum == (v->has_minimum ? v->minimum : CONTRACTC_INTEGER_MIN));
        ck_assert(tv->maximum == (v->has_maximum ? v->maximum : CONTRACTC_INTEGER_MAX));
        expect(w, path, line_path, f, portable, nodes, props, "minimum",
               (double)(v->has_minimum ? v->minimum : CONTRACTC_INTEGER_MIN), NULL,
               v->has_minimum ? "a whole number" : NULL, false);
        expect(w, path, line_path, f, portable, nodes, props, "maximum",
               (double)(v->has_maximum ? v->maximum : CONTRACTC_INTEGER_MAX), NULL,
               v->has_maximum ? "a whole number" : NULL, false);
        break;
    case CONTRACTC_TYPE_NUMBER:
        ck_assert(tv->has_number_minimum == v->has_minimum && tv->has_number_maximum == v->has_maximum);
        if (v->has_minimum)
            expect(w, path, line_path, f, portable, nodes, props, "minimum", v->number_minimum, NULL,
                   "a number", false);
        if (v->has_maximum)
            expect(w, path, line_path, f, portable, nodes, props, "maximum", v->number_maximum, NULL,
                   "a number", false);
        break;
    case CONTRACTC_TYPE_DECIMAL:
        ck_assert_uint_eq(tv->scale, v->scale);
        ck_assert(tv->is_signed == v->is_signed);
        expect(w, path, line_path, f, portable, nodes, props, "pattern", NAN, "decimal form",
               v->scale ? "(dot, " : "(whole number, no dot", false);
        if (v->has_minimum) {
            ck_assert(tv->minimum == v->minimum);
            expect(w, path, line_path, f, portable, nodes, props, "minimum", NAN, "decimal minimum",
                   v->minimum_text, true);
        }
        if (v->has_maximum) {
            ck_assert(tv->maximum == v->maximum);
            expect(w, path, line_path, f, portable, nodes, props, "maximum", NAN, "decimal maximum",
                   v->maximum_text, true);
        }
        break;
    case CONTRACTC_TYPE_ENUM:
        ck_assert_uint_eq(tv->enumeration->count, v->enumeration->count);
        for (size_t i = 0; i < v->enumeration->count; i++) {
            ck_assert_str_eq(tv->enumeration->values[i].text, v->enumeration->values[i]);
            snprintf(phrase, sizeof phrase, "\"%s\"", v->enumeration->values[i]);
            ck_assert_msg(f == NULL || f->format_text || prompt_line_has(w->prompt, line_path, phrase),
                          "%s %s: enum value %s not in the prompt", w->m->name, path, phrase);
        }
        expect(w, path, line_path, f, portable, nodes, props, "enum", NAN, NULL, NULL, false);
        break;
    case CONTRACTC_TYPE_DATE:
    case CONTRACTC_TYPE_DATETIME: {
        bool date = v->type == CONTRACTC_TYPE_DATE;
        expect(w, path, line_path, f, portable, nodes, props, "format", NAN,
               date ? "format date" : "format date-time", date ? "(YYYY-MM-DD)" : "(RFC 3339", false);
        /* llama.cpp carries the form only: the calendar is in its notes */
        char head[600];
        snprintf(head, sizeof head, "\n%s: format date", path);
        if (w->out[D_LLAMA].rc == 0)
            ck_assert_msg(strstr(w->out[D_LLAMA].notes, head) != NULL,
                          "%s %s: llama-cpp notes lack the real calendar date", w->m->name, path);
        break;
    }
    case CONTRACTC_TYPE_OBJECT: {
        char prefix[512];
        snprintf(prefix, sizeof prefix, "%s.", line_path);
        walk_object(w, v->object, tv->object, portable, nodes, props, path, prefix);
        break;
    }
    case CONTRACTC_TYPE_ARRAY: {
        ck_assert_uint_eq(tv->min_items, v->has_min_items ? v->min_items : 0);
        ck_assert_uint_eq(tv->max_items, v->has_max_items ? v->max_items : CONTRACTC_UNBOUNDED);
        if (v->has_min_items && v->min_items > 0) {
            count_phrase(phrase, sizeof phrase, true, v->min_items, v->has_max_items, v->max_items,
                         "item", "items");
            expect(w, path, line_path, f, portable, nodes, props, "minItems", v->min_items, NULL,
                   phrase, false);
        }
        if (v->has_max_items) {
            count_phrase(phrase, sizeof phrase, v->has_min_items, v->min_items, true, v->max_items,
                         "item", "items");
            expect(w, path, line_path, f, portable, nodes, props, "maxItems", v->max_items, NULL,
                   phrase, false);
        }
        const cJSON *pi = cJSON_GetObjectItemCaseSensitive(portable, "items");
        const cJSON *di[D_N];
        for (int d = 0; d < D_N; d++)
            di[d] = w->out[d].rc == 0 ? cJSON_GetObjectItemCaseSensitive(nodes[d], "items") : NULL;
        char sub[600], sub_line[600];
        snprintf(sub, sizeof sub, "%s[*]", path);
        /* scalar items are described on the array's own prompt line;
         * object items have lines "list[].field" */
        bool structured = v->items->type == CONTRACTC_TYPE_OBJECT || v->items->type == CONTRACTC_TYPE_ARRAY;
        snprintf(sub_line, sizeof sub_line, structured ? "%s[]" : "%s", line_path);
        /* items that may be null (v2): [T, "null"] for a scalar, anyOf
         * [T, {"type": "null"}] around an enum or an object, in every schema */
        ck_assert(tv->items_nullable == v->items->nullable);
        const cJSON *dn[D_N];
        for (int d = 0; d < D_N; d++)
            dn[d] = di[d];
        if (v->items->nullable &&
            (v->items->type == CONTRACTC_TYPE_ENUM || v->items->type == CONTRACTC_TYPE_OBJECT)) {
            const cJSON *any = cJSON_GetObjectItemCaseSensitive(pi, "anyOf");
            ck_assert_msg(cJSON_GetArraySize(any) == 2, "%s %s: no anyOf with null", w->m->name, sub);
            ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(any, 1), "type")->valuestring,
                             "null");
            pi = cJSON_GetArrayItem(any, 0);
            for (int d = 0; d < D_N; d++)
                if (di[d]) {
                    const cJSON *da = cJSON_GetObjectItemCaseSensitive(di[d], "anyOf");
                    ck_assert_msg(cJSON_GetArraySize(da) == 2, "%s %s: no anyOf with null in %s",
                                  w->m->name, sub, cc_dialect_names[d]);
                    dn[d] = cJSON_GetArrayItem(da, 0);
                }
        } else if (v->items->nullable) {
            const cJSON *t = cJSON_GetObjectItemCaseSensitive(pi, "type");
            ck_assert_msg(cJSON_GetArraySize(t) == 2 &&
                              strcmp(cJSON_GetArrayItem(t, 1)->valuestring, "null") == 0,
                          "%s %s: no [T, \"null\"] type", w->m->name, sub);
        }
        /* an item's words go into the item node's own description */
        walk_value(w, v->items, tv->items, NULL, pi, dn, di, sub, sub_line);
        break;
    }
    default:
        break;
    }
}

static void walk_object(walk_t *w, const cc_object_t *o, const contractc_object_t *table,
                        const cJSON *portable, const cJSON *nodes[D_N], const cJSON *props[D_N],
                        const char *path, const char *line_prefix)
{
    ck_assert_uint_eq(table->field_count, o->field_count);
    ck_assert_uint_eq(table->rule_count, o->rule_count);
    const cJSON *pp = cJSON_GetObjectItemCaseSensitive(portable, "properties");
    for (size_t i = 0; i < o->field_count; i++) {
        const cc_field_t *f = &o->fields[i];
        const contractc_field_t *tf = &table->fields[i];
        ck_assert_str_eq(tf->name, f->name);
        ck_assert(tf->nullable == f->nullable);
        char sub[600], line[600];
        cc_buf_t seg = CC_BUF_INIT, key = CC_BUF_INIT;
        cc_buf_key_segment(&seg, f->name, false);
        if (cc_is_identifier(f->name))
            cc_buf_puts(&key, f->name);
        else /* the prompt writes such a key as JSON does */
            cc_buf_json_string(&key, f->name, strlen(f->name));
        ck_assert(!seg.failed && !key.failed);
        snprintf(sub, sizeof sub, "%s%s", path, seg.data);
        snprintf(line, sizeof line, "%s%s", line_prefix, key.data);
        cc_buf_free(&seg);
        cc_buf_free(&key);
        ck_assert_msg(prompt_line_has(w->prompt, line, ""), "%s: no prompt line for %s", w->m->name, line);
        const cJSON *pprop = cJSON_GetObjectItemCaseSensitive(pp, f->name);
        ck_assert_msg(pprop != NULL, "%s %s: not in the 2020-12 schema", w->m->name, sub);
        const cJSON *dprop[D_N], *dval[D_N];
        for (int d = 0; d < D_N; d++) {
            dprop[d] = dval[d] = NULL;
            if (w->out[d].rc != 0)
                continue;
            dprop[d] = cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(nodes[d], "properties"), f->name);
            ck_assert_msg(dprop[d] != NULL, "%s %s: not in the %s schema", w->m->name, sub,
                          cc_dialect_names[d]);
            dval[d] = value_node(dprop[d], f);
        }
        /* optional (v2): in no schema's 'required', "(may be left out)" in the prompt */
        const cJSON *preq = cJSON_GetObjectItemCaseSensitive(portable, "required");
        bool required = false;
        const cJSON *rk;
        cJSON_ArrayForEach(rk, preq) required |= cJSON_IsString(rk) && strcmp(rk->valuestring, f->name) == 0;
        ck_assert_msg(required == !f->optional, "%s %s: 'required' and optional disagree", w->m->name, sub);
        ck_assert(tf->optional == f->optional);
        if (f->optional)
            ck_assert_msg(prompt_line_has(w->prompt, line, " (may be left out)"),
                          "%s %s: optional not in the prompt", w->m->name, line);
        for (int d = 0; d < D_N; d++) {
            if (w->out[d].rc != 0)
                continue;
            const cJSON *dreq = cJSON_GetObjectItemCaseSensitive(nodes[d], "required");
            bool dr = false;
            cJSON_ArrayForEach(rk, dreq) dr |= cJSON_IsString(rk) && strcmp(rk->valuestring, f->name) == 0;
            ck_assert_msg(dr == !f->optional, "%s %s: 'required' of %s and optional disagree",
                          w->m->name, sub, cc_dialect_names[d]);
        }
        if (f->nullable) {
            ck_assert_msg(prompt_line_has(w->prompt, line, ", or null"), "%s %s: null not in the prompt",
                          w->m->name, line);
            const char *s = cJSON_PrintUnformatted(pprop);
            ck_assert_msg(strstr(s, "\"null\"") != NULL, "%s %s: null not in the schema", w->m->name, sub);
            free((void *)s);
            for (int d = 0; d < D_N; d++) {
                if (!dprop[d])
                    continue;
                char *t = cJSON_PrintUnformatted(dprop[d]);
                ck_assert_msg(strstr(t, "\"null\"") != NULL, "%s %s: %s dropped null (stricter)",
                              w->m->name, sub, cc_dialect_names[d]);
                free(t);
            }
        }
        walk_value(w, &f->value, &tf->value, f, value_node(pprop, f), dval, dprop, sub, line);
    }
    for (size_t r = 0; r < o->rule_count; r++) {
        ck_assert_int_eq((int)table->rules[r].kind, (int)o->rules[r].kind);
        const char *sentence = o->rules[r].prompt;
        char *generated = cc_rule_sentence(o, &o->rules[r]);
        ck_assert_ptr_nonnull(generated);
        ck_assert_msg(sentence ? strstr(w->prompt, sentence) != NULL : case_contains(w->prompt, generated),
                      "%s: rule %s not in the prompt", w->m->name, o->rules[r].id);
        for (int d = 0; d < D_N; d++) {
            if (w->out[d].rc != 0)
                continue;
            char head[600];
            snprintf(head, sizeof head, "\n%s: rule %s", path, o->rules[r].id);
            ck_assert_msg(strstr(w->out[d].notes, head) != NULL, "%s: rule %s not in the %s notes",
                          w->m->name, o->rules[r].id, cc_dialect_names[d]);
            const cJSON *desc = cJSON_GetObjectItemCaseSensitive(props[d], "description");
            ck_assert_msg(desc && case_contains(desc->valuestring, sentence ? sentence : generated),
                          "%s: rule %s not in the %s description at %s", w->m->name, o->rules[r].id,
                          cc_dialect_names[d], path);
            w->checks++;
        }
        free(generated);
    }
}

START_TEST(every_constraint_is_in_the_tables_the_prompt_and_each_schema_or_its_notes)
{
    contract_list_t l;
    list_contracts(&l);
    size_t total = 0;
    for (size_t i = 0; i < l.n; i++) {
        walk_t w;
        memset(&w, 0, sizeof w);
        cc_contract_t *m = load(l.paths[i]);
        w.m = m;
        cc_artifacts_t a;
        ck_assert(cc_build_artifacts(m, &a));
        w.prompt = a.prompt;
        cc_tables_t *t = cc_tables_build(m, a.hash);
        ck_assert_ptr_nonnull(t);
        cJSON *portable = cJSON_Parse(a.schema);
        ck_assert_ptr_nonnull(portable);
        const cJSON *nodes[D_N];
        char *prompt_nl = NULL;
        for (int d = 0; d < D_N; d++) {
            emit(m, d, &w.out[d], NULL);
            nodes[d] = w.out[d].tree;
            if (w.out[d].rc == 0) {
                /* notes lines are searched as "\nPATH: ..." */
                size_t n = w.out[d].notes_len;
                char *x = malloc(n + 2);
                x[0] = '\n';
                memcpy(x + 1, w.out[d].notes, n + 1);
                free(w.out[d].notes);
                w.out[d].notes = x;
            }
        }
        /* prompt lines are searched as "\nPATH: " */
        size_t plen = strlen(a.prompt);
        prompt_nl = malloc(plen + 2);
        prompt_nl[0] = '\n';
        memcpy(prompt_nl + 1, a.prompt, plen + 1);
        w.prompt = prompt_nl;
        walk_object(&w, &m->root, t->contract.root, portable, nodes, nodes, "$", "");
        printf("completeness %s: %zu constraint x dialect checks (tables, prompt, schema or notes)\n",
               m->name, w.checks);
        total += w.checks;
        for (int d = 0; d < D_N; d++)
            release(&w.out[d]);
        free(prompt_nl);
        cJSON_Delete(portable);
        cc_tables_free(t);
        cc_artifacts_free(&a);
        cc_contract_free(m);
    }
    ck_assert_uint_ge(total, 100);
}
END_TEST

/* ---- limits ------------------------------------------------------------------------ */

static char *nullable_contract(int fields)
{
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, "contract: many\nversion: 1\ninstruction: x\nfields:\n");
    for (int i = 0; i < fields; i++)
        cc_buf_printf(&b, "  f%d: {type: string, nullable: true}\n", i);
    return cc_buf_take(&b, NULL);
}

START_TEST(anthropic_refuses_more_than_16_nullable_fields_and_the_others_still_generate)
{
    static const struct { int fields; int rc; } cases[] = {{16, 0}, {17, 1}, {40, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = nullable_contract(cases[i].fields);
        cc_contract_t *m = load_text(text);
        cc_diags_t d;
        cc_diags_init(&d);
        dialect_out_t o;
        emit(m, D_ANTHROPIC, &o, &d);
        ck_assert_int_eq(o.rc, cases[i].rc);
        if (cases[i].rc) {
            ck_assert_ptr_null(o.schema);
            ck_assert_uint_eq(d.errors, 1);
            char want[64];
            snprintf(want, sizeof want, "has %d nullable fields", cases[i].fields);
            ck_assert_msg(strstr(d.items[0].message, want) && strstr(d.items[0].message, "limit of 16"),
                          "diagnostic: %s", d.items[0].message);
            /* the 17th nullable field is where it points */
            ck_assert_uint_eq(d.items[0].mark.line, 5 + 16);
        }
        release(&o);
        cc_diags_free(&d);
        /* all four asked for: anthropic refused, three written */
        cc_artifacts_t a;
        cc_diags_init(&d);
        ck_assert_int_eq(cc_build_artifacts_with(m, cc_dialect_names, cc_dialect_count, &a, &d),
                         cases[i].rc);
        ck_assert_uint_eq(a.dialect_count, cases[i].rc ? 3 : 4);
        cc_artifacts_free(&a);
        cc_diags_free(&d);
        cc_contract_free(m);
        free(text);
    }
}
END_TEST

static char *optional_contract(int fields, const char *extra)
{
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, "contract: opt\nversion: 1\ninstruction: x\nfields:\n  id: {type: string}\n");
    for (int i = 0; i < fields; i++)
        cc_buf_printf(&b, "  f%d: {type: string, optional: true}\n", i);
    cc_buf_puts(&b, extra);
    return cc_buf_take(&b, NULL);
}

/* v2 (docs/dialects.md, "Keys and optional"): openai-strict refuses an
 * optional field and suggests nullable; gemini and llama-cpp carry it
 * (the key is not in 'required'); anthropic carries up to 24 and takes
 * property keys of ^[a-zA-Z0-9_.-]{1,64}$ only. */
START_TEST(optional_fields_per_dialect_and_keys_anthropic_refuses)
{
    static const struct { int fields; const char *extra; int rc[D_N]; const char *says[D_N]; } cases[] = {
        {1, "", {1, 0, 0, 0}, {"field 'f0' is optional", NULL, NULL, NULL}},
        {24, "", {1, 0, 0, 0}, {"write 'nullable: true' instead", NULL, NULL, NULL}},
        {25, "", {1, 0, 1, 0}, {"is optional", NULL, "has 25 optional fields", NULL}},
        {0, "  \"first-name\": {type: string}\n", {0, 0, 0, 0}, {NULL, NULL, NULL, NULL}},
        {0, "  \"$schema\": {type: string}\n", {0, 0, 1, 0}, {NULL, NULL, "the key '$schema'", NULL}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = optional_contract(cases[i].fields, cases[i].extra);
        cc_contract_t *m = load_text(text);
        for (int dd = 0; dd < D_N; dd++) {
            cc_diags_t d;
            cc_diags_init(&d);
            dialect_out_t o;
            emit(m, dd, &o, &d);
            ck_assert_msg(o.rc == cases[i].rc[dd], "case %zu %s: rc %d", i, cc_dialect_names[dd], o.rc);
            if (o.rc) {
                ck_assert_uint_ge(d.errors, 1);
                bool found = false;
                for (size_t k = 0; k < d.count; k++)
                    found |= strstr(d.items[k].message, cases[i].says[dd]) != NULL;
                ck_assert_msg(found, "case %zu %s: no diagnostic says \"%s\" (first: %s)", i,
                              cc_dialect_names[dd], cases[i].says[dd], d.items[0].message);
            } else if (cases[i].fields) {
                /* carried: the optional keys are properties, never required */
                cJSON *s = cJSON_ParseWithLength(o.schema, o.schema_len);
                ck_assert_ptr_nonnull(s);
                cJSON *req = cJSON_GetObjectItemCaseSensitive(s, "required");
                ck_assert_int_eq(cJSON_GetArraySize(req), 1);
                ck_assert_str_eq(cJSON_GetArrayItem(req, 0)->valuestring, "id");
                ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(s, "properties")),
                                 1 + cases[i].fields);
                cJSON_Delete(s);
            }
            release(&o);
            cc_diags_free(&d);
        }
        cc_contract_free(m);
        free(text);
    }
}
END_TEST

/* v2 maps (docs/dialects.md section 5, the map row): openai-strict and
 * anthropic refuse a map at its field and suggest the v1 form; gemini and
 * llama-cpp carry the value schema and note the key pattern and the entry
 * bounds, which they drop. */
START_TEST(maps_refused_by_openai_and_anthropic_carried_by_gemini_and_llama)
{
    const char *text = "contract: m\nversion: 1\ninstruction: x\nfields:\n  id: {type: string}\n"
                       "  tags:\n    type: map\n    values: {type: integer, minimum: 0}\n"
                       "    key_pattern: '[a-z]+'\n    min_entries: 1\n    max_entries: 3\n";
    cc_contract_t *m = load_text(text);
    for (int dd = 0; dd < D_N; dd++) {
        cc_diags_t d;
        cc_diags_init(&d);
        dialect_out_t o;
        emit(m, dd, &o, &d);
        if (dd == D_OPENAI || dd == D_ANTHROPIC) {
            ck_assert_msg(o.rc == 1, "%s: rc %d", cc_dialect_names[dd], o.rc);
            ck_assert_ptr_null(o.schema);
            ck_assert_uint_eq(d.errors, 1);
            ck_assert_msg(strstr(d.items[0].message, cc_dialect_names[dd]) &&
                              strstr(d.items[0].message, "$.tags is a map") &&
                              strstr(d.items[0].message, "an array of {key, value} objects"),
                          "%s: %s", cc_dialect_names[dd], d.items[0].message);
            ck_assert_uint_eq(d.items[0].mark.line, 6); /* the field 'tags' */
            ck_assert_uint_eq(d.items[0].mark.column, 3);
        } else {
            ck_assert_msg(o.rc == 0, "%s: rc %d", cc_dialect_names[dd], o.rc);
            cJSON *s = cJSON_ParseWithLength(o.schema, o.schema_len);
            ck_assert_ptr_nonnull(s);
            cJSON *tags = cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(s, "properties"), "tags");
            cJSON *values = cJSON_GetObjectItemCaseSensitive(tags, "additionalProperties");
            ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(values, "type")->valuestring, "integer");
            ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(tags, "propertyNames"));
            ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(tags, "minProperties"));
            ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(tags, "maxProperties"));
            cJSON_Delete(s);
            ck_assert_msg(strstr(o.notes, "$.tags: key pattern ^([a-z]+)$ (propertyNames) not carried") &&
                              strstr(o.notes, "$.tags: minProperties 1 not carried") &&
                              strstr(o.notes, "$.tags: maxProperties 3 not carried"),
                          "%s notes:\n%s", cc_dialect_names[dd], o.notes);
        }
        release(&o);
        cc_diags_free(&d);
    }
    cc_contract_free(m);
}
END_TEST

START_TEST(openai_refuses_depth_over_10_and_more_than_1000_enum_values)
{
    /* 11 levels: the root and ten nested arrays */
    const char *deep = "contract: deep\nversion: 1\ninstruction: x\nfields:\n"
                       "  a: {type: array, items: {type: array, items: {type: array, items: {type: "
                       "array, items: {type: array, items: {type: array, items: {type: array, items: "
                       "{type: array, items: {type: array, items: {type: array, items: {type: "
                       "integer}}}}}}}}}}}\n";
    cc_contract_t *m = load_text(deep);
    cc_diags_t d;
    cc_diags_init(&d);
    dialect_out_t o;
    emit(m, D_OPENAI, &o, &d);
    ck_assert_int_eq(o.rc, 1);
    ck_assert_msg(strstr(d.items[0].message, "nests 11 levels") != NULL, "%s", d.items[0].message);
    release(&o);
    cc_diags_free(&d);
    emit(m, D_GEMINI, &o, NULL); /* no documented depth limit */
    ck_assert_int_eq(o.rc, 0);
    release(&o);
    cc_contract_free(m);

    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, "contract: wide\nversion: 1\ninstruction: x\nfields:\n  e:\n    type: enum\n    values: [");
    for (int i = 0; i < 1001; i++)
        cc_buf_printf(&b, "%sv%d", i ? ", " : "", i);
    cc_buf_puts(&b, "]\n");
    char *text = cc_buf_take(&b, NULL);
    m = load_text(text);
    cc_diags_init(&d);
    emit(m, D_OPENAI, &o, &d);
    ck_assert_int_eq(o.rc, 1);
    ck_assert_msg(strstr(d.items[0].message, "1001 enum values") != NULL, "%s", d.items[0].message);
    release(&o);
    cc_diags_free(&d);
    cc_contract_free(m);
    free(text);
}
END_TEST

START_TEST(anthropic_loosens_min_items_to_1_and_records_the_rest)
{
    const char *text = "contract: lists\nversion: 1\ninstruction: x\nfields:\n"
                       "  a: {type: array, min_items: 3, max_items: 9, items: {type: boolean}}\n"
                       "  b: {type: array, min_items: 1, items: {type: boolean}}\n";
    cc_contract_t *m = load_text(text);
    dialect_out_t o;
    emit(m, D_ANTHROPIC, &o, NULL);
    ck_assert_int_eq(o.rc, 0);
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(o.tree, "properties");
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(props, "a");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(props, "b");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(a, "minItems")->valueint, 1);
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(a, "maxItems"));
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(b, "minItems")->valueint, 1);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(a, "description")->valuestring, "3 to 9 items.");
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(b, "description"));
    ck_assert_ptr_nonnull(strstr(o.notes, "$.a: minItems 3 not carried by anthropic (only 0 or 1 accepted; emitted as minItems 1)"));
    ck_assert_ptr_nonnull(strstr(o.notes, "$.a: maxItems 9 not carried by anthropic (refused)"));
    ck_assert_ptr_null(strstr(o.notes, "$.b:"));
    release(&o);
    cc_contract_free(m);
}
END_TEST

/* ---- llama.cpp patterns ---------------------------------------------------------------- */

START_TEST(llama_cpp_patterns_spell_shorthand_classes_out)
{
    static const struct { const char *pattern, *want; } cases[] = {
        {"A-\\d+", "^(A-[0-9]+)$"},
        {"[\\dA-F]{4}", "^([0-9A-F]{4})$"},
        {"\\w+@\\w+", "^([A-Za-z0-9_]+@[A-Za-z0-9_]+)$"},
        {"\\D\\W", "^([^0-9][^A-Za-z0-9_])$"},
        {"(?:ab|c)\\.d", "^((?:ab|c)\\.d)$"},
        {"[\\D]", NULL},   /* no spelt-out form inside a class */
        {"a\\x41", NULL},  /* code-point escape */
        {"a+?", NULL},     /* lazy quantifier */
        {"a\\sb", NULL},   /* ECMA-262's Unicode white space */
        {"[^\\S]", NULL},
        {"a.b", NULL},     /* llama.cpp's '.' also matches U+2028 */
        {"a[.]b", "^(a[.]b)$"},   /* a '.' in a class is itself */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cc_buf_t b = CC_BUF_INIT;
        cc_buf_puts(&b, "contract: p\nversion: 1\ninstruction: x\nfields:\n  s:\n    type: string\n"
                        "    max_length: 5\n    pattern: '");
        cc_buf_puts(&b, cases[i].pattern);
        cc_buf_puts(&b, "'\n");
        char *text = cc_buf_take(&b, NULL);
        cc_contract_t *m = load_text(text);
        dialect_out_t o;
        emit(m, D_LLAMA, &o, NULL);
        ck_assert_int_eq(o.rc, 0);
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o.tree, "properties"), "s");
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(s, "pattern");
        /* beside a pattern, llama.cpp ignores maxLength: always recorded */
        ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(s, "maxLength"));
        ck_assert_ptr_nonnull(strstr(o.notes, "$.s: maxLength 5 not carried by llama-cpp (ignored beside a pattern)"));
        if (cases[i].want) {
            ck_assert_msg(p && strcmp(p->valuestring, cases[i].want) == 0, "%s -> %s, want %s",
                          cases[i].pattern, p ? p->valuestring : "(none)", cases[i].want);
        } else {
            ck_assert_msg(p == NULL, "%s should not be carried", cases[i].pattern);
            ck_assert_ptr_nonnull(strstr(o.notes, "$.s: pattern ^("));
        }
        release(&o);
        cc_contract_free(m);
        free(text);
    }
}
END_TEST

/* ---- the CLI ----------------------------------------------------------------------------- */

START_TEST(generate_prints_one_summary_line_per_dialect)
{
    char dir[] = "/tmp/contractc-dialects-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char contract[] = ROOT "/tests/data/contracts/refund_request.contract.yaml";
    char *argv[] = {"contractc", "generate", contract, "-o", dir, "--schema-dialect", "gemini",
                    "--schema-dialect", "anthropic", NULL};
    char *out_text = NULL, *err_text = NULL;
    size_t out_len = 0, err_len = 0;
    FILE *out = open_memstream(&out_text, &out_len);
    FILE *err = open_memstream(&err_text, &err_len);
    ck_assert_int_eq(cc_cli_main(9, argv, out, err), 0);
    fclose(out);
    fclose(err);
    /* informational lines: on stderr, nothing on stdout */
    ck_assert_str_eq(out_text, "");
    ck_assert_str_eq(err_text,
                     "refund_request: gemini schema written; 4 constraints not carried, listed in "
                     "refund_request.gemini.notes.txt\n"
                     "refund_request: anthropic schema written; 2 constraints not carried, listed in "
                     "refund_request.anthropic.notes.txt\n");
    const char *files[] = {"refund_request.gemini.schema.json", "refund_request.gemini.notes.txt",
                           "refund_request.anthropic.schema.json", "refund_request.anthropic.notes.txt",
                           "refund_request.h", "refund_request.c", "refund_request.schema.json",
                           "refund_request.prompt.txt"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        struct stat st;
        ck_assert_msg(stat(path, &st) == 0, "%s not written", path);
        unlink(path);
    }
    rmdir(dir);
    free(out_text);
    free(err_text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dialects");
    TCase *tc = tcase_create("dialects");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, dialect_files_equal_the_golden_files);
    tcase_add_test(tc, every_dialect_uses_only_its_allowed_keywords);
    tcase_add_test(tc, every_constraint_is_in_the_tables_the_prompt_and_each_schema_or_its_notes);
    tcase_add_test(tc, anthropic_refuses_more_than_16_nullable_fields_and_the_others_still_generate);
    tcase_add_test(tc, openai_refuses_depth_over_10_and_more_than_1000_enum_values);
    tcase_add_test(tc, optional_fields_per_dialect_and_keys_anthropic_refuses);
    tcase_add_test(tc, maps_refused_by_openai_and_anthropic_carried_by_gemini_and_llama);
    tcase_add_test(tc, anthropic_loosens_min_items_to_1_and_records_the_rest);
    tcase_add_test(tc, llama_cpp_patterns_spell_shorthand_classes_out);
    tcase_add_test(tc, generate_prints_one_summary_line_per_dialect);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
