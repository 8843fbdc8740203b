/* SPDX-License-Identifier: MIT */
/*
 * contractc.h - the contractc runtime: strict reading and validation of
 * language-model replies against a contract's descriptor tables.
 *
 * The runtime depends on the C library alone (C99), has no global state and
 * is reentrant: any number of threads may parse with the same (read-only)
 * contract descriptor at once, each with its own record and problem list.
 *
 * Model
 * -----
 * A contract is compiled by `contractc generate` into descriptor tables
 * (contractc_contract_t and the objects, fields and values it points to) plus
 * thin typed wrappers (NAME_parse, NAME_free, ...).  One interpreter,
 * contractc_parse(), reads a reply with a single linear pass over its bytes
 * and either fills a typed record (CONTRACTC_OK) or reports every problem it
 * found (CONTRACTC_REJECTED).  A rejected reply never becomes a value.
 *
 * Ownership
 * ---------
 * - An accepted record owns one arena (its `arena_` member) that holds every
 *   string and array it points to; contractc_record_free() (or NAME_free)
 *   releases it.  The record struct itself belongs to the caller.
 * - A problem list owns its problems; contractc_problems_clear() releases
 *   them and leaves the list reusable.
 * - Functions that return `char *` say so: the caller frees with free()
 *   (or with the allocator's free when one was given).
 *
 * Layout of this header
 * ---------------------
 * First the user API (versions, status, problem kinds, the problem list,
 * the record's value types, parsing, the canonical form, the repair turn,
 * user checks), then the transcript, the repair loop and the decision log,
 * and last the descriptor ABI: the tables that `contractc generate` writes
 * into NAME.c, which a program reads only through the generated wrappers
 * and the functions above.
 *
 * Untrusted input
 * ---------------
 * The reply and the source text are untrusted.  Every buffer, list and
 * nesting level is capped (reply.max_bytes, reply.max_depth, the problem
 * cap); work is linear in the bytes read.
 */
#ifndef CONTRACTC_CONTRACTC_H
#define CONTRACTC_CONTRACTC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Versions
 *
 * CONTRACTC_VERSION is the release.  CONTRACTC_ABI_VERSION is the layout of
 * the descriptor tables below; generated code states the ABI it was made for
 * and checks, at compile time, that this header is within
 * [CONTRACTC_ABI_MIN_GENERATED, CONTRACTC_ABI_VERSION].
 * ------------------------------------------------------------------------ */
#define CONTRACTC_VERSION_MAJOR 0
#define CONTRACTC_VERSION_MINOR 1
#define CONTRACTC_VERSION_PATCH 0
#define CONTRACTC_VERSION "0.1.0"
/* major * 10000 + minor * 100 + patch */
#define CONTRACTC_VERSION_NUMBER 100
/* ABI 2 appends members to the tables (contractc_field_t: optional,
 * null_offset; contractc_value_t: the tag and variants of a union);
 * tables of ABI 1, which lack them, read as zero through their
 * designated initializers, so generated code of ABI 1 still runs.
 * A contract is generated for ABI 1 unless it uses what needs ABI 2. */
#define CONTRACTC_ABI_VERSION 2
#define CONTRACTC_ABI_MIN_GENERATED 1

/* Marks a name kept only so that older programs still compile: using it
 * warns (GCC, Clang) and the comment beside it names what replaces it. */
#if defined(__GNUC__) || defined(__clang__)
#define CONTRACTC_DEPRECATED(replacement) __attribute__((deprecated("use " replacement)))
#else
#define CONTRACTC_DEPRECATED(replacement)
#endif

/* ------------------------------------------------------------------------
 * Status codes (append-only; never renumbered)
 * ------------------------------------------------------------------------ */
typedef enum contractc_status {
    CONTRACTC_OK = 0,       /* the reply was accepted; the record is filled;
                               the log line was stored */
    CONTRACTC_REJECTED = 1, /* the reply has problems; see the problem list */
    CONTRACTC_ENOMEM = 2,   /* an allocation failed; nothing is returned */
    CONTRACTC_EINVAL = 3,   /* bad arguments (NULL pointers, a missing or
                               invalid source text); not a reply problem */
    CONTRACTC_ESINK = 4,    /* contractc_log_write: the log's sink failed, so
                               the decision is NOT recorded; the caller still
                               holds it (contractc_log_format gives the line) */

    /* The former status of contractc_log_write (contractc_log_status_t),
     * now these statuses; kept so that older programs compile. */
    CONTRACTC_LOG_WRITTEN CONTRACTC_DEPRECATED("CONTRACTC_OK") = 0,
    CONTRACTC_LOG_SINK_FAILED CONTRACTC_DEPRECATED("CONTRACTC_ESINK") = 4,
    CONTRACTC_LOG_ENOMEM CONTRACTC_DEPRECATED("CONTRACTC_ENOMEM") = 2,
    CONTRACTC_LOG_EINVAL CONTRACTC_DEPRECATED("CONTRACTC_EINVAL") = 3
} contractc_status_t;

/* The name of a status ("ok", "rejected", "enomem", "einval", "esink");
 * "?" out of range; never NULL. */
const char *contractc_status_name(contractc_status_t status);

/* ------------------------------------------------------------------------
 * Problem kinds (append-only table: X(NAME, "name")).
 * Document-level kinds (empty, syntax, encoding, limit) replace every other
 * problem: the list then holds exactly one problem, at "$".
 * ------------------------------------------------------------------------ */
#define CONTRACTC_KIND_TABLE(X)                                               \
    X(EMPTY, "empty")           /* nothing but white space; an empty fence */ \
    X(SYNTAX, "syntax")         /* not one RFC 8259 JSON text */              \
    X(ENCODING, "encoding")     /* bad UTF-8, BOM, lone surrogate, \u0000 */  \
    X(LIMIT, "limit")           /* over max_bytes or max_depth */             \
    X(TYPE, "type")             /* wrong JSON type */                         \
    X(MISSING, "missing")       /* a required key is absent */                \
    X(UNEXPECTED, "unexpected") /* a key the contract does not have */        \
    X(DUPLICATE, "duplicate")   /* a key present twice */                     \
    X(NULL, "null")             /* null where not nullable */                 \
    X(ENUM, "enum")             /* not one of the allowed values */           \
    X(FORMAT, "format")         /* decimal, date, datetime text */            \
    X(PATTERN, "pattern")       /* string does not match the pattern */       \
    X(LENGTH, "length")         /* string length in code points */            \
    X(RANGE, "range")           /* number outside its bounds */               \
    X(ITEMS, "items")           /* array item count */                        \
    X(RULE, "rule")             /* a cross-field rule or a check */           \
    X(GROUNDING, "grounding")   /* not found verbatim in the source text */ \
    X(UNKNOWN_TOOL, "unknown_tool") /* no tool call, or a tool outside the
                                       toolset (contractc_toolset_parse) */

typedef enum contractc_kind {
#define CONTRACTC_KIND_ENUM_(name, text) CONTRACTC_KIND_##name,
    CONTRACTC_KIND_TABLE(CONTRACTC_KIND_ENUM_)
#undef CONTRACTC_KIND_ENUM_
    CONTRACTC_KIND_COUNT_
} contractc_kind_t;

/* The kind's name as in docs/contract-language.md ("type", "missing", ...);
 * "?" for a value out of range. */
const char *contractc_kind_name(contractc_kind_t kind);

/* True for empty, syntax, encoding, limit and unknown_tool. */
bool contractc_kind_is_document_level(contractc_kind_t kind);

/* ------------------------------------------------------------------------
 * Allocator (optional).  When NULL is given, malloc/realloc/free are used.
 * `size` arguments are exact; `free` receives the size that was allocated.
 * ------------------------------------------------------------------------ */
typedef struct contractc_allocator {
    void *(*alloc)(void *ctx, size_t size);   /* NULL on failure */
    void (*free)(void *ctx, void *ptr, size_t size); /* ptr may be NULL */
    void *ctx;
} contractc_allocator_t;

/* ------------------------------------------------------------------------
 * Problems
 * ------------------------------------------------------------------------ */
typedef struct contractc_problem {
    contractc_kind_t kind;
    /* JSONPath-style location: "$", "$.amount", "$.line_items[3].amount_cents",
     * "$['order id']" (RFC 9535 bracket notation for other keys). */
    const char *path;
    /* For the model: where, what was found (JSON-quoted, cut to 40 code
     * points), what was wanted.  May contain reply text. */
    const char *message;
    /* For logs: the same without any value taken from the reply. */
    const char *log_message;
    /* For kind `rule`: the rule's id ("rules[0]" by default); else NULL. */
    const char *rule;
    /* Document-level problems: 1-based line and 1-based byte column in the
     * raw reply (before a fence is stripped).  0 for other kinds. */
    size_t line, column;
} contractc_problem_t;

#define CONTRACTC_PROBLEMS_DEFAULT_CAP 64

/* The blocks that hold the problems' texts (private to the runtime). */
struct contractc_text_block_;

/*
 * A capped list of problems.  Initialise with contractc_problems_init() (or
 * _init_with), release with contractc_problems_clear().  Members ending in _
 * are private.
 */
typedef struct contractc_problems {
    contractc_problem_t *items_;
    size_t count_;
    size_t capacity_;
    size_t cap;      /* at most this many problems are kept */
    size_t dropped;  /* problems found beyond the cap */
    bool fenced;     /* the reply was wrapped in a Markdown fence */
    const char *error; /* for CONTRACTC_EINVAL / ENOMEM: a static reason */
    const contractc_allocator_t *allocator_;
    struct contractc_text_block_ *texts_; /* the newest block of texts */
} contractc_problems_t;

/* An empty list with the default cap (64) and malloc. */
void contractc_problems_init(contractc_problems_t *problems);
/* An empty list with `cap` (0: the default) and `allocator` (NULL: malloc).
 * The allocator must outlive the list. */
void contractc_problems_init_with(contractc_problems_t *problems, size_t cap,
                                  const contractc_allocator_t *allocator);
/* Frees every problem; the list stays initialised and reusable. NULL-safe. */
void contractc_problems_clear(contractc_problems_t *problems);
/* Number of problems kept (at most `cap`). */
size_t contractc_problems_count(const contractc_problems_t *problems);
/* The i-th problem in document order, or NULL when i >= count. */
const contractc_problem_t *contractc_problems_at(const contractc_problems_t *problems,
                                                 size_t i);
/* The former name of contractc_problems_at. */
CONTRACTC_DEPRECATED("contractc_problems_at")
const contractc_problem_t *contractc_problem_at(const contractc_problems_t *problems,
                                                size_t i);

/* ------------------------------------------------------------------------
 * Value types of the C record
 * ------------------------------------------------------------------------ */

/* `date`: a real calendar date (proleptic Gregorian), YYYY-MM-DD. */
typedef struct contractc_date {
    int32_t year;
    uint8_t month; /* 1..12 */
    uint8_t day;   /* 1..28/29/30/31 */
} contractc_date_t;

/* `datetime`: RFC 3339 section 5.6 date-time, seconds required. */
typedef struct contractc_datetime {
    contractc_date_t date;
    uint8_t hour, minute, second; /* 0..23, 0..59, 0..59 (no leap second) */
    uint32_t nanos;               /* fraction, 0..999999999 */
    int16_t offset_minutes;       /* Z = 0; -23:59..+23:59 */
    /* How it was written, so the canonical form can give it back exactly:
     * the number of fraction digits (0..9) and the zone's first character
     * ('Z', '+' or '-'; "-00:00" is RFC 3339's "unknown local offset"). */
    uint8_t fraction_digits;
    char zone;
} contractc_datetime_t;

/* A string item of an array of strings: UTF-8, NUL-terminated, in the
 * record's arena. */
typedef struct contractc_string {
    const char *data;
    size_t len; /* bytes, without the NUL */
} contractc_string_t;

/* The arena that owns every pointer of one accepted record (opaque). */
typedef struct contractc_arena contractc_arena_t;

/* ------------------------------------------------------------------------
 * Limits shared by the generator and the runtime (docs/contract-language.md)
 * ------------------------------------------------------------------------ */
/* Fields of one object of a contract. */
#define CONTRACTC_MAX_FIELDS 1024
/* The highest reply.max_depth (open containers; the root is 1): the reader
 * caps any larger setting to it. */
#define CONTRACTC_MAX_DEPTH 1024u
/* reply.max_depth and reply.max_bytes when a contract does not set them. */
#define CONTRACTC_DEFAULT_MAX_DEPTH 64u
#define CONTRACTC_DEFAULT_MAX_BYTES ((size_t)1 << 20)
/* The longest source text (bytes) of contractc_parse and the loop. */
#define CONTRACTC_MAX_SOURCE_BYTES ((size_t)4 << 20)

/* ------------------------------------------------------------------------
 * Parsing
 * ------------------------------------------------------------------------ */

/* A contract: the descriptor tables of `contractc generate` (NAME_contract
 * in NAME.c; the layout is the descriptor ABI at the end of this header). */
typedef struct contractc_contract contractc_contract_t;
typedef struct contractc_options {
    const contractc_allocator_t *allocator; /* NULL: malloc/free */
    size_t max_bytes;   /* 0: the contract's reply.max_bytes */
    uint32_t max_depth; /* 0: the contract's reply.max_depth */
    void *user;         /* handed to check functions (contractc_check_user) */
} contractc_options_t;

/*
 * Reads `reply` (reply_len bytes, need not be NUL-terminated) as one strict
 * JSON text and validates it against `contract`.
 *
 * - source/source_len: the text grounded values must occur in; required
 *   (non-NULL, valid UTF-8, at most CONTRACTC_MAX_SOURCE_BYTES: 4 MiB) when contract->needs_source, and
 *   must be NULL otherwise: else CONTRACTC_EINVAL.
 * - options: may be NULL.
 * - out: the record struct (the contract's root type); on CONTRACTC_OK it is
 *   filled and owns an arena (free with contractc_record_free).  On any
 *   other status it is zeroed and owns nothing.
 * - problems: an initialised list; problems are appended (it is not cleared
 *   first).  On CONTRACTC_OK it gains none; `fenced` is set either way.
 *
 * Returns CONTRACTC_OK, CONTRACTC_REJECTED, CONTRACTC_ENOMEM or
 * CONTRACTC_EINVAL (then problems->error says why).
 */
contractc_status_t contractc_parse(const contractc_contract_t *contract,
                                   const char *reply, size_t reply_len,
                                   const char *source, size_t source_len,
                                   const contractc_options_t *options,
                                   void *out, contractc_problems_t *problems);

/* Frees the arena of a record filled by contractc_parse and zeroes the
 * struct.  NULL-safe, and safe on a zeroed record. */
void contractc_record_free(const contractc_contract_t *contract, void *record);

/* ------------------------------------------------------------------------
 * Streaming: a reply fed as it arrives (docs/contract-language.md §18)
 * ------------------------------------------------------------------------ */

/* A push parser over one reply (opaque). */
typedef struct contractc_stream contractc_stream_t;

typedef enum contractc_stream_state {
    CONTRACTC_STREAM_VIABLE = 0,   /* some continuation of the bytes so far
                                      could still be accepted */
    CONTRACTC_STREAM_DEAD = 1,     /* none could: stop reading, finish gives
                                      the problems known (§18) */
    CONTRACTC_STREAM_COMPLETE = 2, /* the JSON text (and the closing fence,
                                      if one was opened) is complete and
                                      every check passed; only white space
                                      may follow */
    CONTRACTC_STREAM_ERROR = 3     /* out of memory (or a NULL stream, or
                                      NULL bytes with len > 0): finish
                                      returns CONTRACTC_ENOMEM (EINVAL) */
} contractc_stream_state_t;

/*
 * A stream that reads one reply against `contract`, fed in chunks of any
 * size.  source/source_len and options as contractc_parse's, checked here
 * once (the source must be valid UTF-8 and present exactly when the
 * contract grounds values); the source text and the options' allocator
 * must outlive the stream (neither is copied; the options struct is).
 * Returns NULL when out of memory or for invalid arguments (a bad source
 * included).  Free with contractc_stream_free.
 */
contractc_stream_t *contractc_stream_new(const contractc_contract_t *contract,
                                         const char *source, size_t source_len,
                                         const contractc_options_t *options);

/*
 * Appends bytes[0..len) (a chunk of the reply as it arrives; need not end
 * on a token or a UTF-8 sequence; bytes may be NULL when len is 0) and
 * says what the reply so far is: VIABLE, DEAD (no continuation could be
 * accepted: grammar, encoding, limits, a key the contract does not have, a
 * duplicate, a type, an enum value, a pattern, a length, a count, a range,
 * text after the JSON; §18), COMPLETE or ERROR.  Within the first 4 KiB
 * of a reply DEAD comes with the chunk that holds the first dead byte;
 * past them, to keep the work linear, with a chunk at most an eighth of
 * the bytes before it later (COMPLETE, and text after the JSON, never
 * late).  DEAD stays DEAD; feeding may go on after it (finish then reads
 * it all).  The bytes are kept (a copy) until the stream is freed.
 */
contractc_stream_state_t contractc_stream_feed(contractc_stream_t *s, const char *bytes,
                                               size_t len);

/*
 * Items as they close (§18): fn is called with `user`, the path of an
 * array field of the root object ("$.line_items"), the item's index and
 * the item as the record stores it (the array's item type, e.g. a
 * line_item struct; valid during the call only: copy what you keep), for
 * each item once it closed and passed its own checks, in order, each
 * once, never a partial one, and none after a problem was found anywhere
 * before it.  Called from inside contractc_stream_feed (or finish), at
 * most an eighth of the reply late past its first 4 KiB, as DEAD is.  Set
 * it before the first feed: returns false (and sets nothing) after one,
 * for a NULL stream, or when out of memory.  fn NULL turns it off.
 */
typedef void (*contractc_item_fn)(void *user, const char *path, size_t index, const void *item);
bool contractc_stream_on_item(contractc_stream_t *s, contractc_item_fn fn, void *user);

/* The byte offset in the reply of the first byte that made it DEAD (the
 * bytes before it were VIABLE or COMPLETE), the same whatever the chunks
 * were; SIZE_MAX while no feed (or finish) has said DEAD, and for NULL. */
size_t contractc_stream_dead_at(const contractc_stream_t *s);

/*
 * Reads everything fed as the whole reply and fills `record` and
 * `problems` exactly as contractc_parse would (record: the contract's root
 * struct, owning an arena on CONTRACTC_OK, freed with
 * contractc_record_free; problems: an initialised list, appended to),
 * with one difference: when the bytes fed end inside a value after a
 * problem was found (the caller stopped at DEAD), the problems are the
 * ones found before the end, not a problem for the end it cut off
 * (§18).  Runs a check a feed put off (contractc_stream_dead_at may then
 * say DEAD).  May be called more than once, and feeding may go on
 * between calls.  Returns CONTRACTC_OK, CONTRACTC_REJECTED, CONTRACTC_ENOMEM (also
 * after a feed said ERROR) or CONTRACTC_EINVAL (NULL arguments; then
 * problems->error says why).
 */
contractc_status_t contractc_stream_finish(contractc_stream_t *s, void *record,
                                           contractc_problems_t *problems);

/* Frees the stream and its copy of the bytes.  NULL-safe.  A record that
 * finish filled is the caller's and stays valid. */
void contractc_stream_free(contractc_stream_t *s);

/*
 * Writes an accepted record in the canonical form (docs/contract-language.md:
 * compact, keys in contract order, minimal escaping, decimals with `scale`
 * digits, null for absent values).  Returns a NUL-terminated malloc'd string
 * that the caller frees with free(), and its length in *len (len may be NULL);
 * NULL when out of memory.
 */
char *contractc_to_json(const contractc_contract_t *contract, const void *record,
                        size_t *len);

/*
 * text[0..len) as one JSON string literal, quotes included, escaped as the
 * canonical form escapes strings (RFC 8259 section 7): '"' and '\' with a
 * backslash, control characters below U+0020 as \b \f \n \r \t or \u00xx
 * (lowercase hex; NUL as \u0000), every other byte as it is, except that a
 * byte starting no well-formed UTF-8 sequence becomes U+FFFD, so the result
 * is always valid JSON.  The one escaper of the runtime: the canonical
 * form, the decision log and problem messages use it.  text may be NULL
 * when len is 0.  Returns a NUL-terminated malloc'd string (free() it) and
 * its length in *out_len (may be NULL); NULL when out of memory or for a
 * NULL text with len > 0.
 */
char *contractc_json_string(const char *text, size_t len, size_t *out_len);

/*
 * True when text[0..len) is exactly one JSON number (RFC 8259 section 6:
 * an optional '-', no leading zero, an optional fraction and exponent, no
 * white space around it), checked by the reader that reads replies.
 * False for a NULL text.
 */
bool contractc_json_number_valid(const char *text, size_t len);

/* The length of the longest prefix of text[0..len) that is well-formed
 * UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF; a sequence cut by the end is not well-formed): len when all of
 * it is, the offset of the first bad byte otherwise; 0 for NULL.  Reads
 * text only.  The reader's own rule, for code next to the runtime that
 * checks or repairs text on its way to or from a model (the chat client
 * escapes transcript texts by it). */
size_t contractc_utf8_valid_prefix(const char *text, size_t len);

/*
 * A `decimal` value as text, the canonical form's digits: `minor_units`
 * (the int64_t member of a decimal field, 1250.00 -> 125000) with `scale`
 * fraction digits after a dot, a '-' when negative, no separators and no
 * exponent ("1250.00", "-0.05", "-92233720368547758.08" for INT64_MIN at
 * scale 2; scale 0 writes no dot).  scale may be 0..38 (a contract's is
 * 0..18).  Writes at most `size` bytes to buf, always NUL-terminated when
 * size > 0 (cut like snprintf's output); buf may be NULL when size is 0.
 * Returns the length of the whole text, without the NUL (at most 41), as
 * snprintf does: the text was cut when the result is >= size.  A scale
 * above 38 writes "" and returns 0.
 */
size_t contractc_decimal_format(int64_t minor_units, unsigned scale, char *buf, size_t size);

/*
 * The repair turn for a rejected reply: the fixed first line, then one
 * "- PATH: message" line per problem, then "- ... and N more problems" when
 * some were dropped.  *text is malloc'd and NUL-terminated; free() it.
 * Returns CONTRACTC_OK, CONTRACTC_ENOMEM, or CONTRACTC_EINVAL for NULLs.
 */
contractc_status_t contractc_repair_prompt(const contractc_problems_t *problems,
                                           char **text, size_t *len);

/*
 * The repair turn for a rejected tool call, sent back as the call's error
 * result (docs/tools.md, "Tool calls in the transcript"): as
 * contractc_repair_prompt, with the first line "Your tool call was
 * rejected. Fix every problem and make the call again with the corrected
 * arguments:", since the model is to call the tool again rather than
 * answer in text.  Same ownership and returns.
 */
contractc_status_t contractc_repair_prompt_tool_call(const contractc_problems_t *problems,
                                                     char **text, size_t *len);

/* ------------------------------------------------------------------------
 * Grounded GBNF grammars for local models (docs/grammar.md, "Grounded
 * grammars")
 * ------------------------------------------------------------------------ */

/*
 * `contractc generate --grammar gbnf` embeds NAME.gbnf in NAME.c as
 * NAME_gbnf[] (NAME_gbnf_len bytes).  Its grounded strings are rules named
 * grounded-PATH that admit any string.  contractc_gbnf_grounded() rewrites
 * them for one request: each then admits exactly the non-empty substrings
 * of that request's source text, written as the canonical JSON form writes
 * them (only '"', '\' and control characters escaped), so a local model
 * cannot invent a quote.  A grounded string's pattern and length are then
 * left to the parser (it checks them, and grounding, either way).
 */
/* The largest source grounded in the grammar: 64 KiB.  Beyond, grounding
 * is left to the parser (contractc_gbnf_grounded returns 1). */
#define CONTRACTC_GBNF_MAX_SOURCE 65536u

/*
 * Writes to *text (malloc'd, NUL-terminated, *len bytes without the NUL;
 * free() it) the grammar `grammar` (grammar_len bytes, e.g. NAME_gbnf,
 * NAME_gbnf_len) with every grounded-* rule restricted to substrings of
 * `source` (source_len bytes of UTF-8; bytes that are not valid UTF-8 and
 * NUL split it, since no JSON string the parser accepts holds them).  The
 * grammar's size is linear in the source: a suffix automaton of its code
 * points, one rule per state (at most 2 * source_len rules).
 *
 * Returns 0 when grounded; 1 when source_len is above
 * CONTRACTC_GBNF_MAX_SOURCE or the grammar has no grounded rule (then
 * *text is a copy of `grammar`); -1 when out of memory or an argument is
 * NULL (then *text is NULL).
 */
int contractc_gbnf_grounded(const char *grammar, size_t grammar_len, const char *source,
                            size_t source_len, char **text, size_t *len);

/* ------------------------------------------------------------------------
 * User checks (`check:` rules)
 * ------------------------------------------------------------------------ */

/* The context a user check receives (opaque). */
typedef struct contractc_check contractc_check_t;
/* A user check: `object` points at the record (or at one item of a named
 * type); add problems with contractc_check_fail(). */
typedef void (*contractc_check_fn)(const void *object, contractc_check_t *check);

/* Adds a `rule` problem at the checked object's path with `message` (copied;
 * shown to the model and, since it is the user's text, logged as is). */
void contractc_check_fail(contractc_check_t *check, const char *message);
/* The `user` pointer of the parse options (NULL when none was given). */
void *contractc_check_user(const contractc_check_t *check);
/* The source text (NULL when the contract has none); its length in *len. */
const char *contractc_check_source(const contractc_check_t *check, size_t *len);

/* ========================================================================
 * Transcript, repair loop and decision log
 *
 * The conversation with the model, the loop that sends it, reads the reply
 * with the contract and sends the rejected reply back with every problem,
 * and the decision log (`contractc-log/1`) that records what was decided
 * with the exact contract hash.  No network code: the caller supplies the
 * model as a function (an HTTP client, a scripted model in tests).
 *
 *   contractc_transcript_t t;
 *   contractc_transcript_init(&t, NULL);
 *   contractc_transcript_begin(&t, &refund_request_contract,
 *       refund_request_prompt, refund_request_prompt_len, email, email_len);
 *   contractc_loop_t loop = {.contract = &refund_request_contract,
 *                            .model = my_model, .model_user = my_client};
 *   refund_request_t rec;  contractc_decision_t d;
 *   if (contractc_loop_run(&loop, &t, email, email_len, &rec, &d) == CONTRACTC_OK) {
 *       ... act on rec; refund_request_free(&rec);
 *   }
 *   contractc_log_entry_t e = {0};  e.record_id = "A-1063";
 *   if (contractc_log_write(&log, &d, &e, NULL) != CONTRACTC_OK)
 *       ... the decision is not recorded: keep it, stop, or alert;
 *   contractc_decision_free(&d);  contractc_transcript_clear(&t);
 * ======================================================================== */

/* The speaker of one chat message (the chat-completions roles).
 * Append-only.  CONTRACTC_ROLE_TOOL is a tool's result, the answer to the
 * assistant's tool call of the same tool_call_id (docs/tools.md, "Tool
 * calls in the transcript"). */
typedef enum contractc_role {
    CONTRACTC_ROLE_SYSTEM = 1,
    CONTRACTC_ROLE_USER,
    CONTRACTC_ROLE_ASSISTANT,
    CONTRACTC_ROLE_TOOL
} contractc_role_t;

/* "system", "user", "assistant" or "tool"; "?" for a value out of range. */
const char *contractc_role_name(contractc_role_t role);

/* One message: `text` holds `len` bytes plus a NUL (owned by the
 * transcript).  Assistant turns hold the model's bytes as received (cut to
 * max_bytes), so they may contain invalid UTF-8 or NUL bytes: a client that
 * encodes them must cope (the chat client replaces invalid UTF-8 with
 * U+FFFD and escapes NUL). */
typedef struct contractc_message {
    contractc_role_t role;
    char *text;
    size_t len;
    /* A tool call (role assistant: text is its arguments, tool_name the
     * tool called) or a tool result (role tool: text is the result): the
     * provider's call id, NUL-terminated, owned by the transcript.  NULL
     * for a message that is neither (then tool_name is NULL too). */
    char *tool_call_id;
    char *tool_name;   /* a tool call's tool; NULL for any other message */
    bool is_error;     /* a tool result that reports an error */
} contractc_message_t;

/* Cap on the messages of one transcript (the loop adds at most two per
 * attempt, or two per tool call of a turn). */
#define CONTRACTC_TRANSCRIPT_MAX_MESSAGES 1024

/*
 * An ordered list of chat messages.  Initialise with
 * contractc_transcript_init(), release with contractc_transcript_clear().
 * Members ending in _ are private.
 */
typedef struct contractc_transcript {
    contractc_message_t *items_;
    size_t count_;
    size_t capacity_;
    const contractc_allocator_t *allocator_;
} contractc_transcript_t;

/* An empty transcript; `allocator` NULL: malloc.  The allocator must
 * outlive the transcript. */
void contractc_transcript_init(contractc_transcript_t *transcript,
                               const contractc_allocator_t *allocator);

/* Frees every message; the transcript stays initialised and reusable.
 * NULL-safe. */
void contractc_transcript_clear(contractc_transcript_t *transcript);

/* Appends a copy of text[0..len) (need not be NUL-terminated; NULL with
 * len 0 is the empty text).  Returns CONTRACTC_OK, CONTRACTC_ENOMEM, or
 * CONTRACTC_EINVAL for NULLs, an unknown role or a full transcript
 * (CONTRACTC_TRANSCRIPT_MAX_MESSAGES). */
contractc_status_t contractc_transcript_add(contractc_transcript_t *transcript,
                                            contractc_role_t role,
                                            const char *text, size_t len);

/*
 * Appends one tool call as an assistant message: `id` (the provider's call
 * id, NUL-terminated), `name` (the tool called, NUL-terminated) and the
 * call's arguments args[0..len), as the model sent them.  Consecutive tool
 * calls are one assistant turn with several calls: a chat client sends
 * them as one message (docs/tools.md, "Tool calls in the transcript").
 * Returns CONTRACTC_OK, CONTRACTC_ENOMEM, or CONTRACTC_EINVAL for NULLs, an
 * empty id or name, or a full transcript.
 */
contractc_status_t contractc_transcript_add_tool_call(contractc_transcript_t *transcript,
                                                      const char *id, const char *name,
                                                      const char *args, size_t len);

/*
 * Appends the result of the tool call `id` (NUL-terminated, as the call
 * had it) as a message of role tool: text[0..len), and is_error when it
 * reports an error (a rejected call's repair turn).  Results follow their
 * calls in the calls' order.  Returns as contractc_transcript_add_tool_call.
 */
contractc_status_t contractc_transcript_add_tool_result(contractc_transcript_t *transcript,
                                                        const char *id, const char *text,
                                                        size_t len, bool is_error);

/*
 * Appends the first user turn: the contract's prompt, then (when the
 * contract has a source) a blank line, "Here is " + the source's
 * description + ":", a blank line and the source text:
 *
 *   Extract the order, the amount and the reason from this customer email.
 *   ...
 *   Never estimate. A program checks this reply and rejects anything else.
 *
 *   Here is the customer email:
 *
 *   Hello, my order A-1063 ...
 *
 * `prompt` is NAME_prompt / NAME_prompt_len.  `source` must be NULL for a
 * contract without a source, and valid UTF-8 of at most 4 MiB for one with
 * (the same rule as contractc_parse).  Returns CONTRACTC_OK,
 * CONTRACTC_ENOMEM or CONTRACTC_EINVAL.
 */
contractc_status_t contractc_transcript_begin(contractc_transcript_t *transcript,
                                              const contractc_contract_t *contract,
                                              const char *prompt, size_t prompt_len,
                                              const char *source, size_t source_len);

/* Number of messages. */
size_t contractc_transcript_count(const contractc_transcript_t *transcript);

/* The message at `index`, counted from the start when >= 0 (0 is the
 * first) and from the end when < 0 (-1 is the last, -2 the one before):
 * after a rejection the rejected reply is at -2 and the repair turn at -1.
 * NULL when out of range. */
const contractc_message_t *contractc_transcript_at(const contractc_transcript_t *transcript,
                                                   long index);

/* ------------------------------------------------------------------------
 * The decision: what the loop did, in the terms of the log
 * ------------------------------------------------------------------------ */
/*
 * What one attempt came to.  Append-only: values are never renumbered.
 * The last three are not wrong answers, so they never get a repair turn
 * (docs/contract-language.md, "Outcomes that are not wrong answers"): the
 * model's stop reason (contractc_model_reply_t.finish_reason) says the
 * provider cut the reply at the token limit ("length", "max_tokens"), the
 * model refused ("refusal"), or a content filter stopped it
 * ("content_filter").
 */
typedef enum contractc_attempt_outcome {
    CONTRACTC_ATTEMPT_ACCEPTED = 1,
    CONTRACTC_ATTEMPT_REJECTED,
    CONTRACTC_ATTEMPT_MODEL_ERROR, /* the model function failed: no reply */
    CONTRACTC_ATTEMPT_TRUNCATED,   /* cut at the token limit and rejected */
    CONTRACTC_ATTEMPT_REFUSED,     /* the model refused (not parsed) */
    CONTRACTC_ATTEMPT_FILTERED     /* a content filter stopped it (not parsed) */
} contractc_attempt_outcome_t;

/* What the whole run came to.  Append-only, as above: a run ends with the
 * outcome of an attempt that is not a wrong answer when that attempt ends it
 * (and no on_truncated retry followed). */
typedef enum contractc_outcome {
    CONTRACTC_OUTCOME_ACCEPTED = 1, /* a reply passed; the record is filled */
    CONTRACTC_OUTCOME_ESCALATED,    /* replies kept failing up to the cap */
    CONTRACTC_OUTCOME_FAILED,       /* every attempt was a model error */
    CONTRACTC_OUTCOME_TRUNCATED,    /* the last reply was cut at the token limit */
    CONTRACTC_OUTCOME_REFUSED,      /* the model refused */
    CONTRACTC_OUTCOME_FILTERED      /* a content filter stopped the reply */
} contractc_outcome_t;

/* "accepted", "rejected", "model_error", "truncated", "refused",
 * "filtered"; "?" out of range. */
const char *contractc_attempt_outcome_name(contractc_attempt_outcome_t outcome);
/* "accepted", "escalated", "failed", "truncated", "refused", "filtered";
 * "?" out of range. */
const char *contractc_outcome_name(contractc_outcome_t outcome);

/*
 * Why a model call failed, as the model function classifies it (the chat
 * client does).  Logged as the attempt's `error_class`.  Append-only.
 */
typedef enum contractc_error_class {
    CONTRACTC_ERROR_CLASS_NONE = 0,       /* not said (not logged) */
    CONTRACTC_ERROR_CLASS_TIMEOUT,        /* "timeout": the deadline passed */
    CONTRACTC_ERROR_CLASS_NETWORK,        /* "network": no HTTP answer */
    CONTRACTC_ERROR_CLASS_HTTP_429,       /* "http_429": rate limited */
    CONTRACTC_ERROR_CLASS_HTTP_5XX,       /* "http_5xx": the server failed */
    CONTRACTC_ERROR_CLASS_AUTH,           /* "auth": 401, 403 */
    CONTRACTC_ERROR_CLASS_BAD_REQUEST,    /* "bad_request": other 4xx, quota */
    CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE /* "malformed_response" */
} contractc_error_class_t;

/* The log's spelling above; NULL for CONTRACTC_ERROR_CLASS_NONE and values
 * out of range. */
const char *contractc_error_class_name(contractc_error_class_t error_class);

/* A problem as the log keeps it: where, which kind, which rule; never a
 * value from the reply.  Strings owned by the decision. */
typedef struct contractc_logged_problem {
    contractc_kind_t kind;
    char *path;
    char *rule; /* the rule id for kind `rule`; else NULL */
} contractc_logged_problem_t;

/* Sizes of the fixed text buffers below (with the NUL). */
#define CONTRACTC_FINISH_REASON_SIZE 32
#define CONTRACTC_MODEL_ERROR_SIZE 256

typedef struct contractc_attempt {
    contractc_attempt_outcome_t outcome;
    bool fenced;                   /* the reply was wrapped in a fence */
    /* As the model reported it ("stop"; "length" when the token limit cut
     * the reply); "" when it reported none. */
    char finish_reason[CONTRACTC_FINISH_REASON_SIZE];
    /* For a model error: the model function's message; else "". */
    char error[CONTRACTC_MODEL_ERROR_SIZE];
    contractc_logged_problem_t *problems;
    size_t problem_count;
    size_t dropped;                /* problems beyond the list's cap */
    /* An accepted reply that the provider marked cut (finish_reason
     * "length"/"max_tokens"): still accepted, flagged here and in the log. */
    bool truncated;
    /* For a model error: its class as the model function said (NONE when
     * it said nothing). */
    contractc_error_class_t error_class;
    /* For a refusal: the model's text (refusal_len bytes and a NUL, owned
     * by the decision; NULL when it gave none).  Logged only when the
     * caller opts in to values (contractc_log_entry_t.include_value). */
    char *refusal;
    size_t refusal_len;
    /* For a reply of tool calls: one entry per call, in the response's
     * order (NULL / 0 for a text reply).  Owned by the decision. */
    struct contractc_attempt_tool_call *tool_calls;
    size_t tool_call_count;
    /* A streamed reply the model function stopped receiving at DEAD
     * (contractc_model_reply_t.stopped): stopped_at is the offset of its
     * first dead byte (contractc_stream_dead_at), received the bytes it
     * had received (and fed) when it stopped; both 0 when not stopped.
     * The bytes never received are not known: a stream carries no length. */
    bool stopped;
    size_t stopped_at;
    size_t received;
} contractc_attempt_t;

/* One tool call of an attempt, as the log keeps it (never the model's
 * bytes): `tool`, the loop's tool name when the call named it, else NULL
 * (a copy owned by the decision); `problems`, how
 * many problems its arguments had (0: accepted). */
typedef struct contractc_attempt_tool_call {
    char *tool;
    size_t problems;
} contractc_attempt_tool_call_t;

/*
 * The result of one run of the loop.  Filled by contractc_loop_run (which
 * initialises it first, whatever it returns); release with
 * contractc_decision_free().  `contract` is not owned.
 */
typedef struct contractc_decision {
    const contractc_contract_t *contract;
    contractc_outcome_t outcome;   /* 0 when the run stopped on an error */
    contractc_attempt_t *attempts;
    size_t attempt_count;
    size_t attempt_capacity_;
    const contractc_allocator_t *allocator_;
} contractc_decision_t;

/* Frees the attempts and zeroes the decision.  NULL-safe. */
void contractc_decision_free(contractc_decision_t *decision);

/* ------------------------------------------------------------------------
 * The loop
 * ------------------------------------------------------------------------ */

/*
 * What the model function fills.  Before each call the loop zeroes it.
 * - text, len: the reply's bytes (need not be NUL-terminated).  They stay
 *   the model function's: they must stay valid until the model function is
 *   called again or contractc_loop_run returns; the loop copies what it
 *   keeps.  NULL with len 0 is an empty reply (a rejection, not an error).
 * - finish_reason: as the model reported it, cut to fit; "" when unknown.
 *   The loop reads it: "length" and "max_tokens" (the reply was cut at the
 *   token limit), "refusal" (then text holds the refusal's words, e.g.
 *   OpenAI's message.refusal) and "content_filter" end the attempt without
 *   a repair turn (contractc_attempt_outcome_t).
 * - error: on failure, a short message for the log; never a secret.
 * - error_class: on failure, what kind (may stay NONE).
 * - max_tokens: set by the loop before the call, for the model function to
 *   read: the token limit asked for (contractc_loop_t.max_tokens, raised by
 *   on_truncated); 0: the model function's own.
 */
/* One tool call of a reply (contractc_model_reply_t.tool_calls): the
 * provider's id, the tool's name (both NUL-terminated) and the exact bytes
 * of its arguments.  The model function's, valid as the reply's text. */
typedef struct contractc_reply_tool_call {
    const char *tool_call_id;
    const char *name;
    const char *arguments;
    size_t arguments_len;
} contractc_reply_tool_call_t;

typedef struct contractc_model_reply {
    const char *text;
    size_t len;
    char finish_reason[CONTRACTC_FINISH_REASON_SIZE];
    char error[CONTRACTC_MODEL_ERROR_SIZE];
    contractc_error_class_t error_class;
    unsigned max_tokens;
    /* The reply's tool calls, in the response's order (NULL / 0: a text
     * reply).  When set, the loop reads the calls and not `text`; valid as
     * `text` is.  The chat client fills them for a response of tool calls. */
    const contractc_reply_tool_call_t *tool_calls;
    size_t tool_call_count;
    /* Set by the loop before the call when contractc_loop_t.stream is
     * true, else NULL: a stream of the contract (owned by the loop), for
     * the model function to feed the reply's bytes as they arrive
     * (contractc_stream_feed) and nothing else.  When a feed says DEAD the
     * model function may stop receiving: it then sets `stopped` true and
     * returns 0; the reply is then the bytes the stream was fed (echoed,
     * counted as `received`), and text/len are not read. */
    contractc_stream_t *stream;
    bool stopped;
} contractc_model_reply_t;

/* The model: reads the whole transcript and answers.  Returns 0 with a
 * reply, or non-zero for a failure (network, HTTP error, malformed
 * response), which uses up an attempt and is logged as `model_error`. */
typedef int (*contractc_model_fn)(void *user, const contractc_transcript_t *transcript,
                                  contractc_model_reply_t *reply);

/* Called once when the loop ends `escalated`, `truncated`, `refused` or
 * `filtered` (decision->outcome says which): `reply` (reply_len bytes) is
 * the last rejected reply as kept in the transcript (cut to
 * echo_max_bytes, with its marker), or the reply that ended the run as the
 * model gave it; `problems` are its problems, messages included (none for a
 * refusal or a filtered reply).  Both are valid only during the call. */
typedef void (*contractc_escalate_fn)(void *user, const contractc_decision_t *decision,
                                      const char *reply, size_t reply_len,
                                      const contractc_problems_t *problems);

/* Called when an attempt ends `truncated` and another attempt is left, at
 * most once per run: `*max_tokens` holds the limit asked for so far (0: the
 * model function's own); set it higher and return non-zero to call the
 * model again on the same transcript (the cut reply is not added to it), or
 * return 0 to end the run `truncated`.  `decision` holds the attempts so
 * far. */
typedef int (*contractc_truncated_fn)(void *user, const contractc_decision_t *decision,
                                      unsigned *max_tokens);

/* The result sent for a call that was accepted in a turn where another
 * call was rejected: nothing of the turn was acted on. */
#define CONTRACTC_REPAIR_NOT_RUN \
    "Not run: another call of this turn was rejected. Repeat this call with the others."

/* The first try plus two repairs. */
#define CONTRACTC_LOOP_DEFAULT_ATTEMPTS 3
/* How much of a rejected reply is echoed back as the assistant turn before
 * the repair turn: 16 KiB, then "\n[... N bytes cut]". */
#define CONTRACTC_LOOP_DEFAULT_ECHO_MAX_BYTES ((size_t)16 << 10)
/* The most attempts a loop may be configured for. */
#define CONTRACTC_LOOP_MAX_ATTEMPTS 100

/* The loop's settings.  Zero-initialise, then set contract and model. */
typedef struct contractc_loop {
    const contractc_contract_t *contract;
    contractc_model_fn model;
    void *model_user;
    contractc_escalate_fn escalate;   /* may be NULL */
    void *escalate_user;
    unsigned max_attempts;            /* 0: CONTRACTC_LOOP_DEFAULT_ATTEMPTS */
    const contractc_options_t *options; /* parse options (allocator, limits,
                                           check user); may be NULL */
    size_t problem_cap;               /* problems per reply; 0: 64 */
    /* A rejected reply is echoed back cut to this many bytes, and never to
     * more than the reply limit max_bytes (at a UTF-8 boundary), with the
     * marker "\n[... N bytes cut]", N the bytes left out; 0:
     * CONTRACTC_LOOP_DEFAULT_ECHO_MAX_BYTES. */
    size_t echo_max_bytes;
    contractc_truncated_fn on_truncated; /* may be NULL */
    void *on_truncated_user;
    unsigned max_tokens;              /* passed to the model; 0: its own */
    /* The name the model calls the contract by in a tool call (the name of
     * its tool definition); NULL: the contract's name, as `generate
     * --tool` writes it.  A call of another name is rejected
     * (`unknown_tool`). */
    const char *tool_name;
    /* Streaming (docs/contract-language.md §18, "Streaming in the loop"):
     * true hands the model function, for a text reply, a stream of the
     * contract in reply->stream, made for each call (with `source` and
     * `options`), so that it can feed the reply's bytes as they arrive and
     * stop receiving at DEAD (reply->stopped).  A stopped reply's problems
     * are the stream's (the ones found before the cut, never one for the
     * end cut off), its echo ends with "\n[... reply stopped here]", and
     * its attempt keeps stopped_at and received.  Not in a toolset run.
     * false: reply->stream stays NULL. */
    bool stream;
} contractc_loop_t;

/*
 * Runs the repair loop on `transcript`, which the caller has begun (the
 * prompt and the source, e.g. with contractc_transcript_begin).  Each
 * attempt calls the model with the whole transcript, then parses the reply
 * with contractc_parse (source/source_len as there):
 * - accepted: the reply is appended as an assistant turn, `out` (the
 *   contract's record struct) is filled; returns CONTRACTC_OK.  Free the
 *   record with contractc_record_free (or NAME_free).
 * - rejected (empty and over-limit replies included): the reply is
 *   appended as an assistant turn (cut to echo_max_bytes at a UTF-8
 *   boundary, then "\n[... N bytes cut]") and, when another attempt
 *   follows, the repair turn with every problem as a user turn: the
 *   rejected reply at -2, the complaint at -1.
 * - model error: nothing is appended; the attempt is used up.
 * - not a wrong answer (the stop reason, see contractc_model_reply_t): a
 *   reply cut at the token limit is parsed; accepted, it is accepted with
 *   the attempt's `truncated` flag; rejected, the attempt is `truncated`.
 *   A refusal or a filtered reply is not parsed (`refused`, `filtered`).
 *   None of them gets a repair turn and nothing is appended: a truncated
 *   attempt calls on_truncated when set and an attempt is left (once per
 *   run; non-zero calls the model again), otherwise the run ends with that
 *   outcome, calls the escalation function with that reply (its problems:
 *   the parse's for `truncated`, none for the others) and returns
 *   CONTRACTC_REJECTED with `out` zeroed.
 * - tool calls (reply->tool_call_count > 0, docs/tools.md, "Tool calls
 *   in the transcript"): each call is routed by its name through a
 *   one-tool set of the contract (contractc_toolset_parse; `tool_name`)
 *   and its arguments parsed.  The reply is accepted only
 *   when every call is: the calls are appended (tool-call messages) and
 *   `out` holds the first call's record.  Otherwise the calls are appended
 *   in the response's order, then, when another attempt follows, one tool
 *   result per call in the same order: a rejected call's repair turn with
 *   is_error (contractc_repair_prompt_tool_call), for an accepted one the
 *   words of CONTRACTC_REPAIR_NOT_RUN.
 *   The attempt's problems are every rejected call's, in order.  A call
 *   without an id or a name (or with a length but no bytes) is a model
 *   error: it could not be answered.
 * After max_attempts, a run with at least one rejected reply ends
 * `escalated` (the escalation function gets the last one), a run of only
 * model errors ends `failed`; both return CONTRACTC_REJECTED and leave
 * `out` zeroed.
 *
 * `decision` is always initialised (free it with contractc_decision_free);
 * on CONTRACTC_OK / CONTRACTC_REJECTED it holds every attempt and the
 * outcome.  Returns CONTRACTC_ENOMEM, or CONTRACTC_EINVAL for NULLs, an
 * empty transcript, max_attempts over CONTRACTC_LOOP_MAX_ATTEMPTS or a bad
 * source text (checked before the model is called).
 */
contractc_status_t contractc_loop_run(const contractc_loop_t *loop,
                                      contractc_transcript_t *transcript,
                                      const char *source, size_t source_len,
                                      void *out, contractc_decision_t *decision);

/* ------------------------------------------------------------------------
 * The decision log (`contractc-log/1`, JSON Lines)
 * ------------------------------------------------------------------------ */

/* Room for an RFC 3339 date-time with nanoseconds and an offset, and NUL. */
#define CONTRACTC_TIME_SIZE 40

/* Writes one line (len bytes, ending in '\n') to the log's storage.
 * Returns 0 when the whole line was stored, non-zero otherwise. */
typedef int (*contractc_log_sink_fn)(void *user, const char *line, size_t len);

/* Writes the current time as RFC 3339 §5.6 (e.g. "2025-05-01T09:30:00Z")
 * into buf (size bytes, NUL-terminated).  Returns false when it cannot. */
typedef bool (*contractc_clock_fn)(void *user, char *buf, size_t size);

/*
 * Where decision lines go and where their time comes from.  The runtime
 * keeps no state here: the struct is the caller's configuration.
 */
typedef struct contractc_log {
    contractc_log_sink_fn sink;
    void *sink_user;
    contractc_clock_fn clock;   /* NULL: contractc_clock_utc */
    void *clock_user;
} contractc_log_t;

/* A sink that writes to a C stream: `user` is a FILE * opened for writing.
 * One fwrite, then fflush; returns non-zero when either fails (a full disk
 * shows as a failed flush), so nothing is lost without a report.  Each call
 * clears the stream's error flag first (clearerr): a failure is reported
 * for the line that failed only, a line stored after it returns 0, and a
 * retry writes the line once.  A line cut by a failure may remain in the
 * file; the next call after a failure starts with a line break, so the cut
 * line stays a line of its own, which `contractc stats` counts as bad (a
 * blank line when nothing was cut, which it skips). */
int contractc_log_file_sink(void *user, const char *line, size_t len);

/* The system clock in UTC, whole seconds ("2025-05-01T09:30:00Z").
 * Available where POSIX gmtime_r is (the runtime is C99 and C99 has no
 * thread-safe UTC conversion); elsewhere it returns false and the caller
 * gives the time (contractc_log_entry_t.time) or its own clock. */
bool contractc_clock_utc(void *user, char *buf, size_t size);

/* A setting the caller reports (temperature, seed, ...): `value` is
 * written as a JSON number when `is_number` (it must then be an RFC 8259
 * number), else as a string. */
typedef struct contractc_setting {
    const char *name;
    const char *value;
    bool is_number;
} contractc_setting_t;

/* What the caller adds to a decision when logging it.  Zero-initialise;
 * every string may be NULL (logged as null), except as noted. */
typedef struct contractc_log_entry {
    const char *time;       /* RFC 3339; NULL: the log's clock */
    const char *record_id;  /* the caller's id for the input (an order, a
                               ticket); must not be a secret */
    const char *dialect;    /* the schema dialect sent ("openai-strict") */
    const char *model;      /* the model's name */
    const contractc_setting_t *settings;
    size_t setting_count;
    const char *route;      /* e.g. "person" for an accepted record that
                               still needs one; NULL: no route */
    /* Opt-in: write the accepted record's canonical form as `value`.  Off
     * by default: a log should not hold what the customer wrote. */
    bool include_value;
} contractc_log_entry_t;

/* The former status type of contractc_log_write, now contractc_status_t
 * (CONTRACTC_LOG_WRITTEN is CONTRACTC_OK, CONTRACTC_LOG_SINK_FAILED is
 * CONTRACTC_ESINK, ...). */
typedef contractc_status_t contractc_log_status_t CONTRACTC_DEPRECATED("contractc_status_t");

/* The former names of the log statuses: "written", "sink_failed",
 * "enomem", "einval"; "?" otherwise.  contractc_status_name replaces it. */
CONTRACTC_DEPRECATED("contractc_status_name")
const char *contractc_log_status_name(contractc_status_t status);

/*
 * The decision's log line: one compact JSON object and '\n', keys in the order
 * of docs/contract-language.md: log, time, record_id, contract, version, hash,
 * dialect, model, settings, attempts (outcome, fenced, finish_reason, problems
 * as {path, kind, rule}, then, each only when it says something, `dropped`
 * when problems were dropped, `truncated`, `stopped_at` and `received` for a
 * streamed reply stopped at DEAD, `error` and `error_class` for a model
 * error, `tool_calls`, `refusal` when values are opted in), outcome, route
 * (when set), value (when opted in, for an accepted decision: `record` is
 * then the accepted record).  Strings are
 * escaped per RFC 8259; invalid UTF-8 in a caller's string becomes U+FFFD.
 * `time` NULL takes the clock (NULL: the UTC clock).  *line is malloc'd and
 * NUL-terminated: free() it.  Returns CONTRACTC_OK, CONTRACTC_ENOMEM or
 * CONTRACTC_EINVAL.
 */
contractc_status_t contractc_log_format(const contractc_decision_t *decision,
                                        const contractc_log_entry_t *entry,
                                        const void *record,
                                        contractc_clock_fn clock, void *clock_user,
                                        char **line, size_t *len);

/*
 * Formats the decision (as contractc_log_format, with the log's clock) and
 * hands the line to the log's sink.  Returns CONTRACTC_OK when the sink
 * stored it, CONTRACTC_ESINK when the sink failed, CONTRACTC_ENOMEM, or
 * CONTRACTC_EINVAL (NULLs, a decision without an outcome, a bad setting,
 * no time).  Anything but CONTRACTC_OK means the decision was not
 * recorded: the caller must act (retry, keep the line elsewhere, stop
 * taking decisions).
 */
contractc_status_t contractc_log_write(const contractc_log_t *log,
                                       const contractc_decision_t *decision,
                                       const contractc_log_entry_t *entry,
                                       const void *record);

/* ========================================================================
 * The descriptor ABI: written by `contractc generate`
 *
 * The tables that `contractc generate` writes into NAME.c (and `contractc
 * validate` builds in memory), laid out as CONTRACTC_ABI_VERSION says.  A
 * program does not write or read them: it passes &NAME_contract to the
 * functions above, or uses the generated wrappers.  All read-only at run
 * time.
 * ======================================================================== */
typedef enum contractc_type {
    CONTRACTC_TYPE_STRING = 1,
    CONTRACTC_TYPE_INTEGER,
    CONTRACTC_TYPE_NUMBER,
    CONTRACTC_TYPE_BOOLEAN,
    CONTRACTC_TYPE_DECIMAL,
    CONTRACTC_TYPE_ENUM,
    CONTRACTC_TYPE_DATE,
    CONTRACTC_TYPE_DATETIME,
    CONTRACTC_TYPE_OBJECT,
    CONTRACTC_TYPE_ARRAY,
    /* ABI 2: the types of language v2 (docs/contract-language.md) */
    CONTRACTC_TYPE_UNION = 11,       /* `type: union`, tagged */
    CONTRACTC_TYPE_VALUE_UNION = 12, /* `type: [T1, T2]` */
    CONTRACTC_TYPE_MAP = 13,         /* `type: map` */
    CONTRACTC_TYPE_JSON = 14         /* `type: json` */
} contractc_type_t;

/* "no field" in rule operand slots. */
#define CONTRACTC_NO_FIELD UINT16_MAX
/* "no bound" for length and item counts. */
#define CONTRACTC_UNBOUNDED UINT32_MAX
/* ±(2^53 − 1): the I-JSON integer range (RFC 7493 section 2.2). */
#define CONTRACTC_INTEGER_MAX INT64_C(9007199254740991)
#define CONTRACTC_INTEGER_MIN (-INT64_C(9007199254740991))

/* The idioms generated tables are written with, named (C99 to C23, C++11):
 * CONTRACTC_ABSENT, the has_offset/aux_offset of a field without that
 * member; CONTRACTC_ALIGNOF(T), T's alignment in bytes (alignof where the
 * language has it); CONTRACTC_STATIC_ASSERT(cond, name), a file-scope
 * compile-time check (C99: a typedef `name` of a negative-size array when
 * cond is false). */
#define CONTRACTC_ABSENT UINT32_MAX
#if defined(__cplusplus) && __cplusplus >= 201103L
#define CONTRACTC_ALIGNOF(T) alignof(T)
#define CONTRACTC_STATIC_ASSERT(cond, name) static_assert(cond, #name)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define CONTRACTC_ALIGNOF(T) _Alignof(T)
#define CONTRACTC_STATIC_ASSERT(cond, name) _Static_assert(cond, #name)
#else
#define CONTRACTC_ALIGNOF(T) offsetof(struct { char c; T t; }, t)
#define CONTRACTC_STATIC_ASSERT(cond, name) typedef char name[(cond) ? 1 : -1]
#endif

/*
 * A DFA over UTF-8 bytes that matches a whole string (compiled by the
 * generator from the contract's regular pattern subset).  State 0 is the
 * dead state; matching runs in time linear in the string's length.
 */
typedef struct contractc_dfa {
    const char *source;           /* the pattern as written in the contract */
    uint32_t state_count;         /* including the dead state 0 */
    uint32_t class_count;         /* byte classes */
    uint32_t start;               /* start state */
    const uint8_t *byte_class;    /* [256]: byte -> class */
    const uint16_t *next;         /* [state_count * class_count] */
    const uint8_t *accepting;     /* [state_count]: 1 if accepting */
} contractc_dfa_t;

/* True when the whole of s[0..len) matches. */
bool contractc_dfa_match(const contractc_dfa_t *dfa, const char *s, size_t len);

/* One allowed spelling of an enum; C value = index + 1 (0 is "none"). */
typedef struct contractc_enum_value {
    const char *text;
    uint32_t len;
} contractc_enum_value_t;

typedef struct contractc_enum {
    const char *name;                      /* C type name, for messages */
    const contractc_enum_value_t *values;
    uint32_t count;
} contractc_enum_t;

struct contractc_object;
struct contractc_variant;

/* The type and constraints of one value (a field's, or an array's items). */
typedef struct contractc_value {
    contractc_type_t type;
    /* string; and json (ABI 2, docs/contract-language.md §4.14), whose
     * max_length is max_bytes, in bytes of the value's JSON text, and whose
     * C value is a string's (const char *X, size_t X_len: the text as sent) */
    uint32_t min_length, max_length;    /* code points; max CONTRACTC_UNBOUNDED */
    const contractc_dfa_t *pattern;     /* NULL: none */
    bool grounded;                      /* must occur verbatim in the source */
    /* integer and decimal (decimal in minor units) */
    int64_t minimum, maximum;
    /* number */
    bool has_number_minimum, has_number_maximum;
    double number_minimum, number_maximum;
    /* decimal */
    uint8_t scale;                      /* 0..18 fraction digits */
    bool is_signed;                     /* a leading '-' is allowed */
    /* enum */
    const contractc_enum_t *enumeration;
    /* object */
    const struct contractc_object *object;
    /* array; and map (ABI 2, docs/contract-language.md §4.12): `items` is
     * the value every entry has, min_items/max_items bound the entries,
     * item_size/item_align are the C layout of one entry,
     * { const char *key; size_t key_len; V value; }, whose `value` sits at
     * CONTRACTC_MAP_VALUE_OFFSET(item_align); `pattern` (above) is the
     * key_pattern every key must match (NULL: none). */
    const struct contractc_value *items;
    uint32_t min_items, max_items;      /* max CONTRACTC_UNBOUNDED */
    uint32_t item_size, item_align;     /* C layout of one item */
    /* A short example of a valid value as JSON text, used in messages
     * ("like \"1250.00\""); NULL: none. */
    const char *example;
    /* Message texts for bounds as written in the contract (decimal and
     * number bounds keep their spelling); NULL: derive from the numbers. */
    const char *minimum_text, *maximum_text;
    /* ABI 2: a tagged union (`type: union`, docs/contract-language.md
     * §4.11).  The value is an object holding the key tag[0..tag_len)
     * whose string value names one of the variants; the rest of the object
     * is read as that variant's object.  The C value is a struct whose
     * first member is the kind (an int-sized enum: 0 none, variant index
     * + 1) and whose `as` member, at union_offset, is the C union of the
     * variants' structs. */
    const char *tag;
    uint32_t tag_len;
    const struct contractc_variant *variants;
    uint32_t variant_count;
    uint32_t union_offset;
    /* ABI 2: an array whose items may be null (`nullable: true` on the
     * items, docs/contract-language.md §4.6).  Each item is then a struct
     * { bool has_value; T value; } of item_size bytes: has_value at
     * item_has_offset (false: the item was null), the value, read as
     * `items`, at item_value_offset.  False (ABI 1 tables): items are
     * never null and each item is the value itself. */
    bool items_nullable;
    uint32_t item_has_offset, item_value_offset;
    /* ABI 2: a value union (`type: [T1, T2]`, docs/contract-language.md
     * §4.13).  alternatives[0..alternative_count), at most one per JSON
     * type, in contract order.  The C value is a struct whose first member
     * is the kind (an int-sized enum: 0 none, alternative index + 1) and
     * whose `as` member, at union_offset (above), is the C union of the
     * alternatives' values (a string is a contractc_string_t).  NULL and 0
     * in every other value (and in ABI 1 tables). */
    const struct contractc_value *alternatives;
    uint32_t alternative_count;
} contractc_value_t;

/* The offset of `value` in one entry of a map ({ const char *key; size_t
 * key_len; V value; }) whose entry alignment is `align` (its item_align):
 * the key and its length rounded up to the alignment. */
#define CONTRACTC_MAP_VALUE_OFFSET(align)                                       \
    (((sizeof(const char *) + sizeof(size_t)) + (size_t)(align) - 1) /            \
     (size_t)(align) * (size_t)(align))

/* One variant of a tagged union: the tag value that selects it (UTF-8)
 * and the object type it is read as. */
typedef struct contractc_variant {
    const char *name;
    uint32_t name_len;
    const struct contractc_object *object;
} contractc_variant_t;

/* One key of an object. */
typedef struct contractc_field {
    const char *name;       /* the JSON key, UTF-8 */
    uint32_t name_len;
    const char *path_segment; /* ".name" or "['na me']", appended to paths */
    bool nullable;          /* null is a legal value ("not stated") */
    contractc_value_t value;
    /* Offsets in the owning struct (bytes).  has_offset: the bool has_X of a
     * nullable or optional field; aux_offset: the size_t X_len of a string or
     * X_count of an array.  UINT32_MAX where absent. */
    uint32_t offset, has_offset, aux_offset;
    /* ABI 2: `optional: true` (docs/contract-language.md §4.10).  The key
     * may be absent: has_X stays false and it is no problem.  null_offset:
     * the bool X_null of a field both optional and nullable (true: the reply
     * said null); CONTRACTC_ABSENT for every other field of an ABI 2 table
     * (0 in ABI 1 tables; read only when optional and nullable are set). */
    bool optional;
    uint32_t null_offset;
} contractc_field_t;

typedef enum contractc_rule_kind {
    CONTRACTC_RULE_ALL_OR_NONE = 1,
    CONTRACTC_RULE_AT_MOST_ONE,
    CONTRACTC_RULE_EXACTLY_ONE,
    CONTRACTC_RULE_SUM,
    CONTRACTC_RULE_COMPARE,
    CONTRACTC_RULE_CHECK
} contractc_rule_kind_t;

typedef enum contractc_compare_op {
    CONTRACTC_OP_LT = 1, CONTRACTC_OP_LE, CONTRACTC_OP_EQ,
    CONTRACTC_OP_NE, CONTRACTC_OP_GE, CONTRACTC_OP_GT
} contractc_compare_op_t;

typedef struct contractc_rule {
    contractc_rule_kind_t kind;
    const char *id;              /* "rules[0]" unless the contract names it */
    /* all_or_none, at_most_one, exactly_one: the fields (indexes into the
     * owning object's fields). */
    const uint16_t *fields;
    uint32_t field_count;
    /* sum: Σ over array field `sum_array` (of each item's field `sum_item`,
     * or of the items themselves when CONTRACTC_NO_FIELD) equals field
     * `sum_total` within `tolerance` (inclusive, in the operands' units). */
    uint16_t sum_array, sum_item, sum_total;
    int64_t tolerance;
    /* compare: field `left` op field `right`. */
    uint16_t left, right;
    contractc_compare_op_t op;
    /* check: the user's function and its message. */
    contractc_check_fn check;
    /* The rule in words, for the problem message ("amount, currency and
     * amount_text must be all null or all set"). */
    const char *message;
} contractc_rule_t;

typedef struct contractc_object {
    const char *name;                  /* C type name, for messages */
    const contractc_field_t *fields;   /* in contract order */
    uint32_t field_count;
    /* Field indexes sorted by (name_len, name bytes): the key lookup. */
    const uint16_t *lookup;
    const contractc_rule_t *rules;
    uint32_t rule_count;
    uint32_t size, align;              /* C layout of the struct */
} contractc_object_t;

struct contractc_contract {
    uint32_t abi;                      /* CONTRACTC_ABI_VERSION it was made for */
    const char *name;                  /* the contract name */
    uint32_t version;                  /* the contract's `version` */
    const char *hash;                  /* "sha256:" + 64 lowercase hex */
    const contractc_object_t *root;
    uint32_t arena_offset;             /* of `arena_` in the root struct */
    /* reply settings */
    size_t max_bytes;                  /* default 1 MiB */
    uint32_t max_depth;                /* default 64 */
    bool fence_allowed;                /* reply.fence: allow */
    bool needs_source;                 /* a `source` is declared */
    const char *source_name;           /* "the customer email" (for messages); NULL without a source */
    /* The arena bound: an accepted record uses at most
     * arena_factor * reply_len + arena_base bytes of arena. */
    uint32_t arena_factor, arena_base;
};

/* ------------------------------------------------------------------------
 * JSON spans (docs/tools.md, "Exact argument bytes")
 *
 * A tool call's arguments are parsed from their exact bytes: the bytes of
 * a value inside a provider's response, cut from the response text (a
 * tree would re-serialize them and hide `1.0`, big integers and duplicate
 * keys).  These two read with the same strict reader as a reply
 * (docs/contract-language.md §6: RFC 8259, UTF-8, no \u0000, no lone
 * surrogate, bounded depth), so the response around the arguments is held
 * to the same rules.
 * ------------------------------------------------------------------------ */

/* One step of a path into a JSON text: an object member (key, the decoded
 * member name, NUL-terminated) or, with key NULL, an array item (index,
 * 0-based). */
typedef struct contractc_json_step {
    const char *key;
    size_t index;
} contractc_json_step_t;

/*
 * Reads text[0..len) as one JSON text (surrounding white space allowed, no
 * fence) with max_depth open containers at most (0: CONTRACTC_MAX_DEPTH)
 * and follows the steps from the root.  Returns CONTRACTC_OK with *found
 * true and the value's bytes at text[*begin..*end) (the value itself, no
 * white space around it), or *found false when a step leads nowhere (no
 * such key or item, or not an object or array where the step needs one).
 * CONTRACTC_REJECTED when the text is not one acceptable JSON text, or a
 * key on the path occurs twice in its object (ambiguous: never one of
 * them picked); why (why_size bytes, may be NULL) then says what and at
 * which byte.  CONTRACTC_EINVAL for NULL outputs; CONTRACTC_ENOMEM when a
 * long escaped key cannot be decoded.  Nothing is allocated that outlives
 * the call.
 */
contractc_status_t contractc_json_span(const char *text, size_t len, uint32_t max_depth,
                                       const contractc_json_step_t *steps, size_t step_count,
                                       bool *found, size_t *begin, size_t *end, char *why,
                                       size_t why_size);

/*
 * Decodes one JSON string token, quotes included (token[0..len), e.g. a
 * span from contractc_json_span), into out, which must hold len bytes (the
 * decoded text is never longer); *out_len is its length (no NUL added).
 * CONTRACTC_REJECTED when token is not exactly one acceptable string (the
 * reader's rules: a \u0000 or a lone surrogate is rejected);
 * CONTRACTC_EINVAL for NULLs.
 */
contractc_status_t contractc_json_string_decode(const char *token, size_t len, char *out,
                                                size_t *out_len);

/* ------------------------------------------------------------------------
 * Toolsets (docs/tools.md, "Toolsets")
 *
 * An agent offers the model several tools, one contract each, and the
 * model calls one of them by name.  A toolset routes a call to its
 * contract and parses the call's arguments (their exact bytes, e.g. from
 * contractc_tool_calls_read of <contractc/client.h>) with it.
 *
 *   refund_request_t refund;
 *   invoice_t invoice;
 *   const contractc_tool_t tools[] = {{&refund_request_contract, NULL},
 *                                     {&invoice_contract, NULL}};
 *   contractc_toolset_t set = {tools, 2, NULL};
 *   void *const records[] = {&refund, &invoice};
 *   size_t which;
 *   if (contractc_toolset_parse(&set, call->name, call->arguments,
 *                               call->arguments_len, email, email_len,
 *                               &which, records, &problems) == CONTRACTC_OK)
 *       ... records[which] is filled; free it with
 *       contractc_record_free(tools[which].contract, records[which]) ...
 * ------------------------------------------------------------------------ */

/* One tool: the contract that checks its arguments and the name the model
 * calls it by (NULL: the contract's name, as `generate --tool` writes it). */
typedef struct contractc_tool {
    const contractc_contract_t *contract;
    const char *name;
} contractc_tool_t;

/* The tools of one request.  tools[0..count) must have distinct names;
 * options (may be NULL) are used for every parse.  Read-only during a
 * parse, so one set serves any number of threads. */
typedef struct contractc_toolset {
    const contractc_tool_t *tools;
    size_t count;
    const contractc_options_t *options;
} contractc_toolset_t;

/* *out_index when no tool of the set was called. */
#define CONTRACTC_TOOL_NONE ((size_t)-1)

/* The index of the tool called `name` (name_len bytes), or
 * CONTRACTC_TOOL_NONE. */
size_t contractc_toolset_find(const contractc_toolset_t *set, const char *name, size_t name_len);

/*
 * Routes one tool call by `name` (NUL-terminated; NULL: the model called no
 * tool, it answered in text) and parses its arguments (args[0..len), the
 * exact bytes) with that tool's contract, as contractc_parse does.
 *
 * - out_records: set->count pointers, out_records[i] to a record of tool
 *   i's type (its NAME_t).  Only the called tool's record is written: on
 *   CONTRACTC_OK it is filled and owns an arena (contractc_record_free with
 *   that tool's contract, or NAME_free); on a rejection it is zeroed.  The
 *   others are not touched, so one array serves every call of a turn.
 * - source/source_len: handed to the tool's contract when it declares a
 *   source (then required), left out otherwise, so one source serves a
 *   set that mixes both kinds.
 * - *out_index: the called tool's index, or CONTRACTC_TOOL_NONE.
 *
 * A name outside the set, or no name, is CONTRACTC_REJECTED with one
 * document-level problem of kind `unknown_tool` at "$" whose message names
 * the set's tools (the repair turn's words; the log's message carries no
 * byte of the model's name).  Returns CONTRACTC_OK, CONTRACTC_REJECTED,
 * CONTRACTC_ENOMEM, or CONTRACTC_EINVAL (problems->error says why) for
 * NULLs, an empty set, a tool without a contract or name, two tools of one
 * name, or a source the called contract cannot take.
 */
contractc_status_t contractc_toolset_parse(const contractc_toolset_t *set, const char *name,
                                           const char *args, size_t len, const char *source,
                                           size_t source_len, size_t *out_index,
                                           void *const *out_records,
                                           contractc_problems_t *problems);

/*
 * The repair loop over a toolset: an agent's turn, where the model may call
 * any tool of `set` (docs/tools.md, "The loop over a toolset").  As
 * contractc_loop_run, with these differences:
 * - every call is routed by its name through `set` and parsed with that
 *   tool's contract (contractc_toolset_parse); loop->contract and
 *   loop->tool_name are not read, and loop->options serve every parse
 *   (set->options is not read);
 * - a text reply, where a call was asked for, is rejected with one
 *   `unknown_tool` problem ("no tool was called; call one of the tools:
 *   ..."), repaired as a rejected reply is (a user turn);
 * - records: set->count pointers, records[i] to a record of tool i's type,
 *   as contractc_toolset_parse takes them.  Each is zeroed when the run
 *   starts (after the checks below).  On CONTRACTC_OK the first call's
 *   record is filled: records[*out_index] (free it with
 *   contractc_record_free and tools[*out_index].contract), and every other
 *   record is zeroed: the other calls were checked and dropped (read them
 *   again from the transcript or the client's
 *   contractc_chat_last_tool_calls).  Otherwise *out_index is
 *   CONTRACTC_TOOL_NONE and every record is zeroed;
 * - the source goes to the tools whose contract declares one, and is
 *   checked for them before the model is called;
 * - decision->contract is the contract of the tool of the first call that
 *   named a tool of the set in the run's last such attempt (the tool the
 *   run ended with), else set->tools[0].contract: the decision log writes
 *   that contract's name and hash, and each attempt's tool_calls name the
 *   tools called.
 * Returns as contractc_loop_run, and CONTRACTC_EINVAL for an empty set, a
 * tool without a contract, a name or a record, two tools of one name, or a
 * NULL out_index.
 */
contractc_status_t contractc_loop_run_toolset(const contractc_loop_t *loop,
                                              const contractc_toolset_t *set,
                                              contractc_transcript_t *transcript,
                                              const char *source, size_t source_len,
                                              void *const *records, size_t *out_index,
                                              contractc_decision_t *decision);

#ifdef __cplusplus
}
#endif

#endif /* CONTRACTC_CONTRACTC_H */
