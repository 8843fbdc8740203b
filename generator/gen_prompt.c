/* SPDX-License-Identifier: MIT */
/*
 * gen_prompt.c - NAME.prompt.txt, value examples and rule sentences
 * (design page, "The prompt").
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
 * A field's line is `PATH: <description>; <phrase>[, or null]`.  Either
 * part may be absent (then there is no "; ").  PATH is the field's name,
 * `parent.child` inside an object and `list[].child` inside an array's
 * items.  `format_text` replaces the generated phrase.  Descriptions,
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
 * |          | "a list of items, each ..."                                    |
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
 * Nothing here depends on the C locale: numbers are written with PRId64 or
 * cc_format_number/cc_format_decimal, and case folding is ASCII only.
 */
#include "generator.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

static const char k_reply_line[] =
    "Reply with one JSON object and nothing else. Exactly these keys:\n";
static const char k_closing_line[] =
    "Never estimate. A program checks this reply and rejects anything else.\n";

/* Example of a date and a datetime when the contract gives none. */
static const char k_date_example[] = "2024-03-01";
static const char k_datetime_example[] = "2024-03-01T14:30:00Z";

/* ---- small text helpers ---------------------------------------------- */

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void cc_phrase_one_line(cc_buf_t *b, const char *s)
{
    size_t start = 0, end = strlen(s);
    while (start < end && is_space(s[start]))
        start++;
    while (end > start && is_space(s[end - 1]))
        end--;
    for (size_t i = start; i < end; i++) {
        if (s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
            while (i + 1 < end && (s[i + 1] == '\n' || s[i + 1] == '\r' || s[i + 1] == '\t'))
                i++;
            cc_buf_putc(b, ' ');
        } else {
            cc_buf_putc(b, s[i]);
        }
    }
}

static void put_one_line(cc_buf_t *b, const char *s) { cc_phrase_one_line(b, s); }

/* True when `s` holds no non-space character (NULL counts as empty). */
static bool is_blank(const char *s)
{
    if (!s)
        return true;
    for (; *s; s++)
        if (!is_space(*s))
            return false;
    return true;
}

static char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* ASCII case-insensitive substring test (no locale involved). */
static bool contains_word(const char *hay, const char *needle)
{
    if (!hay)
        return false;
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && ascii_lower(hay[i]) == needle[i])
            i++;
        if (i == n)
            return true;
    }
    return false;
}

static void put_json_string(cc_buf_t *b, const char *s) { cc_buf_json_string(b, s, strlen(s)); }

/* ---- grounding ------------------------------------------------------- */

bool cc_grounding_stated(const cc_field_t *f)
{
    static const char *const says[] = {"verbatim", "copied exactly", "exactly as"};
    for (size_t i = 0; i < sizeof says / sizeof says[0]; i++)
        if (contains_word(f->description, says[i]) || contains_word(f->format_text, says[i]))
            return true;
    return false;
}

bool cc_value_grounded(const cc_value_t *v)
{
    while (v->type == CONTRACTC_TYPE_ARRAY && v->items)
        v = v->items;
    return v->type == CONTRACTC_TYPE_STRING && v->grounded;
}

void cc_phrase_grounded(cc_buf_t *b, const cc_contract_t *k)
{
    cc_buf_puts(b, "copied exactly from ");
    if (!is_blank(k->source_description))
        put_one_line(b, k->source_description);
    else if (!is_blank(k->source_name))
        cc_buf_printf(b, "the %s", k->source_name);
    else
        cc_buf_puts(b, "the source text");
}

/* "a", "a and b", "a, b and c": the design page's list style (no Oxford
 * comma), used for rule operands. */
static void put_path_list(cc_buf_t *b, const cc_path_t *paths, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (i > 0)
            cc_buf_puts(b, i + 1 == count ? " and " : ", ");
        cc_buf_puts(b, paths[i].text ? paths[i].text : "?");
    }
}

/* ---- examples -------------------------------------------------------- */

/* Largest minor-unit value "1250" (then 125, 12, 1) times 10^scale that
 * fits int64, so scale 18 still gets an example. */
static int64_t decimal_example_minor(uint8_t scale)
{
    int64_t unit = 1;
    for (uint8_t i = 0; i < scale; i++)
        unit *= 10; /* scale <= 18: 10^18 fits */
    int64_t base = 1250;
    while (base > 1 && base > INT64_MAX / unit)
        base /= 10;
    return base * unit;
}

/* The example as JSON text for a value: `written` (a YAML scalar as
 * written) when set, else synthesized; NULL for objects, arrays and
 * strings without an example, and when out of memory. */
static char *value_example(const cc_value_t *v, const char *written)
{
    cc_buf_t b = CC_BUF_INIT;
    char num[42];

    switch (v->type) {
    case CONTRACTC_TYPE_STRING:
        if (!written)
            return NULL;
        put_json_string(&b, written);
        break;
    case CONTRACTC_TYPE_INTEGER:
        if (written) {
            cc_buf_puts(&b, written);
        } else {
            /* 0, moved into the bounds: the minimum or the maximum. */
            int64_t x = 0;
            if (v->has_minimum && x < v->minimum)
                x = v->minimum;
            if (v->has_maximum && x > v->maximum)
                x = v->maximum;
            cc_buf_printf(&b, "%" PRId64, x);
        }
        break;
    case CONTRACTC_TYPE_NUMBER:
        if (written) {
            cc_buf_puts(&b, written);
        } else {
            double x = 0.0;
            if (v->has_minimum && x < v->number_minimum)
                x = v->number_minimum;
            if (v->has_maximum && x > v->number_maximum)
                x = v->number_maximum;
            size_t n = cc_format_number(x, num);
            cc_buf_append(&b, num, n);
        }
        break;
    case CONTRACTC_TYPE_BOOLEAN:
        cc_buf_puts(&b, written ? written : "true");
        break;
    case CONTRACTC_TYPE_DECIMAL:
        if (written) {
            put_json_string(&b, written);
        } else {
            int64_t x = decimal_example_minor(v->scale);
            if (v->has_minimum && x < v->minimum)
                x = v->minimum;
            if (v->has_maximum && x > v->maximum)
                x = v->maximum;
            size_t n = cc_format_decimal(x, v->scale, num);
            cc_buf_putc(&b, '"');
            cc_buf_append(&b, num, n);
            cc_buf_putc(&b, '"');
        }
        break;
    case CONTRACTC_TYPE_ENUM:
        if (written)
            put_json_string(&b, written);
        else if (v->enumeration && v->enumeration->count > 0)
            put_json_string(&b, v->enumeration->values[0]);
        else
            return NULL;
        break;
    case CONTRACTC_TYPE_DATE:
        put_json_string(&b, written ? written : k_date_example);
        break;
    case CONTRACTC_TYPE_DATETIME:
        put_json_string(&b, written ? written : k_datetime_example);
        break;
    case CONTRACTC_TYPE_OBJECT:
    case CONTRACTC_TYPE_ARRAY:
    default:
        return NULL;
    }
    return cc_buf_take(&b, NULL);
}

char *cc_value_example(const cc_field_t *field)
{
    return field ? value_example(&field->value, field->example) : NULL;
}

bool cc_value_has_example(const cc_field_t *field)
{
    /* value_example's NULL cases, other than out of memory */
    if (!field)
        return false;
    const cc_value_t *v = &field->value;
    switch (v->type) {
    case CONTRACTC_TYPE_STRING:
        return field->example != NULL;
    case CONTRACTC_TYPE_ENUM:
        return field->example != NULL || (v->enumeration && v->enumeration->count > 0);
    case CONTRACTC_TYPE_OBJECT:
    case CONTRACTC_TYPE_ARRAY:
        return false;
    default:
        return true;
    }
}

/* ---- rule sentences -------------------------------------------------- */

static const char *op_words(contractc_compare_op_t op)
{
    switch (op) {
    case CONTRACTC_OP_LT: return "less than";
    case CONTRACTC_OP_LE: return "less than or equal to";
    case CONTRACTC_OP_EQ: return "equal to";
    case CONTRACTC_OP_NE: return "different from";
    case CONTRACTC_OP_GE: return "greater than or equal to";
    case CONTRACTC_OP_GT: return "greater than";
    }
    return "compared with";
}

/* The sentences are lower-case fragments without a final period, because
 * the runtime uses them as problem messages; the prompt adds the rest. */
char *cc_rule_sentence(const cc_object_t *owner, const cc_rule_t *rule)
{
    (void)owner; /* operands are named by their paths as written */
    cc_buf_t b = CC_BUF_INIT;

    switch (rule->kind) {
    case CC_RULE_ALL_OR_NONE:
        put_path_list(&b, rule->fields, rule->field_count);
        cc_buf_puts(&b, " must be all null or all set");
        break;
    case CC_RULE_AT_MOST_ONE:
        cc_buf_puts(&b, "at most one of ");
        put_path_list(&b, rule->fields, rule->field_count);
        cc_buf_puts(&b, " may be set");
        break;
    case CC_RULE_EXACTLY_ONE:
        cc_buf_puts(&b, "exactly one of ");
        put_path_list(&b, rule->fields, rule->field_count);
        cc_buf_puts(&b, " must be set");
        break;
    case CC_RULE_SUM:
        cc_buf_puts(&b, "the sum of ");
        cc_buf_puts(&b, rule->of.text ? rule->of.text : "?");
        cc_buf_puts(&b, " must equal ");
        cc_buf_puts(&b, rule->equals.text ? rule->equals.text : "?");
        /* A non-zero tolerance in the operands' own notation, as written
         * ("0.01" for a decimal), else in minor units. */
        if (rule->tolerance != 0 && rule->tolerance_text)
            cc_buf_printf(&b, " (within %s)", rule->tolerance_text);
        else if (rule->tolerance != 0)
            cc_buf_printf(&b, " (within %" PRId64 ")", rule->tolerance);
        break;
    case CC_RULE_COMPARE:
        cc_buf_puts(&b, rule->left.text ? rule->left.text : "?");
        cc_buf_puts(&b, " must be ");
        cc_buf_puts(&b, op_words(rule->op));
        cc_buf_putc(&b, ' ');
        cc_buf_puts(&b, rule->right.text ? rule->right.text : "?");
        break;
    case CC_RULE_CHECK:
        if (!is_blank(rule->message))
            put_one_line(&b, rule->message);
        else
            cc_buf_printf(&b, "the check %s must pass",
                          rule->function ? rule->function : "?");
        break;
    default:
        cc_buf_puts(&b, "a rule must hold");
        break;
    }
    return cc_buf_take(&b, NULL);
}

/* ---- field lines ----------------------------------------------------- */

typedef struct prompt_ctx {
    cc_buf_t *b;
    const cc_contract_t *contract;
} prompt_ctx_t;

/* A count range in words: "exactly N", "N to M", "at least N", "at most
 * M", followed by the singular or plural noun; a minimum of 0 says
 * nothing, and with no bound left nothing is written. */
void cc_phrase_count(cc_buf_t *b, bool has_min, uint32_t min, bool has_max, uint32_t max,
                      const char *one, const char *many)
{
    if (has_min && min == 0)
        has_min = false;
    if (has_min && has_max && min == max)
        cc_buf_printf(b, "exactly %" PRIu32 " %s", min, min == 1 ? one : many);
    else if (has_min && has_max)
        cc_buf_printf(b, "%" PRIu32 " to %" PRIu32 " %s", min, max, many);
    else if (has_min)
        cc_buf_printf(b, "at least %" PRIu32 " %s", min, min == 1 ? one : many);
    else if (has_max)
        cc_buf_printf(b, "at most %" PRIu32 " %s", max, max == 1 ? one : many);
}

/* One bound of an integer, number or decimal as text: a number's or a
 * decimal's as written in the contract when known ("0.01"), else
 * formatted without the C locale. */
void cc_phrase_bound(cc_buf_t *b, const cc_value_t *v, bool low)
{
    const char *written = low ? v->minimum_text : v->maximum_text;
    char num[42];
    if (v->type == CONTRACTC_TYPE_INTEGER) {
        cc_buf_printf(b, "%" PRId64, low ? v->minimum : v->maximum);
    } else if (written) {
        cc_buf_puts(b, written);
    } else if (v->type == CONTRACTC_TYPE_DECIMAL) {
        size_t n = cc_format_decimal(low ? v->minimum : v->maximum, v->scale, num);
        cc_buf_append(b, num, n);
    } else {
        size_t n = cc_format_number(low ? v->number_minimum : v->number_maximum, num);
        cc_buf_append(b, num, n);
    }
}

/* " from A to B" / " A or more" / " B or less"; nothing without bounds. */
void cc_phrase_bounds(cc_buf_t *b, const cc_value_t *v)
{
    if (v->has_minimum && v->has_maximum) {
        cc_buf_puts(b, " from ");
        cc_phrase_bound(b, v, true);
        cc_buf_puts(b, " to ");
        cc_phrase_bound(b, v, false);
    } else if (v->has_minimum) {
        cc_buf_putc(b, ' ');
        cc_phrase_bound(b, v, true);
        cc_buf_puts(b, " or more");
    } else if (v->has_maximum) {
        cc_buf_putc(b, ' ');
        cc_phrase_bound(b, v, false);
        cc_buf_puts(b, " or less");
    }
}

void cc_phrase_decimal(cc_buf_t *b, const cc_value_t *v, const char *written)
{
    char *ex = value_example(v, written);
    if (!ex) {
        b->failed = true; /* a decimal always has an example */
        return;
    }
    char form[CC_DECIMAL_FORM_MAX];
    cc_decimal_form(v->scale, v->is_signed, form);
    cc_buf_printf(b, "like %s (%s)", ex, form);
    free(ex);
    if (v->has_minimum || v->has_maximum)
        cc_buf_putc(b, ',');
    cc_phrase_bounds(b, v);
}

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
    char *ex;

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
            put_json_string(b, written);
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
                put_json_string(b, v->enumeration->values[i]);
            }
        }
        break;
    case CONTRACTC_TYPE_DATE:
    case CONTRACTC_TYPE_DATETIME:
        ex = value_example(v, written);
        if (!ex) {
            b->failed = true; /* dates always have an example */
            break;
        }
        cc_buf_printf(b, "like %s (%s)", ex,
                      v->type == CONTRACTC_TYPE_DATE ? "YYYY-MM-DD"
                                                     : "RFC 3339 with seconds and an offset");
        free(ex);
        break;
    case CONTRACTC_TYPE_OBJECT:
        cc_buf_puts(b, "an object with the keys below");
        break;
    case CONTRACTC_TYPE_ARRAY:
        cc_buf_puts(b, "a list of ");
        if ((v->has_min_items && v->min_items > 0) || v->has_max_items)
            cc_phrase_count(b, v->has_min_items, v->min_items, v->has_max_items, v->max_items,
                      "item", "items");
        else
            cc_buf_puts(b, "items");
        if (v->items) {
            cc_buf_puts(b, ", each ");
            put_phrase(b, v->items, NULL, false);
        }
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
    while (v->type == CONTRACTC_TYPE_ARRAY && v->items) {
        cc_buf_puts(&p, "[]");
        v = v->items;
    }
    if (v->type == CONTRACTC_TYPE_OBJECT && v->object) {
        cc_buf_putc(&p, '.');
        if (p.failed)
            c->b->failed = true;
        else
            emit_object_lines(c, p.data, v->object);
    }
    cc_buf_free(&p);
}

static void emit_field_line(prompt_ctx_t *c, const char *prefix, const cc_field_t *f)
{
    cc_buf_t *b = c->b;
    const cc_value_t *v = &f->value;
    bool described = !is_blank(f->description);
    size_t line_start = b->len;

    cc_buf_puts(b, prefix);
    cc_buf_puts(b, f->name);
    cc_buf_puts(b, ": ");
    size_t body = b->len;
    if (described)
        put_one_line(b, f->description);

    /* The phrase goes into its own buffer first: it may come out empty
     * (a described string without constraints), and then no "; ". */
    cc_buf_t phrase = CC_BUF_INIT;
    if (!is_blank(f->format_text))
        put_one_line(&phrase, f->format_text);
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
    cc_buf_putc(b, '\n');

    if (b->failed)
        return;
    /* The path of this field, for its nested lines. */
    char *path = cc_strndup(b->data + line_start, strlen(prefix) + strlen(f->name));
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

bool cc_rule_prompted(const cc_rule_t *r)
{
    return r->kind != CC_RULE_CHECK || !is_blank(r->prompt);
}

/* One rule's line; the caller skips a rule that is not cc_rule_prompted. */
static void emit_rule_line(prompt_ctx_t *c, const cc_object_t *owner, const cc_rule_t *r)
{
    cc_buf_t *b = c->b;
    size_t start = b->len;
    if (!is_blank(r->prompt)) {
        put_one_line(b, r->prompt);
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
        while (v->type == CONTRACTC_TYPE_ARRAY && v->items) {
            cc_buf_puts(&p, "[]");
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
        while (n > 0 && is_space(contract->instruction[n - 1]))
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
