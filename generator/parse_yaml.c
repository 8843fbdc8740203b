/* SPDX-License-Identifier: MIT */
/*
 * parse_yaml.c - contract YAML -> model (stages.h: cc_parse_yaml), the
 * pipeline's first stage.
 *
 * The grammar of a contract (docs/contract-language.md §3, "A contract"), as
 * YAML nodes.  MAP{...} is a block or flow mapping with exactly these keys
 * (others are errors, with a suggestion), SEQ[...] a sequence; `*` marks a
 * required key.
 *
 *   contract    ::= MAP{ contract*: NAME, version*: INT>=1,
 *                        description: STR, instruction*: STR,
 *                        source: MAP{ name*: STR, description: STR },
 *                        types: MAP{ TYPE_NAME: named_type ... },
 *                        fields*: fields, rules: rules,
 *                        reply: MAP{ fence: allow|reject,
 *                                    max_bytes: INT 1..2^30,
 *                                    max_depth: INT 1..1024 },
 *                        schema: MAP{ dialect: DIALECT } }
 *   named_type  ::= MAP{ fields*: fields, rules: rules }      (an object)
 *                 | MAP{ values*: values }                    (an enum)
 *   fields      ::= MAP{ FIELD_NAME: field ... }              (1..1024 keys)
 *   field       ::= MAP{ type*: TYPE, description: STR, format_text: STR,
 *                        example: SCALAR, nullable: BOOL, optional: BOOL,
 *                        c_name: C_IDENT, constraint... }
 *   items       ::= MAP{ type*: TYPE, nullable: BOOL, constraint... }  (no optional, c_name)
 *   constraint  ::= min_length: INT | max_length: INT | pattern: STR
 *                 | grounded: BOOL                             (string)
 *                 | minimum: BOUND | maximum: BOUND     (integer number decimal)
 *                 | scale*: INT 0..18 | signed: BOOL           (decimal)
 *                 | values*: values                            (enum)
 *                 | fields*: fields                            (object)
 *                 | items*: items | min_items: INT | max_items: INT (array)
 *                 | values*: items | key_pattern: STR
 *                 | min_entries: INT | max_entries: INT           (map, v2)
 *                 | max_bytes: INT                             (json, v2)
 *   values      ::= SEQ[ SCALAR | MAP{ value*: SCALAR, c_name: C_IDENT } ... ] (1 or more)
 *   rules       ::= SEQ[ rule ... ]
 *   rule        ::= MAP{ id: STR, prompt: STR, and exactly one of:
 *                        all_or_none | at_most_one | exactly_one: SEQ[PATH, PATH...],
 *                        sum: MAP{ of*: PATH, equals*: PATH, tolerance: INT|'DEC' },
 *                        compare: MAP{ left*: PATH, op*: OP, right*: PATH },
 *                        check: MAP{ function*: C_IDENT, message: STR } }
 *
 *   A rule's id defaults to its place: "rules[N]" for the record's rules and
 *   "types.T.rules[N]" for named type T's (N counts from 0 in its list), so
 *   ids are unique without being written and stay stable while rules are
 *   only appended.  Written ids must be unique too (check.c).
 *
 *   TYPE    ::= string | integer | number | boolean | decimal | enum | date
 *             | datetime | object | array | TYPE_NAME (a key of `types`)
 *             | map (v2: a field's type only, not items' or values')
 *   NAME    ::= [a-z][a-z0-9_]*        TYPE_NAME ::= [A-Za-z_][A-Za-z0-9_]*
 *   FIELD_NAME ::= any non-empty string: the JSON key, byte for byte (v2)
 *   C_IDENT ::= [A-Za-z_][A-Za-z0-9_]*, not a C or C++ keyword
 *   PATH    ::= the keys from the rule's object, an identifier alone or after
 *               '.', any other key in RFC 9535 brackets ['first-name'] (check.c)
 *   INT     ::= plain scalar -?(0|[1-9][0-9]*)     BOOL ::= plain true | false
 *   BOUND   ::= INT (integer), a JSON number (number), a quoted decimal
 *               string with at most `scale` fraction digits (decimal)
 *   OP      ::= < | <= | == | != | >= | >
 *   DIALECT ::= openai-strict | gemini | anthropic | llama-cpp
 *
 * YAML typing is ours, not libyaml's (it hands over untyped scalars): a
 * quoted scalar is always a string, so `"4"` where an integer is wanted is
 * an error, and YAML 1.1 spellings (yes, on, 0x10, 1e3) are never numbers
 * or booleans.  Anchors, aliases, tags and merge keys are refused: a
 * contract reads the same to a person as to the generator.
 *
 * Two phases.  First the libyaml event stream becomes a small node tree,
 * refusing what YAML allows but contracts do not (and bounded: at most
 * CC_MAX_YAML_NODES nodes, CC_MAX_YAML_NESTING deep; reading stops there);
 * duplicate keys are reported and dropped here, for every mapping at once.
 * Then the tree is walked into the model, checking each key where it
 * stands.  Cross references (named types, rule paths) are check.c's.
 */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "convert.h"
#include "lexical.h"
#include "reserved.h"
#include "stages.h"
#include "text.h"

/* ---- the node tree ---------------------------------------------------- */

typedef enum ykind { Y_SCALAR, Y_MAP, Y_SEQ } ykind_t;

typedef struct ynode {
    ykind_t kind;
    cc_mark_t mark;             /* start, 1-based */
    cc_mark_t end;              /* end (scalars) */
    char *text;                 /* scalar: NUL-terminated, no NUL inside */
    size_t len;
    bool quoted;                /* any style but plain */
    yaml_scalar_style_t style;
    bool poisoned;              /* already reported (alias, tag, ...): skip */
    struct ynode **items;       /* map: key, value, key, value...; seq: items */
    size_t count, capacity;
} ynode_t;

typedef struct loader {
    const char *path;
    cc_diags_t *d;
    const char *text;           /* the contract, after a leading BOM */
    size_t len;
    size_t *lines;              /* byte offset where each line starts (owned) */
    size_t line_count;
    size_t at_line, at_column, at_byte; /* the last mark converted: marks come in
                                           order, so converting stays linear */
    size_t nodes;
    bool oom;
    cc_contract_t *c;
    cc_pattern_budget_t patterns; /* the contract's total pattern work */
} loader_t;

/* The width of the UTF-8 sequence a byte starts (1 for a stray byte). */
static size_t utf8_width(unsigned char ch)
{
    return ch < 0xC0 ? 1 : ch < 0xE0 ? 2 : ch < 0xF0 ? 3 : ch < 0xF8 ? 4 : 1;
}

/* The length of the YAML line break at text[i], 0 if none: CR LF, CR, LF,
 * NEL, LS and PS, as libyaml counts lines. */
static size_t line_break_at(const loader_t *L, size_t i)
{
    const unsigned char *t = (const unsigned char *)L->text;
    size_t rest = L->len - i;
    if (t[i] == '\r')
        return rest > 1 && t[i + 1] == '\n' ? 2 : 1;
    if (t[i] == '\n')
        return 1;
    if (t[i] == 0xC2 && rest > 1 && t[i + 1] == 0x85)
        return 2;
    if (t[i] == 0xE2 && rest > 2 && t[i + 1] == 0x80 && (t[i + 2] == 0xA8 || t[i + 2] == 0xA9))
        return 3;
    return 0;
}

/* Fills L->lines: one pass over the text. */
static bool index_lines(loader_t *L)
{
    size_t count = 1;
    for (size_t i = 0; i < L->len;) {
        size_t b = line_break_at(L, i);
        count += b != 0;
        i += b ? b : 1;
    }
    L->lines = malloc(count * sizeof *L->lines);
    if (!L->lines)
        return false;
    L->lines[0] = 0;
    L->line_count = 1;
    for (size_t i = 0; i < L->len;) {
        size_t b = line_break_at(L, i);
        i += b ? b : 1;
        if (b)
            L->lines[L->line_count++] = i;
    }
    return true;
}

/* A libyaml mark as a diagnostic position: 1-based, and the column in
 * bytes from the start of the line (libyaml counts characters), as reply
 * problems count them (docs/contract-language.md, "Fine print"). */
static cc_mark_t mark_of(loader_t *L, yaml_mark_t m)
{
    cc_mark_t r;
    r.line = (unsigned)(m.line + 1);
    r.column = (unsigned)(m.column + 1);
    if (m.line >= L->line_count)
        return r;
    size_t i = L->lines[m.line], k = 0;
    if (L->at_line == m.line && L->at_column <= m.column && L->at_byte >= i) {
        i = L->at_byte;
        k = L->at_column;
    }
    for (; k < m.column && i < L->len; k++)
        i += utf8_width((unsigned char)L->text[i]);
    L->at_line = m.line;
    L->at_column = k;
    L->at_byte = i;
    r.column = (unsigned)(i - L->lines[m.line] + 1);
    return r;
}

static void node_free(ynode_t *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->count; i++)
        node_free(n->items[i]);
    free(n->items);
    free(n->text);
    free(n);
}

static bool node_append(ynode_t *parent, ynode_t *child)
{
    if (parent->count == parent->capacity) {
        size_t cap = parent->capacity ? parent->capacity * 2 : 8;
        ynode_t **p = realloc(parent->items, cap * sizeof *p);
        if (!p)
            return false;
        parent->items = p;
        parent->capacity = cap;
    }
    parent->items[parent->count++] = child;
    return true;
}

static const char *kind_phrase(const ynode_t *n)
{
    switch (n->kind) {
    case Y_MAP: return "a mapping";
    case Y_SEQ: return "a sequence";
    case Y_SCALAR: break;
    }
    return n->quoted ? "a string" : "a scalar";
}

/* Line and column (bytes, 1-based) of a byte offset: libyaml's reader
 * errors carry an offset but no mark. */
static cc_mark_t mark_at_offset(const loader_t *L, size_t offset)
{
    cc_mark_t m = {1, 1};
    if (offset > L->len)
        offset = L->len;
    size_t lo = 0, hi = L->line_count; /* the last line starting at or before offset */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (L->lines[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    if (L->line_count) {
        m.line = (unsigned)(lo + 1);
        m.column = (unsigned)(offset - L->lines[lo] + 1);
    }
    return m;
}

/* "bytes ef bf bf" or "byte 01": the bytes of the UTF-8 sequence at
 * offset (as many as its leading byte says and the text holds); "" past
 * the end. */
static void sequence_bytes(const loader_t *L, size_t offset, char *out, size_t size)
{
    size_t n = offset < L->len ? utf8_width((unsigned char)L->text[offset]) : 0;
    if (n > L->len - offset)
        n = L->len - offset;
    out[0] = '\0';
    size_t k = n ? (size_t)snprintf(out, size, n > 1 ? "bytes" : "byte") : 0;
    for (size_t i = 0; i < n && k + 4 < size; i++)
        k += (size_t)snprintf(out + k, size - k, " %02x",
                              (unsigned)(unsigned char)L->text[offset + i]);
}

/* What a code point libyaml refuses is. */
static const char *refused_character(long value)
{
    if (value >= 0xD800 && value <= 0xDFFF)
        return "a UTF-16 surrogate, which UTF-8 text never holds";
    if (value > 0x10FFFF)
        return "beyond U+10FFFF, the last code point";
    if (value == 0xFFFE || value == 0xFFFF)
        return "a non-character, which YAML does not allow";
    return "a control character, which YAML does not allow";
}

/* The plain scalar around text[offset] that holds '[' or ']', for the
 * quoting hint: "items[].amount". */
static bool bracketed_plain_scalar(const loader_t *L, size_t offset, size_t *start,
                                   size_t *end)
{
    if (offset >= L->len || (L->text[offset] != '[' && L->text[offset] != ']'))
        return false;
#define NAME_BYTE(c) (((c) >= 'A' && (c) <= 'Z') || ((c) >= 'a' && (c) <= 'z') || \
                      ((c) >= '0' && (c) <= '9') || (c) == '_' || (c) == '.')
    /* the name, dots and "[]" pairs around it, never a flow bracket */
    const char *t = L->text;
    size_t a = offset, b = offset;
    if (t[offset] == ']')
        a = b = offset - (offset > 0 && t[offset - 1] == '[');
    while (a > 0 && (NAME_BYTE(t[a - 1]) || (a > 1 && t[a - 1] == ']' && t[a - 2] == '[')))
        a -= NAME_BYTE(t[a - 1]) ? 1 : 2;
    while (b < L->len && (NAME_BYTE(t[b]) || (b + 1 < L->len && t[b] == '[' && t[b + 1] == ']')))
        b += NAME_BYTE(t[b]) ? 1 : 2;
#undef NAME_BYTE
    /* a name before the bracket: "a[]", never a flow sequence "[a" */
    if (a == offset || b <= offset)
        return false;
    *start = a;
    *end = b;
    return true;
}

static void report_parser_error(loader_t *L, const yaml_parser_t *p)
{
    const char *problem = p->problem ? p->problem : "unknown error";
    char bytes[24];
    switch (p->error) {
    case YAML_MEMORY_ERROR:
        L->oom = true;
        break;
    case YAML_READER_ERROR: {
        /* libyaml's problem_value is a code point for "invalid Unicode
         * character" and "control characters are not allowed", the
         * offending byte for the octet errors, -1 otherwise; its offset is
         * where the character (or the byte) starts. */
        cc_mark_t at = mark_at_offset(L, p->problem_offset);
        sequence_bytes(L, p->problem_offset, bytes, sizeof bytes);
        if (p->problem_value != -1 && (strstr(problem, "Unicode character") ||
                                       strstr(problem, "control characters")))
            cc_error(L->d, L->path, at,
                     "invalid YAML: the character U+%04lX (%s) is %s; remove it",
                     (unsigned long)p->problem_value, bytes,
                     refused_character((long)p->problem_value));
        else if (p->problem_value != -1)
            cc_error(L->d, L->path, at,
                     "invalid YAML: %s (byte 0x%02x); a contract is UTF-8 text", problem,
                     (unsigned)p->problem_value & 0xFFu);
        else if (bytes[0])
            cc_error(L->d, L->path, at, "invalid YAML: %s (%s); a contract is UTF-8 text",
                     problem, bytes);
        else
            cc_error(L->d, L->path, at, "invalid YAML: %s", problem);
        break;
    }
    default: {
        cc_mark_t at = mark_of(L, p->problem_mark);
        size_t a, b;
        size_t offset = at.line - 1 < L->line_count ? L->lines[at.line - 1] + at.column - 1 : 0;
        if (strstr(problem, "did not find expected ','") &&
            bracketed_plain_scalar(L, offset, &a, &b))
            /* of: items[].amount inside { }: YAML reads '[' as a sequence */
            cc_error(L->d, L->path, at,
                     "invalid YAML: %s; inside { } or [ ] a path with brackets must be quoted: "
                     "\"%.*s\"", problem, (int)(b - a), L->text + a);
        else
            cc_error(L->d, L->path, at, "invalid YAML: %s", problem);
        if (p->context)
            cc_diag_related(L->d, L->path, mark_of(L, p->context_mark), "%s", p->context);
        break;
    }
    }
}

/* Anchors and tags are refused on every node: they make a contract read
 * differently to a person than to the generator. */
static bool refuse_properties(loader_t *L, const yaml_char_t *anchor,
                              const yaml_char_t *tag, yaml_mark_t at)
{
    bool bad = false;
    if (anchor) {
        cc_error(L->d, L->path, mark_of(L, at),
                 "anchors ('&%s') are not supported in a contract; write the value out",
                 (const char *)anchor);
        bad = true;
    }
    if (tag) {
        const char *t = (const char *)tag;
        const char *core = "tag:yaml.org,2002:";
        if (strncmp(t, core, strlen(core)) == 0)
            cc_error(L->d, L->path, mark_of(L, at),
                     "tags ('!!%s') are not supported in a contract; the loader types every value itself",
                     t + strlen(core));
        else
            cc_error(L->d, L->path, mark_of(L, at),
                     "tags ('%s') are not supported in a contract; the loader types every value itself",
                     t);
        bad = true;
    }
    return bad;
}

static int compare_key_ptrs(const void *a, const void *b)
{
    const ynode_t *x = **(ynode_t *const *const *)a, *y = **(ynode_t *const *const *)b;
    int r = strcmp(x->text, y->text);
    if (r)
        return r;
    /* equal keys: the earlier one first */
    if (x->mark.line != y->mark.line)
        return x->mark.line < y->mark.line ? -1 : 1;
    return x->mark.column < y->mark.column ? -1 : (x->mark.column > y->mark.column);
}

/* Checks the keys of a finished mapping: each is a scalar, not a merge key,
 * and not present twice (sorted, so n log n even for 65,536 keys).  A bad
 * or repeated pair is reported and removed, so the model sees each key once,
 * the first as written. */
static bool finish_mapping(loader_t *L, ynode_t *map)
{
    size_t pairs = map->count / 2;
    bool *drop = calloc(pairs ? pairs : 1, sizeof *drop);
    ynode_t ***sorted = malloc((pairs ? pairs : 1) * sizeof *sorted);
    if (!drop || !sorted) {
        free(drop);
        free(sorted);
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < pairs; i++) {
        ynode_t *k = map->items[2 * i];
        if (k->poisoned) {
            drop[i] = true;
        } else if (k->kind != Y_SCALAR) {
            cc_error(L->d, L->path, k->mark, "a mapping key must be a plain name, not %s",
                     kind_phrase(k));
            drop[i] = true;
        } else if (!k->quoted && strcmp(k->text, "<<") == 0) {
            cc_error(L->d, L->path, k->mark,
                     "merge keys ('<<') are not supported in a contract; write the keys out");
            drop[i] = true;
        } else {
            sorted[n++] = &map->items[2 * i];
        }
    }
    if (n > 1) /* qsort's pointer must not be NULL, even for 0 items */
        qsort(sorted, n, sizeof *sorted, compare_key_ptrs);
    for (size_t i = 1; i < n; i++) {
        const ynode_t *first = *sorted[i - 1], *again = *sorted[i];
        if (strcmp(first->text, again->text) != 0)
            continue;
        /* find the first of the run for the note */
        size_t j = i - 1;
        while (j > 0 && strcmp((*sorted[j - 1])->text, again->text) == 0)
            j--;
        first = *sorted[j];
        cc_error(L->d, L->path, again->mark, "duplicate key '%s'", again->text);
        cc_diag_related(L->d, L->path, first->mark, "'%s' first appears here", first->text);
        drop[(size_t)(sorted[i] - map->items) / 2] = true;
    }
    free(sorted);
    size_t out = 0;
    for (size_t i = 0; i < pairs; i++) {
        if (drop[i]) {
            node_free(map->items[2 * i]);
            node_free(map->items[2 * i + 1]);
        } else {
            map->items[out++] = map->items[2 * i];
            map->items[out++] = map->items[2 * i + 1];
        }
    }
    map->count = out;
    free(drop);
    return true;
}

/* Reads the event stream into a tree.  Returns the root (NULL for an empty
 * stream or when reading stopped on an error, which is then reported). */
static ynode_t *read_tree(loader_t *L, bool *stopped)
{
    yaml_parser_t parser;
    ynode_t *stack[CC_MAX_YAML_NESTING];
    size_t depth = 0;
    ynode_t *root = NULL;
    unsigned documents = 0;
    bool done = false;

    *stopped = false;
    if (!yaml_parser_initialize(&parser)) {
        L->oom = true;
        *stopped = true;
        return NULL;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)L->text, L->len);
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);

    while (!done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            report_parser_error(L, &parser);
            *stopped = true;
            break;
        }
        ynode_t *node = NULL;
        bool close = false;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (++documents > 1) {
                cc_error(L->d, L->path, mark_of(L, ev.start_mark),
                         "a contract file holds one YAML document; this is a second one");
                *stopped = true;
                done = true;
            }
            break;
        case YAML_ALIAS_EVENT:
            cc_error(L->d, L->path, mark_of(L, ev.start_mark),
                     "aliases ('*%s') are not supported in a contract; write the value out",
                     (const char *)ev.data.alias.anchor);
            node = calloc(1, sizeof *node);
            if (node) {
                node->kind = Y_SCALAR;
                node->poisoned = true;
                node->mark = node->end = mark_of(L, ev.start_mark);
                node->text = cc_strdup("");
            }
            break;
        case YAML_SCALAR_EVENT:
            node = calloc(1, sizeof *node);
            if (!node)
                break;
            node->kind = Y_SCALAR;
            node->mark = mark_of(L, ev.start_mark);
            node->end = mark_of(L, ev.end_mark);
            node->style = ev.data.scalar.style;
            node->quoted = ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
            node->len = ev.data.scalar.length;
            node->text = cc_strndup((const char *)ev.data.scalar.value, ev.data.scalar.length);
            node->poisoned = refuse_properties(L, ev.data.scalar.anchor, ev.data.scalar.tag,
                                               ev.start_mark);
            if (node->text && memchr(ev.data.scalar.value, '\0', ev.data.scalar.length)) {
                cc_error(L->d, L->path, node->mark,
                         "a NUL character is not allowed in a contract value");
                node->poisoned = true;
            }
            break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            node = calloc(1, sizeof *node);
            if (!node)
                break;
            node->kind = ev.type == YAML_MAPPING_START_EVENT ? Y_MAP : Y_SEQ;
            node->mark = node->end = mark_of(L, ev.start_mark);
            node->poisoned = ev.type == YAML_MAPPING_START_EVENT
                ? refuse_properties(L, ev.data.mapping_start.anchor,
                                    ev.data.mapping_start.tag, ev.start_mark)
                : refuse_properties(L, ev.data.sequence_start.anchor,
                                    ev.data.sequence_start.tag, ev.start_mark);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            close = true;
            break;
        default:
            break;
        }
        /* yaml_event_delete zeroes the event: keep its type for the
         * out-of-memory test below */
        const yaml_event_type_t type = ev.type;
        yaml_event_delete(&ev);

        if (close && depth > 0) {
            ynode_t *top = stack[--depth];
            if (top->kind == Y_MAP && !finish_mapping(L, top))
                L->oom = true;
        }
        if (node) {
            if (!node->text && node->kind == Y_SCALAR) {
                node_free(node);
                node = NULL;
                L->oom = true;
            } else if (++L->nodes > CC_MAX_YAML_NODES) {
                cc_error(L->d, L->path, node->mark,
                         "the contract has more than %d YAML nodes, the limit", CC_MAX_YAML_NODES);
                node_free(node);
                *stopped = true;
                break;
            } else if (depth > 0) {
                if (!node_append(stack[depth - 1], node)) {
                    node_free(node);
                    L->oom = true;
                    node = NULL;
                }
            } else if (!root) {
                root = node;
            } else {
                node_free(node); /* cannot happen: one root per document */
                node = NULL;
            }
            if (node && node->kind != Y_SCALAR) {
                if (depth == CC_MAX_YAML_NESTING) {
                    cc_error(L->d, L->path, node->mark,
                             "the contract nests more than %d YAML collections, the limit",
                             CC_MAX_YAML_NESTING);
                    *stopped = true;
                    break;
                }
                stack[depth++] = node;
            }
        } else if (!close && (type == YAML_SCALAR_EVENT || type == YAML_ALIAS_EVENT ||
                              type == YAML_SEQUENCE_START_EVENT ||
                              type == YAML_MAPPING_START_EVENT)) {
            L->oom = true;
        }
        if (L->oom) {
            *stopped = true;
            break;
        }
    }
    yaml_parser_delete(&parser);
    if (*stopped) {
        node_free(root);
        return NULL;
    }
    return root;
}

/* ---- typed scalars ---------------------------------------------------- */

/* The value of a mapping key, for messages. */
static const char *key_text(const ynode_t *map, size_t pair)
{
    return map->items[2 * pair]->text;
}

static bool is_null_scalar(const ynode_t *n)
{
    return n->kind == Y_SCALAR && !n->quoted &&
           (n->len == 0 || strcmp(n->text, "~") == 0 || strcmp(n->text, "null") == 0 ||
            strcmp(n->text, "Null") == 0 || strcmp(n->text, "NULL") == 0);
}

/* A string value: any scalar style, but not an empty or null plain scalar. */
static char *get_string(loader_t *L, const ynode_t *n, const char *key)
{
    if (n->poisoned)
        return NULL;
    if (n->kind != Y_SCALAR) {
        cc_error(L->d, L->path, n->mark, "'%s' expects a string, found %s", key, kind_phrase(n));
        return NULL;
    }
    if (is_null_scalar(n)) {
        cc_error(L->d, L->path, n->mark, "'%s' expects a string, found %s", key,
                 n->len ? "null" : "nothing");
        return NULL;
    }
    char *s = cc_strdup(n->text);
    if (!s)
        L->oom = true;
    return s;
}

/* An integer value: a plain scalar -?(0|[1-9][0-9]*) within [min, max]. */
static bool get_int(loader_t *L, const ynode_t *n, const char *key, int64_t min, int64_t max,
                    int64_t *out)
{
    if (n->poisoned)
        return false;
    if (n->kind != Y_SCALAR || n->quoted) {
        cc_error(L->d, L->path, n->mark, "'%s' expects an integer, found %s", key,
                 kind_phrase(n));
        return false;
    }
    if (!cc_is_integer_text(n->text)) {
        cc_error(L->d, L->path, n->mark, "'%s' expects an integer, found '%s'", key, n->text);
        return false;
    }
    /* Accumulate negatively: covers INT64_MIN and detects overflow. */
    const char *s = n->text;
    bool neg = *s == '-';
    if (neg)
        s++;
    int64_t v = 0;
    bool overflow = false;
    for (; *s; s++) {
        int dgt = *s - '0';
        if (v < (INT64_MIN + dgt) / 10) {
            overflow = true;
            break;
        }
        v = v * 10 - dgt;
    }
    if (!neg && !overflow && v == INT64_MIN)
        overflow = true;
    if (!overflow && !neg)
        v = -v;
    if (overflow || v < min || v > max) {
        cc_error(L->d, L->path, n->mark, "'%s' must be between %lld and %lld, not %s", key,
                 (long long)min, (long long)max, n->text);
        return false;
    }
    *out = v;
    return true;
}

static bool get_bool(loader_t *L, const ynode_t *n, const char *key, bool *out)
{
    if (n->poisoned)
        return false;
    if (n->kind == Y_SCALAR && !n->quoted) {
        if (strcmp(n->text, "true") == 0) {
            *out = true;
            return true;
        }
        if (strcmp(n->text, "false") == 0) {
            *out = false;
            return true;
        }
        cc_error(L->d, L->path, n->mark, "'%s' expects true or false, found '%s'", key, n->text);
        return false;
    }
    cc_error(L->d, L->path, n->mark, "'%s' expects true or false, found %s", key, kind_phrase(n));
    return false;
}

static bool expect_kind(loader_t *L, const ynode_t *n, ykind_t kind, const char *key)
{
    if (n->poisoned)
        return false;
    if (n->kind == kind)
        return true;
    cc_error(L->d, L->path, n->mark, "'%s' expects %s, found %s", key,
             kind == Y_MAP ? "a mapping" : "a sequence", kind_phrase(n));
    return false;
}

/* ---- keys ------------------------------------------------------------- */

/* Sorts the pairs of `map` into slots[i] for names[i]; reports every other
 * key but `deferred` (NULL: none; the caller reports it, knowing more) as
 * unknown "IN_WHAT" with the closest name as a suggestion. */
static void collect_keys_except(loader_t *L, const ynode_t *map, const char *const *names,
                                size_t n, const ynode_t **slots, const ynode_t **slot_keys,
                                const char *in_what, const char *deferred)
{
    for (size_t i = 0; i < n; i++) {
        slots[i] = NULL;
        if (slot_keys)
            slot_keys[i] = NULL;
    }
    for (size_t p = 0; p < map->count / 2; p++) {
        const char *k = key_text(map, p);
        size_t i = 0;
        while (i < n && strcmp(names[i], k) != 0)
            i++;
        if (i < n) {
            slots[i] = map->items[2 * p + 1];
            if (slot_keys)
                slot_keys[i] = map->items[2 * p];
            continue;
        }
        if (deferred && strcmp(k, deferred) == 0)
            continue;
        const char *near = cc_suggest(k, names, n);
        if (near)
            cc_error(L->d, L->path, map->items[2 * p]->mark,
                     "unknown key '%s' %s; did you mean '%s'?", k, in_what, near);
        else
            cc_error(L->d, L->path, map->items[2 * p]->mark, "unknown key '%s' %s", k, in_what);
    }
}

static void collect_keys(loader_t *L, const ynode_t *map, const char *const *names, size_t n,
                         const ynode_t **slots, const ynode_t **slot_keys, const char *in_what)
{
    collect_keys_except(L, map, names, n, slots, slot_keys, in_what, NULL);
}

/* The key node named `key` in `map`, or NULL. */
static const ynode_t *find_key(const ynode_t *map, const char *key)
{
    for (size_t p = 0; p < map->count / 2; p++)
        if (strcmp(map->items[2 * p]->text, key) == 0)
            return map->items[2 * p];
    return NULL;
}

static void missing_key(loader_t *L, cc_mark_t at, const char *key, const char *in_what)
{
    cc_error(L->d, L->path, at, "missing key '%s' %s", key, in_what);
}

/* ---- fields ----------------------------------------------------------- */

enum field_key {
    FK_TYPE, FK_DESCRIPTION, FK_FORMAT_TEXT, FK_EXAMPLE, FK_NULLABLE,
    FK_MIN_LENGTH, FK_MAX_LENGTH, FK_PATTERN, FK_GROUNDED,
    FK_MINIMUM, FK_MAXIMUM, FK_SCALE, FK_SIGNED, FK_VALUES, FK_FIELDS,
    FK_ITEMS, FK_MIN_ITEMS, FK_MAX_ITEMS,
    FK_OPTIONAL, FK_C_NAME, /* v2 keys and optional */
    FK_TAG, FK_VARIANTS,    /* v2 tagged unions */
    FK_KEY_PATTERN, FK_MIN_ENTRIES, FK_MAX_ENTRIES, /* v2 map */
    FK_MAX_BYTES,           /* v2 json */
    FK_COUNT
};

static const char *const field_keys[FK_COUNT] = {
    "type", "description", "format_text", "example", "nullable",
    "min_length", "max_length", "pattern", "grounded",
    "minimum", "maximum", "scale", "signed", "values", "fields",
    "items", "min_items", "max_items",
    "optional", "c_name",
    "tag", "variants",
    "key_pattern", "min_entries", "max_entries",
    "max_bytes"
};

#define TBIT(t) (1u << (t))
/* Which types each key is valid for; 0 = every type (the common keys). */
static const unsigned field_key_types[FK_COUNT] = {
    0, 0, 0, 0, 0,
    TBIT(CONTRACTC_TYPE_STRING), TBIT(CONTRACTC_TYPE_STRING), TBIT(CONTRACTC_TYPE_STRING),
    TBIT(CONTRACTC_TYPE_STRING),
    TBIT(CONTRACTC_TYPE_INTEGER) | TBIT(CONTRACTC_TYPE_NUMBER) | TBIT(CONTRACTC_TYPE_DECIMAL),
    TBIT(CONTRACTC_TYPE_INTEGER) | TBIT(CONTRACTC_TYPE_NUMBER) | TBIT(CONTRACTC_TYPE_DECIMAL),
    TBIT(CONTRACTC_TYPE_DECIMAL), TBIT(CONTRACTC_TYPE_DECIMAL),
    TBIT(CONTRACTC_TYPE_ENUM) | TBIT(CONTRACTC_TYPE_MAP), TBIT(CONTRACTC_TYPE_OBJECT),
    TBIT(CONTRACTC_TYPE_ARRAY), TBIT(CONTRACTC_TYPE_ARRAY), TBIT(CONTRACTC_TYPE_ARRAY),
    0, 0,
    TBIT(CONTRACTC_TYPE_UNION), TBIT(CONTRACTC_TYPE_UNION),
    TBIT(CONTRACTC_TYPE_MAP), TBIT(CONTRACTC_TYPE_MAP), TBIT(CONTRACTC_TYPE_MAP),
    TBIT(CONTRACTC_TYPE_JSON)
};

static const char *const builtin_types[] = {
    "string", "integer", "number", "boolean", "decimal",
    "enum", "date", "datetime", "object", "array",
    "union", /* CONTRACTC_TYPE_UNION: the position gives the type */
    "map", /* v2: not in CONTRACTC_TYPE_* order; builtin_type() names it first */
    "json" /* v2, likewise */
};
#define BUILTIN_COUNT (sizeof builtin_types / sizeof builtin_types[0])

static contractc_type_t builtin_type(const char *name)
{
    if (strcmp(name, "map") == 0) /* v2 (docs/contract-language.md §4.12) */
        return CONTRACTC_TYPE_MAP;
    if (strcmp(name, "json") == 0) /* v2 (docs/contract-language.md §4.14) */
        return CONTRACTC_TYPE_JSON;
    for (size_t i = 0; i + 2 < BUILTIN_COUNT; i++)
        if (strcmp(builtin_types[i], name) == 0)
            return (contractc_type_t)(CONTRACTC_TYPE_STRING + (int)i);
    return (contractc_type_t)0;
}

static const cc_named_type_t *find_named(const cc_contract_t *c, const char *name)
{
    for (size_t i = 0; i < c->type_count; i++)
        if (strcmp(c->types[i].name, name) == 0)
            return &c->types[i];
    return NULL;
}

/* Where a field sits, for messages: "field 'a.b'" or "field 'x' of type 'T'". */
typedef struct where {
    const char *path;       /* "line_items[].amount_cents" */
    const char *type_name;  /* the named type the field belongs to; NULL: the record */
    bool items;             /* describing the `items` of `path` */
    bool map_values;        /* describing the `values` of map `path` */
    const char *alternative; /* v2: describing this alternative of value union `path`
                                ("string", "the 2nd"); NULL: none */
} where_t;

static char *where_text(const where_t *w)
{
    cc_buf_t b = CC_BUF_INIT;
    if (w->alternative)
        cc_buf_printf(&b, "in alternative %s of ", w->alternative);
    cc_buf_printf(&b, "%sfield '%s'",
                  w->alternative ? (w->items ? "the items of " : w->map_values ? "the values of " : "")
                  : w->items ? "in the items of " : w->map_values ? "in the values of " : "in ",
                  w->path);
    if (w->type_name)
        cc_buf_printf(&b, " of type '%s'", w->type_name);
    return cc_buf_take(&b, NULL);
}

static void load_object_fields(loader_t *L, const ynode_t *map, cc_object_t *o,
                               const char *prefix, const char *type_name);
static void load_rules(loader_t *L, const ynode_t *seq, cc_object_t *o, const char *id_prefix);

/* A length or item count bound: 0 .. 2^32 - 2 (UINT32_MAX means none). */
static bool get_count(loader_t *L, const ynode_t *n, const char *key, uint32_t *out)
{
    int64_t v;
    if (!get_int(L, n, key, 0, (int64_t)UINT32_MAX - 1, &v))
        return false;
    *out = (uint32_t)v;
    return true;
}

/* Column of byte `offset` of a scalar's value, when the scalar shows its
 * text verbatim on one line (plain, or quoted without escapes); else the
 * scalar's own mark.  Columns count bytes. */
static cc_mark_t mark_in_scalar(const ynode_t *n, size_t offset)
{
    cc_mark_t m = n->mark;
    if (n->mark.line != n->end.line || offset > n->len)
        return m;
    bool verbatim = n->style == YAML_PLAIN_SCALAR_STYLE ||
        (n->style == YAML_SINGLE_QUOTED_SCALAR_STYLE && !strchr(n->text, '\'')) ||
        (n->style == YAML_DOUBLE_QUOTED_SCALAR_STYLE && !strchr(n->text, '\\') &&
         !strchr(n->text, '"'));
    if (!verbatim)
        return m;
    m.column += (unsigned)offset + (n->style == YAML_PLAIN_SCALAR_STYLE ? 0 : 1);
    return m;
}

/* A decimal bound ("0.5" for scale 2) in minor units: at most `scale`
 * fraction digits, padded, then read with the runtime's own conversion. */
static bool get_decimal_bound(loader_t *L, const ynode_t *n, const char *key, uint8_t scale,
                              int64_t *out)
{
    if (n->poisoned)
        return false;
    if (n->kind != Y_SCALAR || !n->quoted) {
        cc_error(L->d, L->path, n->mark,
                 "'%s' of a decimal expects a quoted decimal string such as '10.00', found %s",
                 key, n->kind == Y_SCALAR ? "a number" : kind_phrase(n));
        return false;
    }
    const char *s = n->text;
    const char *dot = strchr(s, '.');
    size_t frac = dot ? strlen(dot + 1) : 0;
    if (dot && frac > scale) {
        cc_error(L->d, L->path, n->mark,
                 "'%s' \"%s\" has %zu fraction digits; the field's scale is %u", key, s, frac,
                 (unsigned)scale);
        return false;
    }
    char buf[64];
    size_t int_len = dot ? (size_t)(dot - s) : strlen(s);
    if (int_len + 1 + scale >= sizeof buf || (dot && frac == 0)) {
        cc_error(L->d, L->path, n->mark, "'%s' \"%s\" is not a decimal such as \"10.00\"", key, s);
        return false;
    }
    memcpy(buf, s, int_len);
    size_t k = int_len;
    if (scale > 0) {
        buf[k++] = '.';
        for (size_t i = 0; i < scale; i++)
            buf[k++] = i < frac ? dot[1 + i] : '0';
    }
    buf[k] = '\0';
    cc_convert_t r = cc_convert_decimal(buf, k, scale, true, out);
    if (r == CC_CONVERT_FORMAT) {
        cc_error(L->d, L->path, n->mark, "'%s' \"%s\" is not a decimal such as \"10.00\"", key, s);
        return false;
    }
    if (r == CC_CONVERT_RANGE) {
        cc_error(L->d, L->path, n->mark, "'%s' \"%s\" is out of range for a decimal of scale %u",
                 key, s, (unsigned)scale);
        return false;
    }
    return true;
}

static bool get_number_bound(loader_t *L, const ynode_t *n, const char *key, double *out)
{
    if (n->poisoned)
        return false;
    if (n->kind != Y_SCALAR || n->quoted) {
        cc_error(L->d, L->path, n->mark, "'%s' expects a number, found %s", key, kind_phrase(n));
        return false;
    }
    if (!cc_is_json_number(n->text)) {
        cc_error(L->d, L->path, n->mark, "'%s' expects a number such as 0.5, found '%s'", key,
                 n->text);
        return false;
    }
    if (cc_convert_number(n->text, n->len, out) != CC_CONVERT_OK) {
        cc_error(L->d, L->path, n->mark, "'%s' %s is out of the range of a double", key, n->text);
        return false;
    }
    return true;
}

typedef struct value_ref {
    const char *text;
    size_t index;
} value_ref_t;

static int compare_value_refs(const void *a, const void *b)
{
    const value_ref_t *x = a, *y = b;
    int r = strcmp(x->text, y->text);
    return r ? r : (x->index < y->index ? -1 : (x->index > y->index));
}

/* Reports each value written twice (sorted: n log n for any count) and
 * keeps the first of each, in the written order. */
static void drop_duplicate_values(loader_t *L, cc_enum_t *e)
{
    if (e->count < 2)
        return;
    value_ref_t *refs = malloc(e->count * sizeof *refs);
    bool *drop = calloc(e->count, sizeof *drop);
    if (!refs || !drop) {
        free(refs);
        free(drop);
        L->oom = true;
        return;
    }
    for (size_t i = 0; i < e->count; i++) {
        refs[i].text = e->values[i];
        refs[i].index = i;
    }
    if (e->count > 1) /* qsort's pointer must not be NULL, even for 0 items */
        qsort(refs, e->count, sizeof *refs, compare_value_refs);
    size_t first = 0;
    for (size_t i = 1; i < e->count; i++) {
        if (strcmp(refs[i].text, refs[first].text) != 0) {
            first = i;
            continue;
        }
        cc_error(L->d, L->path, e->value_marks[refs[i].index], "duplicate enum value '%s'",
                 refs[i].text);
        cc_diag_related(L->d, L->path, e->value_marks[refs[first].index],
                        "'%s' first appears here", refs[first].text);
        drop[refs[i].index] = true;
    }
    free(refs);
    size_t out = 0;
    for (size_t i = 0; i < e->count; i++) {
        if (drop[i]) {
            free(e->values[i]);
            if (e->c_names)
                free(e->c_names[i]);
            continue;
        }
        e->values[out] = e->values[i];
        if (e->c_names) {
            e->c_names[out] = e->c_names[i];
            e->c_name_marks[out] = e->c_name_marks[i];
        }
        e->value_marks[out++] = e->value_marks[i];
    }
    e->count = out;
    free(drop);
}

/* `c_name: IDENT` (a field's member, an enum value's constant): a C
 * identifier that is not a C or C++ keyword (a derived name gets a '_'
 * after a keyword; a chosen one is refused instead).  Whether it collides
 * or is reserved is naming.c's. */
static void get_c_name(loader_t *L, const ynode_t *n, char **out, cc_mark_t *mark)
{
    char *s = get_string(L, n, "c_name");
    if (!s)
        return;
    if (!cc_is_identifier(s)) {
        cc_error(L->d, L->path, n->mark,
                 "c_name '%s' is not a C identifier; a c_name is [A-Za-z_][A-Za-z0-9_]*", s);
        free(s);
        return;
    }
    if (cc_is_c_keyword(s)) {
        cc_error(L->d, L->path, n->mark,
                 "c_name '%s' is a C or C++ keyword; choose another name, such as '%s_value'", s,
                 s);
        free(s);
        return;
    }
    *out = s;
    *mark = n->mark;
}

/* One enum value written as a mapping, {value: V, c_name: IDENT}: its text
 * into e->values[e->count], its c_name into e->c_names (allocated here, at
 * the first such value).  False when it is refused (reported). */
static bool load_enum_mapping(loader_t *L, const ynode_t *v, cc_enum_t *e, size_t capacity)
{
    static const char *const names[] = {"value", "c_name"};
    const ynode_t *s[2];
    collect_keys(L, v, names, 2, s, NULL, "in an enum value written as a mapping");
    if (!s[0]) {
        missing_key(L, v->mark, "value", "in an enum value written as a mapping");
        return false;
    }
    if (s[0]->poisoned)
        return false;
    if (s[0]->kind != Y_SCALAR) {
        cc_error(L->d, L->path, s[0]->mark, "an enum value is a string, not %s",
                 kind_phrase(s[0]));
        return false;
    }
    if (s[1] && !e->c_names) {
        e->c_names = calloc(capacity, sizeof *e->c_names);
        e->c_name_marks = calloc(capacity, sizeof *e->c_name_marks);
        if (!e->c_names || !e->c_name_marks) {
            L->oom = true;
            return false;
        }
    }
    e->values[e->count] = cc_strdup(s[0]->text);
    if (!e->values[e->count]) {
        L->oom = true;
        return false;
    }
    e->value_marks[e->count] = s[0]->mark;
    if (s[1])
        get_c_name(L, s[1], &e->c_names[e->count], &e->c_name_marks[e->count]);
    e->count++;
    return true;
}

static void load_enum_values(loader_t *L, const ynode_t *seq, cc_enum_t *e, const char *in_what)
{
    if (!expect_kind(L, seq, Y_SEQ, "values"))
        return;
    e->mark = seq->mark;
    if (seq->count == 0) {
        cc_error(L->d, L->path, seq->mark, "empty enum %s: 'values' needs at least one value",
                 in_what);
        return;
    }
    e->values = calloc(seq->count, sizeof *e->values);
    e->value_marks = calloc(seq->count, sizeof *e->value_marks);
    if (!e->values || !e->value_marks) {
        L->oom = true;
        return;
    }
    for (size_t i = 0; i < seq->count; i++) {
        const ynode_t *v = seq->items[i];
        if (v->poisoned)
            continue;
        if (v->kind == Y_MAP) {
            if (!load_enum_mapping(L, v, e, seq->count) && L->oom)
                return;
            continue;
        }
        if (v->kind != Y_SCALAR) {
            cc_error(L->d, L->path, v->mark, "an enum value is a string, not %s", kind_phrase(v));
            continue;
        }
        e->values[e->count] = cc_strdup(v->text);
        if (!e->values[e->count]) {
            L->oom = true;
            return;
        }
        e->value_marks[e->count++] = v->mark;
    }
    drop_duplicate_values(L, e);
}

static void load_value(loader_t *L, const ynode_t *map, cc_value_t *v, cc_field_t *f,
                       const where_t *w);

/* Compiles a string of the pattern language (docs/contract-language.md
 * §4.3) at node p into v->dfa, reporting a bad pattern at its byte. */
static void compile_pattern(loader_t *L, const ynode_t *p, cc_value_t *v)
{
    v->pattern_mark = p->mark;
    cc_pattern_error_t err;
    memset(&err, 0, sizeof err);
    /* Once the contract's total is spent the rest are not compiled, and
     * only the first says so. */
    bool spent = L->patterns.spent;
    v->dfa = spent ? NULL : cc_pattern_compile_budget(v->pattern, &L->patterns, &err);
    if (!v->dfa && !spent) {
        err.message[sizeof err.message - 1] = '\0';
        cc_error(L->d, L->path, mark_in_scalar(p, err.offset), "%s%s",
                 L->patterns.spent ? "pattern not compiled: " : "invalid pattern: ", err.message);
    }
}

/* The keys of a map (docs/contract-language.md §4.12): `values` (required,
 * a mapping loaded as an array's items are), `key_pattern` (the pattern
 * language; kept in v->pattern and v->dfa), `min_entries`/`max_entries`
 * (kept as the item bounds). */
static void load_map(loader_t *L, const ynode_t *map, cc_value_t *v, const ynode_t *const *slot,
                     const where_t *w, const char *in_what)
{
    if (slot[FK_MIN_ENTRIES] &&
        get_count(L, slot[FK_MIN_ENTRIES], "min_entries", &v->min_items))
        v->has_min_items = true;
    if (slot[FK_MAX_ENTRIES] &&
        get_count(L, slot[FK_MAX_ENTRIES], "max_entries", &v->max_items))
        v->has_max_items = true;
    if (v->has_min_items && v->has_max_items && v->min_items > v->max_items)
        cc_error(L->d, L->path, slot[FK_MAX_ENTRIES]->mark,
                 "min_entries %u is greater than max_entries %u", (unsigned)v->min_items,
                 (unsigned)v->max_items);
    if (slot[FK_KEY_PATTERN]) {
        v->pattern = get_string(L, slot[FK_KEY_PATTERN], "key_pattern");
        if (v->pattern)
            compile_pattern(L, slot[FK_KEY_PATTERN], v);
    }
    if (!slot[FK_VALUES]) {
        cc_error(L->d, L->path, map->mark,
                 "a map needs 'values' %s: the type every entry's value has, e.g. "
                 "values: {type: string}", in_what);
    } else if (expect_kind(L, slot[FK_VALUES], Y_MAP, "values")) {
        v->items = calloc(1, sizeof *v->items);
        if (!v->items) {
            L->oom = true;
            return;
        }
        where_t vw = *w;
        vw.items = false;
        vw.map_values = true;
        load_value(L, slot[FK_VALUES], v->items, NULL, &vw);
    }
}

/* A tagged union's `tag:` and `variants:` (docs/contract-language.md
 * §4.11): the tag key, any non-empty string; the variants, a mapping from
 * tag value to the name of an object type of `types:`.  That no variant
 * type defines the tag key itself is check.c's (the types may be defined
 * later in the file). */
static void load_union(loader_t *L, const ynode_t *map, cc_value_t *v, const ynode_t *tag,
                       const ynode_t *variants, const char *in_what)
{
    if (!tag) {
        missing_key(L, map->mark, "tag", in_what);
    } else if ((v->tag = get_string(L, tag, "tag")) != NULL) {
        v->tag_mark = tag->mark;
    }
    if (!variants) {
        missing_key(L, map->mark, "variants", in_what);
        return;
    }
    if (!expect_kind(L, variants, Y_MAP, "variants"))
        return;
    size_t pairs = variants->count / 2;
    if (pairs == 0) {
        cc_error(L->d, L->path, variants->mark,
                 "empty union %s: 'variants' needs at least one tag value and its type, such "
                 "as {refund: refund}", in_what);
        return;
    }
    v->variants = calloc(pairs, sizeof *v->variants);
    if (!v->variants) {
        L->oom = true;
        return;
    }
    for (size_t i = 0; i < pairs; i++) {
        const ynode_t *k = variants->items[2 * i], *t = variants->items[2 * i + 1];
        if (k->len == 0) {
            cc_error(L->d, L->path, k->mark, "a tag value is a non-empty string");
            continue;
        }
        char *type = get_string(L, t, "variants");
        if (!type)
            continue;
        const cc_named_type_t *named = find_named(L->c, type);
        if (!named || !named->object) {
            const char *near = NULL;
            const char **cand = malloc((L->c->type_count ? L->c->type_count : 1) * sizeof *cand);
            size_t n = 0;
            for (size_t j = 0; cand && j < L->c->type_count; j++)
                if (L->c->types[j].object)
                    cand[n++] = L->c->types[j].name;
            if (cand && !named)
                near = cc_suggest(type, cand, n);
            free(cand);
            if (named)
                cc_error(L->d, L->path, t->mark,
                         "variant '%s' %s names the enum type '%s'; a variant is an object type "
                         "of 'types'", k->text, in_what, type);
            else if (near)
                cc_error(L->d, L->path, t->mark,
                         "variant '%s' %s names the unknown type '%s'; did you mean '%s'?",
                         k->text, in_what, type, near);
            else
                cc_error(L->d, L->path, t->mark,
                         "variant '%s' %s names the unknown type '%s'; a variant is an object "
                         "type of 'types' (types: {%s: {fields: {...}}})",
                         k->text, in_what, type, type);
            free(type);
            continue;
        }
        cc_variant_t *var = &v->variants[v->variant_count];
        var->name = cc_strdup(k->text);
        if (!var->name) {
            free(type);
            L->oom = true;
            return;
        }
        var->mark = k->mark;
        var->type_ref = type;
        var->type_mark = t->mark;
        var->object = named->object;
        v->variant_count++;
    }
}

/* The JSON type of a value type, for a value union's alternatives (docs/
 * contract-language.md §4.13): 1 a string (string, decimal, date,
 * datetime, enum), 2 a number (integer, number), 3 a boolean, 4 an object,
 * 5 an array, 0 none. */
static int json_type_class(contractc_type_t t)
{
    switch (t) {
    case CONTRACTC_TYPE_STRING: case CONTRACTC_TYPE_DECIMAL: case CONTRACTC_TYPE_DATE:
    case CONTRACTC_TYPE_DATETIME: case CONTRACTC_TYPE_ENUM: return 1;
    case CONTRACTC_TYPE_INTEGER: case CONTRACTC_TYPE_NUMBER: return 2;
    case CONTRACTC_TYPE_BOOLEAN: return 3;
    case CONTRACTC_TYPE_OBJECT: case CONTRACTC_TYPE_UNION: case CONTRACTC_TYPE_MAP: return 4;
    case CONTRACTC_TYPE_ARRAY: return 5;
    default: return 0;
    }
}

/* An alternative's type as written: the named type, or the built-in's name. */
static const char *alternative_name(const cc_value_t *a)
{
    return a->type_ref ? a->type_ref : cc_type_name(a->type);
}

/* A value union's list, `type: [T1, T2, ...]` (docs/contract-language.md
 * §4.13): each item a type name (the short form, loaded as {type: T}) or
 * a mapping with `type:` and that type's constraints.  At most one
 * alternative per JSON type; null is never one (nullable is the field's);
 * the kinds this build does not generate are refused as not built yet. */
static void load_value_union(loader_t *L, const ynode_t *seq, cc_value_t *v, const where_t *w,
                             const char *in_what)
{
    if (seq->count < 2) {
        cc_error(L->d, L->path, seq->mark,
                 "a value union lists at least two types %s, as in type: [string, integer]; "
                 "for one type write type: T", in_what);
        return;
    }
    v->alternatives = calloc(seq->count, sizeof *v->alternatives);
    if (!v->alternatives) {
        L->oom = true;
        return;
    }
    for (size_t i = 0; i < seq->count && !L->oom; i++) {
        const ynode_t *it = seq->items[i];
        if (it->poisoned)
            continue;
        if (it->kind == Y_SEQ) {
            cc_error(L->d, L->path, it->mark,
                     "an alternative of a value union is a type name or a mapping {type: ...} "
                     "%s, not a sequence", in_what);
            continue;
        }
        const ynode_t *t = it;
        if (it->kind == Y_MAP) {
            t = NULL;
            for (size_t p = 0; p < it->count / 2; p++)
                if (strcmp(key_text(it, p), "type") == 0)
                    t = it->items[2 * p + 1];
        }
        if (t && t->kind == Y_SCALAR && (is_null_scalar(t) || strcmp(t->text, "null") == 0)) {
            cc_error(L->d, L->path, t->mark,
                     "null is not an alternative of a value union %s; write nullable: true on "
                     "the field, as for every type", in_what);
            continue;
        }
        /* a type that needs keys cannot be written in the short form */
        static const char *const needs[][2] = {{"decimal", "{type: decimal, scale: 2}"},
                                               {"enum", "{type: enum, values: [a, b]}"},
                                               {"object", "{type: object, fields: {...}}"},
                                               {"array", "{type: array, items: {...}}"}};
        bool short_refused = false;
        for (size_t n = 0; it->kind == Y_SCALAR && n < sizeof needs / sizeof needs[0]; n++)
            if (strcmp(it->text, needs[n][0]) == 0) {
                cc_error(L->d, L->path, it->mark,
                         "alternative '%s' %s needs its keys; write it as a mapping in the list, "
                         "such as %s", needs[n][0], in_what, needs[n][1]);
                short_refused = true;
            }
        if (short_refused)
            continue;
        /* the short form T is loaded as the mapping {type: T} */
        ynode_t key_node, map_node;
        ynode_t *pair[2];
        const ynode_t *node = it;
        if (it->kind == Y_SCALAR) {
            memset(&key_node, 0, sizeof key_node);
            key_node.kind = Y_SCALAR;
            key_node.mark = it->mark;
            key_node.text = (char *)"type";
            key_node.len = 4;
            memset(&map_node, 0, sizeof map_node);
            map_node.kind = Y_MAP;
            map_node.mark = it->mark;
            pair[0] = &key_node;
            pair[1] = (ynode_t *)it;
            map_node.items = pair;
            map_node.count = map_node.capacity = 2;
            node = &map_node;
        }
        cc_buf_t label = CC_BUF_INIT;
        if (t && t->kind == Y_SCALAR)
            cc_buf_printf(&label, "'%s'", t->text);
        else
            cc_buf_printf(&label, "%zu", i + 1);
        char *label_text = cc_buf_take(&label, NULL);
        if (!label_text) {
            L->oom = true;
            return;
        }
        where_t aw = *w;
        aw.alternative = label_text;
        cc_value_t *a = &v->alternatives[v->alternative_count];
        load_value(L, node, a, NULL, &aw);
        free(label_text);
        const char *refused = NULL;
        switch (a->type) {
        case CONTRACTC_TYPE_VALUE_UNION:
            cc_error(L->d, L->path, a->mark,
                     "an alternative of a value union %s may not list types itself; write every "
                     "alternative in the one list", in_what);
            refused = "";
            break;
        case CONTRACTC_TYPE_UNION: refused = "a tagged union (type: union)"; break;
        case CONTRACTC_TYPE_MAP: /* a JSON object of free keys, docs/contract-language.md §4.12 */
            break;
        case CONTRACTC_TYPE_JSON: /* docs/contract-language.md §4.14: it is every JSON type */
            cc_error(L->d, L->path, a->mark,
                     "json cannot be an alternative of a value union %s: it takes every JSON "
                     "value, the other alternatives' types included; write type: json alone",
                     in_what);
            refused = "";
            break;
        case CONTRACTC_TYPE_ARRAY:
            if (a->items && a->items->nullable)
                refused = "an array of nullable items";
            else if (a->items && a->items->type == CONTRACTC_TYPE_ARRAY)
                refused = "an array of arrays";
            break;
        default:
            if (!a->type)
                refused = ""; /* reported */
            break;
        }
        if (refused && *refused)
            cc_error(L->d, L->path, a->mark,
                     "%s as an alternative of a value union is not built yet %s; make it a "
                     "named object type of 'types' holding it and write type: NAME in the list",
                     refused, in_what);
        for (size_t j = 0; !refused && j < v->alternative_count; j++) {
            const cc_value_t *b = &v->alternatives[j];
            if (json_type_class(b->type) != json_type_class(a->type))
                continue;
            if (json_type_class(a->type) == 4)
                cc_error(L->d, L->path, a->mark,
                         "alternatives '%s' and '%s' %s are both JSON objects; a value union "
                         "tells its alternatives apart by the JSON type alone: %s",
                         alternative_name(b), alternative_name(a), in_what,
                         a->type == CONTRACTC_TYPE_MAP || b->type == CONTRACTC_TYPE_MAP
                             ? "keep the map or the object"
                             : "for kinds of object write type: union with a tag");
            else if (b->type == a->type)
                cc_error(L->d, L->path, a->mark,
                         "alternative '%s' is listed twice %s; a value union takes each JSON "
                         "type once", alternative_name(a), in_what);
            else if (json_type_class(a->type) == 1)
                cc_error(L->d, L->path, a->mark,
                         "alternatives '%s' and '%s' %s are both JSON strings; a value union "
                         "takes at most one of string, decimal, date, datetime and enum (the "
                         "JSON type alone tells the alternatives apart)", alternative_name(b),
                         alternative_name(a), in_what);
            else
                cc_error(L->d, L->path, a->mark,
                         "alternatives '%s' and '%s' %s are ambiguous: a JSON integer is a "
                         "number too; keep number (it takes both) or integer",
                         alternative_name(b), alternative_name(a), in_what);
            cc_diag_related(L->d, L->path, b->mark, "'%s' is listed here", alternative_name(b));
            refused = "";
        }
        if (refused)
            cc_value_clear(a);
        else
            v->alternative_count++;
    }
}

/* Loads one value: a field's (f set) or an array's items (f NULL). */
static void load_value(loader_t *L, const ynode_t *map, cc_value_t *v, cc_field_t *f,
                       const where_t *w)
{
    char *in_what = where_text(w);
    if (!in_what) {
        L->oom = true;
        return;
    }
    const ynode_t *slot[FK_COUNT], *key[FK_COUNT];
    /* 'rules' is reported below, once the type says which hint fits */
    collect_keys_except(L, map, field_keys, FK_COUNT, slot, key, in_what, "rules");

    /* The type first: it decides which other keys are valid. */
    const cc_named_type_t *named = NULL;
    if (!slot[FK_TYPE]) {
        missing_key(L, map->mark, "type", in_what);
    } else if (slot[FK_TYPE]->kind == Y_SEQ && !slot[FK_TYPE]->poisoned) {
        /* v2 value union: type: [T1, T2, ...] (docs/contract-language.md §4.13) */
        v->mark = slot[FK_TYPE]->mark;
        v->type = CONTRACTC_TYPE_VALUE_UNION;
    } else {
        char *t = get_string(L, slot[FK_TYPE], "type");
        if (t) {
            v->mark = slot[FK_TYPE]->mark;
            v->type = builtin_type(t);
            if (!v->type) {
                named = find_named(L->c, t);
                if (named && named->object)
                    v->type = CONTRACTC_TYPE_OBJECT;
                else if (named && named->enumeration)
                    v->type = CONTRACTC_TYPE_ENUM;
                if (named) {
                    v->type_ref = t;
                    t = NULL;
                } else {
                    /* suggest among the built-ins and the named types */
                    size_t n = BUILTIN_COUNT + L->c->type_count;
                    const char **cand = malloc(n * sizeof *cand);
                    const char *near = NULL;
                    if (cand) {
                        for (size_t i = 0; i < BUILTIN_COUNT; i++)
                            cand[i] = builtin_types[i];
                        for (size_t i = 0; i < L->c->type_count; i++)
                            cand[BUILTIN_COUNT + i] = L->c->types[i].name;
                        near = cc_suggest(t, cand, n);
                    }
                    if (near)
                        cc_error(L->d, L->path, slot[FK_TYPE]->mark,
                                 "unknown type '%s' %s; did you mean '%s'?", t, in_what, near);
                    else
                        cc_error(L->d, L->path, slot[FK_TYPE]->mark,
                                 "unknown type '%s' %s; a type is one of string, integer, "
                                 "number, boolean, decimal, enum, date, datetime, object, "
                                 "array, union, map, json or a name from 'types'",
                                 t, in_what);
                    free(cand);
                }
            }
            free(t);
        }
    }

    const ynode_t *rules_key = find_key(map, "rules");
    if (rules_key && v->type == CONTRACTC_TYPE_OBJECT && !v->type_ref)
        cc_error(L->d, L->path, rules_key->mark,
                 "'rules' is not valid on an inline object (%s); make the object a named "
                 "type, types: {NAME: {fields: {...}, rules: [...]}}, and write type: NAME here",
                 in_what + 3 /* without "in " */);
    else if (rules_key && v->type_ref && v->type == CONTRACTC_TYPE_OBJECT)
        cc_error(L->d, L->path, rules_key->mark,
                 "'rules' is not valid %s: its type is the named type '%s'; write the rules "
                 "in types.%s.rules", in_what, v->type_ref, v->type_ref);
    else if (rules_key)
        cc_error(L->d, L->path, rules_key->mark,
                 "unknown key 'rules' %s; rules belong to the record (the top-level 'rules') or "
                 "to a named object type", in_what);

    /* Keys valid for some type but not for this one. */
    for (size_t k = 0; k < FK_COUNT; k++) {
        if (!slot[k])
            continue;
        bool bad = false;
        if (field_key_types[k] == 0) {
            if (!f && w->alternative && k != FK_TYPE) {
                /* docs/contract-language.md §4.13: an alternative is a type
                 * and its constraints; the rest is the field's */
                if (k == FK_NULLABLE)
                    cc_error(L->d, L->path, key[k]->mark,
                             "key 'nullable' is not valid %s: null is not an alternative of a value "
                             "union; write nullable: true on the field, as for every type",
                             in_what);
                else
                    cc_error(L->d, L->path, key[k]->mark,
                             "key '%s' is not valid %s: an alternative takes a type and its "
                             "constraints; put '%s' on the field", field_keys[k], in_what,
                             field_keys[k]);
                bad = true;
            } else if (!f && k == FK_EXAMPLE && w->map_values) {
                cc_error(L->d, L->path, key[k]->mark,
                         "key 'example' is not valid %s: an example is for scalar fields, not "
                         "map values; to show the model a map, write it in the map field's "
                         "'format_text'", in_what);
                bad = true;
            } else if (!f && k == FK_EXAMPLE) {
                /* The same advice as for `example` on the array field. */
                cc_error(L->d, L->path, key[k]->mark,
                         "key 'example' is not valid %s: an example is for scalar fields, not "
                         "array items; to show the model a list, write it in the array field's "
                         "'format_text'", in_what);
                bad = true;
            } else if (!f && (k == FK_DESCRIPTION || k == FK_FORMAT_TEXT)) {
                cc_error(L->d, L->path, key[k]->mark,
                         "key '%s' is not valid %s; put it on the %s field", field_keys[k],
                         in_what, w->map_values ? "map" : "array");
                bad = true;
            } else if (!f && w->map_values && (k == FK_OPTIONAL || k == FK_C_NAME)) {
                cc_error(L->d, L->path, key[k]->mark,
                         "key '%s' is not valid %s: it is a field's (%s); put it on the "
                         "map field", field_keys[k], in_what,
                         k == FK_OPTIONAL ? "an entry of a map is there or not, as the reply "
                                            "has it; bound the entries with min_entries"
                                          : "the values are no member of their own");
                bad = true;
            } else if (!f && w->map_values && k == FK_NULLABLE) {
                cc_error(L->d, L->path, key[k]->mark,
                         "nullable map values are not supported; leave the entry out instead, "
                         "or make the map field nullable");
                bad = true;
            } else if (!f && (k == FK_OPTIONAL || k == FK_C_NAME)) {
                cc_error(L->d, L->path, key[k]->mark,
                         "key '%s' is not valid %s: it is a field's (%s); put it on the "
                         "array field", field_keys[k], in_what,
                         k == FK_OPTIONAL ? "an item of a list is never left out"
                                          : "the items are no member of their own");
                bad = true;
            }
        } else if (v->type == CONTRACTC_TYPE_VALUE_UNION) {
            cc_error(L->d, L->path, key[k]->mark,
                     "key '%s' is not valid on a value union (%s); constraints belong to the "
                     "alternative they constrain, as in type: [{type: string, max_length: 10}, "
                     "{type: integer, minimum: 0}]", field_keys[k], in_what + 3 /* without "in " */);
            bad = true;
        } else if (v->type && v->type_ref) {
            cc_error(L->d, L->path, key[k]->mark,
                     "key '%s' is not valid %s: its type is the named type '%s'",
                     field_keys[k], in_what, v->type_ref);
            bad = true;
        } else if (v->type && !(field_key_types[k] & TBIT(v->type))) {
            if (k == FK_GROUNDED)
                cc_error(L->d, L->path, key[k]->mark,
                         "'grounded' applies to strings only; this is a field of type %s",
                         cc_type_name(v->type));
            else if ((k == FK_MIN_LENGTH || k == FK_MAX_LENGTH) && v->type == CONTRACTC_TYPE_JSON)
                cc_error(L->d, L->path, key[k]->mark,
                         "key '%s' is not valid for a field of type json; bound a json value's "
                         "text with max_bytes (in bytes)", field_keys[k]);
            else if (k == FK_MAX_BYTES && v->type == CONTRACTC_TYPE_STRING)
                cc_error(L->d, L->path, key[k]->mark,
                         "key 'max_bytes' is not valid for a field of type string; bound a "
                         "string with max_length (in characters)");
            else if (w->alternative) /* v2: an alternative of a value union (§4.13) */
                cc_error(L->d, L->path, key[k]->mark,
                         "key '%s' is not valid for an alternative of type %s (%s)",
                         field_keys[k], cc_type_name(v->type), in_what + 3 /* without "in " */);
            else
                cc_error(L->d, L->path, key[k]->mark,
                         "key '%s' is not valid for a field of type %s", field_keys[k],
                         cc_type_name(v->type));
            bad = true;
        } else if (!v->type) {
            bad = true; /* unknown type: already reported; skip its constraints */
        }
        if (bad)
            slot[k] = NULL;
    }

    if (f) {
        if (slot[FK_DESCRIPTION])
            f->description = get_string(L, slot[FK_DESCRIPTION], "description");
        if (slot[FK_FORMAT_TEXT])
            f->format_text = get_string(L, slot[FK_FORMAT_TEXT], "format_text");
        if (slot[FK_NULLABLE])
            get_bool(L, slot[FK_NULLABLE], "nullable", &f->nullable);
        if (slot[FK_OPTIONAL] && get_bool(L, slot[FK_OPTIONAL], "optional", &f->optional))
            f->optional_mark = key[FK_OPTIONAL]->mark;
        if (slot[FK_C_NAME])
            get_c_name(L, slot[FK_C_NAME], &f->c_name, &f->c_name_mark);
    } else if (slot[FK_NULLABLE] && get_bool(L, slot[FK_NULLABLE], "nullable", &v->nullable)) {
        /* items that may be null: language v2 (docs/contract-language.md §4.6) */
        v->nullable_mark = key[FK_NULLABLE]->mark;
    }

    if (v->type == CONTRACTC_TYPE_JSON && slot[FK_NULLABLE] &&
        ((f && f->nullable) || (!f && v->nullable))) {
        /* docs/contract-language.md §4.14: null is one of the values already */
        cc_error(L->d, L->path, key[FK_NULLABLE]->mark,
                 "'nullable' is not valid on a json value: null is one of the JSON values it "
                 "takes already; leave 'nullable' out%s",
                 f ? " (and write optional: true if the key may be absent)" : "");
        if (f)
            f->nullable = false;
        else
            v->nullable = false;
    }

    switch (v->type) {
    case CONTRACTC_TYPE_STRING:
        if (slot[FK_MIN_LENGTH] && get_count(L, slot[FK_MIN_LENGTH], "min_length", &v->min_length))
            v->has_min_length = true;
        if (slot[FK_MAX_LENGTH] && get_count(L, slot[FK_MAX_LENGTH], "max_length", &v->max_length))
            v->has_max_length = true;
        if (v->has_min_length && v->has_max_length && v->min_length > v->max_length)
            cc_error(L->d, L->path, slot[FK_MAX_LENGTH]->mark,
                     "min_length %u is greater than max_length %u", (unsigned)v->min_length,
                     (unsigned)v->max_length);
        if (slot[FK_GROUNDED])
            get_bool(L, slot[FK_GROUNDED], "grounded", &v->grounded);
        if (slot[FK_PATTERN]) {
            const ynode_t *p = slot[FK_PATTERN];
            v->pattern = get_string(L, p, "pattern");
            if (v->pattern)
                compile_pattern(L, p, v);
        }
        break;
    case CONTRACTC_TYPE_INTEGER: {
        const int64_t lo = CONTRACTC_INTEGER_MIN, hi = CONTRACTC_INTEGER_MAX;
        if (slot[FK_MINIMUM] && get_int(L, slot[FK_MINIMUM], "minimum", lo, hi, &v->minimum)) {
            v->has_minimum = true;
            v->minimum_mark = slot[FK_MINIMUM]->mark;
        }
        if (slot[FK_MAXIMUM] && get_int(L, slot[FK_MAXIMUM], "maximum", lo, hi, &v->maximum)) {
            v->has_maximum = true;
            v->maximum_mark = slot[FK_MAXIMUM]->mark;
        }
        if (v->has_minimum && v->has_maximum && v->minimum > v->maximum)
            cc_error(L->d, L->path, v->maximum_mark, "minimum %lld is greater than maximum %lld",
                     (long long)v->minimum, (long long)v->maximum);
        break;
    }
    case CONTRACTC_TYPE_NUMBER:
        if (slot[FK_MINIMUM] &&
            get_number_bound(L, slot[FK_MINIMUM], "minimum", &v->number_minimum)) {
            v->has_minimum = true;
            v->minimum_mark = slot[FK_MINIMUM]->mark;
            v->minimum_text = cc_strdup(slot[FK_MINIMUM]->text);
            L->oom |= v->minimum_text == NULL;
        }
        if (slot[FK_MAXIMUM] &&
            get_number_bound(L, slot[FK_MAXIMUM], "maximum", &v->number_maximum)) {
            v->has_maximum = true;
            v->maximum_mark = slot[FK_MAXIMUM]->mark;
            v->maximum_text = cc_strdup(slot[FK_MAXIMUM]->text);
            L->oom |= v->maximum_text == NULL;
        }
        if (v->has_minimum && v->has_maximum && v->number_minimum > v->number_maximum)
            cc_error(L->d, L->path, v->maximum_mark, "minimum %s is greater than maximum %s",
                     slot[FK_MINIMUM]->text, slot[FK_MAXIMUM]->text);
        break;
    case CONTRACTC_TYPE_DECIMAL: {
        bool scale_ok = false;
        int64_t scale = 0;
        if (!slot[FK_SCALE])
            missing_key(L, map->mark, "scale", in_what);
        else if (get_int(L, slot[FK_SCALE], "scale", 0, 18, &scale))
            scale_ok = true;
        v->scale = (uint8_t)scale;
        if (slot[FK_SIGNED])
            get_bool(L, slot[FK_SIGNED], "signed", &v->is_signed);
        if (scale_ok && slot[FK_MINIMUM] &&
            get_decimal_bound(L, slot[FK_MINIMUM], "minimum", v->scale, &v->minimum)) {
            v->has_minimum = true;
            v->minimum_mark = slot[FK_MINIMUM]->mark;
            v->minimum_text = cc_strdup(slot[FK_MINIMUM]->text);
            L->oom |= v->minimum_text == NULL;
        }
        if (scale_ok && slot[FK_MAXIMUM] &&
            get_decimal_bound(L, slot[FK_MAXIMUM], "maximum", v->scale, &v->maximum)) {
            v->has_maximum = true;
            v->maximum_mark = slot[FK_MAXIMUM]->mark;
            v->maximum_text = cc_strdup(slot[FK_MAXIMUM]->text);
            L->oom |= v->maximum_text == NULL;
        }
        if (v->has_minimum && v->has_maximum && v->minimum > v->maximum)
            cc_error(L->d, L->path, v->maximum_mark, "minimum \"%s\" is greater than maximum \"%s\"",
                     slot[FK_MINIMUM]->text, slot[FK_MAXIMUM]->text);
        break;
    }
    case CONTRACTC_TYPE_ENUM:
        if (v->type_ref) {
            v->enumeration = named ? named->enumeration : NULL;
        } else if (!slot[FK_VALUES]) {
            missing_key(L, map->mark, "values", in_what);
        } else {
            v->enumeration = calloc(1, sizeof *v->enumeration);
            if (!v->enumeration) {
                L->oom = true;
                break;
            }
            load_enum_values(L, slot[FK_VALUES], v->enumeration, in_what);
        }
        break;
    case CONTRACTC_TYPE_OBJECT:
        if (v->type_ref) {
            v->object = named ? named->object : NULL;
        } else if (!slot[FK_FIELDS]) {
            missing_key(L, map->mark, "fields", in_what);
        } else if (expect_kind(L, slot[FK_FIELDS], Y_MAP, "fields")) {
            v->object = calloc(1, sizeof *v->object);
            if (!v->object) {
                L->oom = true;
                break;
            }
            v->object->mark = slot[FK_FIELDS]->mark;
            cc_buf_t b = CC_BUF_INIT;
            cc_buf_printf(&b, "%s%s", w->path, w->items ? "[]" : w->map_values ? ".*" : "");
            char *prefix = cc_buf_take(&b, NULL);
            if (!prefix) {
                L->oom = true;
                break;
            }
            load_object_fields(L, slot[FK_FIELDS], v->object, prefix, w->type_name);
            free(prefix);
        }
        break;
    case CONTRACTC_TYPE_ARRAY:
        if (slot[FK_MIN_ITEMS] && get_count(L, slot[FK_MIN_ITEMS], "min_items", &v->min_items))
            v->has_min_items = true;
        if (slot[FK_MAX_ITEMS] && get_count(L, slot[FK_MAX_ITEMS], "max_items", &v->max_items))
            v->has_max_items = true;
        if (v->has_min_items && v->has_max_items && v->min_items > v->max_items)
            cc_error(L->d, L->path, slot[FK_MAX_ITEMS]->mark,
                     "min_items %u is greater than max_items %u", (unsigned)v->min_items,
                     (unsigned)v->max_items);
        if (!slot[FK_ITEMS]) {
            cc_error(L->d, L->path, map->mark, "an array needs 'items' %s", in_what);
        } else if (expect_kind(L, slot[FK_ITEMS], Y_MAP, "items")) {
            v->items = calloc(1, sizeof *v->items);
            if (!v->items) {
                L->oom = true;
                break;
            }
            where_t iw = *w;
            iw.items = true;
            iw.alternative = NULL; /* an array alternative's items are its own (§4.13) */
            load_value(L, slot[FK_ITEMS], v->items, NULL, &iw);
        }
        break;
    case CONTRACTC_TYPE_MAP:
        load_map(L, map, v, slot, w, in_what);
        break;
    case CONTRACTC_TYPE_UNION:
        load_union(L, map, v, slot[FK_TAG], slot[FK_VARIANTS], in_what);
        break;
    case CONTRACTC_TYPE_JSON:
        /* docs/contract-language.md §4.14: max_bytes bounds the value's text
         * (kept in max_length, in bytes) */
        if (slot[FK_MAX_BYTES] && get_count(L, slot[FK_MAX_BYTES], "max_bytes", &v->max_length)) {
            v->has_max_length = true;
            if (v->max_length == 0)
                cc_error(L->d, L->path, slot[FK_MAX_BYTES]->mark,
                         "max_bytes 0 admits no JSON value; the shortest, such as 0, take "
                         "1 byte");
        }
        break;
    case CONTRACTC_TYPE_VALUE_UNION:
        load_value_union(L, slot[FK_TYPE], v, w, in_what);
        break;
    default:
        break;
    }

    if (f && slot[FK_EXAMPLE]) {
        const ynode_t *e = slot[FK_EXAMPLE];
        if (e->poisoned) {
            /* reported */
        } else if (v->type == CONTRACTC_TYPE_VALUE_UNION) {
            cc_error(L->d, L->path, key[FK_EXAMPLE]->mark,
                     "'example' is not valid on a value union (%s); to show the model a value, "
                     "write it in 'format_text'", in_what + 3 /* without "in " */);
        } else if (v->type == CONTRACTC_TYPE_OBJECT || v->type == CONTRACTC_TYPE_ARRAY ||
                   v->type == CONTRACTC_TYPE_UNION || v->type == CONTRACTC_TYPE_MAP ||
                   v->type == CONTRACTC_TYPE_JSON) {
            cc_error(L->d, L->path, key[FK_EXAMPLE]->mark,
                     "'example' is for scalar fields; this is a field of type %s (to show the "
                     "model %s, write it in 'format_text')",
                     cc_type_name(v->type), v->type == CONTRACTC_TYPE_ARRAY ? "a list"
                                            : v->type == CONTRACTC_TYPE_MAP ? "a map"
                                            : v->type == CONTRACTC_TYPE_JSON ? "a JSON value"
                                                                            : "an object");
        } else if (e->kind != Y_SCALAR) {
            cc_error(L->d, L->path, e->mark, "'example' expects a scalar, found %s",
                     kind_phrase(e));
        } else if (e->quoted && (v->type == CONTRACTC_TYPE_INTEGER ||
                                 v->type == CONTRACTC_TYPE_NUMBER ||
                                 v->type == CONTRACTC_TYPE_BOOLEAN)) {
            cc_error(L->d, L->path, e->mark, "'example' of a field of type %s expects %s, "
                     "found a string", cc_type_name(v->type),
                     v->type == CONTRACTC_TYPE_BOOLEAN ? "true or false"
                     : v->type == CONTRACTC_TYPE_INTEGER ? "an integer" : "a number");
        } else if (!e->quoted && v->type == CONTRACTC_TYPE_DECIMAL) {
            cc_error(L->d, L->path, e->mark,
                     "example of a decimal is a quoted string such as '1250.00'");
        } else {
            f->example = cc_strdup(e->text);
            f->example_mark = e->mark;
            if (!f->example)
                L->oom = true;
        }
    }
    free(in_what);
}

static bool is_contract_name(const char *s)
{
    if (!(*s >= 'a' && *s <= 'z'))
        return false;
    for (s++; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

static void load_object_fields(loader_t *L, const ynode_t *map, cc_object_t *o,
                               const char *prefix, const char *type_name)
{
    size_t pairs = map->count / 2;
    o->mark = map->mark;
    if (pairs == 0) {
        cc_error(L->d, L->path, map->mark, "an object needs at least one field");
        return;
    }
    if (pairs > CC_MAX_FIELDS) {
        cc_error(L->d, L->path, map->items[2 * CC_MAX_FIELDS]->mark,
                 "an object has at most %d fields; this is field %d", CC_MAX_FIELDS,
                 CC_MAX_FIELDS + 1);
        pairs = CC_MAX_FIELDS;
    }
    o->fields = calloc(pairs, sizeof *o->fields);
    if (!o->fields) {
        L->oom = true;
        return;
    }
    for (size_t i = 0; i < pairs && !L->oom; i++) {
        const ynode_t *k = map->items[2 * i], *val = map->items[2 * i + 1];
        cc_field_t *f = &o->fields[o->field_count];
        if (k->len == 0) {
            /* Any other UTF-8 string is a key (libyaml checked the UTF-8;
             * a NUL is refused with the tree). */
            cc_error(L->d, L->path, k->mark,
                     "empty field name; a field name is the JSON key, a non-empty string");
            continue;
        }
        f->name = cc_strdup(k->text);
        if (!f->name) {
            L->oom = true;
            return;
        }
        f->mark = k->mark;
        o->field_count++;
        cc_buf_t b = CC_BUF_INIT;
        if (prefix && *prefix)
            cc_buf_puts(&b, prefix);
        cc_buf_key_segment(&b, k->text, !(prefix && *prefix));
        char *path = cc_buf_take(&b, NULL);
        if (!path) {
            L->oom = true;
            return;
        }
        where_t w = {path, type_name, false, false, NULL};
        if (val->poisoned) {
            /* reported */
        } else if (val->kind != Y_MAP) {
            cc_error(L->d, L->path, val->mark,
                     "field '%s' expects a mapping such as {type: string}, found %s", path,
                     kind_phrase(val));
        } else {
            load_value(L, val, &f->value, f, &w);
        }
        free(path);
    }
}

/* ---- rules ------------------------------------------------------------ */

enum rule_key { RK_ALL, RK_AT_MOST, RK_EXACTLY, RK_SUM, RK_COMPARE, RK_CHECK, RK_ID, RK_PROMPT,
                RK_COUNT };
static const char *const rule_keys[RK_COUNT] = {
    "all_or_none", "at_most_one", "exactly_one", "sum", "compare", "check", "id", "prompt"
};

static bool get_path(loader_t *L, const ynode_t *n, const char *key, cc_path_t *p)
{
    p->text = get_string(L, n, key);
    p->mark = n->mark;
    return p->text != NULL;
}

static void load_rule(loader_t *L, const ynode_t *map, cc_rule_t *r, const char *id)
{
    r->mark = map->mark;
    r->id = cc_strdup(id);
    if (!r->id) {
        L->oom = true;
        return;
    }
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_printf(&b, "in rule '%s'", id);
    char *in_what = cc_buf_take(&b, NULL);
    if (!in_what) {
        L->oom = true;
        return;
    }
    const ynode_t *slot[RK_COUNT], *key[RK_COUNT];
    collect_keys(L, map, rule_keys, RK_COUNT, slot, key, in_what);

    if (slot[RK_ID]) {
        char *s = get_string(L, slot[RK_ID], "id");
        if (s) {
            free(r->id);
            r->id = s;
        }
    }
    if (slot[RK_PROMPT])
        r->prompt = get_string(L, slot[RK_PROMPT], "prompt");

    int kind = -1;
    for (int k = RK_ALL; k <= RK_CHECK; k++) {
        if (!slot[k])
            continue;
        if (kind < 0) {
            kind = k;
            continue;
        }
        cc_error(L->d, L->path, key[k]->mark,
                 "a rule has exactly one kind; '%s' beside '%s': write two rules", rule_keys[k],
                 rule_keys[kind]);
    }
    if (kind < 0) {
        cc_error(L->d, L->path, map->mark,
                 "a rule needs one of all_or_none, at_most_one, exactly_one, sum, compare or check");
        free(in_what);
        return;
    }
    const ynode_t *body = slot[kind];
    const char *kname = rule_keys[kind];
    switch (kind) {
    case RK_ALL:
    case RK_AT_MOST:
    case RK_EXACTLY:
        r->kind = kind == RK_ALL ? CC_RULE_ALL_OR_NONE
                 : kind == RK_AT_MOST ? CC_RULE_AT_MOST_ONE : CC_RULE_EXACTLY_ONE;
        if (!expect_kind(L, body, Y_SEQ, kname))
            break;
        if (body->count < 2) {
            cc_error(L->d, L->path, body->mark, "'%s' needs at least two fields", kname);
            break;
        }
        r->fields = calloc(body->count, sizeof *r->fields);
        if (!r->fields) {
            L->oom = true;
            break;
        }
        for (size_t i = 0; i < body->count; i++)
            if (get_path(L, body->items[i], kname, &r->fields[r->field_count]))
                r->field_count++;
        break;
    case RK_SUM: {
        r->kind = CC_RULE_SUM;
        if (!expect_kind(L, body, Y_MAP, kname))
            break;
        static const char *const names[] = {"of", "equals", "tolerance"};
        const ynode_t *s[3];
        cc_buf_t bb = CC_BUF_INIT;
        cc_buf_printf(&bb, "in the sum of rule '%s'", r->id);
        char *ctx = cc_buf_take(&bb, NULL);
        if (!ctx) {
            L->oom = true;
            break;
        }
        collect_keys(L, body, names, 3, s, NULL, ctx);
        if (!s[0])
            missing_key(L, body->mark, "of", ctx);
        else
            get_path(L, s[0], "of", &r->of);
        if (!s[1])
            missing_key(L, body->mark, "equals", ctx);
        else
            get_path(L, s[1], "equals", &r->equals);
        if (s[2] && !s[2]->poisoned) {
            if (s[2]->kind != Y_SCALAR) {
                cc_error(L->d, L->path, s[2]->mark, "'tolerance' expects a scalar, found %s",
                         kind_phrase(s[2]));
            } else {
                r->tolerance_text = cc_strdup(s[2]->text);
                r->tolerance_mark = s[2]->mark;
                r->tolerance_quoted = s[2]->quoted;
                if (!r->tolerance_text)
                    L->oom = true;
            }
        }
        free(ctx);
        break;
    }
    case RK_COMPARE: {
        r->kind = CC_RULE_COMPARE;
        if (!expect_kind(L, body, Y_MAP, kname))
            break;
        static const char *const names[] = {"left", "op", "right"};
        static const char *const ops[] = {"<", "<=", "==", "!=", ">=", ">"};
        const ynode_t *s[3];
        cc_buf_t bb = CC_BUF_INIT;
        cc_buf_printf(&bb, "in the compare of rule '%s'", r->id);
        char *ctx = cc_buf_take(&bb, NULL);
        if (!ctx) {
            L->oom = true;
            break;
        }
        collect_keys(L, body, names, 3, s, NULL, ctx);
        if (!s[0])
            missing_key(L, body->mark, "left", ctx);
        else
            get_path(L, s[0], "left", &r->left);
        if (!s[2])
            missing_key(L, body->mark, "right", ctx);
        else
            get_path(L, s[2], "right", &r->right);
        if (!s[1]) {
            missing_key(L, body->mark, "op", ctx);
        } else {
            char *op = get_string(L, s[1], "op");
            if (op) {
                size_t i = 0;
                while (i < 6 && strcmp(ops[i], op) != 0)
                    i++;
                if (i < 6)
                    r->op = (contractc_compare_op_t)(CONTRACTC_OP_LT + (int)i);
                else
                    cc_error(L->d, L->path, s[1]->mark,
                             "unknown operator '%s'; 'op' is one of <, <=, ==, !=, >=, >", op);
                free(op);
            }
        }
        free(ctx);
        break;
    }
    case RK_CHECK: {
        r->kind = CC_RULE_CHECK;
        if (!expect_kind(L, body, Y_MAP, kname))
            break;
        static const char *const names[] = {"function", "message"};
        const ynode_t *s[2];
        cc_buf_t bb = CC_BUF_INIT;
        cc_buf_printf(&bb, "in the check of rule '%s'", r->id);
        char *ctx = cc_buf_take(&bb, NULL);
        if (!ctx) {
            L->oom = true;
            break;
        }
        collect_keys(L, body, names, 2, s, NULL, ctx);
        if (!s[0]) {
            missing_key(L, body->mark, "function", ctx);
        } else {
            r->function = get_string(L, s[0], "function");
            r->function_mark = s[0]->mark;
            char why[160];
            if (r->function && (!cc_is_identifier(r->function) || cc_is_c_keyword(r->function)))
                cc_error(L->d, L->path, s[0]->mark,
                         "check function '%s' is not a C identifier", r->function);
            else if (r->function &&
                     cc_reserved_c_name(r->function, CC_C_ORDINARY, why, sizeof why))
                cc_error(L->d, L->path, s[0]->mark,
                         "check function '%s' is %s; the generated header declares it: "
                         "choose another name", r->function, why);
        }
        if (s[1])
            r->message = get_string(L, s[1], "message");
        free(ctx);
        break;
    }
    default:
        break;
    }
    free(in_what);
}

static void load_rules(loader_t *L, const ynode_t *seq, cc_object_t *o, const char *id_prefix)
{
    if (!expect_kind(L, seq, Y_SEQ, "rules"))
        return;
    if (seq->count == 0)
        return;
    o->rules = calloc(seq->count, sizeof *o->rules);
    if (!o->rules) {
        L->oom = true;
        return;
    }
    for (size_t i = 0; i < seq->count && !L->oom; i++) {
        char id[64];
        snprintf(id, sizeof id, "rules[%zu]", i);
        cc_buf_t b = CC_BUF_INIT;
        cc_buf_printf(&b, "%s%s", id_prefix, id);
        char *full = cc_buf_take(&b, NULL);
        if (!full) {
            L->oom = true;
            return;
        }
        const ynode_t *r = seq->items[i];
        if (r->poisoned) {
            /* reported */
        } else if (r->kind != Y_MAP) {
            cc_error(L->d, L->path, r->mark, "a rule is a mapping such as {all_or_none: [a, b]}, "
                     "found %s", kind_phrase(r));
        } else {
            load_rule(L, r, &o->rules[o->rule_count++], full);
        }
        free(full);
    }
}

/* ---- named types ------------------------------------------------------ */

/* First pass: every name and its kind, so fields anywhere can refer to any
 * named type whatever the order in the file. */
static void declare_types(loader_t *L, const ynode_t *map)
{
    size_t pairs = map->count / 2;
    if (pairs == 0)
        return;
    L->c->types = calloc(pairs, sizeof *L->c->types);
    if (!L->c->types) {
        L->oom = true;
        return;
    }
    for (size_t i = 0; i < pairs; i++) {
        const ynode_t *k = map->items[2 * i], *val = map->items[2 * i + 1];
        if (!cc_is_identifier(k->text)) {
            cc_error(L->d, L->path, k->mark,
                     "invalid type name '%s'; a type name is [A-Za-z_][A-Za-z0-9_]*", k->text);
            continue;
        }
        if (builtin_type(k->text)) {
            cc_error(L->d, L->path, k->mark,
                     "type name '%s' is a built-in type; choose another name", k->text);
            continue;
        }
        cc_named_type_t *t = &L->c->types[L->c->type_count];
        t->name = cc_strdup(k->text);
        if (!t->name) {
            L->oom = true;
            return;
        }
        t->mark = k->mark;
        L->c->type_count++;
        if (val->poisoned)
            continue;
        if (val->kind != Y_MAP) {
            cc_error(L->d, L->path, val->mark,
                     "type '%s' expects a mapping with 'fields' or 'values', found %s", k->text,
                     kind_phrase(val));
            continue;
        }
        bool has_fields = false, has_values = false;
        for (size_t p = 0; p < val->count / 2; p++) {
            has_fields |= strcmp(key_text(val, p), "fields") == 0;
            has_values |= strcmp(key_text(val, p), "values") == 0;
        }
        if (has_fields && has_values) {
            cc_error(L->d, L->path, k->mark,
                     "type '%s' has both 'fields' and 'values'; it is an object or an enum",
                     k->text);
        } else if (has_fields) {
            t->object = calloc(1, sizeof *t->object);
            if (!t->object || !(t->object->type_name = cc_strdup(k->text)))
                L->oom = true;
            else
                t->object->named = true;
        } else if (has_values) {
            t->enumeration = calloc(1, sizeof *t->enumeration);
            if (!t->enumeration || !(t->enumeration->type_name = cc_strdup(k->text)))
                L->oom = true;
            else
                t->enumeration->named = true;
        } else {
            cc_error(L->d, L->path, k->mark,
                     "type '%s' needs 'fields' (an object type) or 'values' (an enum type)",
                     k->text);
        }
    }
}

static void define_types(loader_t *L, const ynode_t *map)
{
    static const char *const object_keys[] = {"fields", "rules"};
    static const char *const enum_keys[] = {"values"};
    size_t next = 0;
    for (size_t i = 0; i < map->count / 2 && !L->oom; i++) {
        const ynode_t *k = map->items[2 * i], *val = map->items[2 * i + 1];
        if (next >= L->c->type_count || strcmp(L->c->types[next].name, k->text) != 0)
            continue; /* refused in declare_types */
        cc_named_type_t *t = &L->c->types[next++];
        cc_buf_t b = CC_BUF_INIT;
        cc_buf_printf(&b, "in type '%s'", t->name);
        char *in_what = cc_buf_take(&b, NULL);
        if (!in_what) {
            L->oom = true;
            return;
        }
        const ynode_t *s[2];
        if (t->object) {
            t->object->mark = k->mark;
            collect_keys(L, val, object_keys, 2, s, NULL, in_what);
            if (expect_kind(L, s[0], Y_MAP, "fields"))
                load_object_fields(L, s[0], t->object, "", t->name);
            if (s[1]) {
                cc_buf_t pb = CC_BUF_INIT;
                cc_buf_printf(&pb, "types.%s.", t->name);
                char *prefix = cc_buf_take(&pb, NULL);
                if (prefix)
                    load_rules(L, s[1], t->object, prefix);
                else
                    L->oom = true;
                free(prefix);
            }
        } else if (t->enumeration) {
            t->enumeration->mark = k->mark;
            collect_keys(L, val, enum_keys, 1, s, NULL, in_what);
            load_enum_values(L, s[0], t->enumeration, in_what);
        }
        free(in_what);
    }
}

/* ---- top level -------------------------------------------------------- */

enum top_key { TK_CONTRACT, TK_VERSION, TK_DESCRIPTION, TK_INSTRUCTION, TK_SOURCE, TK_TYPES,
               TK_FIELDS, TK_RULES, TK_REPLY, TK_SCHEMA, TK_COUNT };
static const char *const top_keys[TK_COUNT] = {
    "contract", "version", "description", "instruction", "source", "types",
    "fields", "rules", "reply", "schema"
};

static const char *const dialects[] = {"openai-strict", "gemini", "anthropic", "llama-cpp"};

static void load_top(loader_t *L, const ynode_t *root)
{
    cc_contract_t *c = L->c;
    const char *at_top = "at the top level";
    if (root->poisoned)
        return;
    if (root->kind != Y_MAP) {
        cc_error(L->d, L->path, root->mark,
                 "a contract is a YAML mapping (contract:, version:, fields: ...), not %s",
                 kind_phrase(root));
        return;
    }
    const ynode_t *s[TK_COUNT];
    collect_keys(L, root, top_keys, TK_COUNT, s, NULL, at_top);
    c->root.mark = root->mark;

    if (!s[TK_CONTRACT]) {
        missing_key(L, root->mark, "contract", at_top);
    } else if ((c->name = get_string(L, s[TK_CONTRACT], "contract")) != NULL) {
        c->name_mark = s[TK_CONTRACT]->mark;
        if (!is_contract_name(c->name))
            cc_error(L->d, L->path, c->name_mark,
                     "invalid contract name '%s'; it is the C prefix of every generated name: "
                     "[a-z][a-z0-9_]*", c->name);
        else if (cc_is_c_keyword(c->name))
            cc_error(L->d, L->path, c->name_mark,
                     "contract name '%s' is a C keyword; the record's struct tag would not compile",
                     c->name);
    }
    if (!s[TK_VERSION]) {
        missing_key(L, root->mark, "version", at_top);
    } else {
        int64_t v;
        const ynode_t *n = s[TK_VERSION];
        if (n->kind == Y_SCALAR && !n->quoted && cc_is_integer_text(n->text) &&
            (n->text[0] == '-' || strcmp(n->text, "0") == 0))
            cc_error(L->d, L->path, n->mark, "'version' is a positive integer, not %s", n->text);
        else if (get_int(L, n, "version", 1, UINT32_MAX, &v))
            c->version = (uint32_t)v;
    }
    if (s[TK_DESCRIPTION])
        c->description = get_string(L, s[TK_DESCRIPTION], "description");
    if (!s[TK_INSTRUCTION])
        missing_key(L, root->mark, "instruction", at_top);
    else
        c->instruction = get_string(L, s[TK_INSTRUCTION], "instruction");

    if (s[TK_SOURCE] && expect_kind(L, s[TK_SOURCE], Y_MAP, "source")) {
        static const char *const names[] = {"name", "description"};
        const ynode_t *ss[2];
        collect_keys(L, s[TK_SOURCE], names, 2, ss, NULL, "in 'source'");
        c->has_source = true;
        c->source_mark = s[TK_SOURCE]->mark;
        if (!ss[0])
            missing_key(L, s[TK_SOURCE]->mark, "name", "in 'source'");
        else
            c->source_name = get_string(L, ss[0], "name");
        if (ss[1])
            c->source_description = get_string(L, ss[1], "description");
    }

    if (s[TK_TYPES] && expect_kind(L, s[TK_TYPES], Y_MAP, "types")) {
        declare_types(L, s[TK_TYPES]);
        define_types(L, s[TK_TYPES]);
    }

    if (!s[TK_FIELDS])
        missing_key(L, root->mark, "fields", at_top);
    else if (expect_kind(L, s[TK_FIELDS], Y_MAP, "fields"))
        load_object_fields(L, s[TK_FIELDS], &c->root, "", NULL);
    if (s[TK_RULES])
        load_rules(L, s[TK_RULES], &c->root, "");

    c->fence = CC_FENCE_ALLOW;
    c->max_bytes = CC_DEFAULT_REPLY_BYTES;
    c->max_depth = CC_DEFAULT_REPLY_DEPTH;
    if (s[TK_REPLY] && expect_kind(L, s[TK_REPLY], Y_MAP, "reply")) {
        static const char *const names[] = {"fence", "max_bytes", "max_depth"};
        const ynode_t *rs[3];
        collect_keys(L, s[TK_REPLY], names, 3, rs, NULL, "in 'reply'");
        if (rs[0]) {
            char *fence = get_string(L, rs[0], "fence");
            if (fence && strcmp(fence, "reject") == 0)
                c->fence = CC_FENCE_REJECT;
            else if (fence && strcmp(fence, "allow") != 0)
                cc_error(L->d, L->path, rs[0]->mark,
                         "'fence' is allow or reject, not '%s'", fence);
            free(fence);
        }
        int64_t v;
        if (rs[1] && get_int(L, rs[1], "max_bytes", 1, (int64_t)CC_MAX_REPLY_BYTES, &v))
            c->max_bytes = (uint64_t)v;
        if (rs[2] && get_int(L, rs[2], "max_depth", 1, CC_MAX_REPLY_DEPTH, &v)) {
            c->max_depth = (uint32_t)v;
            c->has_max_depth = true;
            c->max_depth_mark = rs[2]->mark;
        }
    }
    if (s[TK_SCHEMA] && expect_kind(L, s[TK_SCHEMA], Y_MAP, "schema")) {
        static const char *const names[] = {"dialect"};
        const ynode_t *ds[1];
        collect_keys(L, s[TK_SCHEMA], names, 1, ds, NULL, "in 'schema'");
        if (ds[0]) {
            char *d = get_string(L, ds[0], "dialect");
            if (d) {
                size_t i = 0;
                while (i < 4 && strcmp(dialects[i], d) != 0)
                    i++;
                if (i < 4) {
                    c->default_dialect = d;
                    c->dialect_mark = ds[0]->mark;
                    d = NULL;
                } else {
                    const char *near = cc_suggest(d, dialects, 4);
                    if (near)
                        cc_error(L->d, L->path, ds[0]->mark,
                                 "unknown schema dialect '%s'; did you mean '%s'?", d, near);
                    else
                        cc_error(L->d, L->path, ds[0]->mark,
                                 "unknown schema dialect '%s'; known: openai-strict, gemini, "
                                 "anthropic, llama-cpp", d);
                }
                free(d);
            }
        }
    }
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

cc_contract_t *cc_parse_yaml(const char *path, const char *text, size_t len, cc_diags_t *diags)
{
    loader_t L;
    memset(&L, 0, sizeof L);
    L.path = path ? path : "<input>";
    L.d = diags;
    L.text = text ? text : "";
    L.len = text ? len : 0;
    L.c = calloc(1, sizeof *L.c);
    if (!L.c)
        return NULL;
    L.c->path = cc_strdup(L.path);
    L.c->file_name = cc_strdup(base_name(L.path));
    L.c->fence = CC_FENCE_ALLOW;
    L.c->max_bytes = CC_DEFAULT_REPLY_BYTES;
    L.c->max_depth = CC_DEFAULT_REPLY_DEPTH;
    if (!L.c->path || !L.c->file_name) {
        cc_contract_free(L.c);
        return NULL;
    }

    /* A leading byte order mark is skipped (columns of line 1 count from
     * after it, as editors show it); one anywhere else is refused. */
    static const char bom[] = "\xEF\xBB\xBF";
    bool stopped = false;
    if (L.len >= 3 && memcmp(L.text, bom, 3) == 0) {
        L.text += 3;
        L.len -= 3;
    }
    if (!index_lines(&L)) {
        cc_contract_free(L.c);
        return NULL;
    }
    if (L.len >= 2 && ((unsigned char)L.text[0] == 0xFF || (unsigned char)L.text[0] == 0xFE) &&
        ((unsigned char)L.text[1] ^ (unsigned char)L.text[0]) == 0x01) {
        const cc_mark_t start = {1, 1};
        cc_error(diags, L.path, start,
                 "the file is UTF-16 (it starts with a UTF-16 byte order mark); a contract is "
                 "UTF-8 text: save it as UTF-8");
        stopped = true;
    }
    bool bom_inside = false;
    for (size_t i = 0; !stopped && i + 3 <= L.len; i++) {
        if (L.text[i] != bom[0] || memcmp(L.text + i, bom, 3) != 0)
            continue;
        cc_error(diags, L.path, mark_at_offset(&L, i),
                 "a byte order mark (U+FEFF, bytes ef bb bf) is allowed only at the very start "
                 "of a contract; delete this one (most editors do not show it)");
        bom_inside = true;
    }
    stopped |= bom_inside; /* libyaml would only add a misleading syntax error */
    ynode_t *root = stopped ? NULL : read_tree(&L, &stopped);
    if (!stopped && !L.oom) {
        if (!root) {
            const cc_mark_t whole = {0, 0};
            cc_error(diags, L.path, whole,
                     "the file is empty; a contract needs 'contract', 'version', "
                     "'instruction' and 'fields'");
        } else {
            load_top(&L, root);
        }
    }
    node_free(root);
    free(L.lines);
    if (L.oom) {
        cc_contract_free(L.c);
        return NULL;
    }
    return L.c;
}
