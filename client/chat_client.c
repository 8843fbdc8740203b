/* SPDX-License-Identifier: MIT */
/*
 * chat_client.c - the chat-completions model function (see chat_client.h).
 *
 * libcurl carries the bytes; cJSON builds the request and reads the
 * response.  Two things cJSON cannot do are done here: message contents
 * are escaped by the runtime's contractc_json_string (a transcript may
 * hold a rejected reply with invalid UTF-8 or NUL bytes, and cJSON takes C
 * strings), and a response whose
 * reply text holds U+0000 is refused (cJSON would cut the text there, and a
 * cut reply could pass the contract).  The response itself is read by
 * chat_response.c, which does no I/O: this file hands it what libcurl
 * received.
 */
#define _DEFAULT_SOURCE /* strcasecmp */
#include <contractc/client.h>

#include "chat_response.h"
#include "chat_stream.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_TIMEOUT_MS 60000L
#define DEFAULT_CONNECT_TIMEOUT_MS 10000L
#define DEFAULT_MAX_RESPONSE ((size_t)8 << 20)
#define DEFAULT_MAX_ATTEMPTS 3u
#define DEFAULT_RETRY_BASE_MS 500L
#define DEFAULT_RETRY_CAP_MS 8000L
#define DEFAULT_DEADLINE_MS 120000L
/* Header bytes of one exchange kept for the response reader (curl bounds
 * every header line itself; lines past this many bytes are not kept). */
#define HEADERS_KEPT_MAX ((size_t)1 << 20)

struct contractc_chat_client {
    char *url, *model, *schema_name, *key, *temperature, *seed;
    cJSON *schema;
    long timeout_ms, connect_timeout_ms, max_tokens, last_status;
    size_t max_response;
    /* retries */
    unsigned max_attempts, last_attempts;
    long retry_base_ms, retry_cap_ms, deadline_ms;
    uint64_t rng;       /* xorshift64* state for the jitter; never 0 */
    long retry_after_ms; /* from the last response's headers; -1: none */
    /* the provider and request options */
    contractc_chat_provider_t provider;
    char *anthropic_version, *key_header;
    struct curl_slist *extra; /* the caller's extra headers, copied */
    bool max_completion_tokens, no_response_format;
    /* Streaming (docs/client.md, "Streaming"): "stream": true on every
     * request; a text/event-stream answer is read by `events` as it
     * arrives (in_events once a 200 with that type began), fed to the
     * loop's stream (`parser`), and the transfer stopped when it is dead. */
    bool stream, in_events, response_started;
    cc_chat_stream_t events;
    contractc_stream_t *parser;
    CURL *curl;
    char *reply;        /* the last reply text, owned until the next call */
    /* the response being received */
    char *body;
    size_t body_len, body_cap;
    bool too_big;
    char *headers;      /* the header lines received, as sent */
    size_t headers_len, headers_cap;
    /* tools (docs/tools.md, "The client speaks tools") */
    cJSON *tools;       /* the definitions, an array; NULL: none */
    char *tool_choice;
    contractc_tool_calls_t calls; /* the last response's */
    /* The last response's calls as the loop reads them (reply.tool_calls),
     * pointing into `calls`; an id the provider left out is made up in
     * made_ids ("call_1", ...), since a result must name its call. */
    contractc_reply_tool_call_t reply_calls[CONTRACTC_TOOL_CALLS_MAX];
    char made_ids[CONTRACTC_TOOL_CALLS_MAX][16];
};

static void set_error(char *error, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_error(char *error, size_t size, const char *fmt, ...)
{
    if (!error || !size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error, size, fmt, ap);
    va_end(ap);
}

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Overwrites a secret before its memory is returned (through a volatile
 * pointer, so the stores are not optimised away). */
static void wipe(char *s)
{
    if (!s)
        return;
    volatile char *p = s;
    while (*p)
        *p++ = '\0';
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool schema_name_valid(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' ||
              c == '-'))
            return false;
    }
    return true;
}

void contractc_chat_client_free(contractc_chat_client_t *c)
{
    if (!c)
        return;
    wipe(c->key);
    free(c->key);
    free(c->url);
    free(c->model);
    free(c->schema_name);
    free(c->temperature);
    free(c->seed);
    free(c->anthropic_version);
    free(c->key_header);
    curl_slist_free_all(c->extra);
    free(c->reply);
    free(c->body);
    free(c->headers);
    cJSON_Delete(c->schema);
    cJSON_Delete(c->tools);
    free(c->tool_choice);
    contractc_tool_calls_free(&c->calls);
    cc_chat_stream_free(&c->events);
    if (c->curl)
        curl_easy_cleanup(c->curl);
    free(c);
}

/* A tool definition's name: OpenAI function.name, else name. */
static const char *tool_name(const cJSON *def)
{
    const cJSON *fn = cJSON_GetObjectItemCaseSensitive(def, "function");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(fn ? fn : def, "name");
    return cJSON_IsString(n) ? n->valuestring : NULL;
}

/* Copies the tool definitions and tool_choice into c; false with the
 * reason in error. */
static bool take_tools(contractc_chat_client_t *c, const contractc_chat_config_t *config,
                       char *error, size_t error_size)
{
    if (config->tool_count && !config->tools) {
        set_error(error, error_size, "tool_count is set but tools is NULL");
        return false;
    }
    if (config->tool_count) {
        c->tools = cJSON_CreateArray();
        if (!c->tools) {
            set_error(error, error_size, "out of memory");
            return false;
        }
    }
    for (size_t i = 0; i < config->tool_count; i++) {
        cJSON *def = config->tools[i].json
                         ? cJSON_ParseWithLength(config->tools[i].json, config->tools[i].len)
                         : NULL;
        if (!cJSON_IsObject(def) || !tool_name(def)) {
            cJSON_Delete(def);
            set_error(error, error_size, "tool %zu is not a JSON object with a name", i + 1);
            return false;
        }
        cJSON_AddItemToArray(c->tools, def);
    }
    const char *choice = config->tool_choice;
    if (!choice)
        return true;
    bool keyword = strcmp(choice, "auto") == 0 || strcmp(choice, "required") == 0 ||
                   strcmp(choice, "none") == 0;
    bool named = false;
    const cJSON *def;
    cJSON_ArrayForEach(def, c->tools) named = named || strcmp(tool_name(def), choice) == 0;
    if (!keyword && !named) {
        set_error(error, error_size, "tool_choice must be auto, required, none or the name of one "
                                     "of the tools");
        return false;
    }
    c->tool_choice = dup_or_null(choice);
    if (!c->tool_choice) {
        set_error(error, error_size, "out of memory");
        return false;
    }
    return true;
}

contractc_chat_client_t *contractc_chat_client_new(const contractc_chat_config_t *config,
                                                   char *error, size_t error_size)
{
    set_error(error, error_size, "%s", "");
    if (!config || !config->base_url || !config->model) {
        set_error(error, error_size, "base_url and model are required");
        return NULL;
    }
    if (config->provider != CONTRACTC_CHAT_OPENAI && config->provider != CONTRACTC_CHAT_ANTHROPIC) {
        set_error(error, error_size, "provider must be CONTRACTC_CHAT_OPENAI or CONTRACTC_CHAT_ANTHROPIC");
        return NULL;
    }
    /* response_format is sent for OpenAI-compatible endpoints unless
     * no_response_format says not to; Anthropic Messages takes none. */
    const bool send_format = config->provider == CONTRACTC_CHAT_OPENAI && !config->no_response_format &&
                             (config->schema || config->tool_count == 0);
    if (send_format && (!config->schema || !config->schema_name)) {
        set_error(error, error_size, "schema_name and schema are required (or set no_response_format)");
        return NULL;
    }
    if (config->stream && config->tool_count) {
        set_error(error, error_size, "stream and tools together are not supported: a streamed "
                                     "tool call's argument deltas are not read");
        return NULL;
    }
    if (config->url_query && (!config->url_query[0] || strpbrk(config->url_query, "?# \t\r\n"))) {
        set_error(error, error_size, "url_query must be a non-empty query without '?', '#' or white space");
        return NULL;
    }
    for (const char *const *hd = config->extra_headers; hd && *hd; hd++) {
        const char *colon = strchr(*hd, ':');
        if (!colon || colon == *hd || strpbrk(*hd, "\r\n")) {
            set_error(error, error_size, "extra header %u is not one \"Name: value\" line",
                      (unsigned)(hd - config->extra_headers) + 1);
            return NULL;
        }
    }
    if (send_format && !schema_name_valid(config->schema_name)) {
        set_error(error, error_size, "schema_name must be 1 to 64 of [A-Za-z0-9_-]");
        return NULL;
    }
    if ((config->temperature &&
         !contractc_json_number_valid(config->temperature, strlen(config->temperature))) ||
        (config->seed && !contractc_json_number_valid(config->seed, strlen(config->seed)))) {
        set_error(error, error_size, "temperature and seed must be JSON number text");
        return NULL;
    }
    if (config->timeout_ms < 0 || config->connect_timeout_ms < 0 || config->max_tokens < 0 ||
        config->retry_base_ms < 0 || config->retry_cap_ms < 0 || config->deadline_ms < 0) {
        set_error(error, error_size, "time-outs, retry times and max_tokens must not be negative");
        return NULL;
    }
    contractc_chat_client_t *c = calloc(1, sizeof *c);
    if (!c) {
        set_error(error, error_size, "out of memory");
        return NULL;
    }
    c->provider = config->provider;
    c->no_response_format = !send_format;
    c->stream = config->stream;
    c->max_completion_tokens = config->use_max_completion_tokens;
    c->schema = send_format ? cJSON_ParseWithLength(config->schema, config->schema_len) : NULL;
    if (send_format && !cJSON_IsObject(c->schema)) {
        set_error(error, error_size, "the schema is not a JSON object");
        contractc_chat_client_free(c);
        return NULL;
    }
    if (!take_tools(c, config, error, error_size)) {
        contractc_chat_client_free(c);
        return NULL;
    }
    if (config->api_key_env) {
        const char *key = getenv(config->api_key_env);
        if (!key || !*key) {
            /* The variable's name, never a value. */
            set_error(error, error_size, "the environment variable %s (the API key) is not set",
                      config->api_key_env);
            contractc_chat_client_free(c);
            return NULL;
        }
        c->key = dup_or_null(key);
        if (!c->key) {
            set_error(error, error_size, "out of memory");
            contractc_chat_client_free(c);
            return NULL;
        }
    }
    size_t base = strlen(config->base_url);
    while (base && config->base_url[base - 1] == '/')
        base--;
    const char *path = c->provider == CONTRACTC_CHAT_ANTHROPIC ? "/messages" : "/chat/completions";
    size_t path_len = strlen(path);
    size_t query_len = config->url_query ? strlen(config->url_query) + 1 : 0;
    c->url = malloc(base + path_len + query_len + 1);
    c->anthropic_version = dup_or_null(config->anthropic_version ? config->anthropic_version : "2023-06-01");
    c->key_header = dup_or_null(config->api_key_header ? config->api_key_header
                                : c->provider == CONTRACTC_CHAT_ANTHROPIC ? "x-api-key"
                                                                          : "Authorization");
    bool extra_ok = true;
    for (const char *const *hd = config->extra_headers; hd && *hd && extra_ok; hd++) {
        struct curl_slist *l = curl_slist_append(c->extra, *hd);
        extra_ok = l != NULL;
        if (l)
            c->extra = l;
    }
    c->model = dup_or_null(config->model);
    c->schema_name = dup_or_null(config->schema_name);
    c->temperature = dup_or_null(config->temperature);
    c->seed = dup_or_null(config->seed);
    c->curl = curl_easy_init();
    if (!c->url || !c->model || (config->schema_name && !c->schema_name) || (config->temperature && !c->temperature) ||
        (config->seed && !c->seed) || !c->curl || !c->anthropic_version || !c->key_header ||
        !extra_ok) {
        set_error(error, error_size, "out of memory (or libcurl failed to start)");
        contractc_chat_client_free(c);
        return NULL;
    }
    memcpy(c->url, config->base_url, base);
    memcpy(c->url + base, path, path_len);
    c->url[base + path_len] = '\0';
    if (config->url_query) {
        c->url[base + path_len] = '?';
        memcpy(c->url + base + path_len + 1, config->url_query, query_len); /* with its NUL */
    }
    c->timeout_ms = config->timeout_ms ? config->timeout_ms : DEFAULT_TIMEOUT_MS;
    c->connect_timeout_ms =
        config->connect_timeout_ms ? config->connect_timeout_ms : DEFAULT_CONNECT_TIMEOUT_MS;
    c->max_response = config->max_response_bytes ? config->max_response_bytes : DEFAULT_MAX_RESPONSE;
    c->max_tokens = config->max_tokens;
    c->max_attempts = config->max_attempts ? config->max_attempts : DEFAULT_MAX_ATTEMPTS;
    c->retry_base_ms = config->retry_base_ms ? config->retry_base_ms : DEFAULT_RETRY_BASE_MS;
    c->retry_cap_ms = config->retry_cap_ms ? config->retry_cap_ms : DEFAULT_RETRY_CAP_MS;
    if (c->retry_cap_ms < c->retry_base_ms)
        c->retry_cap_ms = c->retry_base_ms;
    c->deadline_ms = config->deadline_ms ? config->deadline_ms
                     : c->timeout_ms > DEFAULT_DEADLINE_MS ? c->timeout_ms : DEFAULT_DEADLINE_MS;
    c->rng = config->jitter_seed ? (uint64_t)config->jitter_seed
                                 : ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ (uint64_t)(uintptr_t)c;
    if (!c->rng)
        c->rng = 0x9E3779B97F4A7C15u;
    return c;
}

long contractc_chat_last_status(const contractc_chat_client_t *client)
{
    return client ? client->last_status : 0;
}

unsigned contractc_chat_last_attempts(const contractc_chat_client_t *client)
{
    return client ? client->last_attempts : 0;
}

const contractc_tool_calls_t *contractc_chat_last_tool_calls(const contractc_chat_client_t *client)
{
    return client ? &client->calls : NULL;
}

/* ---- the request ------------------------------------------------------------ */

/* Adds key: a JSON string of text[0..len), escaped by the runtime's one
 * escaper (control characters, NUL included, escaped; invalid UTF-8 as
 * U+FFFD). */
static bool add_text(cJSON *obj, const char *key, const char *text, size_t len)
{
    char *lit = contractc_json_string(text, len, NULL);
    cJSON *raw = lit ? cJSON_CreateRaw(lit) : NULL;
    free(lit);
    if (!raw || !cJSON_AddItemToObject(obj, key, raw)) {
        cJSON_Delete(raw);
        return false;
    }
    return true;
}

static bool add_number(cJSON *obj, const char *key, const char *text)
{
    cJSON *n = cJSON_CreateRaw(text);
    if (!n || !cJSON_AddItemToObject(obj, key, n)) {
        cJSON_Delete(n);
        return false;
    }
    return true;
}

/* True when message i is a tool call (an assistant message with an id). */
static bool is_call(const contractc_transcript_t *t, size_t i)
{
    const contractc_message_t *m = contractc_transcript_at(t, (long)i);
    return m && m->role == CONTRACTC_ROLE_ASSISTANT && m->tool_call_id && m->tool_name;
}

/* True when message i is a tool result. */
static bool is_result(const contractc_transcript_t *t, size_t i)
{
    const contractc_message_t *m = contractc_transcript_at(t, (long)i);
    return m && m->role == CONTRACTC_ROLE_TOOL && m->tool_call_id;
}

/* Anthropic's tool_use input is a JSON object: a call whose bytes the
 * strict reader does not read as one (an echo cut to echo_max_bytes, a
 * call that is not an object) cannot go as one. */
static bool anthropic_input_ok(const contractc_message_t *m)
{
    bool found = false;
    size_t b = 0, e = 0;
    return contractc_json_span(m->text, m->len, 0, NULL, 0, &found, &b, &e, NULL, 0) ==
               CONTRACTC_OK && found && m->text[b] == '{';
}

/* Appends tool call m to `calls`: OpenAI's tool_calls array gets {id,
 * "type": "function", "function": {name, arguments}}; Anthropic's content
 * array gets {"type": "tool_use", id, name, "input": <the bytes>}. */
static bool add_tool_call(const contractc_chat_client_t *c, cJSON *calls,
                          const contractc_message_t *m)
{
    cJSON *call = cJSON_CreateObject();
    if (!call || !cJSON_AddItemToArray(calls, call)) {
        cJSON_Delete(call);
        return false;
    }
    if (c->provider == CONTRACTC_CHAT_ANTHROPIC) {
        cJSON *input = cJSON_CreateRaw(m->text); /* the exact bytes, checked by anthropic_input_ok */
        if (!cJSON_AddStringToObject(call, "type", "tool_use") ||
            !cJSON_AddStringToObject(call, "id", m->tool_call_id) ||
            !cJSON_AddStringToObject(call, "name", m->tool_name) || !input ||
            !cJSON_AddItemToObject(call, "input", input)) {
            cJSON_Delete(input);
            return false;
        }
        return true;
    }
    cJSON *fn = cJSON_CreateObject();
    if (!cJSON_AddStringToObject(call, "id", m->tool_call_id) ||
        !cJSON_AddStringToObject(call, "type", "function") || !fn ||
        !cJSON_AddItemToObject(call, "function", fn)) {
        cJSON_Delete(fn);
        return false;
    }
    return cJSON_AddStringToObject(fn, "name", m->tool_name) &&
           add_text(fn, "arguments", m->text, m->len);
}

/* Appends tool result m: OpenAI, a message {"role": "tool", "tool_call_id",
 * "content"} to `messages`; Anthropic, a block {"type": "tool_result",
 * "tool_use_id", "is_error": true (only when it is one), "content"} to the
 * user message's content array `messages`. */
static bool add_tool_result(const contractc_chat_client_t *c, cJSON *messages,
                            const contractc_message_t *m)
{
    cJSON *item = cJSON_CreateObject();
    if (!item || !cJSON_AddItemToArray(messages, item)) {
        cJSON_Delete(item);
        return false;
    }
    if (c->provider == CONTRACTC_CHAT_ANTHROPIC)
        return cJSON_AddStringToObject(item, "type", "tool_result") &&
               cJSON_AddStringToObject(item, "tool_use_id", m->tool_call_id) &&
               (!m->is_error || cJSON_AddTrueToObject(item, "is_error")) &&
               add_text(item, "content", m->text, m->len);
    return cJSON_AddStringToObject(item, "role", "tool") &&
           cJSON_AddStringToObject(item, "tool_call_id", m->tool_call_id) &&
           add_text(item, "content", m->text, m->len);
}

/* Appends a message {"role": role, "content": text}. */
static bool add_plain(cJSON *messages, const char *role, const contractc_message_t *m)
{
    cJSON *msg = cJSON_CreateObject();
    if (!msg || !cJSON_AddItemToArray(messages, msg)) {
        cJSON_Delete(msg);
        return false;
    }
    return cJSON_AddStringToObject(msg, "role", role) && add_text(msg, "content", m->text, m->len);
}

/*
 * Appends the tool calls t[i..j) (consecutive, one assistant turn) as one
 * assistant message: OpenAI {"role": "assistant", "content": null,
 * "tool_calls": [...]}; Anthropic {"role": "assistant", "content":
 * [tool_use blocks]}.  Anthropic calls that cannot go as tool_use go as
 * assistant text, one message each; *as_text says so, and their results
 * then go as user text.
 */
static bool add_call_turn(const contractc_chat_client_t *c, cJSON *messages,
                          const contractc_transcript_t *t, size_t i, size_t j, bool *as_text)
{
    const bool anthropic = c->provider == CONTRACTC_CHAT_ANTHROPIC;
    *as_text = false;
    for (size_t k = i; anthropic && k < j; k++)
        if (!anthropic_input_ok(contractc_transcript_at(t, (long)k)))
            *as_text = true;
    if (*as_text) {
        for (size_t k = i; k < j; k++)
            if (!add_plain(messages, "assistant", contractc_transcript_at(t, (long)k)))
                return false;
        return true;
    }
    cJSON *msg = cJSON_CreateObject();
    if (!msg || !cJSON_AddItemToArray(messages, msg)) {
        cJSON_Delete(msg);
        return false;
    }
    if (!cJSON_AddStringToObject(msg, "role", "assistant"))
        return false;
    if (!anthropic && !cJSON_AddNullToObject(msg, "content"))
        return false;
    cJSON *calls = cJSON_AddArrayToObject(msg, anthropic ? "content" : "tool_calls");
    if (!calls)
        return false;
    for (size_t k = i; k < j; k++)
        if (!add_tool_call(c, calls, contractc_transcript_at(t, (long)k)))
            return false;
    return true;
}

/* Appends the tool results t[i..j): OpenAI one tool message each;
 * Anthropic one user message of tool_result blocks, or user text for
 * results whose calls went as text (as_text). */
static bool add_result_turn(const contractc_chat_client_t *c, cJSON *messages,
                            const contractc_transcript_t *t, size_t i, size_t j, bool as_text)
{
    cJSON *into = messages;
    if (c->provider == CONTRACTC_CHAT_ANTHROPIC) {
        if (as_text) {
            for (size_t k = i; k < j; k++)
                if (!add_plain(messages, "user", contractc_transcript_at(t, (long)k)))
                    return false;
            return true;
        }
        cJSON *msg = cJSON_CreateObject();
        if (!msg || !cJSON_AddItemToArray(messages, msg)) {
            cJSON_Delete(msg);
            return false;
        }
        if (!cJSON_AddStringToObject(msg, "role", "user") ||
            !(into = cJSON_AddArrayToObject(msg, "content")))
            return false;
    }
    for (size_t k = i; k < j; k++)
        if (!add_tool_result(c, into, contractc_transcript_at(t, (long)k)))
            return false;
    return true;
}

/* tool_choice in the provider's form: OpenAI "auto" | "required" | "none"
 * | {"type": "function", "function": {"name"}}; Anthropic {"type": "auto" |
 * "any" | "none"} | {"type": "tool", "name"}. */
static bool add_tool_choice(const contractc_chat_client_t *c, cJSON *root)
{
    const char *choice = c->tool_choice;
    bool keyword = strcmp(choice, "auto") == 0 || strcmp(choice, "required") == 0 ||
                   strcmp(choice, "none") == 0;
    if (c->provider != CONTRACTC_CHAT_ANTHROPIC) {
        if (keyword)
            return cJSON_AddStringToObject(root, "tool_choice", choice) != NULL;
        cJSON *tc = cJSON_AddObjectToObject(root, "tool_choice");
        cJSON *fn = tc && cJSON_AddStringToObject(tc, "type", "function")
                        ? cJSON_AddObjectToObject(tc, "function")
                        : NULL;
        return fn && cJSON_AddStringToObject(fn, "name", choice);
    }
    cJSON *tc = cJSON_AddObjectToObject(root, "tool_choice");
    if (!tc)
        return false;
    if (keyword)
        return cJSON_AddStringToObject(tc, "type", strcmp(choice, "required") == 0 ? "any" : choice) !=
               NULL;
    return cJSON_AddStringToObject(tc, "type", "tool") && cJSON_AddStringToObject(tc, "name", choice);
}

/* The Anthropic Messages `max_tokens` when neither the loop nor the
 * configuration says (the field is required there). */
#define ANTHROPIC_DEFAULT_MAX_TOKENS 4096L

/* The request body for the transcript, or NULL when out of memory.
 * max_tokens: the limit to ask for (0: none; Anthropic: its default).
 * OpenAI-compatible: messages with every role, response_format (unless
 * turned off), max_tokens or max_completion_tokens, temperature, seed.
 * Anthropic Messages: system messages joined into the top-level `system`,
 * the rest as messages, max_tokens always, temperature (no seed). */
static char *request_body(const contractc_chat_client_t *c, const contractc_transcript_t *t,
                          long max_tokens)
{
    const bool anthropic = c->provider == CONTRACTC_CHAT_ANTHROPIC;
    cJSON *root = cJSON_CreateObject();
    bool ok = root && cJSON_AddStringToObject(root, "model", c->model);
    char *system = NULL; /* Anthropic: the system messages, joined */
    size_t system_len = 0;
    cJSON *messages = ok ? cJSON_AddArrayToObject(root, "messages") : NULL;
    ok = messages != NULL;
    bool calls_as_text = false; /* the last run of Anthropic tool calls went as text */
    for (size_t i = 0; ok && i < contractc_transcript_count(t); i++) {
        const contractc_message_t *m = contractc_transcript_at(t, (long)i);
        if (anthropic && m->role == CONTRACTC_ROLE_SYSTEM) {
            char *p = realloc(system, system_len + 2 + m->len + 1);
            if (!p) {
                ok = false;
                break;
            }
            system = p;
            if (system_len) {
                memcpy(system + system_len, "\n\n", 2);
                system_len += 2;
            }
            memcpy(system + system_len, m->text, m->len);
            system_len += m->len;
            continue;
        }
        /* Tool calls and their results go in the provider's form, each
         * run of them as one turn (docs/tools.md, "Tool calls in the
         * transcript"). */
        size_t j = i + 1;
        if (is_call(t, i)) {
            while (is_call(t, j))
                j++;
            ok = add_call_turn(c, messages, t, i, j, &calls_as_text);
        } else if (is_result(t, i)) {
            while (is_result(t, j))
                j++;
            ok = add_result_turn(c, messages, t, i, j, calls_as_text);
        } else {
            calls_as_text = false;
            ok = add_plain(messages, contractc_role_name(m->role), m);
        }
        i = j - 1;
    }
    if (ok && c->tools) {
        cJSON *tools = cJSON_Duplicate(c->tools, true);
        ok = tools && cJSON_AddItemToObject(root, "tools", tools);
        if (!ok)
            cJSON_Delete(tools);
    }
    if (ok && c->tool_choice)
        ok = add_tool_choice(c, root);
    if (ok && system)
        ok = add_text(root, "system", system, system_len);
    free(system);
    if (ok && !c->no_response_format) {
        cJSON *format = cJSON_AddObjectToObject(root, "response_format");
        cJSON *js = format ? cJSON_AddObjectToObject(format, "json_schema") : NULL;
        cJSON *schema = js ? cJSON_Duplicate(c->schema, true) : NULL;
        ok = js && schema && cJSON_AddStringToObject(format, "type", "json_schema") &&
             cJSON_AddStringToObject(js, "name", c->schema_name) &&
             cJSON_AddTrueToObject(js, "strict");
        if (schema && !(ok && cJSON_AddItemToObject(js, "schema", schema))) {
            cJSON_Delete(schema);
            ok = false;
        }
    }
    /* Number fields go in as the caller's text: no locale-dependent
     * double formatting. */
    if (ok && c->stream)
        ok = cJSON_AddTrueToObject(root, "stream") != NULL;
    if (ok && c->temperature)
        ok = add_number(root, "temperature", c->temperature);
    if (ok && c->seed && !anthropic)
        ok = add_number(root, "seed", c->seed);
    if (anthropic && !max_tokens)
        max_tokens = ANTHROPIC_DEFAULT_MAX_TOKENS;
    if (ok && max_tokens) {
        char num[24];
        snprintf(num, sizeof num, "%ld", max_tokens);
        ok = add_number(root, !anthropic && c->max_completion_tokens ? "max_completion_tokens"
                                                                     : "max_tokens", num);
    }
    char *body = ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    return body;
}

/* ---- the response ----------------------------------------------------------- */

/* A streamed answer: a 200 whose Content-Type is text/event-stream
 * (anything else, an error or a server that ignored "stream", is read
 * whole as usual). */
static bool is_event_stream(CURL *curl)
{
    long status = 0;
    char *type = NULL;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &type);
    return status == 200 && type && strncasecmp(type, "text/event-stream", 17) == 0;
}

static size_t on_data(char *data, size_t size, size_t nmemb, void *user)
{
    contractc_chat_client_t *c = user;
    size_t n = size * nmemb;
    if (c->stream && !c->response_started) {
        c->response_started = true;
        c->in_events = is_event_stream(c->curl);
    }
    if (c->in_events)
        /* STOP (dead) and FAILED end the transfer: libcurl stops with
         * CURLE_WRITE_ERROR and closes the connection. */
        return cc_chat_stream_feed(&c->events, data, n) == CC_CHAT_STREAM_GO_ON ? n : 0;
    if (n > c->max_response - c->body_len) {
        c->too_big = true;
        return 0; /* libcurl stops with CURLE_WRITE_ERROR */
    }
    if (c->body_len + n + 1 > c->body_cap) {
        size_t cap = c->body_cap ? c->body_cap : 4096;
        while (cap < c->body_len + n + 1)
            cap *= 2;
        char *p = realloc(c->body, cap);
        if (!p)
            return 0;
        c->body = p;
        c->body_cap = cap;
    }
    memcpy(c->body + c->body_len, data, n);
    c->body_len += n;
    c->body[c->body_len] = '\0';
    return n;
}

/* ---- retries ------------------------------------------------------------------ */

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (ms > 0 && nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* A uniform draw from [0, n] (xorshift64*; the seed is the configuration's
 * jitter_seed, so tests can repeat a schedule). */
static long jitter(contractc_chat_client_t *c, long n)
{
    uint64_t x = c->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    c->rng = x;
    return n <= 0 ? 0 : (long)((x * 0x2545F4914F6CDD1Du >> 11) % ((uint64_t)n + 1));
}

/* Keeps each header line libcurl received (up to HEADERS_KEPT_MAX bytes)
 * for the response reader. */
static size_t on_header(char *data, size_t size, size_t nmemb, void *user)
{
    contractc_chat_client_t *c = user;
    size_t n = size * nmemb;
    if (n > HEADERS_KEPT_MAX - c->headers_len)
        return n;
    if (c->headers_len + n > c->headers_cap) {
        size_t cap = c->headers_cap ? c->headers_cap : 1024;
        while (cap < c->headers_len + n)
            cap *= 2;
        char *p = realloc(c->headers, cap);
        if (!p)
            return n; /* not kept: no Retry-After is read from it */
        c->headers = p;
        c->headers_cap = cap;
    }
    memcpy(c->headers + c->headers_len, data, n);
    c->headers_len += n;
    return n;
}

/* One HTTP exchange: posts body with headers, allowing timeout_ms. */
static CURLcode perform(contractc_chat_client_t *c, const char *body, struct curl_slist *headers,
                        long timeout_ms, char *curl_error)
{
    c->body_len = 0;
    c->too_big = false;
    c->last_status = 0;
    c->headers_len = 0;
    c->in_events = c->response_started = false;
    cc_chat_stream_free(&c->events);
    cc_chat_stream_init(&c->events, c->provider, c->key, c->parser, c->max_response);
    curl_error[0] = '\0';
    CURL *curl = c->curl;
    curl_easy_reset(curl);
    curl_easy_setopt(curl, CURLOPT_URL, c->url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                     c->connect_timeout_ms < timeout_ms ? c->connect_timeout_ms : timeout_ms);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, c);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, c);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, curl_error);
    CURLcode rc = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &c->last_status);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, NULL);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, NULL);
    return rc;
}

/* A streamed try's outcome (one_try's contract).  A reply stopped when
 * dead is a reply: its text the bytes fed, reply->stopped set.  A try
 * whose text was fed to the loop's stream is never tried again (the
 * stream has read it; the loop's next attempt makes a new one). */
static int events_outcome(contractc_chat_client_t *c, CURLcode rc, long timeout_ms,
                          bool deadline_bound, const char *curl_error,
                          contractc_model_reply_t *reply, bool *retry)
{
    cc_chat_stream_t *e = &c->events;
    const bool fed = e->fed > 0;
    if (e->dead) {
        c->reply = e->text ? e->text : strdup("");
        e->text = NULL;
        if (!c->reply) {
            reply->error_class = CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE;
            return cc_chat_fail(reply, "out of memory reading the stream");
        }
        reply->text = c->reply;
        reply->len = e->fed;
        reply->stopped = true;
        snprintf(reply->finish_reason, sizeof reply->finish_reason, "%s", e->finish_reason);
        reply->error[0] = '\0';
        reply->error_class = CONTRACTC_ERROR_CLASS_NONE;
        return 0;
    }
    if (e->failed) {
        reply->error_class = e->error_class;
        *retry = !fed && e->error_class == CONTRACTC_ERROR_CLASS_HTTP_5XX;
        return cc_chat_fail(reply, "%s", e->error);
    }
    if (rc == CURLE_OPERATION_TIMEDOUT) {
        reply->error_class = CONTRACTC_ERROR_CLASS_TIMEOUT;
        *retry = !fed && !deadline_bound;
        return cc_chat_fail(reply, "the event stream from %s did not end within %ld ms", c->url,
                            deadline_bound ? c->deadline_ms : timeout_ms);
    }
    if (rc != CURLE_OK) {
        reply->error_class = CONTRACTC_ERROR_CLASS_NETWORK;
        *retry = !fed;
        return cc_chat_fail(reply, "the event stream from %s broke off: %s", c->url,
                            curl_error[0] ? curl_error : curl_easy_strerror(rc));
    }
    if (!cc_chat_stream_end(e)) {
        reply->error_class = e->error_class;
        *retry = !fed;
        return cc_chat_fail(reply, "%s", e->error);
    }
    if (e->refusal_len) {
        /* A refusal, as in a whole response: its words scrubbed, handed on
         * as finish_reason "refusal". */
        size_t n = 0;
        c->reply = cc_chat_scrub_key(c->key, e->refusal, e->refusal_len, SIZE_MAX, &n);
        if (!c->reply) {
            reply->error_class = CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE;
            return cc_chat_fail(reply, "out of memory reading the stream");
        }
        reply->text = c->reply;
        reply->len = n;
        snprintf(reply->finish_reason, sizeof reply->finish_reason, "%s", "refusal");
        reply->error_class = CONTRACTC_ERROR_CLASS_NONE;
        return 0;
    }
    c->reply = e->text;
    e->text = NULL;
    reply->text = c->reply;
    reply->len = e->text_len;
    snprintf(reply->finish_reason, sizeof reply->finish_reason, "%s", e->finish_reason);
    reply->error_class = CONTRACTC_ERROR_CLASS_NONE;
    return 0;
}

/* One try's outcome: 0 with a reply, or non-zero with reply->error and
 * error_class set and *retry saying whether another try can help. */
static int one_try(contractc_chat_client_t *c, const char *body, struct curl_slist *headers,
                   long timeout_ms, bool deadline_bound, contractc_model_reply_t *reply, bool *retry)
{
    char curl_error[CURL_ERROR_SIZE];
    *retry = false;
    free(c->reply);
    c->reply = NULL;
    reply->finish_reason[0] = '\0';
    reply->tool_calls = NULL;
    reply->tool_call_count = 0;
    CURLcode rc = perform(c, body, headers, timeout_ms, curl_error);
    /* A wait the server asked for counts whatever came after its headers. */
    c->retry_after_ms = cc_chat_retry_after_ms(c->headers, c->headers_len, time(NULL));
    if (c->in_events)
        return events_outcome(c, rc, timeout_ms, deadline_bound, curl_error, reply, retry);
    if (rc == CURLE_OPERATION_TIMEDOUT) {
        reply->error_class = CONTRACTC_ERROR_CLASS_TIMEOUT;
        *retry = !deadline_bound; /* the deadline has passed: nothing is left */
        if (deadline_bound)
            return cc_chat_fail(reply, "no complete response from %s within the deadline of %ld ms",
                                c->url, c->deadline_ms);
        return cc_chat_fail(reply, "no complete response from %s within %ld ms", c->url, timeout_ms);
    }
    if (c->too_big) {
        reply->error_class = CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE;
        return cc_chat_fail(reply, "the response is over %zu bytes", c->max_response);
    }
    if (rc != CURLE_OK) {
        reply->error_class = CONTRACTC_ERROR_CLASS_NETWORK;
        *retry = rc != CURLE_WRITE_ERROR && rc != CURLE_OUT_OF_MEMORY;
        return cc_chat_fail(reply, "cannot reach %s: %s", c->url,
                            curl_error[0] ? curl_error : curl_easy_strerror(rc));
    }
    cc_chat_response_t r = {
        .provider = c->provider,
        .key = c->key,
        .status = c->last_status,
        .headers = c->headers,
        .headers_len = c->headers_len,
        .body = c->body,
        .body_len = c->body_len,
        .now = time(NULL),
    };
    int outcome = cc_chat_read_response(&r, reply);
    c->reply = r.text; /* reply->text points here, until the next call */
    if (c->tools && c->last_status == 200 && !(outcome == 0 && r.text && r.text[0] &&
                                               c->provider != CONTRACTC_CHAT_ANTHROPIC)) {
        /* With tools a reply may be tool calls: every call goes to the loop
         * (reply->tool_calls), the first call's arguments, their exact
         * bytes, are also the reply text (an OpenAI content null is one) */
        char why[CONTRACTC_MODEL_ERROR_SIZE];
        contractc_tool_format_t format = c->provider == CONTRACTC_CHAT_ANTHROPIC
                                             ? CONTRACTC_TOOL_ANTHROPIC
                                             : CONTRACTC_TOOL_OPENAI;
        if (contractc_tool_calls_read(format, c->body, c->body_len, &c->calls, why, sizeof why) != 0) {
            free(c->reply);
            c->reply = NULL;
            reply->text = NULL;
            reply->len = 0;
            reply->error_class = CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE;
            return cc_chat_fail(reply, "%s", why);
        }
        if (c->calls.count) {
            const contractc_tool_call_t *call = &c->calls.calls[0];
            free(c->reply);
            c->reply = malloc(call->arguments_len + 1);
            if (!c->reply) {
                reply->text = NULL;
                reply->len = 0;
                reply->error_class = CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE;
                return cc_chat_fail(reply, "out of memory reading the tool call");
            }
            memcpy(c->reply, call->arguments, call->arguments_len + 1);
            reply->text = c->reply;
            reply->len = call->arguments_len;
            reply->error[0] = '\0';
            reply->error_class = CONTRACTC_ERROR_CLASS_NONE;
            snprintf(reply->finish_reason, sizeof reply->finish_reason, "%s", "tool_calls");
            for (size_t k = 0; k < c->calls.count; k++) {
                const contractc_tool_call_t *tc = &c->calls.calls[k];
                contractc_reply_tool_call_t *out = &c->reply_calls[k];
                snprintf(c->made_ids[k], sizeof c->made_ids[k], "call_%zu", k + 1);
                out->tool_call_id = tc->id[0] ? tc->id : c->made_ids[k];
                out->name = tc->name;
                out->arguments = tc->arguments;
                out->arguments_len = tc->arguments_len;
            }
            reply->tool_calls = c->reply_calls;
            reply->tool_call_count = c->calls.count;
            outcome = 0;
        }
    }
    c->retry_after_ms = r.retry_after_ms;
    *retry = r.retry;
    return outcome;
}

int contractc_chat_model(void *client, const contractc_transcript_t *transcript,
                         contractc_model_reply_t *reply)
{
    contractc_chat_client_t *c = client;
    if (!reply)
        return 1;
    if (!c || !transcript)
        return cc_chat_fail(reply, "no client or no transcript");
    free(c->reply);
    c->reply = NULL;
    c->last_status = 0;
    c->last_attempts = 0;
    contractc_tool_calls_free(&c->calls);
    c->parser = c->stream ? reply->stream : NULL;
    /* The loop's limit (raised by on_truncated) wins over the configured one. */
    char *body = request_body(c, transcript, reply->max_tokens ? (long)reply->max_tokens : c->max_tokens);
    if (!body)
        return cc_chat_fail(reply, "out of memory building the request");

    struct curl_slist *headers = NULL, *h;
    headers = curl_slist_append(headers, "Content-Type: application/json");
    char *auth = NULL;
    if (headers && c->key) {
        /* "Authorization: Bearer KEY", or "NAME: KEY" for another header
         * (x-api-key, Azure's api-key). */
        const bool bearer = strcasecmp(c->key_header, "Authorization") == 0;
        size_t n = strlen(c->key_header) + strlen(c->key) + 16;
        auth = malloc(n);
        if (auth) {
            snprintf(auth, n, "%s: %s%s", c->key_header, bearer ? "Bearer " : "", c->key);
            h = curl_slist_append(headers, auth);
            wipe(auth);
            free(auth);
            if (!h)
                curl_slist_free_all(headers);
            headers = h;
        } else {
            curl_slist_free_all(headers);
            headers = NULL;
        }
    }
    if (headers && c->provider == CONTRACTC_CHAT_ANTHROPIC) {
        char version[128];
        snprintf(version, sizeof version, "anthropic-version: %s", c->anthropic_version);
        h = curl_slist_append(headers, version);
        if (!h)
            curl_slist_free_all(headers);
        headers = h;
    }
    for (const struct curl_slist *x = c->extra; headers && x; x = x->next) {
        h = curl_slist_append(headers, x->data);
        if (!h)
            curl_slist_free_all(headers);
        headers = h;
    }
    if (!headers) {
        free(body);
        return cc_chat_fail(reply, "out of memory building the request");
    }

    /* Tries: network errors, time-outs, 429 and 5xx again after a wait of
     * Retry-After, else full jitter over base * 2^k (capped), while the
     * total deadline allows; anything else at once (docs/client.md). */
    const long start = now_ms();
    int rc = 1;
    for (unsigned k = 0; k < c->max_attempts; k++) {
        long left = c->deadline_ms - (now_ms() - start);
        if (left <= 0)
            break; /* reply->error holds the last try's error */
        long timeout = c->timeout_ms < left ? c->timeout_ms : left;
        bool retry = false;
        c->last_attempts = k + 1;
        rc = one_try(c, body, headers, timeout, timeout == left, reply, &retry);
        if (rc == 0 || !retry || k + 1 == c->max_attempts)
            break;
        long wait;
        if (c->retry_after_ms >= 0) {
            wait = c->retry_after_ms;
        } else {
            long ceiling = c->retry_cap_ms;
            if (k < 30 && (c->retry_base_ms << k) < ceiling)
                ceiling = c->retry_base_ms << k;
            wait = jitter(c, ceiling);
        }
        left = c->deadline_ms - (now_ms() - start);
        if (wait >= left) {
            /* Waiting would pass the deadline: give up with this error. */
            size_t n = strlen(reply->error);
            snprintf(reply->error + n, sizeof reply->error - n,
                     " (no retry: a wait of %ld ms would pass the %ld ms deadline)", wait,
                     c->deadline_ms);
            break;
        }
        sleep_ms(wait);
    }
    if (rc != 0) {
        contractc_tool_calls_free(&c->calls);
        reply->tool_calls = NULL;
        reply->tool_call_count = 0;
    }
    if (rc != 0 && c->last_attempts > 1) {
        size_t n = strlen(reply->error);
        snprintf(reply->error + n, sizeof reply->error - n, " (after %u tries)", c->last_attempts);
    }
    /* The header list held the key: wipe it before freeing. */
    for (h = headers; h; h = h->next)
        wipe(h->data);
    curl_slist_free_all(headers);
    free(body);
    return rc;
}
