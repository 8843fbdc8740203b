/* SPDX-License-Identifier: MIT */
/*
 * gen_tool.c - NAME.D.tool.json and NAME.D.tool.notes.txt: the contract as
 * one tool (function) definition for provider D (docs/tools.md, "Tool
 * definitions").
 *
 * The parameters are the provider's dialect schema exactly as
 * gen_dialect.c builds it, so what a tool carries and what it records as
 * not carried is the dialect's (docs/dialects.md); this file only wraps it:
 *
 *   openai     {"type": "function", "function": {"name", "description",
 *              "parameters": <openai-strict>, "strict": true}}
 *   anthropic  {"name", "description", "input_schema": <anthropic>,
 *              "strict": true}
 *   gemini     {"name", "description", "parametersJsonSchema": <gemini>}
 *   mcp        {"name", "description", "inputSchema": <the portable schema>}
 *
 * name is the contract's name; description is the contract's
 * `description` (one line), a blank line, then its `instruction` (its own
 * lines, trailing white space dropped, as in the prompt).
 *
 * Anthropic's "strict": true is what makes its dialect's "carried" true:
 * strict tool use decodes the input with the structured-outputs grammar,
 * whose limits the anthropic dialect was written for; without it the
 * schema is only read by the model.
 *
 * Gemini ignores `const` in a declaration (docs/dialects.md section 2): a
 * `const` left by the dialect becomes a one-value `enum`, which carries
 * the same value (a no-op when the dialect already wrote one).
 *
 * Refusals: a dialect the contract exceeds is refused as the dialect is
 * (the diagnostic is gen_dialect.c's); a contract name outside a
 * provider's tool-name rule refuses that tool, never a renamed one (the
 * name routes the call back).  Contract names are [a-z][a-z0-9_]*, so only
 * their length can bite: OpenAI and Anthropic 64, Gemini 64, MCP 128.
 */
#include "generator.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "lexical.h"

const char *const cc_tool_names[] = {"openai", "anthropic", "gemini", "mcp"};
const size_t cc_tool_count = sizeof cc_tool_names / sizeof cc_tool_names[0];

enum { T_OPENAI, T_ANTHROPIC, T_GEMINI, T_MCP };

/* The dialect whose schema each tool carries (gen_dialect.c). */
static const char *const tool_dialects[] = {"openai-strict", "anthropic", "gemini", "mcp"};

/* Who the provider is, the key holding the schema, the name rule and where
 * it is documented (read at the dates given; docs/tools.md lists them). */
static const struct {
    const char *provider;
    const char *schema_key;
    size_t max_name;
    const char *name_rule;
} tool_rules[] = {
    {"OpenAI function calling", "parameters", 64,
     "^[a-zA-Z0-9_-]{1,64}$ (OpenAI function calling, FunctionDefinition.name, read 2026-12)"},
    {"Anthropic tool use", "input_schema", 64,
     "^[a-zA-Z0-9_-]{1,64}$ (Claude docs, Messages API Tool.name, read 2026-12)"},
    {"Gemini function calling", "parametersJsonSchema", 64,
     "a letter or underscore, then a-z, A-Z, 0-9, '_', '.', ':' or '-', at most 64 characters "
     "(Gemini API FunctionDeclaration.name, read 2026-12)"},
    {"Model Context Protocol tools", "inputSchema", 128,
     "1 to 128 of A-Z, a-z, 0-9, '_', '-' and '.' (MCP specification 2025-11-25, Tool names)"},
};

bool cc_tool_known(const char *tool)
{
    for (size_t i = 0; i < cc_tool_count; i++)
        if (tool && strcmp(cc_tool_names[i], tool) == 0)
            return true;
    return false;
}

/* `const: V` -> `enum: [V]` everywhere below node (Gemini ignores const). */
static bool const_to_enum(cJSON *node)
{
    if (!cJSON_IsObject(node) && !cJSON_IsArray(node))
        return true;
    cJSON *child;
    cJSON_ArrayForEach(child, node) {
        if (!const_to_enum(child))
            return false;
    }
    if (!cJSON_IsObject(node))
        return true;
    cJSON *c = cJSON_GetObjectItemCaseSensitive(node, "const");
    if (!c)
        return true;
    if (cJSON_GetObjectItemCaseSensitive(node, "enum")) {
        /* both: the enum already says it (the dialect wrote one) */
        cJSON_DeleteItemFromObjectCaseSensitive(node, "const");
        return true;
    }
    cJSON *value = cJSON_DetachItemViaPointer(node, c);
    cJSON *list = cJSON_CreateArray();
    char *key = cc_strdup("enum");
    if (!list || !key) {
        cJSON_Delete(value);
        cJSON_Delete(list);
        free(key);
        return false;
    }
    free(value->string);
    value->string = NULL;
    cJSON_AddItemToArray(list, value);
    list->string = key;
    /* where const stood is not kept by cJSON; enum goes last */
    cJSON_AddItemToArray(node, list);
    return true;
}

/* The tool's description: description, a blank line, instruction. */
static char *tool_description(const cc_contract_t *k)
{
    cc_buf_t b = CC_BUF_INIT;
    if (!cc_is_blank(k->description))
        cc_phrase_one_line(&b, k->description);
    if (!cc_is_blank(k->instruction)) {
        size_t n = strlen(k->instruction);
        while (n > 0 && cc_is_space(k->instruction[n - 1]))
            n--;
        size_t s = 0;
        while (s < n && cc_is_space(k->instruction[s]))
            s++;
        if (b.len > 0)
            cc_buf_puts(&b, "\n\n");
        cc_buf_append(&b, k->instruction + s, n - s);
    }
    if (b.len == 0)
        cc_buf_puts(&b, k->name);
    return cc_buf_take(&b, NULL);
}

/* A cJSON item with its own key, appended to obj; false when out of memory. */
static bool add(cJSON *obj, const char *key, cJSON *item)
{
    if (!item)
        return false;
    if (!cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

int cc_emit_tool(const cc_contract_t *contract, const char *tool, char **json, size_t *json_len,
                 char **notes, size_t *notes_len, char **summary, cc_diags_t *diags)
{
    *json = *notes = *summary = NULL;
    *json_len = *notes_len = 0;
    int t = -1;
    for (size_t i = 0; i < cc_tool_count; i++)
        if (tool && strcmp(cc_tool_names[i], tool) == 0)
            t = (int)i;
    if (t < 0)
        return -1;

    size_t name_len = strlen(contract->name);
    if (name_len == 0 || name_len > tool_rules[t].max_name) {
        cc_error(diags, contract->path, contract->name_mark,
                 "the %s tool is refused: the contract name '%s' (%zu characters) is the tool's "
                 "name, and %s tool names must match %s; a renamed tool would not route back to "
                 "this contract: shorten the contract name",
                 cc_tool_names[t], contract->name, name_len, tool_rules[t].provider,
                 tool_rules[t].name_rule);
        return 1;
    }

    char *schema = NULL, *dnotes = NULL, *dsummary = NULL;
    size_t schema_len = 0, dnotes_len = 0;
    int rc = cc_emit_schema_dialect(contract, tool_dialects[t], &schema, &schema_len, &dnotes,
                                    &dnotes_len, &dsummary, diags);
    free(dsummary);
    if (rc != 0)
        return rc; /* 1: the dialect's own refusal, its diagnostic given */

    cJSON *params = cJSON_ParseWithLength(schema, schema_len);
    free(schema);
    char *description = tool_description(contract);
    cJSON *root = cJSON_CreateObject();
    bool ok = params && description && root;
    if (ok && t == T_GEMINI)
        ok = const_to_enum(params);
    if (ok) {
        cJSON *def = root;
        if (t == T_OPENAI) {
            ok = add(root, "type", cJSON_CreateString("function"));
            def = cJSON_CreateObject();
            ok = ok && add(root, "function", def);
        }
        ok = ok && add(def, "name", cJSON_CreateString(contract->name)) &&
             add(def, "description", cJSON_CreateString(description)) &&
             add(def, tool_rules[t].schema_key, params);
        params = NULL; /* def owns it now (or add freed it) */
        if (ok && (t == T_OPENAI || t == T_ANTHROPIC))
            ok = add(def, "strict", cJSON_CreateTrue());
    }
    cJSON_Delete(params);
    free(description);

    cc_buf_t b = CC_BUF_INIT, n = CC_BUF_INIT, s = CC_BUF_INIT;
    size_t count = 0;
    if (ok) {
        cc_print_schema_json(&b, root);
        cc_buf_putc(&b, '\n');
        /* the dialect's notes under the tool's own heading: its first line
         * names the dialect file, which is not written for a tool */
        const char *body = memchr(dnotes, '\n', dnotes_len);
        body = body ? body + 1 : dnotes + dnotes_len;
        cc_buf_printf(&n, "# %s.%s.tool.json: what %s does not carry (the %s dialect, "
                          "dialects.md).\n",
                      contract->name, cc_tool_names[t], tool_rules[t].provider, tool_dialects[t]);
        cc_buf_append(&n, body, dnotes_len - (size_t)(body - dnotes));
        for (const char *p = body; p < dnotes + dnotes_len; p++)
            if (*p == '\n' && p + 1 < dnotes + dnotes_len && p[1] != '#' && p[1] != '(')
                count++;
        if (body < dnotes + dnotes_len && *body != '#' && *body != '(')
            count++;
        cc_buf_printf(&s, "%s: %s tool written; %zu constraint%s not carried, listed in "
                          "%s.%s.tool.notes.txt",
                      contract->name, cc_tool_names[t], count, count == 1 ? "" : "s",
                      contract->name, cc_tool_names[t]);
    }
    cJSON_Delete(root);
    free(dnotes);
    *json = ok ? cc_buf_take(&b, json_len) : NULL;
    *notes = ok ? cc_buf_take(&n, notes_len) : NULL;
    *summary = ok ? cc_buf_take(&s, NULL) : NULL;
    cc_buf_free(&b);
    cc_buf_free(&n);
    cc_buf_free(&s);
    if (!*json || !*notes || !*summary) {
        free(*json);
        free(*notes);
        free(*summary);
        *json = *notes = *summary = NULL;
        *json_len = *notes_len = 0;
        return -1;
    }
    return 0;
}
