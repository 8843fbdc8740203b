/* SPDX-License-Identifier: MIT */
/*
 * gen_prompt.c - NAME.prompt.txt (docs/contract-language.md §9, "The prompt"),
 * in the words of the phrase book (phrase.c: value examples, rule sentences,
 * counts, bounds, decimals, dates, grounding).
 *
 * Layout of the prompt (UTF-8, every line ends in "\n"):
 *
 *   <instruction, trailing white space removed>
 *   <empty line>
 *   Reply with one JSON object and nothing else. Exactly these keys:
 *   <one line per field, depth first, in contract order>
 *   <one line per rule: the top-level rules, then nested ones>
 *   Never estimate. A program checks this reply and rejects anything else.
 *
 * A field's line is `PATH: <description>; <phrase>[, or null][ (may be left
 * out)]`, the last for an optional field.  Either part may be absent (then
 * there is no "; ").  PATH is the field's name, `parent.child` inside an
 * object and `list[].child` inside an array's items; a key that is not an
 * identifier is written as a JSON string (`"first-name"`, `list[]."unit-price"`).  `format_text` replaces the generated phrase.  Descriptions,
 * format texts and rule prompts are written on one line: leading and
 * trailing white space is dropped and every run of CR, LF and TAB inside
 * becomes one space, so a folded YAML scalar cannot break the key list.
 *
 * The format phrases (EX is the field's `example`, or one synthesized by
 * cc_value_example's rules; bounds are the contract's):
 *
 * | type     | phrase                                                         |
 * | -------- | -------------------------------------------------------------- |
 * | string   | "text" (only when there is no description), then the parts     |
 * |          | "1 to 80 characters" / "at least 1 character" / "at most 80    |
 * |          | characters" / "exactly 3 characters", "matching P",            |
 * |          | "like EX" (only a written example), joined by ", "             |
 * | integer  | "a whole number" + " from A to B" / " A or more" / " B or      |
 * |          | less", then ", like EX" (only a written example)               |
 * | number   | "a number" + the same bounds (as written), ", like EX"         |
 * | boolean  | "true or false"                                                |
 * | decimal  | like "EX" (dot, two decimals, no separators): the words of   |
 * |          | cc_decimal_form (runtime/src/convert.c), which the repair      |
 * |          | message uses too: scale 0 "(whole number, no dot, no           |
 * |          | separators)", 1 "one decimal", 5 "5 decimals"; signed adds     |
 * |          | ", may start with -" before ", no separators"; bounds follow   |
 * |          | as ", from A to B" etc.                                        |
 * | enum     | "EUR", "GBP" or "USD" (JSON-quoted, commas, then "or")         |
 * | date     | like "EX" (YYYY-MM-DD)                                         |
 * | datetime | like "EX" (RFC 3339 with seconds and an offset)                |
 * | object   | "an object with the keys below" (its fields follow as lines)   |
 * | array    | "a list of N to M items, each " + the items' phrase; counts as |
 * |          | for strings ("at least 1 item", "exactly 2 items"); unbounded: |
 * |          | "a list of items, each ..."; items that may be null: "each     |
 * |          | null or ..." (cc_phrase_each_item)                             |
 *
 * A bound of 0 on a length or an item count says nothing and is not
 * written.  A grounded field, and an array field whose (innermost) items
 * are grounded strings, then adds cc_phrase_grounded's "copied exactly from
 * SOURCE" (SOURCE = `source.description`, else "the " + `source.name`)
 * unless its description or format_text already says so: contains
 * "verbatim", "copied exactly" or "exactly as" (ASCII, any case;
 * cc_grounding_stated).  The schema's descriptions and the dialect notes
 * use the same two functions.  A nullable field ends with ", or null".
 *
 * Rule lines: a `check` without `prompt:` has none (its `message:` is the
 * repair text only); otherwise the rule's `prompt:`, else cc_rule_sentence() with a first
 * letter capitalised when the sentence does not begin with a field name
 * (at_most_one, exactly_one, sum), and a final "." when it has no final
 * punctuation.  Rules of nested objects (inline or named) follow the
 * top-level ones, prefixed "For customer: " or "For each line_items[]
 * item: ", in field order.
 *
 * Nothing here depends on the C locale (the phrase book writes the numbers).
 */
#include "generator.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexical.h"

static const char k_reply_line[] =
    "Reply with one JSON object and nothing else. Exactly these keys:\n";
static const char k_closing_line[] =
    "Never estimate. A program checks this reply and rejects anything else.\n";

/* ---- field lines ----------------------------------------------------- */

typedef struct prompt_ctx {
    cc_buf_t *b;
    const cc_contract_t *contract;
} prompt_ctx_t;

/* Appends a separator before a phrase part when the phrase is not empty. */
static void sep(cc_buf_t *b, size_t start)
{
    if (b->len > start)
        cc_buf_puts(b, ", ");
}

/* The generated format phrase of a value (without grounding or null).
 * `written` is the field's example (NULL for array items); `described`
 * says whether a description precedes it (then a plain string needs no
 * "text"). */
static void put_phrase(cc_buf_t *b, const cc_value_t *v, const char *written, bool described)
{
    size_t start = b->len;

    switch (v->type) {
    case CONTRACTC_TYPE_STRING:
        if (!described)
            cc_buf_puts(b, "text");
        if ((v->has_min_length && v->min_length > 0) || v->has_max_length) {
            sep(b, start);
            cc_phrase_count(b, v->has_min_length, v->min_length, v->has_max_length, v->max_length,
                      "character", "characters");
        }
        if (v->pattern) {
            sep(b, start);
            cc_buf_printf(b, "matching %s", v->pattern);
        }
        if (written) {
            sep(b, start);
            cc_buf_puts(b, "like ");
            cc_buf_json_string(b, written, strlen(written));
        }
        break;
    case CONTRACTC_TYPE_INTEGER:
    case CONTRACTC_TYPE_NUMBER:
        cc_buf_puts(b, v->type == CONTRACTC_TYPE_INTEGER ? "a whole number" : "a number");
        cc_phrase_bounds(b, v);
        if (written)
            cc_buf_printf(b, ", like %s", written);
        break;
    case CONTRACTC_TYPE_BOOLEAN:
        cc_buf_puts(b, "true or false");
        break;
    case CONTRACTC_TYPE_DECIMAL:
        cc_phrase_decimal(b, v, written);
        break;
    case CONTRACTC_TYPE_ENUM:
        if (v->enumeration) {
            for (size_t i = 0; i < v->enumeration->count; i++) {
                if (i > 0)
                    cc_buf_puts(b, i + 1 == v->enumeration->count ? " or " : ", ");
                cc_buf_json_string(b, v->enumeration->values[i], strlen(v->enumeration->values[i]));
            }
        }
        break;
    case CONTRACTC_TYPE_DATE:
    case CONTRACTC_TYPE_DATETIME:
        cc_phrase_date(b, v, written);
        break;
    case CONTRACTC_TYPE_OBJECT:
        cc_buf_puts(b, "an object with the keys below");
        break;
    case CONTRACTC_TYPE_UNION:
        cc_phrase_union(b, v);
        break;
    case CONTRACTC_TYPE_VALUE_UNION: /* docs/contract-language.md §4.13 */
        for (size_t i = 0; i < v->alternative_count; i++) {
            cc_phrase_alternative(b, i);
            put_phrase(b, &v->alternatives[i], NULL, false);
        }
        break;
    case CONTRACTC_TYPE_ARRAY:
        cc_buf_puts(b, "a list of ");
        if ((v->has_min_items && v->min_items > 0) || v->has_max_items)
            cc_phrase_count(b, v->has_min_items, v->min_items, v->has_max_items, v->max_items,
                      "item", "items");
        else
            cc_buf_puts(b, "items");
        if (v->items) {
            cc_phrase_each_item(b, v->items);
            put_phrase(b, v->items, NULL, false);
        }
        break;
    case CONTRACTC_TYPE_MAP: /* docs/contract-language.md §4.12 */
        cc_buf_puts(b, "an object ");
        if ((v->has_min_items && v->min_items > 0) || v->has_max_items) {
            cc_buf_puts(b, "of ");
            cc_phrase_count(b, v->has_min_items, v->min_items, v->has_max_items, v->max_items,
                            "entry", "entries");
            cc_buf_putc(b, ' ');
        }
        cc_buf_puts(b, "with keys of your choice");
        if (v->pattern)
            cc_buf_printf(b, " matching %s", v->pattern);
        if (v->items) {
            cc_buf_puts(b, ", each value ");
            put_phrase(b, v->items, NULL, false);
        }
        break;
    case CONTRACTC_TYPE_JSON:
        cc_phrase_json(b, v);
        break;
    default:
        break;
    }
}

static void emit_object_lines(prompt_ctx_t *c, const char *prefix, const cc_object_t *obj);

/* The nested lines of a value at `path`: an object's fields, or the fields
 * of an array's (innermost) object items. */
static void emit_nested(prompt_ctx_t *c, const char *path, const cc_value_t *v)
{
    cc_buf_t p = CC_BUF_INIT;
    cc_buf_puts(&p, path);
    while ((v->type == CONTRACTC_TYPE_ARRAY || v->type == CONTRACTC_TYPE_MAP) && v->items) {
        cc_buf_puts(&p, v->type == CONTRACTC_TYPE_MAP ? ".*" : "[]");
        v = v->items;
    }
    if (p.failed) {
        /* the path did not fit: the prompt fails, it never loses lines */
        c->b->failed = true;
    } else if (v->type == CONTRACTC_TYPE_OBJECT && v->object) {
        cc_buf_putc(&p, '.');
        if (p.failed)
            c->b->failed = true;
        else
            emit_object_lines(c, p.data, v->object);
    } else if (v->type == CONTRACTC_TYPE_VALUE_UNION) {
        /* an object alternative's keys (at most one), or those of an array
         * alternative's object items, below the field */
        for (size_t i = 0; i < v->alternative_count; i++)
            if (v->alternatives[i].type == CONTRACTC_TYPE_OBJECT ||
                v->alternatives[i].type == CONTRACTC_TYPE_ARRAY ||
                v->alternatives[i].type == CONTRACTC_TYPE_MAP)
                emit_nested(c, p.data, &v->alternatives[i]);
    } else if (v->type == CONTRACTC_TYPE_UNION) {
        /* each variant's keys under a line naming its tag value */
        char *at = cc_strndup(p.data, p.len); /* "history[]" */
        cc_buf_putc(&p, '.');
        if (!at)
            p.failed = true;
        for (size_t i = 0; i < v->variant_count && !p.failed && !c->b->failed; i++) {
            size_t start = c->b->len;
            cc_phrase_variant(c->b, at, v, i);
            if (!c->b->failed && c->b->len > start && c->b->data[start] >= 'a' &&
                c->b->data[start] <= 'z')
                c->b->data[start] = (char)(c->b->data[start] - 'a' + 'A');
            cc_buf_puts(c->b, ":\n");
            emit_object_lines(c, p.data, v->variants[i].object);
        }
        if (p.failed)
            c->b->failed = true;
        free(at);
    }
    cc_buf_free(&p);
}

static void emit_field_line(prompt_ctx_t *c, const char *prefix, const cc_field_t *f)
{
    cc_buf_t *b = c->b;
    const cc_value_t *v = &f->value;
    bool described = !cc_is_blank(f->description);
    size_t line_start = b->len;

    cc_buf_puts(b, prefix);
    if (cc_is_identifier(f->name))
        cc_buf_puts(b, f->name);
    else /* v2: a key that is no identifier, as JSON writes it */
        cc_buf_json_string(b, f->name, strlen(f->name));
    size_t path_len = b->len - line_start;
    cc_buf_puts(b, ": ");
    size_t body = b->len;
    if (described)
        cc_phrase_one_line(b, f->description);

    /* The phrase goes into its own buffer first: it may come out empty
     * (a described string without constraints), and then no "; ". */
    cc_buf_t phrase = CC_BUF_INIT;
    if (!cc_is_blank(f->format_text))
        cc_phrase_one_line(&phrase, f->format_text);
    else
        put_phrase(&phrase, v, f->example, described);
    if (cc_value_grounded(v) && !cc_grounding_stated(f)) {
        /* after the phrase, whose last part an array's items phrase is */
        if (phrase.len > 0)
            cc_buf_puts(&phrase, ", ");
        cc_phrase_grounded(&phrase, c->contract);
    }
    if (phrase.failed)
        b->failed = true;
    if (phrase.len > 0) {
        if (b->len > body)
            cc_buf_puts(b, "; ");
        cc_buf_append(b, phrase.data, phrase.len);
    }
    cc_buf_free(&phrase);
    if (f->nullable)
        cc_buf_puts(b, ", or null");
    if (f->optional)
        cc_buf_puts(b, b->len > body ? " (may be left out)" : "(may be left out)");
    cc_buf_putc(b, '\n');

    if (b->failed)
        return;
    /* The path of this field, for its nested lines. */
    char *path = cc_strndup(b->data + line_start, path_len);
    if (!path) {
        b->failed = true;
        return;
    }
    emit_nested(c, path, v);
    free(path);
}

static void emit_object_lines(prompt_ctx_t *c, const char *prefix, const cc_object_t *obj)
{
    for (size_t i = 0; i < obj->field_count; i++)
        emit_field_line(c, prefix, &obj->fields[i]);
}


/* One rule's line; the caller skips a rule that is not cc_rule_prompted. */
static void emit_rule_line(prompt_ctx_t *c, const cc_object_t *owner, const cc_rule_t *r)
{
    cc_buf_t *b = c->b;
    size_t start = b->len;
    if (!cc_is_blank(r->prompt)) {
        cc_phrase_one_line(b, r->prompt);
    } else {
        char *s = cc_rule_sentence(owner, r);
        if (!s) {
            b->failed = true;
            return;
        }
        bool starts_with_word = r->kind == CC_RULE_AT_MOST_ONE ||
                                r->kind == CC_RULE_EXACTLY_ONE || r->kind == CC_RULE_SUM;
        if (starts_with_word && s[0] >= 'a' && s[0] <= 'z')
            s[0] = (char)(s[0] - 'a' + 'A');
        cc_buf_puts(b, s);
        free(s);
    }
    if (!b->failed && b->len > start) {
        char last = b->data[b->len - 1];
        if (last != '.' && last != '!' && last != '?')
            cc_buf_putc(b, '.');
    }
    cc_buf_putc(b, '\n');
}

static void emit_nested_rules(prompt_ctx_t *c, const char *prefix, const cc_object_t *obj);

/* The rules of a value union's object alternative at `path` (or of an
 * array alternative's object items), as emit_nested_rules writes an
 * object field's (docs/contract-language.md §4.13); a map alternative's
 * object values as an array's items. */
static void emit_alternative_rules(prompt_ctx_t *c, const char *path, const cc_value_t *alt,
                                   bool in_array)
{
    cc_buf_t p = CC_BUF_INIT;
    cc_buf_puts(&p, path);
    while ((alt->type == CONTRACTC_TYPE_ARRAY || alt->type == CONTRACTC_TYPE_MAP) && alt->items) {
        cc_buf_puts(&p, alt->type == CONTRACTC_TYPE_MAP ? ".*" : "[]");
        alt = alt->items;
        in_array = true;
    }
    if (alt->type == CONTRACTC_TYPE_OBJECT && alt->object && !p.failed) {
        for (size_t r = 0; r < alt->object->rule_count; r++) {
            if (!cc_rule_prompted(&alt->object->rules[r]))
                continue;
            cc_buf_printf(c->b, in_array ? "For each %s item: " : "For %s: ", p.data);
            emit_rule_line(c, alt->object, &alt->object->rules[r]);
        }
        cc_buf_putc(&p, '.');
        if (!p.failed)
            emit_nested_rules(c, p.data, alt->object);
    }
    if (p.failed)
        c->b->failed = true;
    cc_buf_free(&p);
}

/* Rules of the objects nested in `obj` (not obj's own), depth first. */
static void emit_nested_rules(prompt_ctx_t *c, const char *prefix, const cc_object_t *obj)
{
    for (size_t i = 0; i < obj->field_count && !c->b->failed; i++) {
        const cc_field_t *f = &obj->fields[i];
        const cc_value_t *v = &f->value;
        cc_buf_t p = CC_BUF_INIT;
        cc_buf_puts(&p, prefix);
        cc_buf_puts(&p, f->name);
        bool in_array = false;
        while ((v->type == CONTRACTC_TYPE_ARRAY || v->type == CONTRACTC_TYPE_MAP) && v->items) {
            cc_buf_puts(&p, v->type == CONTRACTC_TYPE_MAP ? ".*" : "[]");
            v = v->items;
            in_array = true;
        }
        if (v->type == CONTRACTC_TYPE_OBJECT && v->object && !p.failed) {
            for (size_t r = 0; r < v->object->rule_count; r++) {
                if (!cc_rule_prompted(&v->object->rules[r]))
                    continue;
                cc_buf_printf(c->b, in_array ? "For each %s item: " : "For %s: ", p.data);
                emit_rule_line(c, v->object, &v->object->rules[r]);
            }
            cc_buf_putc(&p, '.');
            if (!p.failed)
                emit_nested_rules(c, p.data, v->object);
        }
        for (size_t a = 0; v->type == CONTRACTC_TYPE_VALUE_UNION && a < v->alternative_count &&
                           !p.failed && !c->b->failed; a++)
            emit_alternative_rules(c, p.data, &v->alternatives[a], in_array);
        if (p.failed)
            c->b->failed = true;
        cc_buf_free(&p);
    }
}

char *cc_emit_prompt(const cc_contract_t *contract, size_t *len)
{
    cc_buf_t b = CC_BUF_INIT;
    prompt_ctx_t c = {&b, contract};

    if (contract->instruction) {
        /* Keep the instruction's own lines; drop trailing white space so a
         * YAML literal block ("|") gives exactly one blank line after it. */
        size_t n = strlen(contract->instruction);
        while (n > 0 && cc_is_space(contract->instruction[n - 1]))
            n--;
        cc_buf_append(&b, contract->instruction, n);
        cc_buf_puts(&b, "\n\n");
    }
    cc_buf_puts(&b, k_reply_line);
    emit_object_lines(&c, "", &contract->root);
    for (size_t i = 0; i < contract->root.rule_count; i++)
        if (cc_rule_prompted(&contract->root.rules[i]))
            emit_rule_line(&c, &contract->root, &contract->root.rules[i]);
    emit_nested_rules(&c, "", &contract->root);
    cc_buf_puts(&b, k_closing_line);
    return cc_buf_take(&b, len);
}
