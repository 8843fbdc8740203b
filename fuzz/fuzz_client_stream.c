/* SPDX-License-Identifier: MIT */
/*
 * fuzz_client_stream.c - the chat client's reader of a streamed response
 * (client/chat_stream.c): the one place where a server's event stream
 * becomes reply text fed to the loop's stream.
 *
 * Input: an event stream (the body of a streamed response).  Seeds:
 * tests/data/client/streams/ (fuzz/seeds.cmake).
 *
 * Properties, for every input, read as each provider (OpenAI-compatible,
 * Anthropic), each reading done three times (whole; one byte at a time; in
 * chunks of 1 + the input's size modulo 61 bytes), with the refund
 * example's parser fed the text:
 *   - the three readings agree: the last step, the text (bytes and
 *     length), the bytes fed to the parser, the refusal, finish_reason,
 *     done, failed, error and error_class, the event count and, at the
 *     end, whether the stream is whole: the framing does not depend on
 *     where the transfer cut it;
 *   - the text is NUL-terminated with no NUL byte inside and no longer
 *     than the input; a reading that stopped (STOP) is dead, fed all its
 *     text, and its parser's dead_at lies inside it;
 *   - no error or finish_reason holds the test key or a control
 *     character; a failure has a message and a class;
 *   - with a cap of a third of the input, a stream over it fails saying so
 *     (or stopped or failed before it got there).
 */
#include "chat_stream.h"
#include "fuzz_common.h"
#include "refund_request.h"

#define KEY "sk-test-4f9c2b7e1a0d-SECRET" /* the tests' fake key */

static const char email[] =
    "Hello,\nmy order A-1063 arrived damaged. I paid 1.250,00 EUR and would like my money back.\n";

typedef struct reading {
    cc_chat_stream_t s;
    contractc_stream_t *parser;
    cc_chat_stream_step_t last;
    bool whole;
} reading_t;

static void read_in(reading_t *r, contractc_chat_provider_t provider, const char *bytes,
                    size_t len, size_t chunk, size_t cap)
{
    r->parser = refund_request_stream_new(email, sizeof email - 1);
    FUZZ_CHECK(r->parser != NULL, "no parser");
    cc_chat_stream_init(&r->s, provider, KEY, r->parser, cap);
    r->last = CC_CHAT_STREAM_GO_ON;
    for (size_t i = 0; i < len && r->last == CC_CHAT_STREAM_GO_ON; i += chunk)
        r->last = cc_chat_stream_feed(&r->s, bytes + i, len - i < chunk ? len - i : chunk);
    if (len == 0)
        r->last = cc_chat_stream_feed(&r->s, bytes, 0);
    r->whole = r->last == CC_CHAT_STREAM_GO_ON && cc_chat_stream_end(&r->s);
}

static void check_text(const char *what, const char *text, size_t size)
{
    FUZZ_CHECK(memchr(text, '\0', size) != NULL, "%s is not NUL-terminated", what);
    FUZZ_CHECK(strstr(text, KEY) == NULL, "%s holds the key: %s", what, text);
    for (const char *p = text; *p; p++)
        FUZZ_CHECK((unsigned char)*p >= 0x20 && *p != 0x7f, "%s holds a control character", what);
}

static void check_one(const reading_t *r, size_t len)
{
    const cc_chat_stream_t *s = &r->s;
    FUZZ_CHECK(s->text_len <= len, "%zu bytes of text from %zu of input", s->text_len, len);
    if (s->text) {
        FUZZ_CHECK(s->text[s->text_len] == '\0', "the text is not NUL-terminated");
        FUZZ_CHECK(memchr(s->text, '\0', s->text_len) == NULL, "a NUL byte inside the text");
    } else {
        FUZZ_CHECK(s->text_len == 0, "no text but a length");
    }
    FUZZ_CHECK(s->fed <= s->text_len, "fed %zu of %zu bytes", s->fed, s->text_len);
    if (r->last == CC_CHAT_STREAM_STOP) {
        FUZZ_CHECK(s->dead && s->fed == s->text_len, "stopped, not dead or not all fed");
        size_t at = contractc_stream_dead_at(r->parser);
        FUZZ_CHECK(at < s->fed, "dead at %zu of %zu bytes fed", at, s->fed);
    }
    check_text("finish_reason", s->finish_reason, sizeof s->finish_reason);
    check_text("error", s->error, sizeof s->error);
    if (s->failed)
        FUZZ_CHECK(s->error[0] && s->error_class != CONTRACTC_ERROR_CLASS_NONE,
                   "a failure without a message or a class");
}

static void same(const reading_t *a, const reading_t *b, const char *how)
{
    const cc_chat_stream_t *x = &a->s, *y = &b->s;
    FUZZ_CHECK(a->last == b->last && a->whole == b->whole, "%s: step %d/%d, whole %d/%d", how,
               (int)a->last, (int)b->last, a->whole, b->whole);
    FUZZ_CHECK(x->text_len == y->text_len &&
                   (x->text_len == 0 || memcmp(x->text, y->text, x->text_len) == 0),
               "%s: the text differs", how);
    FUZZ_CHECK(x->fed == y->fed, "%s: fed %zu / %zu", how, x->fed, y->fed);
    FUZZ_CHECK(x->refusal_len == y->refusal_len &&
                   (x->refusal_len == 0 || memcmp(x->refusal, y->refusal, x->refusal_len) == 0),
               "%s: the refusal differs", how);
    FUZZ_CHECK(strcmp(x->finish_reason, y->finish_reason) == 0, "%s: finish_reason %s / %s", how,
               x->finish_reason, y->finish_reason);
    FUZZ_CHECK(x->done == y->done && x->failed == y->failed && x->dead == y->dead &&
                   x->error_class == y->error_class && x->events == y->events,
               "%s: done, failed, dead, class or events differ", how);
    FUZZ_CHECK(strcmp(x->error, y->error) == 0, "%s: error \"%s\" / \"%s\"", how, x->error,
               y->error);
}

static void done_with(reading_t *r)
{
    cc_chat_stream_free(&r->s);
    contractc_stream_free(r->parser);
}

static void read_as(contractc_chat_provider_t provider, const char *bytes, size_t len,
                    size_t chunk)
{
    reading_t whole, bytewise, chunked;
    read_in(&whole, provider, bytes, len, len ? len : 1, 0);
    read_in(&bytewise, provider, bytes, len, 1, 0);
    read_in(&chunked, provider, bytes, len, chunk, 0);
    check_one(&whole, len);
    check_one(&bytewise, len);
    check_one(&chunked, len);
    same(&whole, &bytewise, "whole vs one byte at a time");
    same(&whole, &chunked, "whole vs chunks");
    done_with(&whole);
    done_with(&bytewise);
    done_with(&chunked);
    if (len >= 3) {
        reading_t capped;
        read_in(&capped, provider, bytes, len, chunk, len / 3);
        check_one(&capped, len);
        FUZZ_CHECK(capped.last != CC_CHAT_STREAM_GO_ON,
                   "%zu bytes read under a cap of %zu", len, len / 3);
        done_with(&capped);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const size_t chunk = 1 + size % 61;
    /* An exact-size copy: ASan sees a read past it. */
    size_t len = size;
    char *bytes = malloc(len ? len : 1);
    if (!bytes)
        return 0;
    if (len)
        memcpy(bytes, data, len);
    for (int p = 0; p < 2; p++)
        read_as(p ? CONTRACTC_CHAT_ANTHROPIC : CONTRACTC_CHAT_OPENAI, bytes, len, chunk);
    free(bytes);
    return 0;
}
