/* SPDX-License-Identifier: MIT */
/*
 * phrase.c - the phrase book: every English phrase the model reads about a
 * contract, in one place (generator.h, "phrase.c").  The prompt
 * (gen_prompt.c), the schema and dialect descriptions (gen_schema.c,
 * gen_dialect.c) and the rule problems' messages of the descriptor tables
 * (tables.c, then the repair turn) call these functions, so a constraint is
 * said in the same words wherever the model meets it.  The decimal form's
 * words are the runtime's cc_decimal_form (runtime/src/convert.c), the
 * date forms and default examples CC_DATE_FORM etc. (convert.h), which the
 * runtime's own repair messages for decimals and dates use too.
 *
 * The phrases: value examples (cc_value_example), rule sentences
 * (cc_rule_sentence), counts, bounds, the decimal and the date phrase, text
 * on one line, and grounding.  gen_prompt.c's header lists them per type
 * as the prompt uses them.
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
#include "lexical.h"

/* Example of a date and a datetime when the contract gives none. */
static const char k_date_example[] = CC_DATE_EXAMPLE;
static const char k_datetime_example[] = CC_DATETIME_EXAMPLE;

/* ---- text helpers ------------------------------------------------------ */

void cc_phrase_one_line(cc_buf_t *b, const char *s)
{
    size_t start = 0, end = strlen(s);
    while (start < end && cc_is_space(s[start]))
        start++;
    while (end > start && cc_is_space(s[end - 1]))
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
    while ((v->type == CONTRACTC_TYPE_ARRAY || v->type == CONTRACTC_TYPE_MAP) && v->items)
        v = v->items;
    for (size_t i = 0; v->type == CONTRACTC_TYPE_VALUE_UNION && i < v->alternative_count; i++)
        if (cc_value_grounded(&v->alternatives[i])) /* §4.13: a grounded string alternative */
            return true;
    return v->type == CONTRACTC_TYPE_STRING && v->grounded;
}

void cc_phrase_grounded(cc_buf_t *b, const cc_contract_t *k)
{
    cc_buf_puts(b, "copied exactly from ");
    if (!cc_is_blank(k->source_description))
        cc_phrase_one_line(b, k->source_description);
    else if (!cc_is_blank(k->source_name))
        cc_buf_printf(b, "the %s", k->source_name);
    else
        cc_buf_puts(b, "the source text");
}

/* "a", "a and b", "a, b and c": docs/contract-language.md's list style (no
 * Oxford comma), used for rule operands. */
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
    case CONTRACTC_TYPE_MAP:
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
    case CONTRACTC_TYPE_UNION:
    case CONTRACTC_TYPE_MAP:
    case CONTRACTC_TYPE_JSON:
    case CONTRACTC_TYPE_VALUE_UNION:
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
        if (!cc_is_blank(rule->message))
            cc_phrase_one_line(&b, rule->message);
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

/* The items of an array in words after "each ": "null or " before the
 * items' own phrase when they may be null (docs/contract-language.md
 * §4.6), so that a nullable array's ", or null" stays the array's. */
void cc_phrase_each_item(cc_buf_t *b, const cc_value_t *items)
{
    cc_buf_puts(b, ", each ");
    if (items->nullable)
        cc_buf_puts(b, "null or ");
}

/* generator.h: a tagged union's phrase. */
void cc_phrase_union(cc_buf_t *b, const cc_value_t *v)
{
    cc_buf_puts(b, v->variant_count == 1 ? "an object of this kind, said by its key "
                                         : "an object of one of these kinds, said by its key ");
    cc_buf_json_string(b, v->tag, strlen(v->tag));
    cc_buf_puts(b, ": ");
    for (size_t i = 0; i < v->variant_count; i++) {
        if (i > 0)
            cc_buf_puts(b, i + 1 == v->variant_count ? " or " : ", ");
        cc_buf_json_string(b, v->variants[i].name, strlen(v->variants[i].name));
    }
}

void cc_phrase_variant(cc_buf_t *b, const char *path, const cc_value_t *v, size_t variant)
{
    cc_buf_printf(b, "when %s.", path);
    if (cc_is_identifier(v->tag)) /* a key as the prompt writes it */
        cc_buf_puts(b, v->tag);
    else
        cc_buf_json_string(b, v->tag, strlen(v->tag));
    cc_buf_puts(b, " is ");
    cc_buf_json_string(b, v->variants[variant].name, strlen(v->variants[variant].name));
}

void cc_phrase_alternative(cc_buf_t *b, size_t i)
{
    cc_buf_puts(b, i == 0 ? "either " : "; or ");
}

void cc_phrase_json(cc_buf_t *b, const cc_value_t *v)
{
    cc_buf_puts(b, "any JSON value (an object, a list, a string, a number, true, false or null; "
                   "no key twice in one object)");
    if (v->has_max_length)
        cc_buf_printf(b, ", at most %u bytes of JSON text", (unsigned)v->max_length);
}

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

void cc_phrase_date(cc_buf_t *b, const cc_value_t *v, const char *written)
{
    char *ex = value_example(v, written);
    if (!ex) {
        b->failed = true; /* dates always have an example */
        return;
    }
    cc_buf_printf(b, "like %s (%s)", ex,
                  v->type == CONTRACTC_TYPE_DATE ? CC_DATE_FORM : CC_DATETIME_FORM);
    free(ex);
}

bool cc_rule_prompted(const cc_rule_t *r)
{
    return r->kind != CC_RULE_CHECK || !cc_is_blank(r->prompt);
}
