/* SPDX-License-Identifier: MIT */
/*
 * chat_response.c - the chat client's response reader (chat_response.h):
 * an HTTP status, the header block and the body become a model reply or a
 * classified failure.  No I/O, so fuzz/fuzz_client_response.c runs it on
 * any bytes.
 *
 * cJSON reads the body.  What cJSON cannot see is checked on the body's
 * bytes first: a raw NUL byte, or the escape \u0000 in a reply's string,
 * would cut the C string cJSON hands back (and a cut reply could pass the
 * contract), so either refuses the response.  Every server text that
 * reaches an error or a finish_reason goes through cc_chat_server_text
 * (the key scrubbed, control characters as spaces, docs/security.md).
 */
#define _DEFAULT_SOURCE /* timegm, strncasecmp, strdup */
#define _XOPEN_SOURCE 700 /* strptime */
#include "chat_response.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* True when a JSON string in the body holds the escape \u0000 (an odd run
 * of backslashes before "u0000"). */
bool cc_chat_has_nul_escape(const char *body, size_t len)
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
char *cc_chat_scrub_key(const char *key, const char *text, size_t len, size_t limit,
                        size_t *out_len)
{
    static const char mask[] = "[API key]";
    size_t kl = key ? strlen(key) : 0;
    size_t hits = 0;
    if (kl)
        for (size_t i = 0; i + kl <= len; i++)
            if (memcmp(text + i, key, kl) == 0) {
                hits++;
                i += kl - 1;
            }
    size_t n = len + hits * (sizeof mask - 1); /* an upper bound */
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len && o < limit;) {
        if (kl && i + kl <= len && memcmp(text + i, key, kl) == 0) {
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
 * leave) dropped, again until the tail is none.  This is the one way a
 * server text reaches an error message, a finish_reason or the log
 * (docs/security.md). */
void cc_chat_server_text(const char *key, char *buf, size_t size, size_t max, const char *text,
                         size_t len)
{
    if (!size)
        return;
    buf[0] = '\0';
    size_t n = 0;
    char *clean = cc_chat_scrub_key(key, text, len, max < size - 1 ? max : size - 1, &n);
    if (!clean)
        return;
    memcpy(buf, clean, n);
    buf[n] = '\0';
    free(clean);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
            buf[i] = ' ';
    /* Dropping one prefix can bare a shorter one ("sk-tesk-test-4f9c2b" cut
     * from the key "sk-test-4f9c2b..." leaves "sk-te"): until none is left. */
    size_t kl = key ? strlen(key) : 0;
    for (bool again = kl > 4; again;) {
        again = false;
        for (size_t k = kl - 1; k >= 4; k--)
            if (n >= k && memcmp(buf + n - k, key, k) == 0) {
                n -= k;
                buf[n] = '\0';
                again = true;
                break;
            }
    }
}

int cc_chat_fail(contractc_model_reply_t *reply, const char *fmt, ...)
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

const char *cc_chat_anthropic_stop(const char *r)
{
    return strcmp(r, "end_turn") == 0 || strcmp(r, "stop_sequence") == 0 ? "stop"
           : strcmp(r, "max_tokens") == 0                              ? "max_tokens"
           : strcmp(r, "refusal") == 0                                 ? "refusal"
                                                                       : NULL;
}

/* Anthropic Messages: the text blocks of `content`, joined, and
 * `stop_reason` as the loop's finish reasons: end_turn and stop_sequence
 * "stop", max_tokens "max_tokens" (truncated), refusal "refusal" (the text,
 * if any, as the refusal's words); others as sent, scrubbed. */
static int read_anthropic(cc_chat_response_t *c, const cJSON *root,
                          contractc_model_reply_t *reply)
{
    if (cc_chat_has_nul_escape(c->body, c->body_len))
        return cc_chat_fail(reply, "the response holds U+0000 in a string; the reply cannot be "
                                   "passed on intact");
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(root, "content");
    const cJSON *stop = cJSON_GetObjectItemCaseSensitive(root, "stop_reason");
    if (!cJSON_IsArray(content))
        return cc_chat_fail(reply, "malformed response: no content array");
    if (cJSON_IsString(stop)) {
        const char *r = stop->valuestring;
        const char *mapped = cc_chat_anthropic_stop(r);
        if (mapped)
            snprintf(reply->finish_reason, sizeof reply->finish_reason, "%s", mapped);
        else
            cc_chat_server_text(c->key, reply->finish_reason, sizeof reply->finish_reason,
                                SIZE_MAX, r, strlen(r));
    }
    size_t total = 0;
    const cJSON *block;
    cJSON_ArrayForEach(block, content) {
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(block, "type");
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(block, "text");
        if (!is_string(type, "text"))
            continue;
        if (!cJSON_IsString(text))
            return cc_chat_fail(reply, "malformed response: a text block without a text string");
        total += strlen(text->valuestring);
    }
    char *out = malloc(total + 1);
    if (!out)
        return cc_chat_fail(reply, "out of memory reading the response");
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
        c->text = cc_chat_scrub_key(c->key, out, o, SIZE_MAX, &o);
        free(out);
        if (!c->text)
            return cc_chat_fail(reply, "out of memory reading the response");
    } else {
        c->text = out;
    }
    reply->text = c->text;
    reply->len = o;
    reply->error_class = CONTRACTC_ERROR_CLASS_NONE;
    return 0;
}

int cc_chat_read_response(cc_chat_response_t *c, contractc_model_reply_t *reply)
{
    bool *retry = &c->retry;
    *retry = false;
    c->text = NULL;
    c->retry_after_ms = cc_chat_retry_after_ms(c->headers, c->headers_len, c->now);
    cJSON *root = cJSON_ParseWithLength(c->body ? c->body : "", c->body_len);
    if (c->status != 200) {
        const cJSON *err = cJSON_GetObjectItemCaseSensitive(root, "error");
        const cJSON *msg = cJSON_GetObjectItemCaseSensitive(err, "message");
        /* OpenAI: {"error": {"code": "insufficient_quota", "type": ...}}. */
        bool quota = is_string(cJSON_GetObjectItemCaseSensitive(err, "code"), "insufficient_quota") ||
                     is_string(cJSON_GetObjectItemCaseSensitive(err, "type"), "insufficient_quota");
        reply->error_class = status_class(c->status, quota, retry);
        char text[CC_CHAT_SERVER_MESSAGE_MAX + 1] = "";
        if (cJSON_IsString(msg))
            cc_chat_server_text(c->key, text, sizeof text, CC_CHAT_SERVER_MESSAGE_MAX,
                                msg->valuestring, strlen(msg->valuestring));
        else if (cJSON_IsString(err))
            cc_chat_server_text(c->key, text, sizeof text, CC_CHAT_SERVER_MESSAGE_MAX,
                                err->valuestring, strlen(err->valuestring));
        cJSON_Delete(root);
        if (text[0])
            return cc_chat_fail(reply, "HTTP %ld from the endpoint: %s", c->status, text);
        return cc_chat_fail(reply, "HTTP %ld from the endpoint (no error message)", c->status);
    }
    /* From here every failure is a malformed response. */
    reply->error_class = CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE;
    /* A raw NUL is not JSON text (RFC 8259 §7: control characters are
     * escaped) and cJSON would end the string there, so a reply cut at it
     * could pass the contract: refuse the whole body. */
    const char *nul = c->body ? memchr(c->body, '\0', c->body_len) : NULL;
    if (nul) {
        cJSON_Delete(root);
        return cc_chat_fail(reply, "malformed response: a NUL byte at offset %zu of the body (%zu bytes)",
                    (size_t)(nul - c->body), c->body_len);
    }
    if (!root) {
        return cc_chat_fail(reply, "malformed response: the body (%zu bytes) is not JSON", c->body_len);
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
        return cc_chat_fail(reply, "malformed response: no choices[0].message");
    }
    const cJSON *finish = cJSON_GetObjectItemCaseSensitive(choice, "finish_reason");
    if (cJSON_IsString(finish))
        cc_chat_server_text(c->key, reply->finish_reason, sizeof reply->finish_reason, SIZE_MAX,
                    finish->valuestring, strlen(finish->valuestring));
    if (cc_chat_has_nul_escape(c->body, c->body_len)) {
        cJSON_Delete(root);
        return cc_chat_fail(reply, "the response holds U+0000 in a string; the reply cannot be "
                                   "passed on intact");
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
        c->text = cc_chat_scrub_key(c->key, refusal->valuestring, strlen(refusal->valuestring),
                                    SIZE_MAX, &n);
        cJSON_Delete(root);
        if (!c->text)
            return cc_chat_fail(reply, "out of memory reading the response");
        reply->text = c->text;
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
        return cc_chat_fail(reply, "malformed response: choices[0].message.content is %s",
                    content ? "not a string" : "missing");
    }
    c->text = strdup(content->valuestring);
    cJSON_Delete(root);
    if (!c->text)
        return cc_chat_fail(reply, "out of memory reading the response");
    reply->text = c->text;
    reply->len = strlen(c->text);
    reply->error_class = CONTRACTC_ERROR_CLASS_NONE;
    return 0;
}

/* One header line (with its line end) for cc_chat_retry_after_ms: updates
 * *wait (-1: none or unreadable so far). */
static void read_retry_after(long *wait, const char *line, size_t n, time_t now)
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
        if (ms || *wait < 0)
            *wait = got;
        return;
    }
    if (ms)
        return;
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *end = strptime(v, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    if (end && !*end) {
        double d = difftime(timegm(&tm), now);
        if (*wait < 0)
            *wait = d <= 0 ? 0 : d > 86400.0 ? 86400000L : (long)(d * 1000.0);
    }
}

long cc_chat_retry_after_ms(const char *headers, size_t headers_len, time_t now)
{
    long wait = -1;
    for (size_t i = 0; headers && i < headers_len;) {
        const char *line = headers + i;
        const char *nl = memchr(line, '\n', headers_len - i);
        size_t n = nl ? (size_t)(nl - line) + 1 : headers_len - i;
        read_retry_after(&wait, line, n, now);
        i += n;
    }
    return wait;
}
