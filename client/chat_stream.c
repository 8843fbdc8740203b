/* SPDX-License-Identifier: MIT */
/*
 * chat_stream.c - the reader of a streamed response (see chat_stream.h):
 * the event-stream framing, then each event's JSON (cJSON) as the
 * provider's delta.  No I/O.
 *
 * Bounds: a line, an event's data and the reply text each stay within
 * max_bytes, since every byte of them was read; a longer stream fails
 * ("over N bytes"), as a whole response does.  U+0000 cannot be passed on
 * in a C string (cJSON would cut the text there, and a cut reply could
 * pass the contract), so an event that holds it fails, as a whole
 * response that holds it does (chat_response.c).
 */
#include "chat_stream.h"

#include "chat_response.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cc_chat_stream_init(cc_chat_stream_t *s, contractc_chat_provider_t provider,
                         const char *key, contractc_stream_t *parser, size_t max_bytes)
{
    memset(s, 0, sizeof *s);
    s->provider = provider;
    s->key = key;
    s->parser = parser;
    s->max_bytes = max_bytes ? max_bytes : (size_t)-1;
}

void cc_chat_stream_free(cc_chat_stream_t *s)
{
    if (!s)
        return;
    free(s->text);
    free(s->refusal);
    free(s->line_);
    free(s->data_);
    s->text = s->refusal = s->line_ = s->data_ = NULL;
    s->text_len = s->refusal_len = s->line_len_ = s->data_len_ = 0;
    s->text_cap_ = s->refusal_cap_ = s->line_cap_ = s->data_cap_ = 0;
}

static cc_chat_stream_step_t fail(cc_chat_stream_t *s, contractc_error_class_t class,
                                  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static cc_chat_stream_step_t fail(cc_chat_stream_t *s, contractc_error_class_t class,
                                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error, sizeof s->error, fmt, ap);
    va_end(ap);
    s->error_class = class;
    s->failed = true;
    return CC_CHAT_STREAM_FAILED;
}

/* Appends src[0..n) to *buf (len, cap; a NUL kept after it). */
static bool append(char **buf, size_t *len, size_t *cap, const char *src, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 256;
        while (c < *len + n + 1)
            c *= 2;
        char *p = realloc(*buf, c);
        if (!p)
            return false;
        *buf = p;
        *cap = c;
    }
    memcpy(*buf + *len, src, n);
    *len += n;
    (*buf)[*len] = '\0';
    return true;
}

/* A piece of reply text: kept, and fed to the parser. */
static cc_chat_stream_step_t add_text(cc_chat_stream_t *s, const char *text, size_t n)
{
    if (n > s->max_bytes - s->text_len)
        return fail(s, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
                    "the streamed reply is over %zu bytes", s->max_bytes);
    if (!append(&s->text, &s->text_len, &s->text_cap_, text, n))
        return fail(s, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE, "out of memory reading the stream");
    if (s->parser) {
        contractc_stream_state_t st = contractc_stream_feed(s->parser, text, n);
        s->fed += n;
        if (st == CONTRACTC_STREAM_DEAD) {
            s->dead = true;
            return CC_CHAT_STREAM_STOP;
        }
        if (st == CONTRACTC_STREAM_ERROR)
            s->parser = NULL; /* out of memory: read on, the loop parses the whole reply */
    }
    return CC_CHAT_STREAM_GO_ON;
}

static bool is_string(const cJSON *j, const char *v)
{
    return cJSON_IsString(j) && strcmp(j->valuestring, v) == 0;
}

/* An error event: {"error": {"message", "type"}} (both providers); an
 * overload or a server error is one a new try can help. */
static cc_chat_stream_step_t error_event(cc_chat_stream_t *s, const cJSON *err)
{
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(err, "message");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(err, "type");
    char text[CC_CHAT_SERVER_MESSAGE_MAX + 1] = "";
    if (cJSON_IsString(msg))
        cc_chat_server_text(s->key, text, sizeof text, CC_CHAT_SERVER_MESSAGE_MAX,
                            msg->valuestring, strlen(msg->valuestring));
    else if (cJSON_IsString(err))
        cc_chat_server_text(s->key, text, sizeof text, CC_CHAT_SERVER_MESSAGE_MAX,
                            err->valuestring, strlen(err->valuestring));
    const bool server = is_string(type, "overloaded_error") || is_string(type, "api_error") ||
                        is_string(type, "server_error");
    return fail(s, server ? CONTRACTC_ERROR_CLASS_HTTP_5XX : CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
                "the endpoint sent an error in the event stream: %s",
                text[0] ? text : "(no error message)");
}

static cc_chat_stream_step_t openai_event(cc_chat_stream_t *s, const cJSON *root)
{
    const cJSON *choice = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "choices"), 0);
    if (!choice)
        return CC_CHAT_STREAM_GO_ON; /* a usage chunk, or one without choices */
    const cJSON *finish = cJSON_GetObjectItemCaseSensitive(choice, "finish_reason");
    if (cJSON_IsString(finish))
        cc_chat_server_text(s->key, s->finish_reason, sizeof s->finish_reason, SIZE_MAX,
                            finish->valuestring, strlen(finish->valuestring));
    const cJSON *delta = cJSON_GetObjectItemCaseSensitive(choice, "delta");
    if (!delta)
        return CC_CHAT_STREAM_GO_ON;
    if (!cJSON_IsObject(delta))
        return fail(s, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
                    "malformed stream: event %zu's choices[0].delta is not an object", s->events);
    const cJSON *refusal = cJSON_GetObjectItemCaseSensitive(delta, "refusal");
    if (cJSON_IsString(refusal) && refusal->valuestring[0]) {
        size_t n = strlen(refusal->valuestring);
        if (n > s->max_bytes - s->refusal_len ||
            !append(&s->refusal, &s->refusal_len, &s->refusal_cap_, refusal->valuestring, n))
            return fail(s, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
                        "out of memory (or over %zu bytes) reading the refusal", s->max_bytes);
    }
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(delta, "content");
    if (content && !cJSON_IsString(content) && !cJSON_IsNull(content))
        return fail(s, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
                    "malformed stream: event %zu's choices[0].delta.content is not a string",
                    s->events);
    if (cJSON_IsString(content) && content->valuestring[0])
        return add_text(s, content->valuestring, strlen(content->valuestring));
    return CC_CHAT_STREAM_GO_ON;
}

static cc_chat_stream_step_t anthropic_event(cc_chat_stream_t *s, const cJSON *root)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(root, "type");
    const cJSON *delta = cJSON_GetObjectItemCaseSensitive(root, "delta");
    if (is_string(type, "content_block_delta")) {
        if (!is_string(cJSON_GetObjectItemCaseSensitive(delta, "type"), "text_delta"))
            return CC_CHAT_STREAM_GO_ON; /* not text: no part of the reply */
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(delta, "text");
        if (!cJSON_IsString(text))
            return fail(s, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
                        "malformed stream: event %zu's text_delta has no text string", s->events);
        return add_text(s, text->valuestring, strlen(text->valuestring));
    }
    if (is_string(type, "message_delta")) {
        const cJSON *stop = cJSON_GetObjectItemCaseSensitive(delta, "stop_reason");
        if (cJSON_IsString(stop)) {
            const char *mapped = cc_chat_anthropic_stop(stop->valuestring);
            if (mapped)
                snprintf(s->finish_reason, sizeof s->finish_reason, "%s", mapped);
            else
                cc_chat_server_text(s->key, s->finish_reason, sizeof s->finish_reason, SIZE_MAX,
                                    stop->valuestring, strlen(stop->valuestring));
        }
        return CC_CHAT_STREAM_GO_ON;
    }
    if (is_string(type, "message_stop"))
        s->done = true;
    return CC_CHAT_STREAM_GO_ON; /* message_start, content_block_start/stop, ping */
}

/* One event's data (data_[0..data_len_), the last LF taken off). */
static cc_chat_stream_step_t dispatch(cc_chat_stream_t *s)
{
    const char *d = s->data_ ? s->data_ : "";
    size_t n = s->data_len_;
    s->events++;
    if (s->done)
        return CC_CHAT_STREAM_GO_ON; /* after the end: nothing more is the reply */
    if (s->provider == CONTRACTC_CHAT_OPENAI && n == 6 && memcmp(d, "[DONE]", 6) == 0) {
        s->done = true;
        return CC_CHAT_STREAM_GO_ON;
    }
    if (memchr(d, '\0', n) || cc_chat_has_nul_escape(d, n))
        return fail(s, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
                    "event %zu of the stream holds U+0000 or a NUL byte; the reply cannot be "
                    "passed on intact", s->events);
    cJSON *root = cJSON_ParseWithLength(d, n);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return fail(s, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
                    "malformed stream: event %zu (%zu bytes of data) is not a JSON object",
                    s->events, n);
    }
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(root, "error");
    cc_chat_stream_step_t step = err ? error_event(s, err)
                                 : s->provider == CONTRACTC_CHAT_ANTHROPIC ? anthropic_event(s, root)
                                                                           : openai_event(s, root);
    cJSON_Delete(root);
    return step;
}

/* One line (line_[0..line_len_), its end taken off). */
static cc_chat_stream_step_t line(cc_chat_stream_t *s)
{
    const char *l = s->line_ ? s->line_ : "";
    size_t n = s->line_len_;
    s->line_len_ = 0;
    if (n == 0) { /* a blank line: the event, if it has data */
        if (!s->has_data_)
            return CC_CHAT_STREAM_GO_ON;
        s->has_data_ = false;
        s->data_len_--; /* the LF after the last data line */
        cc_chat_stream_step_t step = dispatch(s);
        s->data_len_ = 0;
        return step;
    }
    if (l[0] == ':')
        return CC_CHAT_STREAM_GO_ON; /* a comment (a keep-alive) */
    const char *colon = memchr(l, ':', n);
    size_t name = colon ? (size_t)(colon - l) : n;
    if (name != 4 || memcmp(l, "data", 4) != 0)
        return CC_CHAT_STREAM_GO_ON; /* event, id, retry: nothing the reply needs */
    const char *v = colon ? colon + 1 : l + n;
    size_t vn = (size_t)(l + n - v);
    if (vn && v[0] == ' ') {
        v++;
        vn--;
    }
    if (!append(&s->data_, &s->data_len_, &s->data_cap_, v, vn) ||
        !append(&s->data_, &s->data_len_, &s->data_cap_, "\n", 1))
        return fail(s, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE, "out of memory reading the stream");
    s->has_data_ = true;
    return CC_CHAT_STREAM_GO_ON;
}

cc_chat_stream_step_t cc_chat_stream_feed(cc_chat_stream_t *s, const char *bytes, size_t len)
{
    if (s->failed)
        return CC_CHAT_STREAM_FAILED;
    if (s->dead)
        return CC_CHAT_STREAM_STOP;
    if (len > s->max_bytes - s->bytes)
        return fail(s, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE, "the response is over %zu bytes",
                    s->max_bytes);
    size_t i = 0;
    s->bytes += len;
    /* A byte order mark may open the stream and is not part of it: its
     * bytes are held back until it is whole, or until a byte shows it is
     * not one (then they are the line's first bytes), whatever the cuts. */
    for (; !s->bom_done_ && i < len; i++) {
        static const char bom[] = "\xEF\xBB\xBF";
        if (bytes[i] == bom[s->bom_]) {
            if (++s->bom_ == 3)
                s->bom_done_ = true;
            continue;
        }
        s->bom_done_ = true;
        if (s->bom_ && !append(&s->line_, &s->line_len_, &s->line_cap_, bom, s->bom_))
            return fail(s, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
                        "out of memory reading the stream");
        break;
    }
    for (; i < len; i++) {
        char c = bytes[i];
        if (c == '\n' && s->cr_) { /* the LF of a CRLF */
            s->cr_ = false;
            continue;
        }
        s->cr_ = c == '\r';
        if (c == '\r' || c == '\n') {
            cc_chat_stream_step_t step = line(s);
            if (step != CC_CHAT_STREAM_GO_ON)
                return step;
            continue;
        }
        /* The rest of the line up to its end, at once. */
        size_t j = i;
        while (j < len && bytes[j] != '\r' && bytes[j] != '\n')
            j++;
        if (!append(&s->line_, &s->line_len_, &s->line_cap_, bytes + i, j - i))
            return fail(s, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
                        "out of memory reading the stream");
        i = j - 1;
    }
    return CC_CHAT_STREAM_GO_ON;
}

bool cc_chat_stream_end(cc_chat_stream_t *s)
{
    if (s->failed)
        return false;
    if (s->done || s->finish_reason[0])
        return true;
    fail(s, CONTRACTC_ERROR_CLASS_NETWORK,
         "the event stream ended before its end (%s) after %zu events and %zu bytes",
         s->provider == CONTRACTC_CHAT_ANTHROPIC ? "message_stop" : "[DONE]", s->events, s->bytes);
    return false;
}
