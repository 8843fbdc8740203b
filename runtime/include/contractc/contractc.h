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
#define CONTRACTC_ABI_VERSION 1
#define CONTRACTC_ABI_MIN_GENERATED 1

/* ------------------------------------------------------------------------
 * Status codes (append-only; never renumbered)
 * ------------------------------------------------------------------------ */
typedef enum contractc_status {
    CONTRACTC_OK = 0,       /* the reply was accepted; the record is filled */
    CONTRACTC_REJECTED = 1, /* the reply has problems; see the problem list */
    CONTRACTC_ENOMEM = 2,   /* an allocation failed; nothing is returned */
    CONTRACTC_EINVAL = 3    /* bad arguments (NULL pointers, a missing or
                               invalid source text); not a reply problem */
} contractc_status_t;

/* The name of a status ("ok", "rejected", "enomem", "einval"); never NULL. */
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
    X(GROUNDING, "grounding")   /* not found verbatim in the source text */

typedef enum contractc_kind {
#define CONTRACTC_KIND_ENUM_(name, text) CONTRACTC_KIND_##name,
    CONTRACTC_KIND_TABLE(CONTRACTC_KIND_ENUM_)
#undef CONTRACTC_KIND_ENUM_
    CONTRACTC_KIND_COUNT_
} contractc_kind_t;

/* The kind's name as in the design page ("type", "missing", ...); "?" for a
 * value out of range. */
const char *contractc_kind_name(contractc_kind_t kind);

/* True for empty, syntax, encoding and limit. */
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
 * Descriptor tables (written by the generator, or built in memory by
 * `contractc validate`).  All read-only at run time.
 * ------------------------------------------------------------------------ */
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
    CONTRACTC_TYPE_ARRAY
} contractc_type_t;

/* "no field" in rule operand slots. */
#define CONTRACTC_NO_FIELD UINT16_MAX
/* "no bound" for length and item counts. */
#define CONTRACTC_UNBOUNDED UINT32_MAX
/* ±(2^53 − 1): the I-JSON integer range (RFC 7493 section 2.2). */
#define CONTRACTC_INTEGER_MAX INT64_C(9007199254740991)
#define CONTRACTC_INTEGER_MIN (-INT64_C(9007199254740991))

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

/* The type and constraints of one value (a field's, or an array's items). */
typedef struct contractc_value {
    contractc_type_t type;
    /* string */
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
    /* array */
    const struct contractc_value *items;
    uint32_t min_items, max_items;      /* max CONTRACTC_UNBOUNDED */
    uint32_t item_size, item_align;     /* C layout of one item */
    /* A short example of a valid value as JSON text, used in messages
     * ("like \"1250.00\""); NULL: none. */
    const char *example;
    /* Message texts for bounds as written in the contract (decimal and
     * number bounds keep their spelling); NULL: derive from the numbers. */
    const char *minimum_text, *maximum_text;
} contractc_value_t;

/* One key of an object. */
typedef struct contractc_field {
    const char *name;       /* the JSON key, UTF-8 */
    uint32_t name_len;
    const char *path_segment; /* ".name" or "['na me']", appended to paths */
    bool nullable;          /* null is a legal value ("not stated") */
    contractc_value_t value;
    /* Offsets in the owning struct (bytes).  has_offset: the bool has_X of a
     * nullable field; aux_offset: the size_t X_len of a string or X_count of
     * an array.  UINT32_MAX where absent. */
    uint32_t offset, has_offset, aux_offset;
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

/* The context a user check receives (opaque). */
typedef struct contractc_check contractc_check_t;
/* A user check: `object` points at the record (or at one item of a named
 * type); add problems with contractc_check_fail(). */
typedef void (*contractc_check_fn)(const void *object, contractc_check_t *check);

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

typedef struct contractc_contract {
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
} contractc_contract_t;

/* ------------------------------------------------------------------------
 * Parsing
 * ------------------------------------------------------------------------ */
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
 *   (non-NULL, valid UTF-8, at most 4 MiB) when contract->needs_source, and
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

/*
 * Writes an accepted record in the canonical form (design page: compact,
 * keys in contract order, minimal escaping, decimals with `scale` digits,
 * null for absent values).  Returns a NUL-terminated malloc'd string that the
 * caller frees with free(), and its length in *len (len may be NULL); NULL
 * when out of memory.
 */
char *contractc_to_json(const contractc_contract_t *contract, const void *record,
                        size_t *len);

/*
 * The repair turn for a rejected reply: the fixed first line, then one
 * "- PATH: message" line per problem, then "- ... and N more problems" when
 * some were dropped.  *text is malloc'd and NUL-terminated; free() it.
 * Returns CONTRACTC_OK, CONTRACTC_ENOMEM, or CONTRACTC_EINVAL for NULLs.
 */
contractc_status_t contractc_repair_prompt(const contractc_problems_t *problems,
                                           char **text, size_t *len);

/* ------------------------------------------------------------------------
 * User checks (`check:` rules)
 * ------------------------------------------------------------------------ */

/* Adds a `rule` problem at the checked object's path with `message` (copied;
 * shown to the model and, since it is the user's text, logged as is). */
void contractc_check_fail(contractc_check_t *check, const char *message);
/* The `user` pointer of the parse options (NULL when none was given). */
void *contractc_check_user(const contractc_check_t *check);
/* The source text (NULL when the contract has none); its length in *len. */
const char *contractc_check_source(const contractc_check_t *check, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* CONTRACTC_CONTRACTC_H */
