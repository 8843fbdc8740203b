/* SPDX-License-Identifier: MIT */
/*
 * test_tools.c - `generate --tool D` (docs/tools.md, "Tool definitions"):
 *   - the tool files of the golden contracts equal tests/golden/;
 *   - every tool definition of every example and test contract has the
 *     shape its provider documents (the shapes are written out below from
 *     the providers' pages, each with its source and the date it was read);
 *   - the parameters are the dialect schema, byte for byte as a tree;
 *   - a contract name outside a provider's tool-name rule refuses that
 *     tool (never a renamed one), and the other tools are still written;
 *   - the command line writes, checks and embeds them (NAME_tool_D_json[]).
 */
#include <check.h>
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "generator.h"

#define ROOT CONTRACTC_SOURCE_DIR
#define GOLDEN ROOT "/tests/golden"

enum { T_OPENAI, T_ANTHROPIC, T_GEMINI, T_MCP, T_N };

/* ---- the providers' documented shapes ----------------------------------- */

/*
 * Written from the providers' own pages (read 2026-12-03), not from code:
 *
 * OpenAI, "Function calling" guide and the Chat Completions API reference
 * (platform.openai.com/docs/guides/function-calling,
 * /docs/api-reference/chat/create, `tools[]`): a tool is
 *   {"type": "function", "function": {"name", "description", "parameters",
 *    "strict"}}
 * name "must be a-z, A-Z, 0-9, or contain underscores and dashes, with a
 * maximum length of 64"; parameters a JSON Schema object; strict true
 * enables Structured Outputs for the arguments.
 *
 * Anthropic, Claude docs "Define tools" and "Strict tool use"
 * (platform.claude.com/docs/en/agents-and-tools/tool-use/...) and the
 * Messages API `tools[]`: {"name", "description", "input_schema"}, name
 * matching ^[a-zA-Z0-9_-]{1,64}$, input_schema a JSON Schema with
 * "type": "object"; "strict": true as a top-level field beside them turns
 * on grammar-constrained sampling of the input.
 *
 * Gemini, Gemini API reference `FunctionDeclaration`
 * (ai.google.dev/api/caching#FunctionDeclaration) and the "Function
 * calling" guide: {"name", "description", "parametersJsonSchema"}; name
 * "must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or
 * contain underscores, colons, dots, and dashes, with a maximum length of
 * 64"; parametersJsonSchema "must describe an object", mutually exclusive
 * with `parameters`.
 *
 * MCP, specification revision 2025-11-25, "Server Features / Tools"
 * (modelcontextprotocol.io/specification/2025-11-25/server/tools): a tool
 * in a tools/list result is {"name", "title"?, "description",
 * "inputSchema", "outputSchema"?, "annotations"?}; inputSchema is a JSON
 * Schema object ("type": "object"); tool names SHOULD be 1 to 128
 * characters of A-Z, a-z, 0-9, '_', '-' and '.'.
 */
static const struct {
    const char *name;
    const char *keys[6];          /* the definition's keys, exactly, in order */
    const char *schema_key;
    const char *name_regex;       /* POSIX ERE */
    bool strict;                  /* "strict": true */
    bool wrapped;                 /* OpenAI: {"type": "function", "function": {...}} */
    const char *dialect;          /* the dialect the parameters are */
} shapes[T_N] = {
    [T_OPENAI] = {"openai", {"name", "description", "parameters", "strict", NULL}, "parameters",
                  "^[a-zA-Z0-9_-]{1,64}$", true, true, "openai-strict"},
    [T_ANTHROPIC] = {"anthropic", {"name", "description", "input_schema", "strict", NULL},
                     "input_schema", "^[a-zA-Z0-9_-]{1,64}$", true, false, "anthropic"},
    [T_GEMINI] = {"gemini", {"name", "description", "parametersJsonSchema", NULL},
                  "parametersJsonSchema", "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$", false, false,
                  "gemini"},
    [T_MCP] = {"mcp", {"name", "description", "inputSchema", NULL}, "inputSchema",
               "^[a-zA-Z0-9_.-]{1,128}$", false, false, NULL},
};

/* ---- contracts ------------------------------------------------------------ */

typedef struct contract_list {
    char paths[64][1024];
    char golden[64][128];
    size_t n;
} contract_list_t;

static void add_contract(contract_list_t *l, const char *path, const char *golden)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->paths[i], path) == 0)
            return;
    ck_assert_uint_lt(l->n, 64);
    int wp = snprintf(l->paths[l->n], sizeof l->paths[0], "%s", path);
    int wg = snprintf(l->golden[l->n], sizeof l->golden[0], "%s", golden ? golden : "");
    ck_assert(wp >= 0 && (size_t)wp < sizeof l->paths[0] && wg >= 0 &&
              (size_t)wg < sizeof l->golden[0]);
    l->n++;
}

/* The golden contracts first, then every example and test contract. */
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

static cc_contract_t *load_text(const char *name, const char *text)
{
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *m = cc_contract_load_buffer(name, text, strlen(text), &d);
    if (!m || d.errors)
        cc_diags_print(&d, stderr);
    ck_assert_msg(m != NULL && d.errors == 0, "cannot load %s", name);
    cc_diags_free(&d);
    return m;
}

static cc_contract_t *load(const char *path)
{
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *m = cc_contract_load(path, &d);
    ck_assert_msg(m != NULL && d.errors == 0, "cannot load %s", path);
    cc_diags_free(&d);
    return m;
}

typedef struct tool_out {
    int rc;
    char *json, *notes, *summary;
    size_t json_len, notes_len;
} tool_out_t;

static void emit(const cc_contract_t *m, int t, tool_out_t *o, cc_diags_t *diags)
{
    memset(o, 0, sizeof *o);
    o->rc = cc_emit_tool(m, cc_tool_names[t], &o->json, &o->json_len, &o->notes, &o->notes_len,
                         &o->summary, diags);
}

static void release(tool_out_t *o)
{
    free(o->json);
    free(o->notes);
    free(o->summary);
}

/* ---- goldens ------------------------------------------------------------- */

START_TEST(tool_files_equal_the_golden_files)
{
    ck_assert_uint_eq(cc_tool_count, T_N);
    for (int t = 0; t < T_N; t++)
        ck_assert_str_eq(cc_tool_names[t], shapes[t].name);
    contract_list_t l;
    list_contracts(&l);
    size_t compared = 0;
    for (size_t i = 0; i < l.n; i++) {
        if (!l.golden[i][0])
            continue;
        cc_contract_t *m = load(l.paths[i]);
        for (int t = 0; t < T_N; t++) {
            tool_out_t o;
            emit(m, t, &o, NULL);
            ck_assert_int_ge(o.rc, 0);
            const char *exts[] = {".tool.json", ".tool.notes.txt"};
            const char *texts[] = {o.json, o.notes};
            size_t lens[] = {o.json_len, o.notes_len};
            for (int k = 0; k < 2; k++) {
                char path[2048];
                snprintf(path, sizeof path, "%s/%s/%s.%s%s", GOLDEN, l.golden[i], l.golden[i],
                         cc_tool_names[t], exts[k]);
                size_t len = 0;
                char *want = cc_read_file(path, &len);
                if (o.rc != 0) {
                    /* refused as its dialect is: no golden file */
                    ck_assert_msg(want == NULL, "%s exists, but the tool is refused now", path);
                    continue;
                }
                ck_assert_msg(want != NULL, "missing golden file %s (run scripts/refresh-golden.sh)",
                              path);
                ck_assert_msg(len == lens[k] && memcmp(want, texts[k], len) == 0,
                              "%s differs from the generated text; if intended, run "
                              "scripts/refresh-golden.sh and review the diff",
                              path);
                free(want);
                compared++;
            }
            release(&o);
        }
        cc_contract_free(m);
    }
    ck_assert_uint_ge(compared, 32);
    printf("tool goldens: %zu files equal\n", compared);
}
END_TEST

/* ---- shapes ------------------------------------------------------------- */

static bool matches(const char *re, const char *s)
{
    regex_t r;
    ck_assert_int_eq(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0);
    bool ok = regexec(&r, s, 0, NULL, 0) == 0;
    regfree(&r);
    return ok;
}

/* True when a key `key` occurs anywhere under node (as an object key). */
static bool has_key_anywhere(const cJSON *node, const char *key)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, node) {
        if (c->string && strcmp(c->string, key) == 0)
            return true;
        if (has_key_anywhere(c, key))
            return true;
    }
    return false;
}

/* Removes every "description" member under node (descriptions carry the
 * not-carried sentences, so they may differ from the portable schema's). */
static void drop_descriptions(cJSON *node)
{
    cJSON_DeleteItemFromObjectCaseSensitive(node, "description");
    cJSON *c;
    cJSON_ArrayForEach(c, node) drop_descriptions(c);
}

static void assert_shape(const cc_contract_t *m, int t, const char *json)
{
    cJSON *root = cJSON_Parse(json);
    ck_assert_msg(root != NULL, "%s %s: not JSON", m->name, shapes[t].name);
    const cJSON *def = root;
    if (shapes[t].wrapped) {
        ck_assert_int_eq(cJSON_GetArraySize(root), 2);
        ck_assert_str_eq(root->child->string, "type");
        ck_assert_str_eq(root->child->valuestring, "function");
        def = cJSON_GetObjectItemCaseSensitive(root, "function");
        ck_assert_ptr_eq(def, root->child->next);
        ck_assert(cJSON_IsObject(def));
    }
    /* exactly the documented keys, in the documented order */
    const cJSON *c = def->child;
    size_t k = 0;
    for (; shapes[t].keys[k]; k++, c = c->next) {
        ck_assert_msg(c != NULL, "%s %s: no key %s", m->name, shapes[t].name, shapes[t].keys[k]);
        ck_assert_str_eq(c->string, shapes[t].keys[k]);
    }
    ck_assert_msg(c == NULL, "%s %s: an extra key %s", m->name, shapes[t].name, c ? c->string : "");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(def, "name");
    ck_assert(cJSON_IsString(name));
    ck_assert_str_eq(name->valuestring, m->name);
    ck_assert_msg(matches(shapes[t].name_regex, name->valuestring), "%s: name outside %s",
                  shapes[t].name, shapes[t].name_regex);
    const cJSON *description = cJSON_GetObjectItemCaseSensitive(def, "description");
    ck_assert(cJSON_IsString(description) && description->valuestring[0]);
    if (m->description)
        ck_assert_ptr_nonnull(strstr(description->valuestring, "."));
    if (shapes[t].strict)
        ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(def, "strict")));
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(def, shapes[t].schema_key);
    ck_assert(cJSON_IsObject(schema));
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(schema, "type");
    ck_assert(cJSON_IsString(type));
    ck_assert_str_eq(type->valuestring, "object");
    /* Gemini ignores const: never one in a declaration */
    if (t == T_GEMINI)
        ck_assert(!has_key_anywhere(schema, "const"));
    /* $schema and $id belong to the portable file (a property may be named so) */
    ck_assert(!cJSON_GetObjectItemCaseSensitive(schema, "$schema") &&
              !cJSON_GetObjectItemCaseSensitive(schema, "$id"));

    /* the parameters are the dialect schema (MCP: the portable schema, its
     * descriptions aside) */
    cJSON *want = NULL;
    if (shapes[t].dialect) {
        char *text = NULL, *notes = NULL, *summary = NULL;
        size_t len = 0, notes_len = 0;
        ck_assert_int_eq(cc_emit_schema_dialect(m, shapes[t].dialect, &text, &len, &notes,
                                                &notes_len, &summary, NULL),
                         0);
        want = cJSON_Parse(text);
        free(text);
        free(notes);
        free(summary);
        if (t == T_GEMINI)
            ck_assert(!has_key_anywhere(want, "const")); /* else the rewrite is seen below */
        ck_assert_msg(cJSON_Compare(want, schema, true), "%s %s: the parameters are not the %s "
                      "dialect schema", m->name, shapes[t].name, shapes[t].dialect);
    } else {
        size_t len = 0;
        char *text = cc_emit_schema(m, &len);
        want = cJSON_Parse(text);
        free(text);
        cJSON_DeleteItemFromObjectCaseSensitive(want, "$schema");
        cJSON_DeleteItemFromObjectCaseSensitive(want, "$id");
        cJSON *got = cJSON_Duplicate(schema, true);
        drop_descriptions(want);
        drop_descriptions(got);
        ck_assert_msg(cJSON_Compare(want, got, true), "%s mcp: the inputSchema is not the portable "
                      "schema", m->name);
        cJSON_Delete(got);
    }
    cJSON_Delete(want);
    cJSON_Delete(root);
}

START_TEST(every_tool_has_its_providers_documented_shape)
{
    contract_list_t l;
    list_contracts(&l);
    size_t checked = 0;
    for (size_t i = 0; i < l.n; i++) {
        cc_contract_t *m = load(l.paths[i]);
        for (int t = 0; t < T_N; t++) {
            tool_out_t o;
            cc_diags_t d;
            cc_diags_init(&d);
            emit(m, t, &o, &d);
            if (o.rc == 1) {
                /* only as the dialect is refused (its limits) */
                ck_assert_uint_gt(d.errors, 0);
            } else {
                ck_assert_int_eq(o.rc, 0);
                assert_shape(m, t, o.json);
                /* the notes are the dialect's under the tool's heading */
                char head[256];
                snprintf(head, sizeof head, "# %s.%s.tool.json: ", m->name, shapes[t].name);
                ck_assert_msg(strncmp(o.notes, head, strlen(head)) == 0, "%s", o.notes);
                checked++;
            }
            cc_diags_free(&d);
            release(&o);
        }
        cc_contract_free(m);
    }
    ck_assert_uint_ge(checked, 4 * 6);
    printf("tool shapes: %zu definitions of %zu contracts checked\n", checked, l.n);
}
END_TEST

START_TEST(the_description_is_the_description_then_the_instruction)
{
    cc_contract_t *m = load_text("d.contract.yaml",
                                 "contract: lookup\nversion: 1\n"
                                 "description: |\n  Looks up\n  an order.\n"
                                 "instruction: |\n  Find the order.\n  Say null when unsure.\n\n"
                                 "fields:\n  id:\n    type: string\n");
    tool_out_t o;
    emit(m, T_ANTHROPIC, &o, NULL);
    ck_assert_int_eq(o.rc, 0);
    cJSON *root = cJSON_Parse(o.json);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(root, "description")->valuestring,
                     "Looks up an order.\n\nFind the order.\nSay null when unsure.");
    cJSON_Delete(root);
    release(&o);
    cc_contract_free(m);
}
END_TEST

/* ---- refusals ------------------------------------------------------------ */

static char *contract_named(size_t n)
{
    char *name = malloc(n + 1);
    ck_assert_ptr_nonnull(name);
    memset(name, 'a', n);
    name[n] = '\0';
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_printf(&b, "contract: %s\nversion: 1\ninstruction: Read it.\nfields:\n  x:\n    type: integer\n",
                  name);
    free(name);
    return cc_buf_take(&b, NULL);
}

START_TEST(a_name_outside_a_providers_rule_refuses_that_tool)
{
    /* 64 characters: every tool; 65: MCP only; 129: none */
    const size_t lengths[] = {64, 65, 128, 129};
    const int want[][T_N] = {{0, 0, 0, 0}, {1, 1, 1, 0}, {1, 1, 1, 0}, {1, 1, 1, 1}};
    for (size_t i = 0; i < 4; i++) {
        char *text = contract_named(lengths[i]);
        cc_contract_t *m = load_text("long.contract.yaml", text);
        free(text);
        for (int t = 0; t < T_N; t++) {
            cc_diags_t d;
            cc_diags_init(&d);
            tool_out_t o;
            emit(m, t, &o, &d);
            ck_assert_msg(o.rc == want[i][t], "%zu characters, %s: rc %d", lengths[i],
                          shapes[t].name, o.rc);
            if (o.rc == 1) {
                ck_assert_ptr_null(o.json);
                FILE *f = tmpfile();
                cc_diags_print(&d, f);
                rewind(f);
                char buf[2048] = {0};
                size_t got = fread(buf, 1, sizeof buf - 1, f);
                buf[got] = '\0';
                fclose(f);
                char what[64];
                snprintf(what, sizeof what, "the %s tool is refused", shapes[t].name);
                ck_assert_msg(strstr(buf, what) && strstr(buf, "long.contract.yaml:1:"), "%s", buf);
                if (t == T_ANTHROPIC)
                    ck_assert_ptr_nonnull(strstr(buf, "^[a-zA-Z0-9_-]{1,64}$"));
            }
            cc_diags_free(&d);
            release(&o);
        }
        cc_contract_free(m);
    }
}
END_TEST

START_TEST(an_unknown_tool_is_an_error_not_a_guess)
{
    cc_contract_t *m = load_text("u.contract.yaml",
                                 "contract: u\nversion: 1\ninstruction: x\nfields:\n  a:\n    type: boolean\n");
    char *json = (char *)1, *notes = (char *)1, *summary = (char *)1;
    size_t jl = 1, nl = 1;
    ck_assert_int_eq(cc_emit_tool(m, "openai-strict", &json, &jl, &notes, &nl, &summary, NULL), -1);
    ck_assert(json == NULL && notes == NULL && summary == NULL && jl == 0 && nl == 0);
    ck_assert(!cc_tool_known("openai-strict") && !cc_tool_known(NULL) && cc_tool_known("mcp"));
    cc_contract_free(m);
}
END_TEST

/* ---- the command line ------------------------------------------------------- */

static int cli(char **argv, int argc, char *out_text, size_t cap)
{
    FILE *out = tmpfile(), *err = tmpfile();
    int code = cc_cli_main(argc, argv, out, err);
    size_t n = 0;
    if (out_text) {
        rewind(err);
        n = fread(out_text, 1, cap - 1, err);
        rewind(out);
        n += fread(out_text + n, 1, cap - 1 - n, out);
        out_text[n] = '\0';
    }
    fclose(out);
    fclose(err);
    return code;
}

START_TEST(generate_writes_checks_and_embeds_the_tools)
{
    char dir[] = "/tmp/contractc-tools-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char contract[] = ROOT "/examples/refund/refund_request.contract.yaml";
    char text[8192];
    char *argv[] = {"contractc", "generate", contract, "-o", dir, "--tool", "openai",
                    "--tool", "mcp", "--tool", "openai", NULL};
    ck_assert_int_eq(cli(argv, 11, text, sizeof text), 0);
    ck_assert_ptr_nonnull(strstr(text, "refund_request: openai tool written; 2 constraints not "
                                       "carried, listed in refund_request.openai.tool.notes.txt"));
    const char *files[] = {"openai.tool.json", "openai.tool.notes.txt", "mcp.tool.json",
                           "mcp.tool.notes.txt"};
    for (size_t i = 0; i < 4; i++) {
        char path[512], gpath[512];
        snprintf(path, sizeof path, "%s/refund_request.%s", dir, files[i]);
        snprintf(gpath, sizeof gpath, "%s/refund_request/refund_request.%s", GOLDEN, files[i]);
        size_t a, b;
        char *x = cc_read_file(path, &a), *y = cc_read_file(gpath, &b);
        ck_assert_msg(x && y && a == b && memcmp(x, y, a) == 0, "%s differs from %s", path, gpath);
        free(x);
        free(y);
    }
    /* NAME.h declares, NAME.c defines the texts */
    char path[512];
    snprintf(path, sizeof path, "%s/refund_request.h", dir);
    char *h = cc_read_file(path, NULL);
    snprintf(path, sizeof path, "%s/refund_request.c", dir);
    char *c = cc_read_file(path, NULL);
    ck_assert(h && c);
    ck_assert_ptr_nonnull(strstr(h, "extern const char refund_request_tool_openai_json[];"));
    ck_assert_ptr_nonnull(strstr(h, "extern const size_t refund_request_tool_mcp_json_len;"));
    ck_assert_ptr_null(strstr(h, "refund_request_tool_gemini_json"));
    ck_assert_ptr_nonnull(strstr(c, "const char refund_request_tool_openai_json[] ="));
    free(h);
    free(c);
    /* --check: unchanged, then drift named with the command */
    char *check[] = {"contractc", "generate", "--check", contract, "-o", dir, "--tool", "openai",
                     "--tool", "mcp", NULL};
    ck_assert_int_eq(cli(check, 10, text, sizeof text), 0);
    snprintf(path, sizeof path, "%s/refund_request.mcp.tool.json", dir);
    FILE *f = fopen(path, "ab");
    ck_assert_ptr_nonnull(f);
    fputs(" ", f);
    fclose(f);
    ck_assert_int_eq(cli(check, 10, text, sizeof text), 1);
    ck_assert_msg(strstr(text, "refund_request.mcp.tool.json: differs from") &&
                      strstr(text, "--tool openai --tool mcp"),
                  "%s", text);
    /* an unknown tool is a usage error */
    char *bad[] = {"contractc", "generate", contract, "-o", dir, "--tool", "claude", NULL};
    ck_assert_int_eq(cli(bad, 7, text, sizeof text), 2);
    ck_assert_ptr_nonnull(strstr(text, "unknown tool 'claude' (known: openai, anthropic, gemini, mcp)"));
    const char *all[] = {"h", "c", "schema.json", "prompt.txt", "openai.tool.json",
                         "openai.tool.notes.txt", "mcp.tool.json", "mcp.tool.notes.txt"};
    for (size_t i = 0; i < 8; i++) {
        snprintf(path, sizeof path, "%s/refund_request.%s", dir, all[i]);
        unlink(path);
    }
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tools");
    TCase *tc = tcase_create("tools");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, tool_files_equal_the_golden_files);
    tcase_add_test(tc, every_tool_has_its_providers_documented_shape);
    tcase_add_test(tc, the_description_is_the_description_then_the_instruction);
    tcase_add_test(tc, a_name_outside_a_providers_rule_refuses_that_tool);
    tcase_add_test(tc, an_unknown_tool_is_an_error_not_a_guess);
    tcase_add_test(tc, generate_writes_checks_and_embeds_the_tools);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
