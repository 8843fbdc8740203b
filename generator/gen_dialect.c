/* SPDX-License-Identifier: MIT */
/*
 * gen_dialect.c - NAME.D.schema.json and NAME.D.notes.txt: the portable
 * draft 2020-12 schema rewritten into one provider's subset of JSON Schema
 * (docs/dialects.md, sections 1-6), and the list of contract
 * constraints that subset does not carry.
 *
 * How: the portable schema (cc_emit_schema) is parsed back and walked in
 * step with the contract model, so the portable mapping stays in one place
 * (gen_schema.c) and a dialect can only remove, loosen or re-spell what it
 * says.  For every constraint the walk decides one of three things
 * (dialects.md section 6.1):
 *
 *   carried      the keyword stays (or is re-spelt: llama.cpp patterns);
 *   not carried  the keyword is removed (refused or ignored by the
 *                provider), or loosened (Anthropic minItems >= 2 -> 1), and
 *                recorded; its sentence goes into the description;
 *   no form      grounding, rules and decimal bounds, which no JSON Schema
 *                subset expresses: recorded for every dialect.
 *
 * A dialect schema is looser than the contract, never stricter: nothing is
 * ever added except descriptions, and the one re-spelling (llama.cpp's
 * date-time as a pattern of its form) accepts a superset of RFC 3339.
 *
 * | constraint          | openai-strict | gemini  | anthropic       | llama-cpp           |
 * | ------------------- | ------------- | ------- | --------------- | ------------------- |
 * | minLength/maxLength | refused       | ignored | refused         | carried, ignored    |
 * |                     |               |         |                 | beside a pattern    |
 * | pattern (+decimal)  | carried       | ignored | carried         | carried, classes    |
 * |                     |               |         |                 | spelt out           |
 * | integer min/max     | carried       | carried | refused         | carried             |
 * | number min/max      | carried       | carried | refused         | ignored             |
 * | format date         | carried       | carried | carried         | carried, day 31 in  |
 * |                     |               |         |                 | every month         |
 * | format date-time    | carried       | carried | carried         | a pattern of the    |
 * |                     |               |         |                 | form instead        |
 * | minItems            | carried       | carried | 0/1; >=2 -> 1   | carried             |
 * | maxItems            | carried       | carried | refused         | carried             |
 *
 * Sentences: a not-carried constraint is written into the description of
 * the property that holds it (an array item's or a nested object's own
 * node when it has no property), in the words of the prompt's format
 * phrase (gen_prompt.c: "At most 80 characters.", "A whole number 0 or
 * more."; test_dialects compares them with the prompt line).  A field's
 * format_text replaces the generated phrase there, as it does in the
 * prompt.  Rules add their prompt sentence to the owning object (a check
 * without prompt: adds none: its message is for the repair turn only).
 *
 * Limits (dialects.md): openai-strict 5000 properties, 10 levels of
 * objects and arrays, 120,000 characters of property names and enum
 * values, 1000 enum values, 15,000 characters for one enum of more than
 * 250 values, and no optional key (v2: every key must be in 'required');
 * anthropic 16 union types (every nullable field), 24 optional keys and
 * property keys of ^[a-zA-Z0-9_.-]{1,64}$.  A contract
 * over one of them fails that dialect with a diagnostic; nothing is
 * truncated.
 *
 * The notes file, sorted by path (byte order, stable):
 *
 *   # NAME.D.schema.json: what PROVIDER does not carry (dialects.md, checked DATE).
 *   # The parser enforces every constraint below, whatever the provider does.
 *   PATH: CONSTRAINT not carried by D (REASON); stated in WHERE; the parser enforces it
 */
#include "generator.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "convert.h"
#include "lexical.h"

const char *const cc_dialect_names[] = {"openai-strict", "gemini", "anthropic", "llama-cpp"};
const size_t cc_dialect_count = sizeof cc_dialect_names / sizeof cc_dialect_names[0];

enum { D_OPENAI, D_GEMINI, D_ANTHROPIC, D_LLAMA, D_MCP };

/* "mcp" is no --schema-dialect (it is not in cc_dialect_names): it is the
 * schema of an MCP tool definition's inputSchema (gen_tool.c), which takes
 * any JSON Schema, so the portable schema passes whole and only what has no
 * form in JSON Schema is recorded.  A walk rule that strips or loosens a
 * keyword names its dialects, so it never applies to D_MCP. */
#define CC_DIALECT_MCP "mcp"

/* Who the provider is and when its table was last checked (dialects.md). */
static const char *const provider_names[] = {
    "OpenAI Structured Outputs (strict: true)",
    "Gemini API responseJsonSchema",
    "Anthropic structured outputs (strict)",
    "llama.cpp JSON Schema to GBNF",
    "Model Context Protocol tools (inputSchema, JSON Schema 2020-12)",
};
static const char *const provider_dates[] = {"2026-10-08", "2026-02-26", "2026-08-22", "2026",
                                             "2025-11-25"};

/* OpenAI's documented limits (dialects.md section 1, guide checked 2026-10). */
#define OPENAI_MAX_PROPERTIES 5000u
#define OPENAI_MAX_DEPTH 10u
#define OPENAI_MAX_STRING_CHARS 120000u
#define OPENAI_MAX_ENUM_VALUES 1000u
#define OPENAI_BIG_ENUM_VALUES 250u
#define OPENAI_BIG_ENUM_CHARS 15000u
/* Anthropic's union limit (dialects.md section 3, documented 2026-02-19). */
#define ANTHROPIC_MAX_UNIONS 16u
/* Anthropic's optional-parameter limit (dialects.md section 3, the same
 * table), and the property keys its API takes (reported 2025-04 to 2026-01
 * for tool schemas: ^[a-zA-Z0-9_.-]{1,64}$). */
#define ANTHROPIC_MAX_OPTIONAL 24u
#define ANTHROPIC_MAX_KEY_BYTES 64u

bool cc_dialect_known(const char *dialect)
{
    for (size_t i = 0; i < cc_dialect_count; i++)
        if (strcmp(cc_dialect_names[i], dialect) == 0)
            return true;
    return false;
}

typedef struct note {
    char *path;
    char *text;
    size_t seq; /* insertion order, for a stable sort */
} note_t;

typedef struct dctx {
    const cc_contract_t *k;
    int d;
    const char *name;
    note_t *notes;
    size_t note_count, note_cap;
    bool failed;
    /* counts for the limits */
    size_t unions, properties, enum_values, string_chars;
    unsigned depth;
    cc_mark_t union_over;       /* the field whose union passes the limit */
    cc_mark_t depth_over;
    cc_mark_t big_enum;         /* an enum over the big-enum rule */
    size_t big_enum_chars;
    /* v2 keys and optional (docs/dialects.md, "Keys and optional") */
    size_t optionals;           /* optional fields, nested ones included */
    cc_mark_t first_optional, optional_over;
    const char *first_optional_path; /* the first optional field's key */
    const cc_field_t *odd_key;  /* the first key Anthropic does not take */
    /* v2 map (docs/contract-language.md §4.12, docs/dialects.md section 5) */
    bool has_map;
    cc_mark_t first_map;        /* the first map's field (or value) */
    char *first_map_path;       /* its RFC 9535 path, owned */
    /* v2 json (docs/contract-language.md §4.14, docs/dialects.md section 5) */
    bool has_json;
    cc_mark_t first_json;       /* the first json value's field (or value) */
    char *first_json_path;      /* its RFC 9535 path, owned */
} dctx_t;

/* A property key Anthropic's API takes: [a-zA-Z0-9_.-]{1,64}. */
static bool anthropic_key(const char *k)
{
    size_t n = 0;
    for (; k[n]; n++) {
        unsigned char ch = (unsigned char)k[n];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_' || ch == '.' || ch == '-'))
            return false;
    }
    return n >= 1 && n <= ANTHROPIC_MAX_KEY_BYTES;
}

/* ---- small helpers ------------------------------------------------------- */

/* RFC 9535 path segment of a key (text.h: cc_buf_key_segment). */
static void put_segment(cc_buf_t *b, const char *name)
{
    cc_buf_key_segment(b, name, false);
}

static void add_note(dctx_t *c, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void add_note(dctx_t *c, const char *path, const char *fmt, ...)
{
    if (c->note_count == c->note_cap) {
        size_t cap = c->note_cap ? c->note_cap * 2 : 16;
        note_t *n = realloc(c->notes, cap * sizeof *n);
        if (!n) {
            c->failed = true;
            return;
        }
        c->notes = n;
        c->note_cap = cap;
    }
    char small[1];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
    char *p = cc_strdup(path);
    if (!text || !p) {
        free(text);
        free(p);
        c->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(text, (size_t)len + 1, fmt, ap);
    va_end(ap);
    c->notes[c->note_count].path = p;
    c->notes[c->note_count].text = text;
    c->notes[c->note_count].seq = c->note_count;
    c->note_count++;
}

/* Where the words for a not-carried constraint of field f are. */
static const char *stated_where(const dctx_t *c, const cc_field_t *f)
{
    bool by_format_text = f && !cc_is_blank(f->format_text);
    if (c->d == D_LLAMA)
        return by_format_text
                   ? "stated in the prompt by the field's format_text (llama.cpp shows the model no "
                     "descriptions)"
                   : "stated in the prompt (llama.cpp shows the model no descriptions; the "
                     "description repeats it)";
    return by_format_text ? "stated in the description and the prompt by the field's format_text"
                          : "stated in the description and the prompt";
}

/* Capitalises the first ASCII letter written from `start` on. */
static void capitalise(cc_buf_t *b, size_t start)
{
    if (!b->failed && b->len > start && b->data[start] >= 'a' && b->data[start] <= 'z')
        b->data[start] = (char)(b->data[start] - 'a' + 'A');
}

/* Ends a sentence written from `start` on with "." unless it has final
 * punctuation, and separates it from earlier ones with a space. */
static void begin_sentence(cc_buf_t *b)
{
    if (b->len > 0)
        cc_buf_putc(b, ' ');
}

static void end_sentence(cc_buf_t *b, size_t start)
{
    capitalise(b, start);
    if (!b->failed && b->len > start) {
        char last = b->data[b->len - 1];
        if (last != '.' && last != '!' && last != '?')
            cc_buf_putc(b, '.');
    }
}

/* ---- the prompt's phrases (same words as gen_prompt.c) ------------------- */

/* ---- node editing -------------------------------------------------------- */

static cJSON *get(const cJSON *node, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(node, key);
}

static void drop(cJSON *node, const char *key) { cJSON_DeleteItemFromObjectCaseSensitive(node, key); }

/* A new item carrying its own key, for inserting at a chosen position. */
static cJSON *keyed(dctx_t *c, cJSON *item, const char *key)
{
    char *k = cc_strdup(key);
    if (!item || !k) {
        cJSON_Delete(item);
        free(k);
        c->failed = true;
        return NULL;
    }
    item->string = k;
    return item;
}

/* Appends the sentences in `words` to node's description (inserted as the
 * first key when there is none, where the portable schema puts it). */
static void append_description(dctx_t *c, cJSON *node, const cc_buf_t *words)
{
    if (words->failed) {
        c->failed = true;
        return;
    }
    if (words->len == 0)
        return;
    cJSON *old = get(node, "description");
    cc_buf_t b = CC_BUF_INIT;
    if (old && cJSON_IsString(old) && !cc_is_blank(old->valuestring)) {
        cc_buf_puts(&b, old->valuestring);
        char last = b.len ? b.data[b.len - 1] : '.';
        if (last != '.' && last != '!' && last != '?')
            cc_buf_putc(&b, '.');
        cc_buf_putc(&b, ' ');
    }
    cc_buf_append(&b, words->data, words->len);
    if (b.failed) {
        c->failed = true;
        cc_buf_free(&b);
        return;
    }
    cJSON *item = keyed(c, cJSON_CreateString(b.data), "description");
    cc_buf_free(&b);
    if (!item)
        return;
    cJSON_bool ok = old ? cJSON_ReplaceItemViaPointer(node, old, item)
                        : cJSON_InsertItemInArray(node, 0, item);
    if (!ok) {
        cJSON_Delete(item);
        c->failed = true;
    }
}

/* ---- patterns for llama.cpp ---------------------------------------------- */

/*
 * llama.cpp's pattern converter (common/json-schema-to-grammar.cpp) knows
 * literals, escaped punctuation, classes, groups including (?:, '|' and the
 * greedy quantifiers, but passes shorthand escapes such as \d through
 * untranslated (dialects.md section 4).  So \d and \w are spelt out
 * ([0-9], [A-Za-z0-9_]; inside a class without their brackets), \D and \W
 * become negated classes outside a class.  Returns NULL (and *why) for a
 * pattern using a construct it does not document: \D or \W inside a class,
 * the code-point escapes \x \u \c \0 \v \f, or a lazy quantifier; or one
 * whose set it reads differently: \s and \S (ECMA-262's Unicode white space,
 * docs/contract-language.md §6.2) and '.' outside a class (ECMA-262 also
 * excludes U+2028 and U+2029).
 */
static char *llama_pattern(const char *p, const char **why)
{
    cc_buf_t b = CC_BUF_INIT;
    bool in_class = false;
    *why = NULL;
    for (size_t i = 0; p[i]; i++) {
        char ch = p[i];
        if (ch == '\\' && p[i + 1]) {
            char e = p[++i];
            const char *set = e == 'd' || e == 'D' ? "0-9" : e == 'w' || e == 'W' ? "A-Za-z0-9_" : NULL;
            if (set && in_class && (e == 'D' || e == 'W')) {
                *why = "it uses \\D or \\W inside a class, which has no spelt-out form";
            } else if (set) {
                cc_buf_printf(&b, in_class ? "%s" : (e == 'd' || e == 'w') ? "[%s]" : "[^%s]", set);
            } else if (e == 's' || e == 'S') {
                *why = "it uses \\s or \\S, ECMA-262's Unicode white space set, which "
                       "llama.cpp's converter does not document";
            } else if (strchr("xucv0f", e)) {
                *why = "it uses a code-point escape (\\x, \\u, \\c, \\0, \\v or \\f) that "
                       "llama.cpp's converter does not document";
            } else {
                cc_buf_putc(&b, '\\');
                cc_buf_putc(&b, e);
            }
        } else {
            if (ch == '[' && !in_class)
                in_class = true;
            else if (ch == ']' && in_class)
                in_class = false;
            else if (!in_class && ch == '.')
                *why = "it uses '.', which llama.cpp's converter reads as any character but "
                       "LF and CR (ECMA-262 also excludes U+2028 and U+2029)";
            else if (!in_class && ch == '?' && i > 0 && strchr("*+?}", p[i - 1]) &&
                     !(p[i - 1] == '?' && i > 1 && p[i - 2] == '('))
                *why = "it uses a lazy quantifier, which llama.cpp's converter does not document";
            cc_buf_putc(&b, ch);
        }
        if (*why)
            break;
    }
    if (*why) {
        cc_buf_free(&b);
        return NULL;
    }
    cc_buf_t out = CC_BUF_INIT;
    cc_buf_printf(&out, "^(%s)$", b.data ? b.data : "");
    cc_buf_free(&b);
    return cc_buf_take(&out, NULL);
}

/* RFC 3339 date-time's form, looser than contractc's profile: any number
 * of fraction digits, every field two digits without range checks. */
static const char k_datetime_form[] =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$";

/* ---- the walk ------------------------------------------------------------ */

static void walk_object(dctx_t *c, cJSON *node, const cc_object_t *obj, const char *path,
                        cc_buf_t *words, unsigned level);

/* The keywords of value v at `node`.  f is the field (NULL for array
 * items); `words` collects the sentences for the description that holds
 * them; `level` counts objects and arrays (root = 1). */
static void walk_value(dctx_t *c, cJSON *node, const cc_value_t *v, const cc_field_t *f,
                       const char *path, cc_buf_t *words, unsigned level)
{
    const char *D = c->name;
    const char *where = stated_where(c, f);
    bool own_words = !(f && !cc_is_blank(f->format_text)); /* format_text wins */
    size_t s;

    if (!node) {
        c->failed = true;
        return;
    }
    switch (v->type) {
    case CONTRACTC_TYPE_STRING: {
        bool lengths = (v->has_min_length && v->min_length > 0) || v->has_max_length;
        bool drop_lengths = c->d != D_MCP && (c->d != D_LLAMA || v->pattern);
        if (drop_lengths && (v->has_min_length || v->has_max_length)) {
            drop(node, "minLength");
            drop(node, "maxLength");
        }
        if (drop_lengths && lengths) {
            const char *reason = c->d == D_GEMINI ? "ignored"
                                 : c->d == D_LLAMA ? "ignored beside a pattern"
                                                   : "refused";
            if (v->has_min_length && v->min_length > 0)
                add_note(c, path, "minLength %" PRIu32 " not carried by %s (%s); %s; the parser enforces it",
                         v->min_length, D, reason, where);
            if (v->has_max_length)
                add_note(c, path, "maxLength %" PRIu32 " not carried by %s (%s); %s; the parser enforces it",
                         v->max_length, D, reason, where);
            if (own_words) {
                begin_sentence(words);
                s = words->len;
                cc_phrase_count(words, v->has_min_length, v->min_length, v->has_max_length,
                          v->max_length, "character", "characters");
                end_sentence(words, s);
            }
        }
        if (v->pattern && c->d == D_GEMINI) {
            drop(node, "pattern");
            add_note(c, path, "pattern ^(%s)$ not carried by %s (ignored); %s; the parser enforces it",
                     v->pattern, D, where);
            if (own_words) {
                begin_sentence(words);
                s = words->len;
                cc_buf_printf(words, "matching %s", v->pattern);
                end_sentence(words, s);
            }
        } else if (v->pattern && c->d == D_LLAMA) {
            const char *why;
            char *re = llama_pattern(v->pattern, &why);
            cJSON *old = get(node, "pattern");
            if (re && old) {
                cJSON *item = keyed(c, cJSON_CreateString(re), "pattern");
                if (item)
                    cJSON_ReplaceItemViaPointer(node, old, item);
            } else if (!re && why) {
                drop(node, "pattern");
                add_note(c, path, "pattern ^(%s)$ not carried by %s (%s); %s; the parser enforces it",
                         v->pattern, D, why, where);
                if (own_words) {
                    begin_sentence(words);
                    s = words->len;
                    cc_buf_printf(words, "matching %s", v->pattern);
                    end_sentence(words, s);
                }
            } else {
                c->failed = true;
            }
            free(re);
        }
        if (v->grounded) {
            /* in the prompt's words (cc_phrase_grounded), which the prompt
             * line and the schema description of this value carry */
            cc_buf_t phrase = CC_BUF_INIT;
            cc_phrase_grounded(&phrase, c->k);
            if (phrase.failed)
                c->failed = true;
            else
                add_note(c, path, "grounded (%s) not carried by %s (no form in JSON Schema); %s; "
                         "the parser enforces it",
                         phrase.data, D,
                         c->d == D_LLAMA ? "stated in the prompt and the description"
                                         : "stated in the description and the prompt");
            cc_buf_free(&phrase);
        }
        break;
    }
    case CONTRACTC_TYPE_INTEGER:
    case CONTRACTC_TYPE_NUMBER: {
        bool integer = v->type == CONTRACTC_TYPE_INTEGER;
        bool lose = c->d == D_ANTHROPIC || (c->d == D_LLAMA && !integer);
        if (!lose)
            break;
        drop(node, "minimum");
        drop(node, "maximum");
        const char *reason = c->d == D_ANTHROPIC ? "refused" : "ignored on numbers";
        for (int low = 1; low >= 0; low--) {
            bool has = low ? v->has_minimum : v->has_maximum;
            cc_buf_t bound = CC_BUF_INIT;
            cc_phrase_bound(&bound, v, low != 0);
            if (bound.failed) {
                c->failed = true;
            } else if (has) {
                add_note(c, path, "%s %s not carried by %s (%s); %s; the parser enforces it",
                         low ? "minimum" : "maximum", bound.data, D, reason, where);
            } else if (integer) {
                /* the portable schema's I-JSON range of every integer */
                add_note(c, path, "%s %" PRId64 " (the I-JSON integer range) not carried by %s "
                         "(%s); the parser enforces it",
                         low ? "minimum" : "maximum", low ? CONTRACTC_INTEGER_MIN : CONTRACTC_INTEGER_MAX,
                         D, reason);
            }
            cc_buf_free(&bound);
        }
        if (own_words && (v->has_minimum || v->has_maximum)) {
            begin_sentence(words);
            s = words->len;
            cc_buf_puts(words, integer ? "a whole number" : "a number");
            cc_phrase_bounds(words, v);
            end_sentence(words, s);
        }
        break;
    }
    case CONTRACTC_TYPE_DECIMAL:
        if (c->d == D_GEMINI) {
            cJSON *pat = get(node, "pattern");
            add_note(c, path, "decimal form (pattern %s) not carried by %s (ignored); %s; the parser "
                     "enforces it",
                     pat && cJSON_IsString(pat) ? pat->valuestring : "?", D, where);
            drop(node, "pattern");
        }
        if (v->has_minimum || v->has_maximum) {
            for (int low = 1; low >= 0; low--) {
                if (!(low ? v->has_minimum : v->has_maximum))
                    continue;
                cc_buf_t bound = CC_BUF_INIT;
                cc_phrase_bound(&bound, v, low != 0);
                if (bound.failed)
                    c->failed = true;
                else
                    add_note(c, path, "decimal %s \"%s\" not carried by %s (no form in JSON Schema: "
                             "the value is a string); %s; the parser enforces it",
                             low ? "minimum" : "maximum", bound.data, D, where);
                cc_buf_free(&bound);
            }
        }
        if (own_words && (c->d == D_GEMINI || v->has_minimum || v->has_maximum)) {
            begin_sentence(words);
            s = words->len;
            if (c->d == D_GEMINI) {
                /* the prompt's whole decimal phrase */
                cc_phrase_decimal(words, v, f ? f->example : NULL);
            } else {
                cc_buf_puts(words, "a decimal");
                cc_phrase_bounds(words, v);
            }
            end_sentence(words, s);
        }
        break;
    case CONTRACTC_TYPE_DATE:
    case CONTRACTC_TYPE_DATETIME: {
        if (c->d != D_LLAMA)
            break;
        bool date = v->type == CONTRACTC_TYPE_DATE;
        if (date) {
            add_note(c, path, "format date: a real calendar date not carried by %s (its date rule "
                     "accepts day 31 in every month); %s; the parser enforces it", D, where);
        } else {
            cJSON *old = get(node, "format");
            cJSON *item = keyed(c, cJSON_CreateString(k_datetime_form), "pattern");
            if (old && item)
                cJSON_ReplaceItemViaPointer(node, old, item);
            else
                cJSON_Delete(item), c->failed = true;
            add_note(c, path, "format date-time not carried by %s (its rule allows only 3 fraction "
                     "digits, stricter than RFC 3339; emitted as a pattern of the form, so a real "
                     "calendar date and clock time are not carried); %s; the parser enforces it",
                     D, where);
        }
        if (own_words) {
            begin_sentence(words);
            s = words->len;
            cc_buf_puts(words, date ? "a real calendar date, " : "a real calendar date and time, ");
            cc_phrase_date(words, v, f ? f->example : NULL); /* the prompt's date phrase */
            end_sentence(words, s);
        }
        break;
    }
    case CONTRACTC_TYPE_ENUM:
        if (v->enumeration) {
            size_t chars = 0;
            for (size_t i = 0; i < v->enumeration->count; i++)
                chars += cc_code_points(v->enumeration->values[i]);
            c->enum_values += v->enumeration->count;
            c->string_chars += chars;
            if (v->enumeration->count > OPENAI_BIG_ENUM_VALUES && chars > OPENAI_BIG_ENUM_CHARS &&
                c->big_enum_chars == 0) {
                c->big_enum = v->mark;
                c->big_enum_chars = chars;
            }
        }
        break;
    case CONTRACTC_TYPE_OBJECT:
        if (level + 1 > c->depth) {
            c->depth = level + 1;
            if (c->depth == OPENAI_MAX_DEPTH + 1)
                c->depth_over = v->mark;
        }
        if (v->object)
            walk_object(c, node, v->object, path, words, level + 1);
        break;
    case CONTRACTC_TYPE_UNION: {
        /* docs/contract-language.md §4.11: anyOf of closed variant objects,
         * the tag first as a const (dialects.md rows "tagged union") */
        if (level + 1 > c->depth) {
            c->depth = level + 1;
            if (c->depth == OPENAI_MAX_DEPTH + 1)
                c->depth_over = v->mark;
        }
        if (!(f && f->nullable)) { /* a nullable one is counted with its field */
            c->unions++;
            if (c->unions == ANTHROPIC_MAX_UNIONS + 1)
                c->union_over = v->mark;
        }
        cJSON *any = get(node, "anyOf");
        for (size_t i = 0; i < v->variant_count && !c->failed; i++) {
            cJSON *branch = any ? cJSON_GetArrayItem(any, (int)i) : NULL;
            if (!branch) {
                c->failed = true;
                break;
            }
            cJSON *tag = get(get(branch, "properties"), v->tag);
            if (c->d != D_MCP && tag) {
                /* a one-value enum says what const says, and every dialect
                 * carries enum (Gemini ignores or refuses const) */
                cJSON *values = cJSON_CreateArray();
                cJSON *one = cJSON_CreateString(v->variants[i].name);
                if (!values || !one || !cJSON_AddItemToArray(values, one)) {
                    cJSON_Delete(values);
                    cJSON_Delete(one);
                    c->failed = true;
                    break;
                }
                drop(tag, "const");
                if (!cJSON_AddItemToObject(tag, "enum", values)) {
                    cJSON_Delete(values);
                    c->failed = true;
                    break;
                }
            }
            cc_buf_t branch_words = CC_BUF_INIT;
            walk_object(c, branch, v->variants[i].object, path, &branch_words, level + 1);
            append_description(c, branch, &branch_words);
            cc_buf_free(&branch_words);
        }
        break;
    }
    case CONTRACTC_TYPE_VALUE_UNION: {
        /* docs/contract-language.md §4.13: anyOf of the alternatives (one
         * per JSON type), each walked on its own branch, its lost
         * constraints said in that branch's description; counted as a
         * union type like a nullable field (dialects.md rows "value union") */
        if (!(f && f->nullable)) { /* a nullable one is counted with its field */
            c->unions++;
            if (c->unions == ANTHROPIC_MAX_UNIONS + 1)
                c->union_over = v->mark;
        }
        cJSON *any = get(node, "anyOf");
        for (size_t i = 0; i < v->alternative_count && !c->failed; i++) {
            cJSON *branch = any ? cJSON_GetArrayItem(any, (int)i) : NULL;
            if (!branch) {
                c->failed = true;
                break;
            }
            cc_buf_t branch_words = CC_BUF_INIT;
            walk_value(c, branch, &v->alternatives[i], f, path, &branch_words, level);
            append_description(c, branch, &branch_words);
            cc_buf_free(&branch_words);
        }
        break;
    }
    case CONTRACTC_TYPE_ARRAY: {
        if (level + 1 > c->depth) {
            c->depth = level + 1;
            if (c->depth == OPENAI_MAX_DEPTH + 1)
                c->depth_over = v->mark;
        }
        if (c->d == D_ANTHROPIC) {
            bool min_lost = v->has_min_items && v->min_items >= 2;
            if (min_lost) {
                cJSON *old = get(node, "minItems");
                cJSON *item = keyed(c, cJSON_CreateNumber(1), "minItems");
                if (old && item)
                    cJSON_ReplaceItemViaPointer(node, old, item);
                else
                    cJSON_Delete(item), c->failed = true;
                add_note(c, path, "minItems %" PRIu32 " not carried by %s (only 0 or 1 accepted; "
                         "emitted as minItems 1); %s; the parser enforces it", v->min_items, D, where);
            }
            if (v->has_max_items) {
                drop(node, "maxItems");
                add_note(c, path, "maxItems %" PRIu32 " not carried by %s (refused); %s; the parser "
                         "enforces it", v->max_items, D, where);
            }
            if (own_words && (min_lost || v->has_max_items)) {
                begin_sentence(words);
                s = words->len;
                cc_phrase_count(words, v->has_min_items, v->min_items, v->has_max_items, v->max_items,
                          "item", "items");
                end_sentence(words, s);
            }
        }
        if (v->items) {
            cc_buf_t item_path = CC_BUF_INIT, item_words = CC_BUF_INIT;
            cc_buf_printf(&item_path, "%s[*]", path);
            cJSON *items = get(node, "items");
            cJSON *inode = items;
            if (v->items->nullable) {
                /* items that may be null (docs/contract-language.md §4.6):
                 * a union type like a nullable field's, counted alike */
                c->unions++;
                if (c->unions == ANTHROPIC_MAX_UNIONS + 1)
                    c->union_over = v->items->nullable_mark;
                if (v->items->type == CONTRACTC_TYPE_ENUM || v->items->type == CONTRACTC_TYPE_OBJECT) {
                    cJSON *any = get(items, "anyOf");
                    inode = any ? cJSON_GetArrayItem(any, 0) : NULL;
                }
            }
            if (item_path.failed)
                c->failed = true;
            else
                walk_value(c, inode, v->items, NULL, item_path.data, &item_words, level + 1);
            if (items)
                append_description(c, items, &item_words);
            cc_buf_free(&item_path);
            cc_buf_free(&item_words);
        }
        break;
    }
    case CONTRACTC_TYPE_MAP: {
        /* docs/dialects.md section 5, the map row: openai-strict and anthropic require
         * additionalProperties: false on every object, so a map has no form
         * there (the dialect is refused, over_limits); gemini and llama.cpp
         * carry additionalProperties as a schema and ignore propertyNames,
         * minProperties and maxProperties; mcp takes the portable schema. */
        if (level + 1 > c->depth) {
            c->depth = level + 1;
            if (c->depth == OPENAI_MAX_DEPTH + 1)
                c->depth_over = v->mark;
        }
        if (!c->has_map) {
            c->has_map = true;
            c->first_map = f ? f->mark : v->mark;
            c->first_map_path = cc_strdup(path);
            if (!c->first_map_path)
                c->failed = true;
        }
        if (c->d == D_GEMINI || c->d == D_LLAMA) {
            const char *reason = c->d == D_GEMINI ? "ignored" : "skipped by its converter";
            if (v->pattern) {
                drop(node, "propertyNames");
                add_note(c, path, "key pattern ^(%s)$ (propertyNames) not carried by %s (%s); %s; "
                         "the parser enforces it", v->pattern, D, reason, where);
            }
            bool min_lost = v->has_min_items && v->min_items > 0;
            if (v->has_min_items) {
                drop(node, "minProperties");
                if (min_lost)
                    add_note(c, path, "minProperties %" PRIu32 " not carried by %s (%s); %s; the "
                             "parser enforces it", v->min_items, D, reason, where);
            }
            if (v->has_max_items) {
                drop(node, "maxProperties");
                add_note(c, path, "maxProperties %" PRIu32 " not carried by %s (%s); %s; the "
                         "parser enforces it", v->max_items, D, reason, where);
            }
            if (own_words && (min_lost || v->has_max_items)) {
                begin_sentence(words);
                s = words->len;
                cc_phrase_count(words, v->has_min_items, v->min_items, v->has_max_items,
                                v->max_items, "entry", "entries");
                end_sentence(words, s);
            }
            if (own_words && v->pattern) {
                begin_sentence(words);
                s = words->len;
                cc_buf_printf(words, "keys matching %s", v->pattern);
                end_sentence(words, s);
            }
        }
        if (v->items) {
            cc_buf_t value_path = CC_BUF_INIT, value_words = CC_BUF_INIT;
            cc_buf_printf(&value_path, "%s.*", path);
            cJSON *values = get(node, "additionalProperties");
            if (value_path.failed)
                c->failed = true;
            else
                walk_value(c, values, v->items, NULL, value_path.data, &value_words, level + 1);
            if (values)
                append_description(c, values, &value_words);
            cc_buf_free(&value_path);
            cc_buf_free(&value_words);
        }
        break;
    }
    case CONTRACTC_TYPE_JSON:
        /* docs/dialects.md section 5, the json row: the portable schema {}
         * has no `type`, which OpenAI strict and Gemini require of every
         * schema, and it admits objects of free keys, which Anthropic strict
         * refuses (refused in over_limits); llama.cpp reads {} as any value;
         * max_bytes has no keyword anywhere. */
        if (!c->has_json) {
            c->has_json = true;
            c->first_json = f ? f->mark : v->mark;
            c->first_json_path = cc_strdup(path);
            if (!c->first_json_path)
                c->failed = true;
        }
        if (v->has_max_length && c->d == D_LLAMA) {
            add_note(c, path, "max_bytes %" PRIu32 " (the JSON text's length) not carried by %s "
                     "(no keyword bounds a value's text); %s; the parser enforces it",
                     v->max_length, D, where);
            if (own_words) {
                begin_sentence(words);
                s = words->len;
                cc_buf_printf(words, "at most %" PRIu32 " bytes of JSON text", v->max_length);
                end_sentence(words, s);
            }
        }
        break;
    default:
        break;
    }
}

static void walk_object(dctx_t *c, cJSON *node, const cc_object_t *obj, const char *path,
                        cc_buf_t *words, unsigned level)
{
    cJSON *props = get(node, "properties");
    if (!props) {
        c->failed = true;
        return;
    }
    for (size_t i = 0; i < obj->field_count && !c->failed; i++) {
        const cc_field_t *f = &obj->fields[i];
        cJSON *prop = get(props, f->name);
        if (!prop) {
            c->failed = true;
            return;
        }
        c->properties++;
        c->string_chars += cc_code_points(f->name);
        contractc_type_t t = f->value.type;
        bool wrapped = f->nullable && (t == CONTRACTC_TYPE_ENUM || t == CONTRACTC_TYPE_OBJECT ||
                                       t == CONTRACTC_TYPE_ARRAY || t == CONTRACTC_TYPE_MAP);
        if (f->nullable) {
            c->unions++;
            if (c->unions == ANTHROPIC_MAX_UNIONS + 1)
                c->union_over = f->mark;
        }
        if (f->optional) {
            if (c->optionals++ == 0) {
                c->first_optional = f->optional_mark;
                c->first_optional_path = f->name;
            }
            if (c->optionals == ANTHROPIC_MAX_OPTIONAL + 1)
                c->optional_over = f->optional_mark;
        }
        if (!c->odd_key && !anthropic_key(f->name))
            c->odd_key = f;
        cJSON *vnode = prop;
        if (wrapped) {
            cJSON *any = get(prop, "anyOf");
            vnode = any ? cJSON_GetArrayItem(any, 0) : NULL;
        }
        cc_buf_t fpath = CC_BUF_INIT, fwords = CC_BUF_INIT;
        cc_buf_puts(&fpath, path);
        put_segment(&fpath, f->name);
        if (fpath.failed)
            c->failed = true;
        else
            walk_value(c, vnode, &f->value, f, fpath.data, &fwords, level);
        append_description(c, prop, &fwords);
        cc_buf_free(&fpath);
        cc_buf_free(&fwords);
    }
    /* Rules have no form in any subset: their sentence goes to the
     * description of the property (or node) that holds the object. */
    for (size_t r = 0; r < obj->rule_count; r++) {
        const cc_rule_t *rule = &obj->rules[r];
        char *sentence = cc_rule_sentence(obj, rule);
        if (!sentence) {
            c->failed = true;
            return;
        }
        bool prompted = cc_rule_prompted(rule);
        add_note(c, path, "rule %s \"%s\" not carried by %s (no form in JSON Schema); %s; the parser "
                 "enforces it",
                 rule->id ? rule->id : "?", sentence, c->name,
                 !prompted ? "not stated to the model (a check without prompt: is not described)"
                 : c->d == D_LLAMA ? "stated in the prompt and the description"
                                   : "stated in the description and the prompt");
        if (!prompted) {
            free(sentence);
            continue;
        }
        begin_sentence(words);
        size_t s = words->len;
        if (!cc_is_blank(rule->prompt))
            cc_phrase_one_line(words, rule->prompt);
        else
            cc_buf_puts(words, sentence);
        end_sentence(words, s);
        free(sentence);
    }
}

static int cmp_notes(const void *a, const void *b)
{
    const note_t *x = a, *y = b;
    int r = strcmp(x->path, y->path);
    if (r)
        return r;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- limits ---------------------------------------------------------------- */

static const char k_fallback[] =
    "send no schema for this contract with this provider: the prompt and the parser still "
    "guarantee the result";

/* Adds a diagnostic for every limit of the dialect the contract exceeds;
 * true when there was one. */
static bool over_limits(const dctx_t *c, cc_diags_t *diags)
{
    const cc_contract_t *k = c->k;
    bool over = false;
    if (c->d == D_ANTHROPIC && c->unions > ANTHROPIC_MAX_UNIONS) {
        cc_error(diags, k->path, c->union_over,
                 "the anthropic dialect is refused: the contract has %zu nullable fields (or "
                 "array items), each a "
                 "union type in the schema, over Anthropic's limit of %u per request (Claude docs "
                 "'Structured outputs', documented since 2026-02-19); dropping null would make the "
                 "schema stricter than the contract, so %s",
                 c->unions, ANTHROPIC_MAX_UNIONS, k_fallback);
        over = true;
    }
    if (c->d == D_ANTHROPIC && c->optionals > ANTHROPIC_MAX_OPTIONAL) {
        cc_error(diags, k->path, c->optional_over,
                 "the anthropic dialect is refused: the contract has %zu optional fields, each an "
                 "optional parameter (not in 'required'), over Anthropic's limit of %u per request "
                 "(Claude docs 'Structured outputs', documented since 2026-02-19); %s",
                 c->optionals, ANTHROPIC_MAX_OPTIONAL, k_fallback);
        over = true;
    }
    if (c->d == D_ANTHROPIC && c->odd_key) {
        cc_error(diags, k->path, c->odd_key->mark,
                 "the anthropic dialect is refused: the key '%s' is not of the form Anthropic's "
                 "API takes for a property, ^[a-zA-Z0-9_.-]{1,64}$ (400 \"Property keys should "
                 "match pattern\", reported since 2025-04); %s",
                 c->odd_key->name, k_fallback);
        over = true;
    }
    if ((c->d == D_OPENAI || c->d == D_ANTHROPIC) && c->has_map) {
        cc_error(diags, k->path, c->first_map,
                 "the %s dialect is refused: %s is a map (type: map), and %s requires "
                 "'additionalProperties: false' on every object (docs/dialects.md section 5), so "
                 "an object of free keys has no form there; write it in the v1 form, an array of "
                 "{key, value} objects (type: array, items: {type: object, fields: {key: {type: "
                 "string}, value: ...}}), or %s",
                 c->name, c->first_map_path ? c->first_map_path : "a field",
                 c->d == D_OPENAI ? "OpenAI Structured Outputs" : "Anthropic structured outputs",
                 k_fallback);
        over = true;
    }
    if ((c->d == D_OPENAI || c->d == D_GEMINI || c->d == D_ANTHROPIC) && c->has_json) {
        cc_error(diags, k->path, c->first_json,
                 "the %s dialect is refused: %s is any JSON value (type: json), whose schema {} "
                 "%s (docs/dialects.md section 5); give the value a type (an object with fields, "
                 "a map, a string holding the JSON text), or %s",
                 c->name, c->first_json_path ? c->first_json_path : "a field",
                 c->d == D_ANTHROPIC
                     ? "admits objects of free keys, and Anthropic structured outputs requires "
                       "'additionalProperties: false' on every object"
                     : "has no 'type', which every schema must have there",
                 k_fallback);
        over = true;
    }
    if (c->d != D_OPENAI)
        return over;
    cc_mark_t whole = k->name_mark;
    if (c->optionals > 0) {
        cc_error(diags, k->path, c->first_optional,
                 "the openai-strict dialect is refused: field '%s' is optional, and OpenAI "
                 "Structured Outputs requires every key in 'required' (Structured Outputs guide, "
                 "checked 2026-10); write 'nullable: true' instead of 'optional: true' (the "
                 "model then writes null for a value it does not state), or %s",
                 c->first_optional_path, k_fallback);
        over = true;
    }
    if (c->properties > OPENAI_MAX_PROPERTIES) {
        cc_error(diags, k->path, whole,
                 "the openai-strict dialect is refused: the schema has %zu object properties "
                 "(named types inlined), over OpenAI's limit of %u (Structured Outputs guide, "
                 "checked 2026-10); %s", c->properties, OPENAI_MAX_PROPERTIES, k_fallback);
        over = true;
    }
    if (c->depth > OPENAI_MAX_DEPTH) {
        cc_error(diags, k->path, c->depth_over,
                 "the openai-strict dialect is refused: the schema nests %u levels of objects and "
                 "arrays, over OpenAI's limit of %u (Structured Outputs guide, checked 2026-10); %s",
                 c->depth, OPENAI_MAX_DEPTH, k_fallback);
        over = true;
    }
    if (c->string_chars > OPENAI_MAX_STRING_CHARS) {
        cc_error(diags, k->path, whole,
                 "the openai-strict dialect is refused: property names and enum values total %zu "
                 "characters, over OpenAI's limit of %u (Structured Outputs guide, checked "
                 "2026-10); %s", c->string_chars, OPENAI_MAX_STRING_CHARS, k_fallback);
        over = true;
    }
    if (c->enum_values > OPENAI_MAX_ENUM_VALUES) {
        cc_error(diags, k->path, whole,
                 "the openai-strict dialect is refused: the schema has %zu enum values, over "
                 "OpenAI's limit of %u (Structured Outputs guide, checked 2026-10); %s",
                 c->enum_values, OPENAI_MAX_ENUM_VALUES, k_fallback);
        over = true;
    }
    if (c->big_enum_chars > 0) {
        cc_error(diags, k->path, c->big_enum,
                 "the openai-strict dialect is refused: an enum of more than %u values totals %zu "
                 "characters, over OpenAI's limit of %u for such an enum (Structured Outputs "
                 "guide, checked 2026-10); %s",
                 OPENAI_BIG_ENUM_VALUES, c->big_enum_chars, OPENAI_BIG_ENUM_CHARS, k_fallback);
        over = true;
    }
    return over;
}

/* ---- entry point ------------------------------------------------------------ */

static void free_notes(dctx_t *c)
{
    free(c->first_map_path);
    c->first_map_path = NULL;
    free(c->first_json_path);
    c->first_json_path = NULL;
    for (size_t i = 0; i < c->note_count; i++) {
        free(c->notes[i].path);
        free(c->notes[i].text);
    }
    free(c->notes);
}

int cc_emit_schema_dialect(const cc_contract_t *contract, const char *dialect,
                           char **schema, size_t *schema_len, char **notes,
                           size_t *notes_len, char **summary, cc_diags_t *diags)
{
    *schema = *notes = *summary = NULL;
    *schema_len = *notes_len = 0;
    int d = -1;
    for (size_t i = 0; i < cc_dialect_count; i++)
        if (dialect && strcmp(cc_dialect_names[i], dialect) == 0)
            d = (int)i;
    if (d < 0 && dialect && strcmp(dialect, CC_DIALECT_MCP) == 0)
        d = D_MCP;
    if (d < 0)
        return -1;

    size_t portable_len = 0;
    char *portable = cc_emit_schema(contract, &portable_len);
    if (!portable)
        return -1;
    cJSON *root = cJSON_ParseWithLength(portable, portable_len);
    free(portable);
    if (!root)
        return -1;

    dctx_t c;
    memset(&c, 0, sizeof c);
    c.k = contract;
    c.d = d;
    c.name = d == D_MCP ? CC_DIALECT_MCP : cc_dialect_names[d];
    c.depth = 1;

    /* $schema and $id belong to the portable file only (dialects.md 0). */
    drop(root, "$schema");
    drop(root, "$id");
    cc_buf_t root_words = CC_BUF_INIT;
    walk_object(&c, root, &contract->root, "$", &root_words, 1);
    append_description(&c, root, &root_words);
    cc_buf_free(&root_words);

    int rc = 0;
    cc_diags_t local;
    cc_diags_init(&local);
    if (c.failed)
        rc = -1;
    else if (over_limits(&c, diags ? diags : &local))
        rc = 1;
    cc_diags_free(&local);
    if (rc == 0) {
        cc_buf_t b = CC_BUF_INIT, n = CC_BUF_INIT, s = CC_BUF_INIT;
        cc_print_schema_json(&b, root);
        cc_buf_putc(&b, '\n');

        if (c.note_count > 1)
            qsort(c.notes, c.note_count, sizeof *c.notes, cmp_notes);
        cc_buf_printf(&n, "# %s.%s.schema.json: what %s does not carry (dialects.md, checked %s).\n",
                      contract->name, c.name, provider_names[d], provider_dates[d]);
        cc_buf_puts(&n, "# The parser enforces every constraint below, whatever the provider does.\n");
        for (size_t i = 0; i < c.note_count; i++)
            cc_buf_printf(&n, "%s: %s\n", c.notes[i].path, c.notes[i].text);
        if (c.note_count == 0)
            cc_buf_puts(&n, "(nothing: the dialect schema carries every constraint)\n");

        cc_buf_printf(&s, "%s: %s schema written; %zu constraint%s not carried, listed in %s.%s.notes.txt",
                      contract->name, c.name, c.note_count, c.note_count == 1 ? "" : "s",
                      contract->name, c.name);
        *schema = cc_buf_take(&b, schema_len);
        *notes = cc_buf_take(&n, notes_len);
        *summary = cc_buf_take(&s, NULL);
        if (!*schema || !*notes || !*summary) {
            free(*schema);
            free(*notes);
            free(*summary);
            *schema = *notes = *summary = NULL;
            *schema_len = *notes_len = 0;
            rc = -1;
        }
    }
    free_notes(&c);
    cJSON_Delete(root);
    return rc;
}
