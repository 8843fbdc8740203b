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
 * cut reply could pass the contract).
 */
#define _DEFAULT_SOURCE /* timegm, strncasecmp */
#define _XOPEN_SOURCE 700 /* strptime */
#include <contractc/client.h>

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
#define SERVER_MESSAGE_MAX 160 /* bytes of the server's error message kept */
#define DEFAULT_MAX_ATTEMPTS 3u
#define DEFAULT_RETRY_BASE_MS 500L
#define DEFAULT_RETRY_CAP_MS 8000L
#define DEFAULT_DEADLINE_MS 120000L

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
    CURL *curl;
    char *reply;        /* the last reply text, owned until the next call */
    /* the response being received */
    char *body;
    size_t body_len, body_cap;
    bool too_big;
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
    cJSON_Delete(c->schema);
    if (c->curl)
        curl_easy_cleanup(c->curl);
    free(c);
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
    const bool send_format = config->provider == CONTRACTC_CHAT_OPENAI && !config->no_response_format;
    if (send_format && (!config->schema || !config->schema_name)) {
        set_error(error, error_size, "schema_name and schema are required (or set no_response_format)");
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
    c->max_completion_tokens = config->use_max_completion_tokens;
    c->schema = send_format ? cJSON_ParseWithLength(config->schema, config->schema_len) : NULL;
    if (send_format && !cJSON_IsObject(c->schema)) {
        set_error(error, error_size, "the schema is not a JSON object");
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
        cJSON *msg = cJSON_CreateObject();
        if (!msg || !cJSON_AddItemToArray(messages, msg)) {
            cJSON_Delete(msg);
            ok = false;
            break;
        }
        /* From here the array owns msg. */
        ok = cJSON_AddStringToObject(msg, "role", contractc_role_name(m->role)) != NULL &&
             add_text(msg, "content", m->text, m->len);
    }
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

static size_t on_data(char *data, size_t size, size_t nmemb, void *user)
{
    contractc_chat_client_t *c = user;
    size_t n = size * nmemb;
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

/* True when a JSON string in the body holds the escape \u0000 (an odd run
 * of backslashes before "u0000"). */
static bool has_nul_escape(const char *body, size_t len)
{
    for (size_t i = 0; i + 5 < len; i++) {
        if (body[i] != '\\')
            continue;
        size_t run = 0;
        while (i + run < len && body[i + run] == '\\')
            run++;
        size_t u = i + run;
        if (run % 2 == 1 && u + 5 <= len && body[u] == 'u' && strncmp(body + u + 1, "0000", 4) == 0)
            return true;
        i = u - 1;
    }
    return false;
}

/* text[0..len) with every whole occurrence of the key replaced by
 * "[API key]", at most `limit` bytes of it (a mask that does not fit whole
 * is left out, and the text ends there) (malloc'd, NUL-terminated, *out_len
 * its length; NULL when out of memory).  Without a key, a plain copy. */
static char *scrub_key(const contractc_chat_client_t *c, const char *text, size_t len,
                       size_t limit, size_t *out_len)
{
    static const char mask[] = "[API key]";
    size_t kl = c->key ? strlen(c->key) : 0;
    size_t hits = 0;
    if (kl)
        for (size_t i = 0; i + kl <= len; i++)
            if (memcmp(text + i, c->key, kl) == 0) {
                hits++;
                i += kl - 1;
            }
    size_t n = len + hits * (sizeof mask - 1); /* an upper bound */
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len && o < limit;) {
        if (kl && i + kl <= len && memcmp(text + i, c->key, kl) == 0) {
            if (o + sizeof mask - 1 > limit)
                break;
            memcpy(out + o, mask, sizeof mask - 1);
            o += sizeof mask - 1;
            i += kl;
        } else {
            out[o++] = text[i++];
        }
    }
    out[o] = '\0';
    if (out_len)
        *out_len = o;
    return out;
}

/* Copies the server's text into buf (size bytes, at most `max` of text):
 * the key replaced first, then cut, control characters as spaces, and a
 * tail that is a prefix of the key (4 characters or more, which the cut can
 * leave) dropped.  This is the one way a server text reaches an error
 * message, a finish_reason or the log (docs/security.md). */
static void server_text(const contractc_chat_client_t *c, char *buf, size_t size, size_t max,
                        const char *text, size_t len)
{
    if (!size)
        return;
    buf[0] = '\0';
    size_t n = 0;
    char *clean = scrub_key(c, text, len, max < size - 1 ? max : size - 1, &n);
    if (!clean)
        return;
    memcpy(buf, clean, n);
    buf[n] = '\0';
    free(clean);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
            buf[i] = ' ';
    size_t kl = c->key ? strlen(c->key) : 0;
    for (size_t k = kl ? kl - 1 : 0; k >= 4; k--)
        if (n >= k && memcmp(buf + n - k, c->key, k) == 0) {
            buf[n - k] = '\0';
            break;
        }
}

static int fail(contractc_model_reply_t *reply, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(contractc_model_reply_t *reply, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reply->error, sizeof reply->error, fmt, ap);
    va_end(ap);
    return 1;
}

/* The error class of an HTTP status other than 200, and whether a retry can
 * help: 429 (unless the quota is used up) and 5xx yes; 401, 403, 400, 404,
 * other 4xx and `insufficient_quota` no (docs/client.md). */
static contractc_error_class_t status_class(long status, bool quota, bool *retry)
{
    *retry = false;
    if (status == 429 && !quota) {
        *retry = true;
        return CONTRACTC_ERROR_CLASS_HTTP_429;
    }
    if (status >= 500 && status <= 599) {
        *retry = true;
        return CONTRACTC_ERROR_CLASS_HTTP_5XX;
    }
    if (status == 401 || status == 403)
        return CONTRACTC_ERROR_CLASS_AUTH;
    return CONTRACTC_ERROR_CLASS_BAD_REQUEST;
}

static bool is_string(const cJSON *j, const char *s)
{
    return cJSON_IsString(j) && strcmp(j->valuestring, s) == 0;
}

/* Anthropic Messages: the text blocks of `content`, joined, and
 * `stop_reason` as the loop's finish reasons: end_turn and stop_sequence
 * "stop", max_tokens "max_tokens" (truncated), refusal "refusal" (the text,
 * if any, as the refusal's words); others as sent, scrubbed. */
static int read_anthropic(contractc_chat_client_t *c, const cJSON *root,
                          contractc_model_reply_t *reply)
{
    if (has_nul_escape(c->body, c->body_len))
        return fail(reply, "the response holds U+0000 in a string; the reply cannot be passed on intact");
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(root, "content");
    const cJSON *stop = cJSON_GetObjectItemCaseSensitive(root, "stop_reason");
    if (!cJSON_IsArray(content))
        return fail(reply, "malformed response: no content array");
    if (cJSON_IsString(stop)) {
        const char *r = stop->valuestring;
        const char *mapped = strcmp(r, "end_turn") == 0 || strcmp(r, "stop_sequence") == 0 ? "stop"
                             : strcmp(r, "max_tokens") == 0                              ? "max_tokens"
                             : strcmp(r, "refusal") == 0                                 ? "refusal"
                                                                                         : NULL;
        if (mapped)
            snprintf(reply->finish_reason, sizeof reply->finish_reason, "%s", mapped);
        else
            server_text(c, reply->finish_reason, sizeof reply->finish_reason, SIZE_MAX, r, strlen(r));
    }
    size_t total = 0;
    const cJSON *block;
    cJSON_ArrayForEach(block, content) {
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(block, "type");
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(block, "text");
        if (!is_string(type, "text"))
            continue;
        if (!cJSON_IsString(text))
            return fail(reply, "malformed response: a text block without a text string");
        total += strlen(text->valuestring);
    }
    char *out = malloc(total + 1);
    if (!out)
        return fail(reply, "out of memory reading the response");
    size_t o = 0;
    cJSON_ArrayForEach(block, content) {
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(block, "text");
        if (!is_string(cJSON_GetObjectItemCaseSensitive(block, "type"), "text"))
            continue;
        size_t n = strlen(text->valuestring);
        memcpy(out + o, text->valuestring, n);
        o += n;
    }
    out[o] = '\0';
    if (strcmp(reply->finish_reason, "refusal") == 0) {
        c->reply = scrub_key(c, out, o, SIZE_MAX, &o);
        free(out);
        if (!c->reply)
            return fail(reply, "out of memory reading the response");
    } else {
        c->reply = out;
    }
    reply->text = c->reply;
    reply->len = o;
    reply->error_class = CONTRACTC_ERROR_CLASS_NONE;
    return 0;
}

/* Reads the response in c->body; *retry says whether the failure (non-zero
 * return) is one a retry can help. */
static int read_response(contractc_chat_client_t *c, contractc_model_reply_t *reply, bool *retry)
{
    *retry = false;
    cJSON *root = cJSON_ParseWithLength(c->body ? c->body : "", c->body_len);
    if (c->last_status != 200) {
        const cJSON *err = cJSON_GetObjectItemCaseSensitive(root, "error");
        const cJSON *msg = cJSON_GetObjectItemCaseSensitive(err, "message");
        /* OpenAI: {"error": {"code": "insufficient_quota", "type": ...}}. */
        bool quota = is_string(cJSON_GetObjectItemCaseSensitive(err, "code"), "insufficient_quota") ||
                     is_string(cJSON_GetObjectItemCaseSensitive(err, "type"), "insufficient_quota");
        reply->error_class = status_class(c->last_status, quota, retry);
        char text[SERVER_MESSAGE_MAX + 1] = "";
        if (cJSON_IsString(msg))
            server_text(c, text, sizeof text, SERVER_MESSAGE_MAX, msg->valuestring,
                        strlen(msg->valuestring));
        else if (cJSON_IsString(err))
            server_text(c, text, sizeof text, SERVER_MESSAGE_MAX, err->valuestring,
                        strlen(err->valuestring));
        cJSON_Delete(root);
        if (text[0])
            return fail(reply, "HTTP %ld from the endpoint: %s", c->last_status, text);
        return fail(reply, "HTTP %ld from the endpoint (no error message)", c->last_status);
    }
    /* From here every failure is a malformed response. */
    reply->error_class = CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE;
    /* A raw NUL is not JSON text (RFC 8259 §7: control characters are
     * escaped) and cJSON would end the string there, so a reply cut at it
     * could pass the contract: refuse the whole body. */
    const char *nul = c->body ? memchr(c->body, '\0', c->body_len) : NULL;
    if (nul) {
        cJSON_Delete(root);
        return fail(reply, "malformed response: a NUL byte at offset %zu of the body (%zu bytes)",
                    (size_t)(nul - c->body), c->body_len);
    }
    if (!root) {
        return fail(reply, "malformed response: the body (%zu bytes) is not JSON", c->body_len);
    }
    if (c->provider == CONTRACTC_CHAT_ANTHROPIC) {
        int rc = read_anthropic(c, root, reply);
        cJSON_Delete(root);
        return rc;
    }
    const cJSON *choice = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "choices"), 0);
    const cJSON *message = cJSON_GetObjectItemCaseSensitive(choice, "message");
    if (!cJSON_IsObject(message)) {
        cJSON_Delete(root);
        return fail(reply, "malformed response: no choices[0].message");
    }
    const cJSON *finish = cJSON_GetObjectItemCaseSensitive(choice, "finish_reason");
    if (cJSON_IsString(finish))
        server_text(c, reply->finish_reason, sizeof reply->finish_reason, SIZE_MAX,
                    finish->valuestring, strlen(finish->valuestring));
    if (has_nul_escape(c->body, c->body_len)) {
        cJSON_Delete(root);
        return fail(reply, "the response holds U+0000 in a string; the reply cannot be passed on intact");
    }
    const cJSON *refusal = cJSON_GetObjectItemCaseSensitive(message, "refusal");
    if (cJSON_IsString(refusal) && refusal->valuestring[0]) {
        /* A refusal (OpenAI: message.refusal, content null) is handed on as
         * finish_reason "refusal" with its words as the text, so the loop
         * ends `refused` without a repair turn (docs/client.md); the words
         * are kept in the attempt, not logged.  Scrubbed like every server
         * text. */
        snprintf(reply->finish_reason, sizeof reply->finish_reason, "%s", "refusal");
        size_t n = 0;
        c->reply = scrub_key(c, refusal->valuestring, strlen(refusal->valuestring), SIZE_MAX, &n);
        cJSON_Delete(root);
        if (!c->reply)
            return fail(reply, "out of memory reading the response");
        reply->text = c->reply;
        reply->len = n;
        reply->error_class = CONTRACTC_ERROR_CLASS_NONE;
        return 0;
    }
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(message, "content");
    /* A content filter stop (or a cut at the token limit) may come with
     * content null: an empty reply, whose finish_reason the loop reads. */
    if (cJSON_IsNull(content) && (strcmp(reply->finish_reason, "content_filter") == 0 ||
                                  strcmp(reply->finish_reason, "length") == 0)) {
        cJSON_Delete(root);
        reply->text = NULL;
        reply->len = 0;
        reply->error_class = CONTRACTC_ERROR_CLASS_NONE;
        return 0;
    }
    if (!cJSON_IsString(content)) {
        cJSON_Delete(root);
        return fail(reply, "malformed response: choices[0].message.content is %s",
                    content ? "not a string" : "missing");
    }
    c->reply = dup_or_null(content->valuestring);
    cJSON_Delete(root);
    if (!c->reply)
        return fail(reply, "out of memory reading the response");
    reply->text = c->reply;
    reply->len = strlen(c->reply);
    reply->error_class = CONTRACTC_ERROR_CLASS_NONE;
    return 0;
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

/* Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date; and
 * retry-after-ms, which OpenAI sends.  Sets c->retry_after_ms (-1: none or
 * unreadable). */
static void read_retry_after(contractc_chat_client_t *c, const char *line, size_t n)
{
    static const char ra[] = "retry-after:", ram[] = "retry-after-ms:";
    char v[64];
    bool ms = false;
    size_t skip;
    if (n > sizeof ram - 1 && strncasecmp(line, ram, sizeof ram - 1) == 0) {
        ms = true;
        skip = sizeof ram - 1;
    } else if (n > sizeof ra - 1 && strncasecmp(line, ra, sizeof ra - 1) == 0) {
        skip = sizeof ra - 1;
    } else {
        return;
    }
    line += skip;
    n -= skip;
    while (n && (*line == ' ' || *line == '\t'))
        line++, n--;
    while (n && (line[n - 1] == '\r' || line[n - 1] == '\n' || line[n - 1] == ' '))
        n--;
    if (!n || n >= sizeof v)
        return;
    memcpy(v, line, n);
    v[n] = '\0';
    bool digits = true;
    for (size_t i = 0; i < n; i++)
        digits = digits && is_digit(v[i]);
    if (digits && n <= 9) {
        long x = strtol(v, NULL, 10);
        long got = ms ? x : x * 1000L;
        /* retry-after-ms is the finer of the two when both come. */
        if (ms || c->retry_after_ms < 0)
            c->retry_after_ms = got;
        return;
    }
    if (ms)
        return;
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *end = strptime(v, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    if (end && !*end) {
        double d = difftime(timegm(&tm), time(NULL));
        if (c->retry_after_ms < 0)
            c->retry_after_ms = d <= 0 ? 0 : d > 86400.0 ? 86400000L : (long)(d * 1000.0);
    }
}

static size_t on_header(char *data, size_t size, size_t nmemb, void *user)
{
    size_t n = size * nmemb;
    read_retry_after(user, data, n);
    return n;
}

/* One HTTP exchange: posts body with headers, allowing timeout_ms. */
static CURLcode perform(contractc_chat_client_t *c, const char *body, struct curl_slist *headers,
                        long timeout_ms, char *curl_error)
{
    c->body_len = 0;
    c->too_big = false;
    c->last_status = 0;
    c->retry_after_ms = -1;
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
    CURLcode rc = perform(c, body, headers, timeout_ms, curl_error);
    if (rc == CURLE_OPERATION_TIMEDOUT) {
        reply->error_class = CONTRACTC_ERROR_CLASS_TIMEOUT;
        *retry = !deadline_bound; /* the deadline has passed: nothing is left */
        if (deadline_bound)
            return fail(reply, "no complete response from %s within the deadline of %ld ms", c->url,
                        c->deadline_ms);
        return fail(reply, "no complete response from %s within %ld ms", c->url, timeout_ms);
    }
    if (c->too_big) {
        reply->error_class = CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE;
        return fail(reply, "the response is over %zu bytes", c->max_response);
    }
    if (rc != CURLE_OK) {
        reply->error_class = CONTRACTC_ERROR_CLASS_NETWORK;
        *retry = rc != CURLE_WRITE_ERROR && rc != CURLE_OUT_OF_MEMORY;
        return fail(reply, "cannot reach %s: %s", c->url,
                    curl_error[0] ? curl_error : curl_easy_strerror(rc));
    }
    return read_response(c, reply, retry);
}

int contractc_chat_model(void *client, const contractc_transcript_t *transcript,
                         contractc_model_reply_t *reply)
{
    contractc_chat_client_t *c = client;
    if (!reply)
        return 1;
    if (!c || !transcript)
        return fail(reply, "no client or no transcript");
    free(c->reply);
    c->reply = NULL;
    c->last_status = 0;
    c->last_attempts = 0;
    /* The loop's limit (raised by on_truncated) wins over the configured one. */
    char *body = request_body(c, transcript, reply->max_tokens ? (long)reply->max_tokens : c->max_tokens);
    if (!body)
        return fail(reply, "out of memory building the request");

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
        return fail(reply, "out of memory building the request");
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
