/* SPDX-License-Identifier: MIT */
/*
 * contractc/client.h - a client for OpenAI-compatible `/v1/chat/completions`
 * and Anthropic `/v1/messages` endpoints that plugs into the repair loop
 * (contractc_loop_run) as its model function (docs/client.md).  Optional: built when libcurl is found; the runtime
 * itself has no network code.
 *
 * Each call sends the whole transcript as `messages` and the contract's
 * schema as
 *
 *   "response_format": {"type": "json_schema",
 *                       "json_schema": {"name": NAME, "strict": true, "schema": SCHEMA}}
 *
 * and hands back `choices[0].message.content` with `finish_reason` ("length"
 * when the token limit cut the reply off).  The schema on the request is a
 * request; the contract's parser, run by the loop, is the guarantee.
 *
 *   contractc_chat_config_t cfg = {0};
 *   cfg.base_url = "https://api.openai.com/v1";
 *   cfg.model = "gpt-4o-mini";
 *   cfg.api_key_env = "OPENAI_API_KEY";
 *   cfg.schema_name = "refund_request";
 *   cfg.schema = refund_request_schema_openai_strict_json;
 *   cfg.schema_len = refund_request_schema_openai_strict_json_len;
 *   char why[256];
 *   contractc_chat_client_t *client = contractc_chat_client_new(&cfg, why, sizeof why);
 *   loop.model = contractc_chat_model;  loop.model_user = client;
 *   ...
 *   contractc_chat_client_free(client);
 *
 * Secrets: the API key is read from the environment variable named in the
 * configuration when the client is created, sent only in the
 * Authorization (or x-api-key) header, never written to an error message:
 * every text taken from the server (error messages, finish_reason, a
 * refusal) has the key replaced by "[API key]" and a tail that is a prefix
 * of the key (4 characters or more) dropped; and it is
 * wiped when the client is freed.  Redirects are not followed (they could
 * carry the header elsewhere); only http and https are allowed.
 *
 * Threads: one client serves one thread at a time.  libcurl wants
 * curl_global_init() called once before threads start; call it in main()
 * when several threads make clients.
 */
#ifndef CONTRACTC_CHAT_CLIENT_H
#define CONTRACTC_CHAT_CLIENT_H

#include <contractc/contractc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which API the endpoint speaks. */
typedef enum contractc_chat_provider {
    /* OpenAI-compatible chat completions: POST base_url/chat/completions,
     * "Authorization: Bearer KEY", choices[0].message.content and
     * finish_reason (OpenAI, Azure OpenAI, vLLM, llama.cpp, Ollama, ...). */
    CONTRACTC_CHAT_OPENAI = 0,
    /* Anthropic Messages: POST base_url/messages ("https://api.anthropic.com/v1"),
     * "x-api-key: KEY", "anthropic-version", max_tokens always sent,
     * system messages as the top-level `system`; the reply is the text
     * blocks of `content`, and `stop_reason` end_turn / stop_sequence is
     * finish_reason "stop", max_tokens "max_tokens", refusal "refusal". */
    CONTRACTC_CHAT_ANTHROPIC
} contractc_chat_provider_t;

/* One tool definition for the request's `tools`: json[0..len), an object
 * in the provider's shape, e.g. NAME_tool_openai_json / NAME_tool_anthropic_json
 * of `contractc generate --tool D` (docs/tools.md). */
typedef struct contractc_chat_tool {
    const char *json;
    size_t len;
} contractc_chat_tool_t;

typedef struct contractc_chat_config {
    /* The API's base URL ("https://api.openai.com/v1",
     * "http://127.0.0.1:8080/v1"); requests go to base_url +
     * "/chat/completions".  Required. */
    const char *base_url;
    const char *model;        /* the `model` field; required */
    /* The name of the environment variable that holds the API key
     * ("OPENAI_API_KEY"); NULL: no Authorization header (local servers). */
    const char *api_key_env;
    /* json_schema.name: 1 to 64 of [A-Za-z0-9_-] (the contract's name).
     * Required when response_format is sent. */
    const char *schema_name;
    /* The schema (schema_len bytes of JSON text, an object): the contract's
     * openai-strict dialect, NAME_schema_openai_strict_json.  Required (and
     * copied) when response_format is sent: for CONTRACTC_CHAT_OPENAI
     * without no_response_format. */
    const char *schema;
    size_t schema_len;
    long timeout_ms;          /* the whole request; 0: 60000 */
    long connect_timeout_ms;  /* 0: 10000 */
    size_t max_response_bytes; /* a larger response is an error; 0: 8 MiB */
    /* Optional request fields, as JSON number text ("0", "0.2", "42"), so
     * that no locale touches them; NULL / 0: not sent. */
    const char *temperature;
    const char *seed;
    long max_tokens;
    /* Retries, separate from the loop's repairs (docs/client.md): a network
     * error, a time-out, HTTP 429 and 5xx are tried again, up to
     * max_attempts tries in all (0: 3; 1: no retry), after waiting the
     * response's Retry-After (seconds or an HTTP-date; retry-after-ms when
     * sent) or else a random time in [0, min(retry_cap_ms, retry_base_ms *
     * 2^k)] before try k + 2 ("full jitter"; 0: 500 ms and 8000 ms).  400,
     * 401, 403, 404, other 4xx and a 429 whose error code is
     * `insufficient_quota` are never retried.  deadline_ms bounds one call,
     * tries and waits together (0: 120000, or timeout_ms when longer); no
     * wait is started that would pass it, and each try gets at most what is
     * left.  jitter_seed seeds the jitter (0: from the time and process),
     * so a test can repeat a schedule. */
    unsigned max_attempts;
    long retry_base_ms;
    long retry_cap_ms;
    long deadline_ms;
    unsigned long jitter_seed;
    /* The API (0: OpenAI-compatible). */
    contractc_chat_provider_t provider;
    /* Extra request headers, each one "Name: value" line, the list ended by
     * NULL (copied); NULL: none.  E.g. {"OpenAI-Organization: org-1", NULL},
     * {"anthropic-beta: ...", NULL}. */
    const char *const *extra_headers;
    /* A query appended to the URL after '?', as given (already
     * percent-encoded): "api-version=2024-10-21" for Azure OpenAI.  NULL:
     * none. */
    const char *url_query;
    /* The header that carries the key: NULL for the provider's own
     * ("Authorization", sent as "Bearer KEY"; Anthropic "x-api-key");
     * "api-key" for Azure OpenAI. */
    const char *api_key_header;
    /* The anthropic-version header's value; NULL: "2023-06-01". */
    const char *anthropic_version;
    /* OpenAI-compatible: send the limit as max_completion_tokens (which
     * OpenAI's reasoning models require) instead of max_tokens. */
    bool use_max_completion_tokens;
    /* OpenAI-compatible: send no response_format (servers that refuse it);
     * the contract's parser still checks every reply. */
    bool no_response_format;
    /* Tools (docs/tools.md, "The client speaks tools"): tool_count
     * definitions sent as `tools` (copied; each must be a JSON object with
     * a name: OpenAI function.name, Anthropic name).  With tools, an
     * OpenAI-compatible request carries response_format only when a schema
     * is given.  tool_choice: NULL (not sent), "auto", "required" (Anthropic
     * {"type": "any"}), "none", or one tool's name (that tool, forced).
     * A response's tool calls are read with their exact argument bytes
     * (contractc_tool_calls_read): every call goes to the loop as the
     * reply's tool_calls, in order (finish_reason "tool_calls", OpenAI's
     * word, for both providers; the reply text is the first call's
     * arguments), and all are in contractc_chat_last_tool_calls().  The
     * transcript's tool calls and results (docs/tools.md, "Tool calls in
     * the transcript") go out in the provider's form, each run of calls as
     * one assistant turn: OpenAI one assistant `tool_calls` message, then
     * a `tool` message per tool_call_id; Anthropic `tool_use` blocks, then
     * one user message of `tool_result` blocks (is_error true on errors). */
    const contractc_chat_tool_t *tools;
    size_t tool_count;
    const char *tool_choice;
    /* Streaming (docs/client.md, "Streaming"): every request carries
     * "stream": true, and a text/event-stream answer (server-sent events:
     * OpenAI-compatible `choices[0].delta.content` chunks ending with
     * `[DONE]`; Anthropic `content_block_delta` text deltas ending with
     * `message_stop`) is read as it arrives.  In a loop run with
     * contractc_loop_t.stream, each piece of text is fed to the loop's
     * stream (reply->stream), and the transfer is stopped, the connection
     * closed, as soon as the reply is dead: the reply is then the bytes
     * received, reply->stopped true, and the loop repairs it from the
     * problems found before the cut.  An answer that is not an event
     * stream (an error, a server that ignores "stream") is read whole.  A
     * try whose text reached the loop's stream is not retried.  Not with
     * tools (tool-call argument deltas are not read): a configuration
     * error. */
    bool stream;
} contractc_chat_config_t;

typedef struct contractc_chat_client contractc_chat_client_t;

/*
 * A client for `config` (every string is copied).  Returns NULL on a bad
 * configuration, a missing or empty key variable, or when out of memory,
 * with the reason in error[0..error_size) (which may be NULL).  Free with
 * contractc_chat_client_free().
 */
contractc_chat_client_t *contractc_chat_client_new(const contractc_chat_config_t *config,
                                                   char *error, size_t error_size);

/* Wipes the key and frees the client.  NULL-safe. */
void contractc_chat_client_free(contractc_chat_client_t *client);

/*
 * The loop's model function (contractc_model_fn); `client` is a
 * contractc_chat_client_t.  Posts the transcript and fills `reply`:
 * text/len stay valid until the next call with this client or its free;
 * finish_reason as the provider said it ("stop", "length", "max_tokens",
 * "content_filter"), or "refusal" for a refusal, whose words are then the
 * text.  Sends reply->max_tokens, when the loop set it, as the token limit.
 * Returns 0 with a reply, or non-zero, after the retries the configuration
 * allows, with reply->error saying what went wrong and reply->error_class
 * its kind (timeout, network, http_429, http_5xx, auth, bad_request,
 * malformed_response): the endpoint unreachable or too slow, an HTTP status
 * other than 200 (with the server's `error.message`, cut and scrubbed), a
 * response over the size cap, not JSON, without a reply text, or holding a
 * NUL byte or U+0000 (which C strings cannot pass on intact).  Message
 * contents that are not valid UTF-8 are sent with U+FFFD in place of the
 * bad bytes.
 */
int contractc_chat_model(void *client, const contractc_transcript_t *transcript,
                         contractc_model_reply_t *reply);

/* The HTTP status of the last call's last try (0 when none was received). */
long contractc_chat_last_status(const contractc_chat_client_t *client);

/* How many HTTP tries the last call made (1 without retries; 0 before the
 * first call). */
unsigned contractc_chat_last_attempts(const contractc_chat_client_t *client);

struct contractc_tool_calls;
/* The tool calls of the last call's response (count 0 when it had none,
 * or the last call failed); owned by the client, valid until its next call
 * or its free.  NULL for a NULL client. */
const struct contractc_tool_calls *contractc_chat_last_tool_calls(const contractc_chat_client_t *client);

/* ------------------------------------------------------------------------
 * Tool calls (docs/tools.md, "Exact argument bytes")
 * ------------------------------------------------------------------------ */

/* Where tool calls are read from. */
typedef enum contractc_tool_format {
    /* A chat completions response: choices[0].message.tool_calls[], each
     * {id, type: "function", function: {name, arguments}}; the arguments
     * are the `arguments` string as decoded (OpenAI sends the JSON text of
     * the arguments as a string). */
    CONTRACTC_TOOL_OPENAI = 0,
    /* A Messages response: the content[] blocks of type "tool_use", each
     * {id, name, input}; the arguments are the bytes of `input`. */
    CONTRACTC_TOOL_ANTHROPIC,
    /* A generateContent response: the parts of candidates[0].content that
     * hold a functionCall {name, args, id?}; the arguments are the bytes
     * of `args`. */
    CONTRACTC_TOOL_GEMINI,
    /* An MCP JSON-RPC request {"method": "tools/call", "id", "params":
     * {name, arguments}}: one call, id the request's id (a string's text
     * or a number as written); the arguments are the bytes of `arguments`. */
    CONTRACTC_TOOL_MCP
} contractc_tool_format_t;

/* One tool call.  Every pointer points into the contractc_tool_calls_t's
 * own storage. */
typedef struct contractc_tool_call {
    const char *id;        /* NUL-terminated; "" when the provider sent none */
    const char *name;      /* the tool (contract) name, NUL-terminated */
    /* The arguments' exact bytes: cut from the response text, never
     * re-serialized (OpenAI: the string's decoded bytes), arguments_len of
     * them, a NUL after them (not counted).  Length 0 when the call has
     * none (Gemini and MCP may omit them): the parser then reports `empty`. */
    const char *arguments;
    size_t arguments_len;
} contractc_tool_call_t;

typedef struct contractc_tool_calls {
    contractc_tool_call_t *calls;  /* count calls, in the response's order */
    size_t count;
} contractc_tool_calls_t;

/* The most calls read from one response; more is a malformed response. */
#define CONTRACTC_TOOL_CALLS_MAX 128

/*
 * Reads the tool calls of one response body (response[0..len), which need
 * not be NUL-terminated).  A response without tool calls is 0 with count
 * 0 (a text reply).  Returns 0 with *calls filled (free it with
 * contractc_tool_calls_free), or 1 with the reason in error[0..error_size)
 * (may be NULL) and *calls empty: the body is not one JSON text by the
 * runtime's strict reader (contractc_json_span: the whole body, so a
 * \u0000 or invalid UTF-8 anywhere refuses it), a call without a name or
 * id of the right type, OpenAI arguments that are not a string, a key on
 * the way to the arguments that occurs twice, more than
 * CONTRACTC_TOOL_CALLS_MAX calls, or out of memory.  Parse each call's
 * arguments with the contract its name selects (contractc_toolset_parse).
 */
int contractc_tool_calls_read(contractc_tool_format_t format, const char *response, size_t len,
                              contractc_tool_calls_t *calls, char *error, size_t error_size);

/* Frees what contractc_tool_calls_read stored and empties *calls.
 * NULL-safe; an empty one is fine. */
void contractc_tool_calls_free(contractc_tool_calls_t *calls);

#ifdef __cplusplus
}
#endif

#endif /* CONTRACTC_CHAT_CLIENT_H */
