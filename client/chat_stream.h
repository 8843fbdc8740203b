/* SPDX-License-Identifier: MIT */
/*
 * chat_stream.h - the chat client's reader of a streamed response, without
 * I/O (not installed).  Shared by the client (chat_client.c), which hands
 * it the bytes libcurl receives as they come, and by
 * fuzz/fuzz_client_stream.c, which hands it anything in any cuts.
 *
 * A streamed response (`"stream": true`) is a text/event-stream: server-sent
 * events, framed as the WHATWG HTML standard's event stream (lines ended by
 * CRLF, LF or CR; `data:` lines joined by LF; a blank line dispatches; a
 * line that begins with ':' is a comment; one space after the colon is not
 * part of the value).  Each event's data is one JSON object of the
 * provider's (docs/client.md, "Streaming"):
 * - OpenAI-compatible: choices[0].delta.content (the reply's next bytes),
 *   choices[0].delta.refusal (a refusal's), choices[0].finish_reason, an
 *   `error` object, and the data `[DONE]` at the end;
 * - Anthropic Messages: content_block_delta with a text_delta's `text`,
 *   message_delta's delta.stop_reason (mapped as cc_chat_anthropic_stop),
 *   message_stop at the end, and `error` events.
 * Each piece of reply text is appended to the reply and, when a parser is
 * set (the loop's stream, contractc_model_reply_t.stream), fed to it; when
 * the parser says DEAD, the reader says stop, and the caller stops the
 * transfer: every byte after that is one nobody needs.
 */
#ifndef CONTRACTC_CHAT_STREAM_H
#define CONTRACTC_CHAT_STREAM_H

#include <contractc/client.h>

#include <stdbool.h>
#include <stddef.h>

/* What a feed says. */
typedef enum cc_chat_stream_step {
    CC_CHAT_STREAM_GO_ON = 0, /* read on */
    CC_CHAT_STREAM_STOP = 1,  /* the parser said DEAD: stop receiving */
    CC_CHAT_STREAM_FAILED = 2 /* error / error_class say why; stop */
} cc_chat_stream_step_t;

typedef struct cc_chat_stream {
    /* in: set before the first feed (cc_chat_stream_init) */
    contractc_chat_provider_t provider;
    const char *key;              /* scrubbed from every server text; NULL: none */
    contractc_stream_t *parser;   /* fed each piece of reply text; NULL: none */
    size_t max_bytes;             /* the most bytes of events read, and of text */
    /* out */
    char *text;                   /* the reply text so far (malloc'd, NUL after
                                     text_len bytes; NULL while empty); a
                                     caller that keeps it sets text NULL */
    size_t text_len;
    size_t fed;                   /* bytes of text fed to the parser */
    char *refusal;                /* a refusal's words so far (malloc'd, scrubbed
                                     at the end), or NULL */
    size_t refusal_len;
    char finish_reason[CONTRACTC_FINISH_REASON_SIZE]; /* as the loop reads it */
    bool done;                    /* the end arrived ([DONE], message_stop) */
    bool dead;                    /* the parser said DEAD */
    size_t events, bytes;         /* events dispatched, bytes read */
    char error[CONTRACTC_MODEL_ERROR_SIZE];
    contractc_error_class_t error_class;
    bool failed;
    /* private: the line being read, the event's data */
    char *line_;
    size_t line_len_, line_cap_, data_cap_, text_cap_, refusal_cap_;
    char *data_;
    size_t data_len_;
    bool cr_, has_data_, bom_done_;
    unsigned bom_;                /* bytes of a byte order mark held back */
} cc_chat_stream_t;

/* A reader for `provider`'s events (key, parser and max_bytes as above;
 * max_bytes 0: no cap). */
void cc_chat_stream_init(cc_chat_stream_t *s, contractc_chat_provider_t provider,
                         const char *key, contractc_stream_t *parser, size_t max_bytes);

/*
 * Reads bytes[0..len) of the event stream (cut anywhere).  Returns GO_ON,
 * STOP (the parser said DEAD: text holds the bytes fed, which end inside
 * the chunk that killed it) or FAILED (error, error_class: an error event
 * from the server, an event that is not the provider's JSON, U+0000 in a
 * string, more than max_bytes, or out of memory).  After STOP or FAILED,
 * further feeds change nothing and say the same.
 */
cc_chat_stream_step_t cc_chat_stream_feed(cc_chat_stream_t *s, const char *bytes, size_t len);

/*
 * The transfer ended (the server closed the response).  Returns true when
 * the stream is whole: its end arrived ([DONE] or message_stop), or a
 * finish reason did (servers that close without [DONE]).  Else false,
 * with error set ("the event stream ended before its end") and failed.
 */
bool cc_chat_stream_end(cc_chat_stream_t *s);

/* Frees what the reader holds (text and refusal included, unless taken).
 * NULL-safe; the reader may be initialised again. */
void cc_chat_stream_free(cc_chat_stream_t *s);

#endif /* CONTRACTC_CHAT_STREAM_H */
