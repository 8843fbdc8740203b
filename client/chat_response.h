/* SPDX-License-Identifier: MIT */
/*
 * chat_response.h - the chat client's response reader, without I/O (not
 * installed).  Shared by the client (chat_client.c), which hands it what
 * libcurl received, and by fuzz/fuzz_client_response.c, which hands it
 * anything.
 *
 * The reader is the one place where a server's bytes become a model reply
 * or a classified failure (docs/client.md): the HTTP status, the header
 * block and the body in; the reply's text, finish_reason, error,
 * error_class, whether a retry can help and the server's Retry-After out.
 */
#ifndef CONTRACTC_CHAT_RESPONSE_H
#define CONTRACTC_CHAT_RESPONSE_H

#include <contractc/client.h>

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* Bytes of a server's error message kept in reply->error. */
#define CC_CHAT_SERVER_MESSAGE_MAX 160

typedef struct cc_chat_response {
    /* in */
    contractc_chat_provider_t provider;
    const char *key;     /* the API key (NUL-terminated), scrubbed from every
                            server text; NULL: none */
    long status;         /* the HTTP status (200: a reply is expected) */
    /* The header lines as received ("Name: value", each ended by LF or
     * CRLF; status lines and blank lines may be among them), or NULL with
     * headers_len 0.  Read for Retry-After only. */
    const char *headers;
    size_t headers_len;
    /* The body: body_len bytes (need not be NUL-terminated; NULL with 0). */
    const char *body;
    size_t body_len;
    time_t now;          /* the wall clock, for a Retry-After HTTP-date */
    /* out */
    char *text;          /* the reply text (malloc'd, NUL-terminated, the
                            caller frees it), or NULL: reply->text points
                            here */
    bool retry;          /* a failure a retry can help (429 but quota, 5xx) */
    long retry_after_ms; /* the server's wait (cc_chat_retry_after_ms) */
} cc_chat_response_t;

/*
 * Reads one response.  Returns 0 with a reply: reply->text/len (r->text,
 * or NULL with 0 for an OpenAI content null on a content_filter or length
 * stop), reply->finish_reason (the server's, scrubbed and cut; OpenAI
 * refusal and Anthropic stop reasons mapped, docs/client.md), error_class
 * NONE.  Returns 1 for a failure: reply->error (never the key, never a
 * control character), reply->error_class (AUTH, BAD_REQUEST, HTTP_429,
 * HTTP_5XX or MALFORMED_RESPONSE, the last also for out of memory),
 * r->retry, r->text NULL.  r->retry_after_ms is set either way.
 */
int cc_chat_read_response(cc_chat_response_t *r, contractc_model_reply_t *reply);

/*
 * The server's wait from a header block (lines as in cc_chat_response_t):
 * `retry-after-ms` (milliseconds, OpenAI's; the finer, so it wins), else
 * the first readable `retry-after` (RFC 9110 section 10.2.3), as
 * delay-seconds (up to 9 digits) or an HTTP-date relative to `now` (a date
 * in the past is 0, at most one day).  -1 when none is there or readable.
 */
long cc_chat_retry_after_ms(const char *headers, size_t headers_len, time_t now);

/* True when a JSON string in text[0..len) holds the escape \u0000 (an odd
 * run of backslashes before "u0000"): cJSON would end the string there, so
 * a reply cut at it could pass the contract; such a response is refused. */
bool cc_chat_has_nul_escape(const char *text, size_t len);

/* text[0..len) with every whole occurrence of `key` (NULL: none) replaced
 * by "[API key]", at most `limit` bytes of it (a mask that does not fit
 * whole is left out, and the text ends there): malloc'd, NUL-terminated,
 * *out_len (may be NULL) its length; NULL when out of memory. */
char *cc_chat_scrub_key(const char *key, const char *text, size_t len, size_t limit,
                        size_t *out_len);

/* Copies a server's text into buf (size bytes, at most `max` of text): the
 * key replaced first, then cut, control characters as spaces, and a tail
 * that is a prefix of the key (4 characters or more) dropped until none is
 * left.  The one way a server text reaches an error message, a
 * finish_reason or the log (docs/security.md). */
void cc_chat_server_text(const char *key, char *buf, size_t size, size_t max, const char *text,
                         size_t len);

/* Anthropic's stop_reason as the loop's finish reason: end_turn and
 * stop_sequence "stop", max_tokens "max_tokens", refusal "refusal"; NULL
 * for any other (then passed on as sent, through cc_chat_server_text). */
const char *cc_chat_anthropic_stop(const char *stop_reason);

/* Writes the message (printf format) to reply->error, cut to fit; returns
 * 1 (a model function's failure).  error_class is the caller's to set. */
int cc_chat_fail(contractc_model_reply_t *reply, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* CONTRACTC_CHAT_RESPONSE_H */
