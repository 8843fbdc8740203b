/* SPDX-License-Identifier: MIT */
/*
 * test_chat_stream.c - the client's reader of a streamed response
 * (client/chat_stream.c), without a network: the event-stream framing
 * (CRLF, LF and CR line ends, comments, multi-line data, a byte order
 * mark, fields other than data) fed in every cut, OpenAI-compatible and
 * Anthropic deltas, the end ([DONE], message_stop, a finish reason), an
 * error event, U+0000, a stream over its cap, and the stop at the first
 * chunk whose text makes the loop's stream DEAD.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chat_stream.h"
#include "refund_request.h"

static const char good_reply[] =
    "{\"order_id\":\"A-1063\",\"amount\":\"1250.00\",\"currency\":\"EUR\","
    "\"amount_text\":\"1.250,00 EUR\",\"reason\":\"damaged\"}";
static const char email[] =
    "Hello,\nmy order A-1063 arrived damaged. I paid 1.250,00 EUR and would like my money back.\n";

/* OpenAI-compatible chunks of the good reply, 8 bytes of content each;
 * line ends chosen by `eol` ("\n", "\r\n", "\r"), a keep-alive comment and
 * an `id:` line among them.  Returns the stream (malloc'd). */
static char *openai_events(const char *reply, const char *eol, bool done)
{
    size_t cap = strlen(reply) * 40 + 1024, o = 0;
    char *out = malloc(cap);
    o += (size_t)snprintf(out + o, cap - o, ": keep-alive%s%s", eol, eol);
    o += (size_t)snprintf(out + o, cap - o,
                          "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                          "\"content\":\"\"},\"finish_reason\":null}]}%s%s", eol, eol);
    for (size_t i = 0; i < strlen(reply); i += 8) {
        char piece[9];
        snprintf(piece, sizeof piece, "%.8s", reply + i);
        /* escape quotes for the JSON string */
        char esc[20];
        size_t e = 0;
        for (const char *p = piece; *p; p++) {
            if (*p == '"')
                esc[e++] = '\\';
            esc[e++] = *p;
        }
        esc[e] = '\0';
        o += (size_t)snprintf(out + o, cap - o, "id: %zu%sdata: {\"choices\":[{\"index\":0,"
                              "\"delta\":{\"content\":\"%s\"},\"finish_reason\":null}]}%s%s",
                              i, eol, esc, eol, eol);
    }
    o += (size_t)snprintf(out + o, cap - o,
                          "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}"
                          "%s%s", eol, eol);
    if (done)
        o += (size_t)snprintf(out + o, cap - o, "data: [DONE]%s%s", eol, eol);
    return out;
}

/* Feeds `events` cut at every `step` bytes; returns the last step. */
static cc_chat_stream_step_t feed_all(cc_chat_stream_t *s, const char *events, size_t step)
{
    size_t len = strlen(events);
    cc_chat_stream_step_t st = CC_CHAT_STREAM_GO_ON;
    for (size_t i = 0; i < len && st == CC_CHAT_STREAM_GO_ON; i += step)
        st = cc_chat_stream_feed(s, events + i, len - i < step ? len - i : step);
    return st;
}

START_TEST(the_reply_is_the_same_whatever_the_cuts_and_line_ends)
{
    static const char *const eols[] = {"\n", "\r\n", "\r"};
    size_t runs = 0;
    for (size_t e = 0; e < 3; e++) {
        char *events = openai_events(good_reply, eols[e], true);
        size_t len = strlen(events);
        for (size_t step = 1; step <= len; step = step < 16 ? step + 1 : step * 2) {
            cc_chat_stream_t s;
            cc_chat_stream_init(&s, CONTRACTC_CHAT_OPENAI, NULL, NULL, 0);
            ck_assert_int_eq(feed_all(&s, events, step), CC_CHAT_STREAM_GO_ON);
            ck_assert(cc_chat_stream_end(&s));
            ck_assert(s.done);
            ck_assert_str_eq(s.text, good_reply);
            ck_assert_uint_eq(s.text_len, strlen(good_reply));
            ck_assert_str_eq(s.finish_reason, "stop");
            /* a comment is no event; the id lines belong to their events */
            ck_assert_uint_eq(s.events, 1 + (strlen(good_reply) + 7) / 8 + 1 + 1);
            cc_chat_stream_free(&s);
            runs++;
        }
        free(events);
    }
    ck_assert_uint_gt(runs, 60);
}
END_TEST

START_TEST(framing_details_of_the_event_stream)
{
    /* A byte order mark, "data:" without the space, two data lines joined
     * by LF (inside a JSON string's escape-free white space), an event
     * field, and a last event without its blank line (never dispatched). */
    static const char events[] =
        "\xEF\xBB\xBF"
        "event: message\n"
        "data:{\"choices\":[{\"delta\":{\"content\":\"{\\\"a\\\"\"}}]}\n\n"
        "data: {\"choices\":[{\"delta\":\n"
        "data: {\"content\":\":1}\"}}]}\n\n"
        "retry: 100\n\n"
        "data: {\"choices\":[{\"delta\":{\"content\":\"xx\"}}]}\n";
    cc_chat_stream_t s;
    cc_chat_stream_init(&s, CONTRACTC_CHAT_OPENAI, NULL, NULL, 0);
    ck_assert_int_eq(feed_all(&s, events, 5), CC_CHAT_STREAM_GO_ON);
    ck_assert_str_eq(s.text, "{\"a\":1}");
    ck_assert_uint_eq(s.events, 2);
    /* Neither [DONE] nor a finish reason: the stream broke off. */
    ck_assert(!cc_chat_stream_end(&s));
    ck_assert_int_eq(s.error_class, CONTRACTC_ERROR_CLASS_NETWORK);
    char want[128];
    snprintf(want, sizeof want,
             "the event stream ended before its end ([DONE]) after 2 events and %zu bytes",
             sizeof events - 1);
    ck_assert_str_eq(s.error, want);
    cc_chat_stream_free(&s);
}
END_TEST

START_TEST(anthropic_text_deltas_and_stop_reason)
{
    static const char events[] =
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}\n\n"
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
        "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
        "event: ping\ndata: {\"type\":\"ping\"}\n\n"
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
        "\"delta\":{\"type\":\"text_delta\",\"text\":\"{\\\"a\\\":\"}}\n\n"
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
        "\"delta\":{\"type\":\"text_delta\",\"text\":\"1}\"}}\n\n"
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":"
        "\"max_tokens\"}}\n\n"
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    cc_chat_stream_t s;
    cc_chat_stream_init(&s, CONTRACTC_CHAT_ANTHROPIC, NULL, NULL, 0);
    ck_assert_int_eq(feed_all(&s, events, 7), CC_CHAT_STREAM_GO_ON);
    ck_assert(cc_chat_stream_end(&s));
    ck_assert(s.done);
    ck_assert_str_eq(s.text, "{\"a\":1}");
    ck_assert_str_eq(s.finish_reason, "max_tokens");
    cc_chat_stream_free(&s);
}
END_TEST

/* Each bad stream fails with its message and class. */
typedef struct bad_row {
    contractc_chat_provider_t provider;
    const char *events;
    size_t max_bytes;
    contractc_error_class_t class;
    const char *error;
} bad_row_t;

static const bad_row_t bad_rows[] = {
    {CONTRACTC_CHAT_OPENAI, "data: {\"error\":{\"message\":\"boom sk-test-SECRET\",\"type\":\"server_error\"}}\n\n",
     0, CONTRACTC_ERROR_CLASS_HTTP_5XX,
     "the endpoint sent an error in the event stream: boom [API key]"},
    {CONTRACTC_CHAT_ANTHROPIC,
     "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
     "\"message\":\"no\"}}\n\n",
     0, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE, "the endpoint sent an error in the event stream: no"},
    {CONTRACTC_CHAT_OPENAI, "data: {\"choices\":[{\"delta\":{\"content\":\"a\\u0000b\"}}]}\n\n", 0,
     CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
     "event 1 of the stream holds U+0000 or a NUL byte; the reply cannot be passed on intact"},
    {CONTRACTC_CHAT_OPENAI, "data: not json\n\n", 0, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
     "malformed stream: event 1 (8 bytes of data) is not a JSON object"},
    {CONTRACTC_CHAT_OPENAI, "data: {\"choices\":[{\"delta\":{\"content\":7}}]}\n\n", 0,
     CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE,
     "malformed stream: event 1's choices[0].delta.content is not a string"},
    {CONTRACTC_CHAT_OPENAI, "data: {\"choices\":[{\"delta\":{\"content\":\"0123456789\"}}]}\n\n", 30,
     CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE, "the response is over 30 bytes"},
};

START_TEST(a_bad_stream_fails_with_a_clear_message)
{
    const bad_row_t *row = &bad_rows[_i];
    cc_chat_stream_t s;
    cc_chat_stream_init(&s, row->provider, "sk-test-SECRET", NULL, row->max_bytes);
    ck_assert_int_eq(feed_all(&s, row->events, 3), CC_CHAT_STREAM_FAILED);
    ck_assert(s.failed);
    ck_assert_int_eq(s.error_class, row->class);
    ck_assert_str_eq(s.error, row->error);
    /* It stays failed. */
    ck_assert_int_eq(cc_chat_stream_feed(&s, "data: x\n\n", 9), CC_CHAT_STREAM_FAILED);
    ck_assert(!cc_chat_stream_end(&s));
    cc_chat_stream_free(&s);
}
END_TEST

START_TEST(the_reader_stops_at_the_chunk_whose_text_makes_the_stream_dead)
{
    static const char doomed[] =
        "{\"order_id\":\"A-1063\",\"amount\":\"1.250,00\",\"currency\":\"EUR\","
        "\"amount_text\":\"1.250,00 EUR\",\"reason\":\"damaged\"}";
    char *events = openai_events(doomed, "\n", true);
    contractc_stream_t *parser = refund_request_stream_new(email, strlen(email));
    ck_assert_ptr_nonnull(parser);
    cc_chat_stream_t s;
    cc_chat_stream_init(&s, CONTRACTC_CHAT_OPENAI, NULL, parser, 0);
    size_t len = strlen(events), i = 0;
    cc_chat_stream_step_t st = CC_CHAT_STREAM_GO_ON;
    for (; i < len && st == CC_CHAT_STREAM_GO_ON; i += 16)
        st = cc_chat_stream_feed(&s, events + i, len - i < 16 ? len - i : 16);
    ck_assert_int_eq(st, CC_CHAT_STREAM_STOP);
    ck_assert(s.dead);
    /* Dead at the amount's closing quote, which came in the fifth piece
     * of 8 bytes: nothing after that piece was read as text. */
    const size_t dead = (size_t)(strstr(doomed, "1.250,00\"") - doomed) + 8;
    ck_assert_uint_eq(contractc_stream_dead_at(parser), dead);
    ck_assert_uint_eq(s.fed, (dead / 8 + 1) * 8);
    ck_assert_uint_eq(s.text_len, s.fed);
    ck_assert_int_eq(memcmp(s.text, doomed, s.fed), 0);
    ck_assert_uint_lt(i, len / 2); /* the rest of the events were never read */
    ck_assert_int_eq(cc_chat_stream_feed(&s, "data: x\n\n", 9), CC_CHAT_STREAM_STOP);
    printf("chat stream: dead at byte %zu of %zu; stopped after %zu of %zu event bytes\n", dead,
           strlen(doomed), i, len);
    cc_chat_stream_free(&s);
    contractc_stream_free(parser);
    free(events);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chat_stream");
    TCase *t = tcase_create("chat_stream");
    tcase_add_test(t, the_reply_is_the_same_whatever_the_cuts_and_line_ends);
    tcase_add_test(t, framing_details_of_the_event_stream);
    tcase_add_test(t, anthropic_text_deltas_and_stop_reason);
    tcase_add_loop_test(t, a_bad_stream_fails_with_a_clear_message, 0,
                        (int)(sizeof bad_rows / sizeof bad_rows[0]));
    tcase_add_test(t, the_reader_stops_at_the_chunk_whose_text_makes_the_stream_dead);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
