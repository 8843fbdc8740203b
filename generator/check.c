/* SPDX-License-Identifier: MIT */
/*
 * check.c - the checks that span more than one place in a contract (stages.h:
 * cc_check_contract), the pipeline's second stage (semantics).
 *
 * `type: NAME` references are already bound to their named type by the
 * loader (it declares every named type before loading any field, so the
 * order in the file does not matter); here:
 *   - a named object type that reaches itself is refused (v1 has no
 *     recursive types: the record's depth must be finite and known);
 *   - contract->depth: levels of the contract's own values (root = 1, each
 *     object or array +1), at most CC_MAX_DEPTH, and reply.max_depth must
 *     admit it;
 *   - `grounded` needs a top-level `source`;
 *   - rule paths are resolved into field indexes and their kinds checked
 *     (docs/contract-language.md §5, "Rules" and "Fine print");
 *   - rule ids are unique (they name rules in logs);
 *   - each `example` is a valid value of its own field;
 *   - the expanded size: fields, rules and enum values counted as the prompt,
 *     the schemas and the canonical model write them (a named type in full
 *     at every use), at most CC_MAX_EXPANDED.  Counted per named type once
 *     (memoised) before anything is expanded, so a type that uses the next
 *     one twice, 30 levels deep, is refused at once instead of taking
 *     gigabytes.
 *
 * Named types are walked once each, never through references, so a type
 * used by many fields costs once and a cycle cannot loop.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "lexical.h"
#include "stages.h"
#include "text.h"

typedef struct checker {
    cc_contract_t *c;
    cc_diags_t *d;
    const char *path;
    bool cyclic;
    /* per named type: 0 unvisited, 1 on the DFS stack, 2 done */
    unsigned char *state;
    uint32_t *depth;     /* per named object type, once done */
    uint64_t *expanded;  /* per named object type: its size written out, + 1 */
} checker_t;

static size_t named_index(const checker_t *K, const cc_object_t *o)
{
    for (size_t i = 0; i < K->c->type_count; i++)
        if (K->c->types[i].object == o)
            return i;
    return K->c->type_count;
}

/* ---- cycles and depth ------------------------------------------------- */

static uint32_t object_depth(checker_t *K, const cc_object_t *o, const char *via_type);

/* Levels a value adds: 0 for a scalar, 1 + contents for an array or a
 * map (its values), an object's own depth. */
static uint32_t value_depth(checker_t *K, const cc_value_t *v, const cc_field_t *f,
                            const char *owner_type)
{
    if ((v->type == CONTRACTC_TYPE_ARRAY || v->type == CONTRACTC_TYPE_MAP) && v->items)
        return 1 + value_depth(K, v->items, f, owner_type);
    if (v->type == CONTRACTC_TYPE_UNION) {
        /* its deepest variant; a variant that reaches its union's owner is
         * a cycle like any other (docs/contract-language.md §4.11) */
        uint32_t deepest = 0;
        for (size_t i = 0; i < v->variant_count; i++) {
            cc_value_t as_object;
            memset(&as_object, 0, sizeof as_object);
            as_object.type = CONTRACTC_TYPE_OBJECT;
            as_object.object = v->variants[i].object;
            as_object.mark = v->variants[i].type_mark;
            uint32_t d = value_depth(K, &as_object, f, owner_type);
            if (d > deepest)
                deepest = d;
        }
        return deepest;
    }
    if (v->type == CONTRACTC_TYPE_VALUE_UNION) {
        /* its deepest alternative (docs/contract-language.md §4.13) */
        uint32_t deepest = 0;
        for (size_t i = 0; i < v->alternative_count; i++) {
            uint32_t d = value_depth(K, &v->alternatives[i], f, owner_type);
            if (d > deepest)
                deepest = d;
        }
        return deepest;
    }
    if (v->type != CONTRACTC_TYPE_OBJECT || !v->object)
        return 0;
    if (!v->object->named)
        return object_depth(K, v->object, owner_type);
    size_t i = named_index(K, v->object);
    if (i == K->c->type_count)
        return 1;
    if (K->state[i] == 1) {
        cc_error(K->d, K->path, v->mark,
                 "type '%s' reaches itself through field '%s'%s%s%s; recursive types are not "
                 "supported in v1",
                 v->object->type_name, f->name, owner_type ? " of type '" : "",
                 owner_type ? owner_type : "", owner_type ? "'" : "");
        K->cyclic = true;
        return 1;
    }
    if (K->state[i] == 0)
        object_depth(K, v->object, NULL);
    return K->depth[i];
}

/* An object's depth (itself = 1); for a named type, once (memoised), with
 * the DFS state that finds cycles. */
static uint32_t object_depth(checker_t *K, const cc_object_t *o, const char *via_type)
{
    size_t idx = o->named ? named_index(K, o) : K->c->type_count;
    if (idx < K->c->type_count) {
        if (K->state[idx] == 2)
            return K->depth[idx];
        K->state[idx] = 1;
    }
    const char *owner = o->named ? o->type_name : via_type;
    uint32_t deepest = 0;
    for (size_t i = 0; i < o->field_count; i++) {
        uint32_t dd = value_depth(K, &o->fields[i].value, &o->fields[i], owner);
        if (dd > deepest)
            deepest = dd;
    }
    uint32_t d = deepest + 1;
    if (d > CC_MAX_DEPTH + 1)
        d = CC_MAX_DEPTH + 1; /* capped: only "too deep" matters beyond */
    if (idx < K->c->type_count) {
        K->state[idx] = 2;
        K->depth[idx] = d;
    }
    return d;
}

static void check_depth(checker_t *K)
{
    for (size_t i = 0; i < K->c->type_count; i++)
        if (K->c->types[i].object && K->state[i] == 0)
            object_depth(K, K->c->types[i].object, NULL);
    uint32_t depth = object_depth(K, &K->c->root, NULL);
    if (K->cyclic)
        return;
    K->c->depth = depth;
    if (depth > CC_MAX_DEPTH) {
        /* point at the first top-level field that goes too deep */
        cc_mark_t at = K->c->root.mark;
        for (size_t i = 0; i < K->c->root.field_count; i++) {
            const cc_field_t *f = &K->c->root.fields[i];
            if (1 + value_depth(K, &f->value, f, NULL) > CC_MAX_DEPTH) {
                at = f->mark;
                break;
            }
        }
        cc_error(K->d, K->path, at,
                 "the contract nests more than %d levels (objects and arrays, the record "
                 "being 1), the limit", CC_MAX_DEPTH);
        return;
    }
    if (K->c->has_max_depth && K->c->max_depth < depth)
        cc_error(K->d, K->path, K->c->max_depth_mark,
                 "reply.max_depth %u is below the contract's own depth %u: no valid reply "
                 "would fit", (unsigned)K->c->max_depth, (unsigned)depth);
}

/* ---- expanded size ------------------------------------------------------ */

static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static uint64_t object_units(checker_t *K, const cc_object_t *o);

/* What a value adds once written out: an enum's values, an object's
 * fields, rules and values (an array's items'). */
static uint64_t value_units(checker_t *K, const cc_value_t *v)
{
    while ((v->type == CONTRACTC_TYPE_ARRAY || v->type == CONTRACTC_TYPE_MAP) && v->items)
        v = v->items;
    if (v->type == CONTRACTC_TYPE_ENUM && v->enumeration)
        return v->enumeration->count;
    if (v->type == CONTRACTC_TYPE_OBJECT && v->object)
        return object_units(K, v->object);
    if (v->type == CONTRACTC_TYPE_VALUE_UNION) { /* every alternative is written out */
        uint64_t n = 0;
        for (size_t i = 0; i < v->alternative_count; i++)
            n = add_sat(n, value_units(K, &v->alternatives[i]));
        return n;
    }
    uint64_t n = 0; /* a union: every variant is written out */
    for (size_t i = 0; v->type == CONTRACTC_TYPE_UNION && i < v->variant_count; i++)
        if (v->variants[i].object)
            n = add_sat(n, add_sat(1, object_units(K, v->variants[i].object)));
    return n;
}

/* Runs after check_depth found no cycle, so the recursion ends (at most
 * CC_MAX_DEPTH levels); each named type is counted once. */
static uint64_t object_units(checker_t *K, const cc_object_t *o)
{
    size_t idx = o->named ? named_index(K, o) : K->c->type_count;
    if (idx < K->c->type_count && K->expanded[idx])
        return K->expanded[idx] - 1;
    uint64_t n = o->rule_count;
    for (size_t i = 0; i < o->field_count; i++)
        n = add_sat(n, add_sat(1, value_units(K, &o->fields[i].value)));
    if (idx < K->c->type_count)
        K->expanded[idx] = n == UINT64_MAX ? UINT64_MAX : n + 1;
    return n;
}

static void check_expanded(checker_t *K)
{
    uint64_t total = object_units(K, &K->c->root);
    if (total <= CC_MAX_EXPANDED)
        return;
    /* point at the top-level field that takes the total over the limit */
    const cc_object_t *root = &K->c->root;
    cc_mark_t at = root->mark;
    const cc_field_t *blame = NULL;
    uint64_t sum = root->rule_count, own = 0;
    for (size_t i = 0; i < root->field_count && !blame; i++) {
        own = add_sat(1, value_units(K, &root->fields[i].value));
        sum = add_sat(sum, own);
        if (sum > CC_MAX_EXPANDED)
            blame = &root->fields[i];
    }
    if (blame)
        at = blame->mark;
    bool alone = blame && (own != total || own == UINT64_MAX);
    char total_text[48], own_text[48];
    snprintf(total_text, sizeof total_text, "%s%" PRIu64, total == UINT64_MAX ? "more than " : "",
             total);
    snprintf(own_text, sizeof own_text, "%s%" PRIu64, own == UINT64_MAX ? "more than " : "", own);
    cc_error(K->d, K->path, at,
             "the contract expands to %s fields, rules and enum values when every use of a "
             "named type is written out in full (as the prompt, the schemas and the contract "
             "hash write them), over the limit of %u%s%s%s%s; use large named types in fewer "
             "places",
             total_text, CC_MAX_EXPANDED, blame ? ": field '" : "", blame ? blame->name : "",
             alone ? "' alone expands to " : blame ? "' is all of it" : "", alone ? own_text : "");
}

/* ---- grounding -------------------------------------------------------- */

static void check_grounded_value(checker_t *K, const cc_value_t *v, const cc_field_t *f)
{
    if (v->type == CONTRACTC_TYPE_STRING && v->grounded && !K->c->has_source)
        cc_error(K->d, K->path, f->mark,
                 "field '%s' is grounded, but the contract has no 'source' to ground it in; "
                 "add source: {name: ..., description: ...}", f->name);
    if ((v->type == CONTRACTC_TYPE_ARRAY || v->type == CONTRACTC_TYPE_MAP) && v->items)
        check_grounded_value(K, v->items, f);
    for (size_t i = 0; v->type == CONTRACTC_TYPE_VALUE_UNION && i < v->alternative_count; i++)
        check_grounded_value(K, &v->alternatives[i], f);
    if (v->type == CONTRACTC_TYPE_OBJECT && v->object && !v->object->named)
        for (size_t i = 0; i < v->object->field_count; i++)
            check_grounded_value(K, &v->object->fields[i].value, &v->object->fields[i]);
}

/* ---- rules ------------------------------------------------------------ */

static const char *const kind_names[] = {
    "", "all_or_none", "at_most_one", "exactly_one", "sum", "compare", "check"
};

static bool is_amount(const cc_value_t *v)
{
    return v->type == CONTRACTC_TYPE_INTEGER || v->type == CONTRACTC_TYPE_DECIMAL;
}

/* Finds field `name` of `o` (name_len bytes); reports an unknown one with
 * the closest name.  Returns its index or -1. */
static long find_field(checker_t *K, const cc_object_t *o, const char *name, size_t name_len,
                       const cc_path_t *p, const cc_rule_t *r)
{
    for (size_t i = 0; i < o->field_count; i++)
        if (strlen(o->fields[i].name) == name_len &&
            memcmp(o->fields[i].name, name, name_len) == 0)
            return (long)i;
    char *word = cc_strndup(name, name_len);
    const char **cand = malloc((o->field_count ? o->field_count : 1) * sizeof *cand);
    const char *near = NULL;
    if (word && cand) {
        for (size_t i = 0; i < o->field_count; i++)
            cand[i] = o->fields[i].name;
        near = cc_suggest(word, cand, o->field_count);
    }
    const char *shown = word ? word : p->text;
    if (near)
        cc_error(K->d, K->path, p->mark,
                 "rule '%s' names unknown field %s%s%s; did you mean '%s'?", r->id,
                 cc_diag_quote(shown), shown, cc_diag_quote(shown), near);
    else
        cc_error(K->d, K->path, p->mark, "rule '%s' names unknown field %s%s%s", r->id,
                 cc_diag_quote(shown), shown, cc_diag_quote(shown));
    free(word);
    free(cand);
    return -1;
}

/* ---- rule paths (docs/contract-language.md §4.9) ------------------------ */

/* One step of a rule path: a key, or "[]" (the items of an array). */
typedef struct path_step {
    char *key;                 /* decoded (owned); NULL: "[]" */
} path_step_t;

#define PATH_MAX_STEPS 4       /* more than any rule path takes */

static void path_steps_free(path_step_t *st, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(st[i].key);
}

/* Reads the quoted key of a bracket segment at *pp (at the quote: ' or "),
 * with RFC 9535's escapes (section 2.3.1.1): \b \f \n \r \t \/ \\ \'
 * \" and \uXXXX (surrogate pairs joined).  *pp ends after the "]". */
static char *read_bracket_key(const char **pp)
{
    const char *p = *pp;
    char quote = *p++;
    cc_buf_t b = CC_BUF_INIT;
    for (;;) {
        unsigned char ch = (unsigned char)*p;
        if (ch == '\0' || ch < 0x20) {
            cc_buf_free(&b);
            return NULL;
        }
        if (ch == (unsigned char)quote)
            break;
        if (ch != '\\') {
            cc_buf_putc(&b, (char)ch);
            p++;
            continue;
        }
        p++;
        char e = *p++;
        const char *simple = e == 'b' ? "\b" : e == 'f' ? "\f" : e == 'n' ? "\n" : e == 'r' ? "\r"
                           : e == 't' ? "\t" : e == '/' ? "/" : e == '\\' ? "\\"
                           : e == '\'' ? "'" : e == '"' ? "\"" : NULL;
        if (simple && (e != '\'' || quote == '\'') && (e != '"' || quote == '"')) {
            cc_buf_puts(&b, simple);
            continue;
        }
        if (e != 'u') {
            cc_buf_free(&b);
            return NULL;
        }
        unsigned long cp = 0;
        for (int k = 0; k < 4; k++, p++) {
            char h = *p;
            int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                  : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
            if (v < 0) {
                cc_buf_free(&b);
                return NULL;
            }
            cp = cp * 16 + (unsigned long)v;
        }
        if (cp >= 0xD800 && cp <= 0xDBFF && p[0] == '\\' && p[1] == 'u') {
            unsigned long lo = 0;
            int k = 0;
            for (; k < 4; k++) {
                char h = p[2 + k];
                int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                      : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                if (v < 0)
                    break;
                lo = lo * 16 + (unsigned long)v;
            }
            if (k == 4 && lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                p += 6;
            }
        }
        if ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0) {
            cc_buf_free(&b); /* a lone surrogate, or NUL: no key has it */
            return NULL;
        }
        char u[4];
        size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        if (n == 1) {
            u[0] = (char)cp;
        } else if (n == 2) {
            u[0] = (char)(0xC0 | (cp >> 6));
            u[1] = (char)(0x80 | (cp & 0x3F));
        } else if (n == 3) {
            u[0] = (char)(0xE0 | (cp >> 12));
            u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
            u[2] = (char)(0x80 | (cp & 0x3F));
        } else {
            u[0] = (char)(0xF0 | (cp >> 18));
            u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
            u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
            u[3] = (char)(0x80 | (cp & 0x3F));
        }
        cc_buf_append(&b, u, n);
    }
    p++; /* the closing quote */
    if (*p != ']') {
        cc_buf_free(&b);
        return NULL;
    }
    *pp = p + 1;
    if (b.len == 0) {
        cc_buf_free(&b);
        return NULL; /* an empty key is no field */
    }
    return cc_buf_take(&b, NULL);
}

/* Splits a rule path into steps: an identifier first or after '.', a key
 * in brackets ['k'] or ["k"] anywhere, "[]" for an array's items.  Returns
 * the step count, or 0 for a path that is none of these (or too long). */
static size_t path_split(const char *text, path_step_t *st)
{
    size_t n = 0;
    const char *p = text;
    if (!p || !*p)
        return 0;
    while (*p) {
        if (n == PATH_MAX_STEPS) {
            path_steps_free(st, n);
            return 0;
        }
        if (p[0] == '[' && p[1] == ']') {
            st[n++].key = NULL;
            p += 2;
            continue;
        }
        if (p[0] == '[' && (p[1] == '\'' || p[1] == '"')) {
            const char *q = p + 1;
            char *k = read_bracket_key(&q);
            if (!k) {
                path_steps_free(st, n);
                return 0;
            }
            st[n++].key = k;
            p = q;
            continue;
        }
        if (n > 0) {
            if (*p != '.') {
                path_steps_free(st, n);
                return 0;
            }
            p++;
        }
        size_t len = 0;
        while (p[len] && p[len] != '.' && p[len] != '[')
            len++;
        if (!cc_is_identifier_n(p, len)) {
            path_steps_free(st, n);
            return 0;
        }
        st[n].key = cc_strndup(p, len);
        if (!st[n].key) {
            path_steps_free(st, n);
            return 0;
        }
        n++;
        p += len;
    }
    return n;
}

/* For a path that is not one: when it holds a byte no identifier path
 * has, how to write such a key. */
static const char *bracket_hint(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '.' || *p == '[' || *p == ']'))
            return "; a key that is not an identifier is written in brackets, as in "
                   "\"['line-items'][]['unit-price']\"";
    return "";
}

/* The key a plain operand names (owned): the path's one key ("amount",
 * "['first-name']"), or the whole text when it is a key of `o` as it is
 * (a key that is no identifier may be written bare: "first-name").  NULL
 * when the text is neither. */
static char *plain_key(const cc_object_t *o, const char *text)
{
    for (size_t i = 0; i < o->field_count; i++)
        if (strcmp(o->fields[i].name, text) == 0)
            return cc_strdup(text);
    path_step_t st[PATH_MAX_STEPS];
    size_t n = path_split(text, st);
    if (n == 1 && st[0].key)
        return st[0].key;
    path_steps_free(st, n);
    return NULL;
}

/* A plain field name of the owner ("amount"). */
static const cc_field_t *resolve_plain(checker_t *K, const cc_object_t *o, cc_path_t *p,
                                       const cc_rule_t *r)
{
    if (!p->text)
        return NULL;
    char *key = plain_key(o, p->text);
    if (!key) {
        cc_error(K->d, K->path, p->mark,
                 "rule '%s': '%s' is not a field of this object; %s takes field names%s",
                 r->id, p->text, kind_names[r->kind], bracket_hint(p->text));
        return NULL;
    }
    long i = find_field(K, o, key, strlen(key), p, r);
    free(key);
    if (i < 0)
        return NULL;
    p->steps[0] = (uint16_t)i;
    p->step_count = 1;
    return &o->fields[i];
}

/* Reports a sum operand that is nullable or optional (a missing amount
 * never counts as 0); true when it is. */
static bool sum_operand_refused(checker_t *K, const cc_path_t *p, const cc_rule_t *r,
                                const cc_field_t *f, const char *shown)
{
    if (f->nullable) {
        cc_error(K->d, K->path, p->mark,
                 "rule '%s': the operands of a sum may not be nullable, and field %s%s%s is",
                 r->id, cc_diag_quote(shown), shown, cc_diag_quote(shown));
        return true;
    }
    if (f->optional) {
        cc_error(K->d, K->path, p->mark,
                 "rule '%s': the operands of a sum may not be optional (a missing amount would "
                 "count as nothing, not 0), and field %s%s%s is", r->id, cc_diag_quote(shown),
                 shown, cc_diag_quote(shown));
        return true;
    }
    return false;
}

/* The rest of resolve_sum_of, once the array field `ai` is found: its items
 * (item_key NULL) or their field item_key. */
static const cc_value_t *sum_of_steps(checker_t *K, const cc_object_t *o, cc_path_t *p,
                                      const cc_rule_t *r, size_t ai, const char *item_key,
                                      const cc_field_t **summed_field)
{
    const cc_field_t *af = &o->fields[ai];
    if (af->value.type != CONTRACTC_TYPE_ARRAY || !af->value.items) {
        cc_error(K->d, K->path, p->mark, "rule '%s': sum over field '%s', which is not an array",
                 r->id, af->name);
        return NULL;
    }
    if (sum_operand_refused(K, p, r, af, af->name))
        return NULL;
    if (af->value.items->nullable) {
        cc_error(K->d, K->path, p->mark,
                 "rule '%s': the operands of a sum may not be nullable, and the items of '%s' "
                 "are (a null item would count as nothing, not 0)", r->id, af->name);
        return NULL;
    }
    p->steps[0] = (uint16_t)ai;
    p->step_count = 1;
    const cc_value_t *items = af->value.items;
    if (!item_key) {
        if (!is_amount(items)) {
            cc_error(K->d, K->path, p->mark,
                     "rule '%s': a sum adds integers or decimals; the items of '%s' are of type %s",
                     r->id, af->name, cc_type_name(items->type));
            return NULL;
        }
        *summed_field = af;
        return items;
    }
    if (items->type != CONTRACTC_TYPE_OBJECT || !items->object) {
        cc_error(K->d, K->path, p->mark,
                 "rule '%s': '%s' names a field of the items of '%s', which are not objects",
                 r->id, p->text, af->name);
        return NULL;
    }
    const cc_object_t *io = items->object;
    long fi = find_field(K, io, item_key, strlen(item_key), p, r);
    if (fi < 0)
        return NULL;
    const cc_field_t *sf = &io->fields[fi];
    if (!is_amount(&sf->value)) {
        cc_error(K->d, K->path, p->mark,
                 "rule '%s': a sum adds integers or decimals; field %s%s%s is of type %s",
                 r->id, cc_diag_quote(p->text), p->text, cc_diag_quote(p->text),
                 cc_type_name(sf->value.type));
        return NULL;
    }
    if (sum_operand_refused(K, p, r, sf, p->text))
        return NULL;
    p->steps[1] = (uint16_t)fi;
    p->step_count = 2;
    *summed_field = sf;
    return &sf->value;
}

/* `of` of a sum: "name[]" (an array of integers or decimals) or
 * "name[].field" (a field of each item).  Returns the summed value. */
static const cc_value_t *resolve_sum_of(checker_t *K, const cc_object_t *o, cc_path_t *p,
                                        const cc_rule_t *r, const cc_field_t **summed_field)
{
    *summed_field = NULL;
    if (!p->text)
        return NULL;
    path_step_t st[PATH_MAX_STEPS];
    size_t steps = path_split(p->text, st);
    bool ok = (steps == 2 || steps == 3) && st[0].key && !st[1].key && (steps == 2 || st[2].key);
    if (!ok) {
        path_steps_free(st, steps);
        cc_error(K->d, K->path, p->mark,
                 "rule '%s': 'of' is \"name[]\" or \"name[].field\" (an array of this object), "
                 "not '%s'%s", r->id, p->text, bracket_hint(p->text));
        return NULL;
    }
    long ai = find_field(K, o, st[0].key, strlen(st[0].key), p, r);
    char *item_key = steps == 3 ? st[2].key : NULL;
    free(st[0].key);
    if (ai < 0) {
        free(item_key);
        return NULL;
    }
    /* item_key is freed on every path below */
    const cc_value_t *v = sum_of_steps(K, o, p, r, (size_t)ai, item_key, summed_field);
    free(item_key);
    return v;
}

static void check_sum(checker_t *K, const cc_object_t *o, cc_rule_t *r)
{
    const cc_field_t *sf = NULL;
    const cc_value_t *of = resolve_sum_of(K, o, &r->of, r, &sf);
    const cc_field_t *eq = resolve_plain(K, o, &r->equals, r);
    if (eq && !is_amount(&eq->value)) {
        cc_error(K->d, K->path, r->equals.mark,
                 "rule '%s': 'equals' is an integer or decimal field; '%s' is of type %s", r->id,
                 eq->name, cc_type_name(eq->value.type));
        eq = NULL;
    } else if (eq && sum_operand_refused(K, &r->equals, r, eq, eq->name)) {
        eq = NULL;
    }
    if (!of || !eq)
        return;
    if (of->type != eq->value.type ||
        (of->type == CONTRACTC_TYPE_DECIMAL && of->scale != eq->value.scale)) {
        cc_error(K->d, K->path, r->equals.mark,
                 "rule '%s': '%s' and '%s' differ in type or scale; a sum's operands share both",
                 r->id, r->of.text, r->equals.text);
        return;
    }
    if (!r->tolerance_text)
        return;
    if (of->type == CONTRACTC_TYPE_INTEGER) {
        int64_t t = 0;
        if (r->tolerance_quoted || !cc_is_integer_text(r->tolerance_text) ||
            r->tolerance_text[0] == '-' ||
            cc_convert_integer(r->tolerance_text, strlen(r->tolerance_text), &t) !=
                CC_CONVERT_OK) {
            cc_error(K->d, K->path, r->tolerance_mark,
                     "rule '%s': the tolerance is in the operands' notation, a non-negative "
                     "integer here, not %s%s%s", r->id, r->tolerance_quoted ? "\"" : "'",
                     r->tolerance_text, r->tolerance_quoted ? "\"" : "'");
            return;
        }
        r->tolerance = t;
    } else {
        int64_t t = 0;
        if (!r->tolerance_quoted ||
            cc_convert_decimal(r->tolerance_text, strlen(r->tolerance_text), of->scale, false,
                               &t) != CC_CONVERT_OK) {
            char example[42];
            cc_format_decimal(1, of->scale, example);
            cc_error(K->d, K->path, r->tolerance_mark,
                     "rule '%s': the tolerance is in the operands' notation, a quoted decimal "
                     "with %u fraction digits such as \"%s\" here, not %s%s%s", r->id,
                     (unsigned)of->scale, example, r->tolerance_quoted ? "\"" : "'",
                     r->tolerance_text, r->tolerance_quoted ? "\"" : "'");
            return;
        }
        r->tolerance = t;
    }
}

static void check_compare(checker_t *K, const cc_object_t *o, cc_rule_t *r)
{
    const cc_field_t *l = resolve_plain(K, o, &r->left, r);
    const cc_field_t *rt = resolve_plain(K, o, &r->right, r);
    if (!l || !rt)
        return;
    contractc_type_t t = l->value.type;
    bool ordered = t == CONTRACTC_TYPE_INTEGER || t == CONTRACTC_TYPE_DECIMAL ||
                   t == CONTRACTC_TYPE_DATE || t == CONTRACTC_TYPE_DATETIME ||
                   t == CONTRACTC_TYPE_NUMBER;
    /* Strings, enums (by spelling) and booleans are equal or not, with no
     * order. */
    bool equatable = t == CONTRACTC_TYPE_STRING || t == CONTRACTC_TYPE_ENUM ||
                     t == CONTRACTC_TYPE_BOOLEAN;
    bool equality = r->op == CONTRACTC_OP_EQ || r->op == CONTRACTC_OP_NE;
    if (l == rt) {
        cc_error(K->d, K->path, r->right.mark, "rule '%s' compares field '%s' with itself", r->id,
                 l->name);
    } else if (t != rt->value.type ||
               (t == CONTRACTC_TYPE_DECIMAL && l->value.scale != rt->value.scale)) {
        cc_error(K->d, K->path, r->right.mark,
                 "rule '%s' compares '%s' (%s) with '%s' (%s); compare takes two fields of one "
                 "type%s", r->id, l->name, cc_type_name(t), rt->name,
                 cc_type_name(rt->value.type),
                 t == rt->value.type ? " and scale" : "");
    } else if (equatable && !equality) {
        cc_error(K->d, K->path, r->left.mark,
                 "rule '%s': compare takes only == or != on string, enum and boolean fields; "
                 "'%s' and '%s' are of type %s", r->id, l->name, rt->name, cc_type_name(t));
    } else if (!ordered && !equatable) {
        cc_error(K->d, K->path, r->left.mark,
                 "rule '%s': compare takes integer, decimal, number, date, datetime, string, "
                 "enum or boolean fields; '%s' and '%s' are of type %s", r->id, l->name,
                 rt->name, cc_type_name(t));
    }
}

static void check_rule(checker_t *K, const cc_object_t *o, cc_rule_t *r)
{
    switch (r->kind) {
    case CC_RULE_ALL_OR_NONE:
    case CC_RULE_AT_MOST_ONE:
    case CC_RULE_EXACTLY_ONE: {
        /* first[i]: where field i was first named, + 1 (0: not yet); linear
         * even for a list of thousands of names */
        size_t *first = calloc(o->field_count ? o->field_count : 1, sizeof *first);
        for (size_t i = 0; i < r->field_count; i++) {
            const cc_field_t *f = resolve_plain(K, o, &r->fields[i], r);
            if (!f)
                continue;
            size_t fi = r->fields[i].steps[0];
            if (first && first[fi]) {
                cc_error(K->d, K->path, r->fields[i].mark, "rule '%s' names field '%s' twice",
                         r->id, f->name);
                cc_diag_related(K->d, K->path, r->fields[first[fi] - 1].mark,
                                "'%s' first appears here", f->name);
                continue;
            }
            if (first)
                first[fi] = i + 1;
            if (!f->nullable && !f->optional)
                cc_error(K->d, K->path, r->fields[i].mark,
                         "rule '%s': %s takes nullable or optional fields, and field '%s' is "
                         "neither", r->id, kind_names[r->kind], f->name);
        }
        free(first);
        break;
    }
    case CC_RULE_SUM:
        check_sum(K, o, r);
        break;
    case CC_RULE_COMPARE:
        check_compare(K, o, r);
        break;
    case CC_RULE_CHECK:
        break;
    }
}

static int compare_rule_ids(const void *a, const void *b)
{
    const cc_rule_t *x = *(const cc_rule_t *const *)a, *y = *(const cc_rule_t *const *)b;
    int c = strcmp(x->id, y->id);
    if (c)
        return c;
    if (x->mark.line != y->mark.line)
        return x->mark.line < y->mark.line ? -1 : 1;
    return x->mark.column < y->mark.column ? -1 : (x->mark.column > y->mark.column);
}

static void check_rule_ids(checker_t *K)
{
    size_t n = K->c->root.rule_count;
    for (size_t i = 0; i < K->c->type_count; i++)
        if (K->c->types[i].object)
            n += K->c->types[i].object->rule_count;
    if (n < 2)
        return;
    const cc_rule_t **all = malloc(n * sizeof *all);
    if (!all)
        return; /* a missed duplicate id is not worth an OOM error path */
    size_t k = 0;
    for (size_t i = 0; i < K->c->root.rule_count; i++)
        all[k++] = &K->c->root.rules[i];
    for (size_t t = 0; t < K->c->type_count; t++)
        if (K->c->types[t].object)
            for (size_t i = 0; i < K->c->types[t].object->rule_count; i++)
                all[k++] = &K->c->types[t].object->rules[i];
    if (k > 1) /* qsort's pointer must not be NULL, even for 0 items */
        qsort(all, k, sizeof *all, compare_rule_ids);
    for (size_t i = 1; i < k; i++) {
        if (!all[i]->id || !all[i - 1]->id || strcmp(all[i]->id, all[i - 1]->id) != 0)
            continue;
        size_t j = i - 1;
        while (j > 0 && strcmp(all[j - 1]->id, all[i]->id) == 0)
            j--;
        cc_error(K->d, K->path, all[i]->mark, "duplicate rule id '%s'", all[i]->id);
        cc_diag_related(K->d, K->path, all[j]->mark, "rule '%s' first appears here", all[j]->id);
    }
    free(all);
}

/* ---- examples --------------------------------------------------------- */

static void bad_example(checker_t *K, const cc_field_t *f, const char *why)
{
    cc_error(K->d, K->path, f->example_mark, "example '%s' of field '%s' is not a valid value: %s",
             f->example, f->name, why);
}

static void bound_example(checker_t *K, const cc_field_t *f, const char *side,
                          const char *bound)
{
    char why[120];
    snprintf(why, sizeof why, "%s %.80s", side, bound ? bound : "?");
    bad_example(K, f, why);
}

static void check_example(checker_t *K, const cc_field_t *f)
{
    const cc_value_t *v = &f->value;
    const char *e = f->example;
    size_t len = strlen(e);
    char why[200];
    switch (v->type) {
    case CONTRACTC_TYPE_STRING: {
        size_t n = cc_code_points(e);
        if (v->has_min_length && n < v->min_length) {
            snprintf(why, sizeof why, "%zu characters, fewer than min_length %u", n,
                     (unsigned)v->min_length);
            bad_example(K, f, why);
        } else if (v->has_max_length && n > v->max_length) {
            snprintf(why, sizeof why, "%zu characters, more than max_length %u", n,
                     (unsigned)v->max_length);
            bad_example(K, f, why);
        }
        if (v->dfa && !cc_dfa_matches(v->dfa, e, len)) {
            snprintf(why, sizeof why, "it does not match the pattern '%.120s'", v->pattern);
            bad_example(K, f, why);
        }
        break;
    }
    case CONTRACTC_TYPE_INTEGER: {
        int64_t x;
        if (!cc_is_integer_text(e) || cc_convert_integer(e, len, &x) != CC_CONVERT_OK) {
            bad_example(K, f, "not an integer within ±9007199254740991");
        } else if (v->has_minimum && x < v->minimum) {
            snprintf(why, sizeof why, "below minimum %lld", (long long)v->minimum);
            bad_example(K, f, why);
        } else if (v->has_maximum && x > v->maximum) {
            snprintf(why, sizeof why, "above maximum %lld", (long long)v->maximum);
            bad_example(K, f, why);
        }
        break;
    }
    case CONTRACTC_TYPE_NUMBER: {
        double x;
        if (!cc_is_json_number(e) || cc_convert_number(e, len, &x) != CC_CONVERT_OK)
            bad_example(K, f, "not a JSON number");
        else if (v->has_minimum && x < v->number_minimum)
            bound_example(K, f, "below minimum", v->minimum_text);
        else if (v->has_maximum && x > v->number_maximum)
            bound_example(K, f, "above maximum", v->maximum_text);
        break;
    }
    case CONTRACTC_TYPE_BOOLEAN:
        if (strcmp(e, "true") != 0 && strcmp(e, "false") != 0)
            bad_example(K, f, "a boolean is true or false");
        break;
    case CONTRACTC_TYPE_DECIMAL: {
        int64_t x;
        cc_convert_t r = cc_convert_decimal(e, len, v->scale, v->is_signed, &x);
        if (r != CC_CONVERT_OK) {
            char like[42];
            cc_format_decimal(v->is_signed ? -125000 : 125000, v->scale, like);
            snprintf(why, sizeof why, "not a decimal like \"%s\" (%u fraction digits%s)", like,
                     (unsigned)v->scale, v->is_signed ? "" : ", no sign");
            bad_example(K, f, why);
        } else if (v->has_minimum && x < v->minimum) {
            bound_example(K, f, "below minimum", v->minimum_text);
        } else if (v->has_maximum && x > v->maximum) {
            bound_example(K, f, "above maximum", v->maximum_text);
        }
        break;
    }
    case CONTRACTC_TYPE_ENUM: {
        const cc_enum_t *en = v->enumeration;
        if (!en)
            break;
        size_t i = 0;
        while (i < en->count && strcmp(en->values[i], e) != 0)
            i++;
        if (i == en->count)
            bad_example(K, f, "not one of the enum's values");
        break;
    }
    case CONTRACTC_TYPE_DATE: {
        contractc_date_t d;
        if (cc_convert_date(e, len, &d) != CC_CONVERT_OK)
            bad_example(K, f, "not a calendar date YYYY-MM-DD");
        break;
    }
    case CONTRACTC_TYPE_DATETIME: {
        contractc_datetime_t dt;
        if (cc_convert_datetime(e, len, &dt) != CC_CONVERT_OK)
            bad_example(K, f, "not an RFC 3339 date-time such as 2024-03-01T12:00:00Z");
        break;
    }
    default:
        break;
    }
}

/* A tagged union (docs/contract-language.md §4.11): no variant type may
 * define the tag key itself (the tag would then be two things). */
static void check_union(checker_t *K, const cc_value_t *v, const cc_field_t *f)
{
    for (size_t i = 0; v->tag && i < v->variant_count; i++) {
        const cc_object_t *o = v->variants[i].object;
        for (size_t j = 0; o && j < o->field_count; j++)
            if (strcmp(o->fields[j].name, v->tag) == 0) {
                cc_error(K->d, K->path, o->fields[j].mark,
                         "type '%s', variant '%s' of the union '%s', defines the union's tag "
                         "key '%s'; the tag belongs to the union: remove the field or choose "
                         "another tag", o->type_name, v->variants[i].name, f->name, v->tag);
                cc_diag_related(K->d, K->path, v->tag_mark, "the tag '%s' is chosen here",
                                v->tag);
            }
    }
}

/* Nullable array items (docs/contract-language.md §4.6) of field f: this
 * build generates them for the items of an array field whose items are a
 * scalar or an object, not for a null inner list, the items of an inner
 * list or union items. */
static void check_nullable_items(checker_t *K, const cc_field_t *f)
{
    size_t level = 0;
    for (const cc_value_t *v = &f->value; v->type == CONTRACTC_TYPE_ARRAY && v->items;
         v = v->items, level++) {
        const cc_value_t *iv = v->items;
        if (!iv->nullable)
            continue;
        if (level > 0 || iv->type == CONTRACTC_TYPE_ARRAY || iv->type == CONTRACTC_TYPE_UNION ||
            iv->type == CONTRACTC_TYPE_VALUE_UNION)
            cc_error(K->d, K->path, iv->nullable_mark,
                     "field '%s': nullable items are generated for the items of an array field "
                     "that are scalars or objects; %s are not generated by this build yet",
                     f->name,
                     level > 0 ? "nullable items of an inner list"
                     : iv->type == CONTRACTC_TYPE_ARRAY ? "nullable inner lists"
                     : iv->type == CONTRACTC_TYPE_UNION ? "nullable union items"
                                                        : "nullable value-union items");
    }
}

/* Walks the fields an object owns (inline objects included, named types
 * not followed): grounding, examples, and the rules of each object. */
static void check_object(checker_t *K, cc_object_t *o)
{
    for (size_t i = 0; i < o->field_count; i++) {
        cc_field_t *f = &o->fields[i];
        check_grounded_value(K, &f->value, f);
        check_nullable_items(K, f);
        if (f->example)
            check_example(K, f);
        const cc_value_t *v = &f->value;
        if ((v->type == CONTRACTC_TYPE_ARRAY || v->type == CONTRACTC_TYPE_MAP) && v->items)
            v = v->items;
        if (v->type == CONTRACTC_TYPE_OBJECT && v->object && !v->object->named)
            check_object(K, v->object);
        for (size_t a = 0; v->type == CONTRACTC_TYPE_VALUE_UNION && a < v->alternative_count; a++) {
            /* an inline object alternative, or an array alternative's (§4.13) */
            const cc_value_t *alt = &v->alternatives[a];
            if (alt->type == CONTRACTC_TYPE_ARRAY && alt->items)
                alt = alt->items;
            if (alt->type == CONTRACTC_TYPE_OBJECT && alt->object && !alt->object->named)
                check_object(K, alt->object);
        }
        const cc_value_t *u = v;
        while (u->type == CONTRACTC_TYPE_ARRAY && u->items) /* arrays of arrays of unions too */
            u = u->items;
        if (u->type == CONTRACTC_TYPE_UNION)
            check_union(K, u, f);
    }
    for (size_t i = 0; i < o->rule_count; i++)
        check_rule(K, o, &o->rules[i]);
}

void cc_check_contract(cc_contract_t *c, cc_diags_t *diags)
{
    checker_t K;
    memset(&K, 0, sizeof K);
    K.c = c;
    K.d = diags;
    K.path = c->path;
    size_t n = c->type_count ? c->type_count : 1;
    K.state = calloc(n, sizeof *K.state);
    K.depth = calloc(n, sizeof *K.depth);
    K.expanded = calloc(n, sizeof *K.expanded);
    if (!K.state || !K.depth || !K.expanded) {
        const cc_mark_t whole = {0, 0};
        cc_error(diags, c->path, whole, "out of memory");
    } else {
        check_depth(&K);
        if (!K.cyclic)
            check_expanded(&K);
    }
    free(K.state);
    free(K.depth);
    free(K.expanded);

    for (size_t i = 0; i < c->type_count; i++)
        if (c->types[i].object)
            check_object(&K, c->types[i].object);
    check_object(&K, &c->root);
    check_rule_ids(&K);
}
