/* SPDX-License-Identifier: MIT */
/*
 * fuzz_client_response.c - the chat client's response reader
 * (client/chat_response.c, cc_chat_read_response): the one place where a
 * server's bytes become a model reply or a classified failure.
 *
 * Input: an HTTP response as it comes off the wire: a status line
 * ("HTTP/1.1 429 Too Many Requests"), header lines, an empty line, the body.
 * An input that does not start with "HTTP/" is a body with status 200 and
 * no headers.  Seeds: tests/data/client/responses/, the recorded provider
 * shapes (some quote the API key below, as a server that echoes it does).
 *
 * Properties, for every input, read as each provider (OpenAI, Anthropic):
 *   - a reply only for status 200, with error_class NONE and no retry; its
 *     text is the reader's copy (NUL-terminated, no NUL byte inside), or
 *     NULL with length 0 only for an OpenAI content null on a
 *     content_filter or length stop;
 *   - a failure has a message and a class (MALFORMED_RESPONSE for any
 *     200, AUTH for 401 and 403) and no text; a retry only for 429 and
 *     5xx;
 *   - the API key is in no error, finish_reason or refusal text, and no
 *     error or finish_reason ends in 4 or more of its leading bytes (a key
 *     cut there); neither holds a control character;
 *   - Retry-After is cc_chat_retry_after_ms of the headers, -1 or a wait
 *     from 0 to 999,999,999 s;
 *   - the body and headers are exact-size copies (no NUL after them), so
 *     ASan reports a read past either;
 *   - the tool calls (client/tool_calls.c, contractc_tool_calls_read), read
 *     as each format (OpenAI, Anthropic, Gemini, MCP): 0 with at most
 *     CONTRACTC_TOOL_CALLS_MAX calls, each with a NUL-terminated id and a
 *     name free of NUL bytes, arguments with a NUL after them, and, for all
 *     but OpenAI (whose arguments are a decoded string), arguments that
 *     are bytes of the body as they stand; or 1 with a message and no
 *     calls.  The cut bytes are also run through the strict reader, which
 *     must not crash on them.
 */
#include "fuzz_common.h"
#include "chat_response.h"
#include "reader.h"

#define KEY "sk-test-4f9c2b7e1a0d-SECRET" /* the tests' fake key */
#define KEY_LEN (sizeof KEY - 1)
#define NOW ((time_t)1767225600) /* 2026-01-01T00:00:00Z, the recordings' day */

static int has_key(const char *text, size_t len)
{
    for (size_t i = 0; i + KEY_LEN <= len; i++)
        if (memcmp(text + i, KEY, KEY_LEN) == 0)
            return 1;
    return 0;
}

/* A server text that left the reader (error, finish_reason). */
static void check_text(const char *what, const char *text, size_t size)
{
    FUZZ_CHECK(memchr(text, '\0', size) != NULL, "%s is not NUL-terminated", what);
    size_t n = strlen(text);
    FUZZ_CHECK(!has_key(text, n), "%s holds the key: %s", what, text);
    for (size_t k = 4; k < KEY_LEN && k <= n; k++)
        FUZZ_CHECK(memcmp(text + n - k, KEY, k) != 0, "%s ends in %zu bytes of the key: %s", what,
                   k, text);
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK((unsigned char)text[i] >= 0x20 && text[i] != 0x7F,
                   "%s holds the control byte 0x%02x at %zu", what, (unsigned)(unsigned char)text[i],
                   i);
}

static void read_one(contractc_chat_provider_t provider, long status, const char *headers,
                     size_t headers_len, const char *body, size_t body_len)
{
    cc_chat_response_t r;
    memset(&r, 0, sizeof r);
    r.provider = provider;
    r.key = KEY;
    r.status = status;
    r.headers = headers;
    r.headers_len = headers_len;
    r.body = body;
    r.body_len = body_len;
    r.now = NOW;
    contractc_model_reply_t reply;
    memset(&reply, 0, sizeof reply);
    int rc = cc_chat_read_response(&r, &reply);
    check_text("error", reply.error, sizeof reply.error);
    check_text("finish_reason", reply.finish_reason, sizeof reply.finish_reason);
    FUZZ_CHECK(r.retry_after_ms == cc_chat_retry_after_ms(headers, headers_len, NOW),
               "Retry-After %ld from the reader", r.retry_after_ms);
    if (rc == 0) {
        FUZZ_CHECK(status == 200, "a reply from HTTP %ld", status);
        FUZZ_CHECK(reply.error_class == CONTRACTC_ERROR_CLASS_NONE, "a reply with class %s",
                   contractc_error_class_name(reply.error_class));
        FUZZ_CHECK(reply.error[0] == '\0', "a reply with an error: %s", reply.error);
        FUZZ_CHECK(!r.retry, "a reply marked for a retry");
        FUZZ_CHECK(reply.text == r.text, "the reply is not the reader's copy");
        if (reply.text) {
            FUZZ_CHECK(reply.text[reply.len] == '\0', "the reply is not NUL-terminated");
            FUZZ_CHECK(memchr(reply.text, '\0', reply.len) == NULL, "a NUL byte in a %zu-byte reply",
                       reply.len);
            if (strcmp(reply.finish_reason, "refusal") == 0)
                FUZZ_CHECK(!has_key(reply.text, reply.len), "the refusal holds the key");
        } else {
            FUZZ_CHECK(reply.len == 0, "no text but %zu bytes", reply.len);
            FUZZ_CHECK(provider == CONTRACTC_CHAT_OPENAI &&
                           (strcmp(reply.finish_reason, "content_filter") == 0 ||
                            strcmp(reply.finish_reason, "length") == 0),
                       "no text with finish_reason \"%s\"", reply.finish_reason);
        }
        free(r.text);
    } else {
        FUZZ_CHECK(rc == 1, "returned %d", rc);
        FUZZ_CHECK(reply.error[0] != '\0', "a failure without a message");
        FUZZ_CHECK(contractc_error_class_name(reply.error_class) != NULL,
                   "a failure without a class: %s", reply.error);
        FUZZ_CHECK(status != 200 || reply.error_class == CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
                   "HTTP 200 failed as %s", contractc_error_class_name(reply.error_class));
        FUZZ_CHECK((status != 401 && status != 403) || reply.error_class == CONTRACTC_ERROR_CLASS_AUTH,
                   "HTTP %ld failed as %s", status, contractc_error_class_name(reply.error_class));
        FUZZ_CHECK(r.text == NULL && reply.text == NULL && reply.len == 0, "a failure with a text");
        FUZZ_CHECK(!r.retry || status == 429 || (status >= 500 && status <= 599),
                   "HTTP %ld marked for a retry", status);
    }
}

static void read_tools(contractc_tool_format_t format, const char *body, size_t body_len)
{
    contractc_tool_calls_t calls;
    char error[256] = "";
    int rc = contractc_tool_calls_read(format, body, body_len, &calls, error, sizeof error);
    if (rc != 0) {
        FUZZ_CHECK(rc == 1, "tool calls: returned %d", rc);
        FUZZ_CHECK(error[0] != '\0', "tool calls: a failure without a message");
        FUZZ_CHECK(calls.count == 0 && calls.calls == NULL, "tool calls: a failure with calls");
        return;
    }
    FUZZ_CHECK(calls.count <= CONTRACTC_TOOL_CALLS_MAX, "%zu tool calls", calls.count);
    for (size_t i = 0; i < calls.count; i++) {
        const contractc_tool_call_t *c = &calls.calls[i];
        FUZZ_CHECK(c->id && c->name && c->arguments, "call %zu: a NULL field", i);
        FUZZ_CHECK(c->arguments[c->arguments_len] == '\0', "call %zu: arguments not NUL-ended", i);
        FUZZ_CHECK(c->arguments_len <= body_len, "call %zu: %zu argument bytes from %zu", i,
                   c->arguments_len, body_len);
        if (format != CONTRACTC_TOOL_OPENAI && c->arguments_len) {
            bool inside = false;
            for (size_t k = 0; !inside && k + c->arguments_len <= body_len; k++)
                inside = memcmp(body + k, c->arguments, c->arguments_len) == 0;
            FUZZ_CHECK(inside, "call %zu: arguments that are not bytes of the body", i);
        }
        cc_reader_t r;
        (void)cc_read_document(&r, c->arguments, c->arguments_len, false, 64);
    }
    contractc_tool_calls_free(&calls);
    FUZZ_CHECK(calls.count == 0 && calls.calls == NULL, "tool calls not emptied");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = (const char *)data;
    long status = 200;
    size_t head_start = 0, head_end = 0, body_start = 0;
    if (size >= 5 && memcmp(in, "HTTP/", 5) == 0) {
        const char *nl = memchr(in, '\n', size);
        size_t line_end = nl ? (size_t)(nl - in) : size;
        const char *sp = memchr(in, ' ', line_end);
        status = 0;
        for (size_t i = sp ? (size_t)(sp - in) + 1 : line_end, d = 0; i < line_end && d < 4; i++, d++) {
            if (in[i] < '0' || in[i] > '9')
                break;
            status = status * 10 + (in[i] - '0');
        }
        /* the header block: the lines after the status line, up to the
         * first empty one ("\r\n" or "\n"); the body after it */
        head_start = nl ? line_end + 1 : size;
        head_end = body_start = size;
        for (size_t p = head_start; p < size;) {
            const char *e = memchr(in + p, '\n', size - p);
            if (!e)
                break;
            size_t line_len = (size_t)(e - (in + p));
            if (line_len == 0 || (line_len == 1 && in[p] == '\r')) {
                head_end = p;
                body_start = (size_t)(e - in) + 1;
                break;
            }
            p = (size_t)(e - in) + 1;
        }
    }
    size_t headers_len = head_end - head_start, body_len = size - body_start;
    char *headers = malloc(headers_len ? headers_len : 1);
    char *body = malloc(body_len ? body_len : 1);
    FUZZ_CHECK(headers && body, "out of memory");
    memcpy(headers, in + head_start, headers_len);
    memcpy(body, in + body_start, body_len);
    read_one(CONTRACTC_CHAT_OPENAI, status, headers, headers_len, body, body_len);
    read_one(CONTRACTC_CHAT_ANTHROPIC, status, headers, headers_len, body, body_len);
    for (int f = CONTRACTC_TOOL_OPENAI; f <= CONTRACTC_TOOL_MCP; f++)
        read_tools((contractc_tool_format_t)f, body, body_len);
    long wait = cc_chat_retry_after_ms(headers, headers_len, NOW);
    FUZZ_CHECK(wait >= -1 && wait <= 999999999000L, "wait %ld ms", wait);
    free(headers);
    free(body);
    return 0;
}
