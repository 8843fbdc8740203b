/* SPDX-License-Identifier: MIT */
/*
 * tool_calls.c - the tool calls of a provider's response, with their
 * arguments' exact bytes (<contractc/client.h>, docs/tools.md "Exact
 * argument bytes").
 *
 * cJSON finds the calls (which blocks are tool_use, how many tool_calls
 * there are, the names and ids); the runtime's strict reader
 * (contractc_json_span) finds the byte span of each call's arguments in
 * the response text, and that span is what the contract's parser reads:
 * a tree would re-serialize the value and hide `1.0` for an integer, big
 * integers and duplicate keys.  The span walk reads the whole body by the
 * reply's rules, so a body cJSON accepts but the reader does not (a
 * \u0000, which would also cut a name cJSON hands back; invalid UTF-8; a
 * repeated key on the way to the arguments) is refused, never half-read.
 * OpenAI sends the arguments as a JSON string holding their text: its
 * bytes are the string's, decoded by the same reader.
 */
#include <contractc/client.h>

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(contractc_tool_calls_t *calls, char *error, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(contractc_tool_calls_t *calls, char *error, size_t size, const char *fmt, ...)
{
    contractc_tool_calls_free(calls);
    if (error && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(error, size, fmt, ap);
        va_end(ap);
    }
    return 1;
}

/* The pieces of one call before they are copied. */
typedef struct pending {
    const char *id, *name;        /* NUL-terminated (cJSON's); id may be NULL */
    contractc_json_step_t steps[8];
    size_t step_count;            /* the path to the arguments */
    const contractc_json_step_t *id_steps; /* MCP: the id's path (its text) */
} pending_t;

/* Copies one call into its own block: id, name, arguments, each with a NUL. */
static int store(contractc_tool_call_t *call, const char *id, size_t id_len, const char *name,
                 const char *args, size_t args_len, bool decode)
{
    size_t name_len = strlen(name);
    char *block = malloc(id_len + name_len + args_len + 3);
    if (!block)
        return -1;
    memcpy(block, id, id_len);
    block[id_len] = '\0';
    char *n = block + id_len + 1;
    memcpy(n, name, name_len + 1);
    char *a = n + name_len + 1;
    size_t out_len = args_len;
    if (decode) {
        if (contractc_json_string_decode(args, args_len, a, &out_len) != CONTRACTC_OK) {
            free(block);
            return 1;
        }
    } else if (args_len) {
        memcpy(a, args, args_len);
    }
    a[out_len] = '\0';
    call->id = block;
    call->name = n;
    call->arguments = a;
    call->arguments_len = out_len;
    return 0;
}

void contractc_tool_calls_free(contractc_tool_calls_t *calls)
{
    if (!calls)
        return;
    for (size_t i = 0; i < calls->count; i++)
        free((char *)calls->calls[i].id); /* the call's one block */
    free(calls->calls);
    calls->calls = NULL;
    calls->count = 0;
}

static bool is_string(const cJSON *j, const char *s)
{
    return cJSON_IsString(j) && strcmp(j->valuestring, s) == 0;
}

static const char *const format_names[] = {"OpenAI", "Anthropic", "Gemini", "MCP"};

int contractc_tool_calls_read(contractc_tool_format_t format, const char *response, size_t len,
                              contractc_tool_calls_t *calls, char *error, size_t error_size)
{
    if (error && error_size)
        error[0] = '\0';
    if (!calls)
        return 1;
    calls->calls = NULL;
    calls->count = 0;
    if ((unsigned)format > CONTRACTC_TOOL_MCP || (!response && len))
        return fail(calls, error, error_size, "bad arguments");
    cJSON *root = cJSON_ParseWithLength(response ? response : "", len);
    if (!root)
        return fail(calls, error, error_size, "malformed response: the body (%zu bytes) is not JSON",
                    len);
    const char *who = format_names[format];
    pending_t *p = calloc(CONTRACTC_TOOL_CALLS_MAX, sizeof *p);
    if (!p) {
        cJSON_Delete(root);
        return fail(calls, error, error_size, "out of memory reading the tool calls");
    }
    static const contractc_json_step_t mcp_id[] = {{"id", 0}};
    size_t n = 0;
    int rc = 0;
    char why[200] = "";
    const cJSON *list = NULL, *item;
    size_t index = 0;
    switch (format) {
    case CONTRACTC_TOOL_OPENAI:
        list = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(
                cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "choices"), 0), "message"),
            "tool_calls");
        if (list && !cJSON_IsArray(list) && !cJSON_IsNull(list)) {
            snprintf(why, sizeof why, "choices[0].message.tool_calls is not an array");
            break;
        }
        if (!cJSON_IsArray(list))
            list = NULL;
        cJSON_ArrayForEach(item, list) {
            const cJSON *fn = cJSON_GetObjectItemCaseSensitive(item, "function");
            const cJSON *name = cJSON_GetObjectItemCaseSensitive(fn, "name");
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(item, "id");
            if (!cJSON_IsString(name) || !cJSON_IsString(id)) {
                snprintf(why, sizeof why, "tool_calls[%zu] has no %s string", index,
                         cJSON_IsString(id) ? "function.name" : "id");
                break;
            }
            if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(fn, "arguments"))) {
                snprintf(why, sizeof why, "tool_calls[%zu].function.arguments is not a string",
                         index);
                break;
            }
            if (n == CONTRACTC_TOOL_CALLS_MAX) {
                n++;
                break;
            }
            pending_t *c = &p[n++];
            c->id = id->valuestring;
            c->name = name->valuestring;
            const contractc_json_step_t steps[] = {{"choices", 0}, {NULL, 0}, {"message", 0},
                                                   {"tool_calls", 0}, {NULL, index},
                                                   {"function", 0}, {"arguments", 0}};
            memcpy(c->steps, steps, sizeof steps);
            c->step_count = 7;
            index++;
        }
        break;
    case CONTRACTC_TOOL_ANTHROPIC:
        list = cJSON_GetObjectItemCaseSensitive(root, "content");
        if (!cJSON_IsArray(list)) {
            snprintf(why, sizeof why, "no content array");
            break;
        }
        cJSON_ArrayForEach(item, list) {
            if (is_string(cJSON_GetObjectItemCaseSensitive(item, "type"), "tool_use")) {
                const cJSON *name = cJSON_GetObjectItemCaseSensitive(item, "name");
                const cJSON *id = cJSON_GetObjectItemCaseSensitive(item, "id");
                if (!cJSON_IsString(name) || !cJSON_IsString(id)) {
                    snprintf(why, sizeof why, "content[%zu] (tool_use) has no %s string", index,
                             cJSON_IsString(id) ? "name" : "id");
                    break;
                }
                if (n == CONTRACTC_TOOL_CALLS_MAX) {
                    n++;
                    break;
                }
                pending_t *c = &p[n++];
                c->id = id->valuestring;
                c->name = name->valuestring;
                const contractc_json_step_t steps[] = {{"content", 0}, {NULL, index}, {"input", 0}};
                memcpy(c->steps, steps, sizeof steps);
                c->step_count = 3;
            }
            index++;
        }
        break;
    case CONTRACTC_TOOL_GEMINI:
        list = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(
                cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "candidates"), 0), "content"),
            "parts");
        if (!cJSON_IsArray(list))
            list = NULL;
        cJSON_ArrayForEach(item, list) {
            const cJSON *call = cJSON_GetObjectItemCaseSensitive(item, "functionCall");
            if (call) {
                const cJSON *name = cJSON_GetObjectItemCaseSensitive(call, "name");
                const cJSON *id = cJSON_GetObjectItemCaseSensitive(call, "id");
                if (!cJSON_IsString(name) || (id && !cJSON_IsString(id))) {
                    snprintf(why, sizeof why, "parts[%zu].functionCall has no %s string", index,
                             cJSON_IsString(name) ? "id" : "name");
                    break;
                }
                if (n == CONTRACTC_TOOL_CALLS_MAX) {
                    n++;
                    break;
                }
                pending_t *c = &p[n++];
                c->id = id ? id->valuestring : "";
                c->name = name->valuestring;
                const contractc_json_step_t steps[] = {{"candidates", 0}, {NULL, 0}, {"content", 0},
                                                       {"parts", 0}, {NULL, index},
                                                       {"functionCall", 0}, {"args", 0}};
                memcpy(c->steps, steps, sizeof steps);
                c->step_count = 7;
            }
            index++;
        }
        break;
    case CONTRACTC_TOOL_MCP: {
        const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "params");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(params, "name");
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(root, "id");
        if (!is_string(cJSON_GetObjectItemCaseSensitive(root, "method"), "tools/call")) {
            snprintf(why, sizeof why, "not a tools/call request");
            break;
        }
        if (!cJSON_IsString(name) || !(cJSON_IsString(id) || cJSON_IsNumber(id))) {
            snprintf(why, sizeof why, "a tools/call request without a %s",
                     cJSON_IsString(name) ? "string or number id" : "params.name string");
            break;
        }
        pending_t *c = &p[n++];
        c->name = name->valuestring;
        c->id_steps = mcp_id;
        const contractc_json_step_t steps[] = {{"params", 0}, {"arguments", 0}};
        memcpy(c->steps, steps, sizeof steps);
        c->step_count = 2;
        break;
    }
    }
    if (!why[0] && n > CONTRACTC_TOOL_CALLS_MAX)
        snprintf(why, sizeof why, "more than %d tool calls", CONTRACTC_TOOL_CALLS_MAX);
    if (why[0]) {
        free(p);
        cJSON_Delete(root);
        return fail(calls, error, error_size, "malformed %s response: %s", who, why);
    }
    calls->calls = n ? calloc(n, sizeof *calls->calls) : NULL;
    if (n && !calls->calls) {
        free(p);
        cJSON_Delete(root);
        return fail(calls, error, error_size, "out of memory reading the tool calls");
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        bool found = false;
        size_t b = 0, e = 0, ib = 0, ie = 0;
        contractc_status_t st = contractc_json_span(response, len, 0, p[i].steps, p[i].step_count,
                                                    &found, &b, &e, why, sizeof why);
        bool id_found = false;
        if (st == CONTRACTC_OK && p[i].id_steps)
            st = contractc_json_span(response, len, 0, p[i].id_steps, 1, &id_found, &ib, &ie, why,
                                     sizeof why);
        if (st == CONTRACTC_ENOMEM) {
            rc = fail(calls, error, error_size, "out of memory reading the tool calls");
            break;
        }
        if (st != CONTRACTC_OK) {
            rc = fail(calls, error, error_size, "malformed %s response: %s", who, why);
            break;
        }
        bool decode = format == CONTRACTC_TOOL_OPENAI;
        if (decode && (!found || response[b] != '"')) {
            rc = fail(calls, error, error_size, "malformed %s response: call %zu's arguments are "
                      "not a string", who, i);
            break;
        }
        /* MCP: the id as written when a number, decoded when a string */
        char *id_text = NULL;
        size_t id_len = p[i].id ? strlen(p[i].id) : 0;
        const char *id = p[i].id ? p[i].id : "";
        if (p[i].id_steps) {
            id_text = malloc(ie - ib + 1);
            if (!id_text) {
                rc = fail(calls, error, error_size, "out of memory reading the tool calls");
                break;
            }
            if (response[ib] == '"') {
                if (contractc_json_string_decode(response + ib, ie - ib, id_text, &id_len) !=
                    CONTRACTC_OK)
                    id_len = 0;
            } else {
                memcpy(id_text, response + ib, ie - ib);
                id_len = ie - ib;
            }
            id = id_text;
        }
        int s = store(&calls->calls[calls->count], id, id_len, p[i].name,
                      found ? response + b : "", found ? e - b : 0, decode);
        free(id_text);
        if (s != 0) {
            rc = s < 0 ? fail(calls, error, error_size, "out of memory reading the tool calls")
                       : fail(calls, error, error_size, "malformed %s response: call %zu's "
                              "arguments string cannot be decoded", who, i);
            break;
        }
        calls->count++;
    }
    free(p);
    cJSON_Delete(root);
    return rc;
}
