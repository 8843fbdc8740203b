/* SPDX-License-Identifier: MIT */
/*
 * import.c - a JSON Schema read back into a contract: the inverse of
 * gen_schema.c (docs/dialects.md §0), widened to the schemas other tools
 * write (docs/contract-language.md §17, "Importing a JSON Schema").
 *
 * One walk over the schema (cJSON's tree) writes the contract's YAML as it
 * goes: the fields into one buffer, each named type into its own (a named
 * type met while another is written gets its own slot, so the texts never
 * interleave), then the pieces are joined: contract, version, description,
 * instruction, types, fields.  Every keyword of every schema object the walk
 * reaches is either carried (marked seen), an annotation or unknown keyword
 * (ledgered `ignored`), or a validation keyword the contract cannot carry:
 * a blocker (strict) or `dropped` (--lenient).  The ledger's classes are
 * §17's table.  Nothing here is loaded as a contract: cli.c lints the text.
 */
#include "import.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "contractc/contractc.h"
#include "convert.h"
#include "lexical.h"
#include "pattern.h"
#include "reserved.h"

#define INT_LIMIT 9007199254740991.0 /* 2^53 - 1: the contract's integer range */
#define IMPORT_MAX_BYTES ((size_t)1 << 20) /* the loader's cap on a contract */
#define IMPORT_MAX_VALUES 100000           /* values walked, $refs expanded */
#define IMPORT_MAX_LEVELS 128u             /* values nested (a contract: 32) */

/* floor and ceil without libm (the generator links none): every double
 * of magnitude 2^52 or more is integral already. */
static double ifloor(double x)
{
    if (!(x > -4503599627370496.0 && x < 4503599627370496.0))
        return x;
    double t = (double)(int64_t)x;
    return t > x ? t - 1 : t;
}

static double iceil(double x)
{
    return -ifloor(-x) + 0.0; /* + 0.0: a bound 0 is 0, never -0 */
}

typedef enum role { R_ROOT, R_FIELD, R_ITEMS, R_ALT } role_t;

/* A named type of `types:`: an object (its fields, less `skip`, the tag of
 * a union it is a variant of) or an enum. */
typedef struct named {
    char *name;
    const cJSON *target;
    char *skip;
    cc_buf_t body;
    bool done;
} named_t;

typedef struct ictx {
    const cJSON *doc;
    int draft;          /* 4, 6, 7, 2019, 2020 */
    bool openapi30;     /* OpenAPI 3.0: `nullable`, boolean exclusive bounds */
    bool openapi;       /* an OpenAPI document (3.0 or 3.1): its formats */
    const cc_import_options_t *opt; /* the caller's (type names to avoid) */
    bool lenient;
    cc_buf_t *report;
    cc_buf_t ledger;
    size_t blockers;
    named_t *types;
    size_t type_count, type_cap;
    const cJSON **stack; /* the $ref targets being written (recursion) */
    size_t depth, stack_cap;
    cJSON *scratch;     /* owns every node the walk makes (allOf merges) */
    size_t visits;      /* values walked: a schema whose $refs expand past
                           the caps below is refused, never written out */
    unsigned level;     /* values nested now */
    bool too_big;
    bool oom;
} ictx_t;

/* What a value told its field. */
typedef struct vout {
    bool nullable;
    bool json;          /* written as type: json (null is one of its values) */
    const char *description;
} vout_t;

/* The keywords of one schema object carried so far. */
typedef struct seen {
    const char *keys[48];
    size_t n;
} seen_t;

/* ---- text ------------------------------------------------------------- */

static char *ptr_child(ictx_t *c, const char *ptr, const char *seg)
{
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, ptr);
    cc_buf_putc(&b, '/');
    for (const char *p = seg; *p; p++) {
        if (*p == '~')
            cc_buf_puts(&b, "~0");
        else if (*p == '/')
            cc_buf_puts(&b, "~1");
        else
            cc_buf_putc(&b, *p);
    }
    size_t n;
    char *s = cc_buf_take(&b, &n);
    if (!s) {
        c->oom = true;
        return cc_strdup("#");
    }
    return s;
}

static char *ptr_index(ictx_t *c, const char *ptr, const char *seg, size_t i)
{
    char num[32];
    snprintf(num, sizeof num, "%zu", i);
    char *a = ptr_child(c, ptr, seg);
    char *r = a ? ptr_child(c, a, num) : NULL;
    free(a);
    return r;
}

static void vline(cc_buf_t *b, const char *ptr, const char *cls, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 0)))
#endif
    ;
static void vline(cc_buf_t *b, const char *ptr, const char *cls, const char *fmt, va_list ap)
{
    cc_buf_printf(b, "%s: %s: ", ptr ? ptr : "#", cls);
    char tmp[1024];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    cc_buf_puts(b, tmp);
    cc_buf_putc(b, '\n');
}

/* A ledger line: POINTER: CLASS: text. */
static void note(ictx_t *c, const char *ptr, const char *cls, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void note(ictx_t *c, const char *ptr, const char *cls, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline(&c->ledger, ptr, cls, fmt, ap);
    va_end(ap);
}

/* What the contract cannot carry: a blocker, or with --lenient a `dropped`
 * line (the caller then goes on as if it were absent). */
static void cannot(ictx_t *c, const char *ptr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void cannot(ictx_t *c, const char *ptr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (c->lenient) {
        vline(&c->ledger, ptr, "dropped", fmt, ap);
    } else {
        vline(c->report, ptr, "cannot carry", fmt, ap);
        c->blockers++;
    }
    va_end(ap);
}

static void indent(cc_buf_t *b, int ind)
{
    for (int i = 0; i < ind; i++)
        cc_buf_putc(b, ' ');
}

/* The width of the UTF-8 sequence at s and its code point (a stray byte:
 * width 1, code point 0xFFFD). */
static size_t utf8_at(const unsigned char *s, uint32_t *cp)
{
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    size_t n = (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0) {
        *cp = 0xFFFD;
        return 1;
    }
    uint32_t v = s[0] & (0x7F >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = 0xFFFD;
            return 1;
        }
        v = (v << 6) | (s[i] & 0x3F);
    }
    *cp = v;
    return n;
}

/* A code point a YAML scalar cannot hold as itself on one line. */
static bool yaml_needs_escape(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0x2028 ||
           cp == 0x2029 || cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF || cp == 0xFFFD;
}

/* A YAML scalar that is always the string s (parse_yaml.c: a quoted scalar
 * is a string): single-quoted when it can be, else double-quoted with
 * escapes (line breaks, control characters, BOM). */
static void yaml_str(cc_buf_t *b, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    bool plain_ok = true;
    for (size_t i = 0; u[i];) {
        uint32_t cp;
        size_t w = utf8_at(u + i, &cp);
        if (yaml_needs_escape(cp) && !(cp == 0xFFFD && w == 3))
            plain_ok = false;
        i += w;
    }
    if (plain_ok) {
        cc_buf_putc(b, '\'');
        for (const char *p = s; *p; p++) {
            if (*p == '\'')
                cc_buf_putc(b, '\'');
            cc_buf_putc(b, *p);
        }
        cc_buf_putc(b, '\'');
        return;
    }
    cc_buf_putc(b, '"');
    for (size_t i = 0; u[i];) {
        uint32_t cp;
        size_t w = utf8_at(u + i, &cp);
        if (cp == '"' || cp == '\\') {
            cc_buf_putc(b, '\\');
            cc_buf_putc(b, (char)cp);
        } else if (cp == '\n') {
            cc_buf_puts(b, "\\n");
        } else if (cp == '\t') {
            cc_buf_puts(b, "\\t");
        } else if (yaml_needs_escape(cp) && !(cp == 0xFFFD && w == 3)) {
            cc_buf_printf(b, cp < 0x100 ? "\\x%02X" : "\\u%04X", (unsigned)cp);
        } else {
            cc_buf_append(b, s + i, w);
        }
        i += w;
    }
    cc_buf_putc(b, '"');
}

/* A mapping key: plain when it is an identifier YAML cannot read as
 * anything else, else quoted. */
static void yaml_key(cc_buf_t *b, const char *k)
{
    static const char *const special[] = {"true", "false", "null", "yes", "no", "on", "off",
                                          "y", "n", "~"};
    bool plain = cc_is_identifier(k);
    for (size_t i = 0; plain && i < sizeof special / sizeof special[0]; i++) {
        size_t n = strlen(special[i]);
        if (strlen(k) == n) {
            bool same = true;
            for (size_t j = 0; j < n; j++)
                same = same && (k[j] | 0x20) == special[i][j];
            plain = !same;
        }
    }
    if (plain)
        cc_buf_puts(b, k);
    else
        yaml_str(b, k);
}

/* ---- the schema ------------------------------------------------------- */

static const char *const annotations[] = {
    "title", "description", "default", "examples", "$comment", "readOnly", "writeOnly",
    "deprecated", "contentMediaType", "contentEncoding", "contentSchema", "$schema", "$id", "id",
    "$anchor", "$dynamicAnchor", "$vocabulary", "discriminator", "xml", "externalDocs", "example",
    "$defs", "definitions"};

static const char *const validation[] = {
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "maxLength", "minLength", "pattern", "items", "prefixItems",
    "additionalItems", "contains", "minContains", "maxContains", "maxItems", "minItems",
    "uniqueItems", "maxProperties", "minProperties", "required", "properties",
    "patternProperties", "additionalProperties", "propertyNames", "dependencies",
    "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "format", "$ref", "$dynamicRef",
    "$recursiveRef", "$recursiveAnchor", "nullable"};

static bool in_list(const char *k, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(k, list[i]) == 0)
            return true;
    return false;
}

static bool is_annotation(const char *k)
{
    return in_list(k, annotations, sizeof annotations / sizeof annotations[0]);
}

static bool is_validation(const char *k)
{
    return in_list(k, validation, sizeof validation / sizeof validation[0]);
}

static void mark(seen_t *s, const char *k)
{
    if (s->n < sizeof s->keys / sizeof s->keys[0])
        s->keys[s->n++] = k;
}

static bool was_seen(const seen_t *s, const char *k)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->keys[i], k) == 0)
            return true;
    return false;
}

/* The member k of object s, marked seen. */
static const cJSON *take(const cJSON *s, seen_t *seen, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, k);
    if (v)
        mark(seen, k);
    return v;
}

/* True when the schema object s has a validation keyword (other than the
 * ones seen); `{}` and annotation-only schemas have none. */
static bool has_validation(const cJSON *s, const seen_t *seen)
{
    for (const cJSON *e = s->child; e; e = e->next)
        if (e->string && is_validation(e->string) && !(seen && was_seen(seen, e->string)))
            return true;
    return false;
}

/* Every keyword of s not carried: annotations and unknown keywords are
 * ledgered `ignored`, the rest cannot be carried.  `quiet` keywords (the
 * root's $schema, $id, title) are carried elsewhere. */
static void leftovers(ictx_t *c, const cJSON *s, const char *ptr, const seen_t *seen)
{
    for (const cJSON *e = s->child; e; e = e->next) {
        const char *k = e->string;
        if (!k || was_seen(seen, k))
            continue;
        char *p = ptr_child(c, ptr, k);
        if (strcmp(k, "$defs") == 0 || strcmp(k, "definitions") == 0) {
            /* containers: what the walk uses of them is ledgered there */
        } else if (is_annotation(k)) {
            note(c, p, "ignored", "'%s' is an annotation: no validation meaning", k);
        } else if (!is_validation(k) || (strcmp(k, "nullable") == 0 && !c->openapi30)) {
            /* nullable is OpenAPI 3.0's keyword, unknown to JSON Schema */
            note(c, p, "ignored", "unknown keyword '%s': no validation meaning", k);
        } else {
            cannot(c, p, "'%s' has no contract form", k);
        }
        free(p);
    }
}

/* The node a local reference names ("#", "#/a/b", with ~0 ~1 and %XX),
 * or NULL. */
static const cJSON *resolve_pointer(const cJSON *doc, const char *ref)
{
    if (ref[0] == '#')
        ref++;
    const cJSON *at = doc;
    while (*ref) {
        if (*ref != '/')
            return NULL;
        ref++;
        char seg[512];
        size_t n = 0;
        while (*ref && *ref != '/') {
            char ch = *ref++;
            if (ch == '~' && (*ref == '0' || *ref == '1')) {
                ch = *ref == '0' ? '~' : '/';
                ref++;
            } else if (ch == '%' && ref[0] && ref[1]) {
                char hex[3] = {ref[0], ref[1], 0};
                char *end;
                long v = strtol(hex, &end, 16);
                if (*end == 0) {
                    ch = (char)v;
                    ref += 2;
                }
            }
            if (n + 1 >= sizeof seg)
                return NULL;
            seg[n++] = ch;
        }
        seg[n] = 0;
        if (cJSON_IsArray(at)) {
            char *end;
            long i = strtol(seg, &end, 10);
            if (*end || i < 0)
                return NULL;
            at = cJSON_GetArrayItem(at, (int)i);
        } else if (cJSON_IsObject(at)) {
            at = cJSON_GetObjectItemCaseSensitive(at, seg);
        } else {
            return NULL;
        }
        if (!at)
            return NULL;
    }
    return at;
}

/* The last segment of a reference, unescaped: a type's name. */
static char *ref_tail(const char *ref)
{
    const char *slash = strrchr(ref, '/');
    const char *t = slash ? slash + 1 : ref;
    cc_buf_t b = CC_BUF_INIT;
    for (; *t; t++) {
        if (*t == '~' && (t[1] == '0' || t[1] == '1')) {
            cc_buf_putc(&b, t[1] == '0' ? '~' : '/');
            t++;
        } else {
            cc_buf_putc(&b, *t);
        }
    }
    size_t n;
    return b.len ? cc_buf_take(&b, &n) : (cc_buf_free(&b), cc_strdup("type"));
}

static const char *str_of(const cJSON *s, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A $ref's target, or NULL (then a blocker was reported). */
static const cJSON *deref(ictx_t *c, const char *ref, const char *ptr)
{
    if (ref[0] != '#') {
        cannot(c, ptr, "'$ref' %s is not local (only #/... references are read)", ref);
        return NULL;
    }
    const cJSON *t = resolve_pointer(c->doc, ref);
    if (!t)
        cannot(c, ptr, "'$ref' %s names nothing in the document", ref);
    return t;
}

/* s with its $ref (chains followed) resolved when it has no other
 * validation keyword; else s.  *ref_out: the reference text followed. */
static const cJSON *through_ref(ictx_t *c, const cJSON *s, const char **ref_out)
{
    for (int hops = 0; hops < 32 && cJSON_IsObject(s); hops++) {
        const char *ref = str_of(s, "$ref");
        if (!ref || ref[0] != '#')
            break;
        seen_t only = {{"$ref"}, 1};
        if (has_validation(s, &only))
            break;
        const cJSON *t = resolve_pointer(c->doc, ref);
        if (!t)
            break;
        if (ref_out)
            *ref_out = ref;
        s = t;
    }
    return s;
}

static bool is_null_schema(const cJSON *s)
{
    if (!cJSON_IsObject(s))
        return false;
    const char *t = str_of(s, "type");
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(s, "const");
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(s, "enum");
    if (t && strcmp(t, "null") == 0)
        return true;
    if (k && cJSON_IsNull(k))
        return true;
    return cJSON_IsArray(e) && cJSON_GetArraySize(e) == 1 && cJSON_IsNull(e->child);
}

/* The one string of a const or one-value enum, else NULL. */
static const char *single_string(const cJSON *s)
{
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(s, "const");
    if (cJSON_IsString(k))
        return k->valuestring;
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(s, "enum");
    if (cJSON_IsArray(e) && cJSON_GetArraySize(e) == 1 && cJSON_IsString(e->child))
        return e->child->valuestring;
    return NULL;
}

/* The JSON type a branch admits, for telling anyOf branches apart:
 * "string", "integer", "number", "boolean", "object", "array", or NULL
 * (several or unknown). */
static const char *json_class(ictx_t *c, const cJSON *s)
{
    s = through_ref(c, s, NULL);
    if (!cJSON_IsObject(s))
        return NULL;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(s, "type");
    if (cJSON_IsString(t))
        return strcmp(t->valuestring, "null") == 0 ? NULL : t->valuestring;
    if (cJSON_IsArray(t)) {
        const char *one = NULL;
        for (const cJSON *e = t->child; e; e = e->next) {
            if (!cJSON_IsString(e))
                return NULL;
            if (strcmp(e->valuestring, "null") == 0)
                continue;
            if (one)
                return NULL;
            one = e->valuestring;
        }
        return one;
    }
    if (single_string(s))
        return "string";
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(s, "enum");
    if (cJSON_IsArray(e)) {
        for (const cJSON *v = e->child; v; v = v->next)
            if (!cJSON_IsString(v) && !cJSON_IsNull(v))
                return NULL;
        return "string";
    }
    if (cJSON_GetObjectItemCaseSensitive(s, "properties"))
        return "object";
    return NULL;
}

/* ---- named types ------------------------------------------------------ */

static bool builtin_type_name(const char *n)
{
    static const char *const b[] = {"string", "integer", "number", "boolean", "decimal", "enum",
                                    "date", "datetime", "object", "array", "map", "union",
                                    "json", "null"};
    return in_list(n, b, sizeof b / sizeof b[0]);
}

static bool type_name_used(const ictx_t *c, const char *n)
{
    for (size_t i = 0; i < c->type_count; i++)
        if (strcmp(c->types[i].name, n) == 0)
            return true;
    for (size_t i = 0; i < c->opt->avoid_count; i++)
        if (strcmp(c->opt->avoid[i], n) == 0)
            return true;
    return false;
}

/* A TYPE_NAME ([A-Za-z_][A-Za-z0-9_]*, no built-in type's name) from
 * `raw`, unique among the types so far: _2, _3, ... on a collision. */
static char *type_name(ictx_t *c, const char *raw)
{
    cc_buf_t b = CC_BUF_INIT;
    if (!((raw[0] >= 'A' && raw[0] <= 'Z') || (raw[0] >= 'a' && raw[0] <= 'z') || raw[0] == '_'))
        cc_buf_puts(&b, "t_");
    for (const char *p = raw; *p; p++) {
        char ch = *p;
        bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
        cc_buf_putc(&b, ok ? ch : '_');
    }
    if (b.len == 0 || builtin_type_name(b.data) || cc_is_c_keyword(b.data))
        cc_buf_puts(&b, "_type");
    size_t base = b.len;
    for (unsigned k = 2; b.data && type_name_used(c, b.data); k++) {
        b.len = base;
        b.data[base] = 0;
        cc_buf_printf(&b, "_%u", k);
    }
    size_t n;
    char *s = cc_buf_take(&b, &n);
    if (!s)
        c->oom = true;
    return s;
}

/* The slot of the named type for (target, skip), made when new; *fresh:
 * it was made now and its body is the caller's to write. */
static named_t *named_slot(ictx_t *c, const cJSON *target, const char *skip, const char *raw,
                           bool *fresh)
{
    *fresh = false;
    for (size_t i = 0; i < c->type_count; i++) {
        named_t *t = &c->types[i];
        /* the same schema (by value: gen_schema writes a named type out at
         * every use) is the same type */
        if ((t->target == target || cJSON_Compare(t->target, target, true)) &&
            ((!skip && !t->skip) || (skip && t->skip && strcmp(skip, t->skip) == 0)))
            return t;
    }
    if (c->type_count == c->type_cap) {
        size_t cap = c->type_cap ? c->type_cap * 2 : 8;
        named_t *n = realloc(c->types, cap * sizeof *n);
        if (!n) {
            c->oom = true;
            return NULL;
        }
        c->types = n;
        c->type_cap = cap;
    }
    char *name = type_name(c, raw);
    char *sk = skip ? cc_strdup(skip) : NULL;
    if (!name || (skip && !sk)) {
        free(name);
        free(sk);
        c->oom = true;
        return NULL;
    }
    named_t *t = &c->types[c->type_count++];
    *t = (named_t){name, target, sk, CC_BUF_INIT, false};
    *fresh = true;
    return t;
}

static bool on_stack(const ictx_t *c, const cJSON *t)
{
    for (size_t i = 0; i < c->depth; i++)
        if (c->stack[i] == t)
            return true;
    return false;
}

static bool push(ictx_t *c, const cJSON *t)
{
    if (c->depth == c->stack_cap) {
        size_t cap = c->stack_cap ? c->stack_cap * 2 : 16;
        const cJSON **n = realloc(c->stack, cap * sizeof *n);
        if (!n) {
            c->oom = true;
            return false;
        }
        c->stack = n;
        c->stack_cap = cap;
    }
    c->stack[c->depth++] = t;
    return true;
}

/* ---- values ----------------------------------------------------------- */

static void value(ictx_t *c, const cJSON *s, const char *ptr, cc_buf_t *b, int ind, role_t role,
                  vout_t *out);
static const cJSON *merge_all_of(ictx_t *c, const cJSON *s, const char *ptr);
static bool object_fields(ictx_t *c, const cJSON *s, const char *ptr, cc_buf_t *b, int ind,
                          const char *skip, seen_t *seen);

/* An uncarried value: type: json with --lenient (looser, ledgered
 * `dropped` by `cannot`), a blocker otherwise. */
static void as_json(cc_buf_t *b, int ind, vout_t *out)
{
    indent(b, ind);
    cc_buf_puts(b, "type: json\n");
    out->json = true;
}

/* Items that may be null are generated for an array field's scalar or
 * object items only (docs/contract-language.md §4.6): for items written
 * at b[start..] (their first line "type: T", or "type:" and a list for a
 * value union) of an array of role `role`, what the loader would refuse,
 * or NULL. */
static const char *nullable_items_refused(const cc_buf_t *b, size_t start, role_t role)
{
    const char *t = b->data && b->len > start ? strstr(b->data + start, "type:") : NULL;
    if (role == R_ALT)
        return "nullable items of a list that is an alternative of a union";
    if (role == R_ITEMS)
        return "nullable items of a list that is an item or a map's value";
    if (!t)
        return NULL;
    t += 5;
    if (*t == '\n')
        return "nullable items that are a value union";
    if (strncmp(t, " array\n", 7) == 0 || strncmp(t, " map\n", 5) == 0 ||
        strncmp(t, " union\n", 7) == 0)
        return "nullable items that are lists, maps or tagged unions";
    return NULL;
}

/* A schema refused (the caller said why with cannot()) written as `type:
 * json` in its place, for --lenient: its validation keywords are seen, so
 * leftovers() reports none of them a second time. */
static void json_in_place(const cJSON *s, cc_buf_t *b, int ind, vout_t *out, seen_t *seen)
{
    as_json(b, ind, out);
    for (const cJSON *e = s->child; e; e = e->next)
        if (e->string && is_validation(e->string))
            mark(seen, e->string);
}

/* r, an entry of the list `required`, is a key the properties do not name
 * and the first of its spelling in the list (a key listed twice is one
 * field), and not the empty key (no contract form). */
static bool extra_required(const cJSON *req, const cJSON *props, const cJSON *r)
{
    if (!cJSON_IsString(r) || !r->valuestring[0] ||
        cJSON_GetObjectItemCaseSensitive(props, r->valuestring))
        return false;
    for (const cJSON *q = req->child; q != r; q = q->next)
        if (cJSON_IsString(q) && strcmp(q->valuestring, r->valuestring) == 0)
            return false;
    return true;
}

/* How many fields the required keys of s add beyond its properties: in an
 * object whose other keys are free (additionalProperties absent or true),
 * a required key the properties do not name is a field of any JSON value. */
static size_t required_fields(const cJSON *s)
{
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(s, "required");
    const cJSON *ap = cJSON_GetObjectItemCaseSensitive(s, "additionalProperties");
    if (!cJSON_IsArray(req) || (ap && !cJSON_IsTrue(ap)))
        return 0;
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(s, "properties");
    size_t n = 0;
    for (const cJSON *r = req->child; r; r = r->next)
        n += extra_required(req, props, r);
    return n;
}

static void put_uint(ictx_t *c, cc_buf_t *b, int ind, const char *key, const cJSON *v,
                     const char *ptr, const char *kw)
{
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 4294967295.0 ||
        v->valuedouble != ifloor(v->valuedouble)) {
        char *p = ptr_child(c, ptr, kw);
        cannot(c, p, "'%s' is not a count the contract takes (0 to 2^32-1)", kw);
        free(p);
        return;
    }
    indent(b, ind);
    cc_buf_printf(b, "%s: %.0f\n", key, v->valuedouble);
}

/* True when *pattern compiles in the contract's pattern language (§6.2);
 * else frees it, sets it NULL and says why. */
static bool pattern_compiles(char **pattern, char *why, size_t why_n)
{
    cc_pattern_error_t err;
    cc_dfa_t *dfa = cc_pattern_compile(*pattern, &err);
    if (!dfa) {
        snprintf(why, why_n, "%s", err.message);
        free(*pattern);
        *pattern = NULL;
        return false;
    }
    cc_dfa_free(dfa);
    return true;
}

/* The schema pattern p (a search) as a contract pattern (a whole-string
 * match, §6.2) into *out (malloc'd); *changed: not the exact ^(P)$ form
 * gen_schema writes.  False: no translation (why in `why`). */
static bool translate_pattern(const char *p, char **out, bool *changed, char *why, size_t why_n)
{
    size_t n = strlen(p);
    *changed = true;
    /* ^(P)$ with the group spanning P: P itself */
    if (n >= 4 && p[0] == '^' && p[1] == '(' && p[n - 1] == '$' && p[n - 2] == ')' &&
        !(n >= 5 && p[n - 3] == '\\')) {
        int depth = 0;
        bool in_class = false, spans = true;
        for (size_t i = 1; i < n - 1; i++) {
            char ch = p[i];
            if (ch == '\\') {
                i++;
                continue;
            }
            if (in_class) {
                if (ch == ']')
                    in_class = false;
                continue;
            }
            if (ch == '[')
                in_class = true;
            else if (ch == '(')
                depth++;
            else if (ch == ')' && --depth == 0 && i != n - 2)
                spans = false;
        }
        if (spans && depth == 0) {
            *out = cc_strndup(p + 2, n - 4);
            *changed = false;
            if (!*out) {
                snprintf(why, why_n, "out of memory");
                return false;
            }
            return pattern_compiles(out, why, why_n);
        }
    }
    /* each top-level alternative: anchored where it says ^ / $, else
     * opened with [\s\S]* */
    cc_buf_t b = CC_BUF_INIT;
    size_t start = 0;
    int depth = 0;
    bool in_class = false;
    for (size_t i = 0; i <= n; i++) {
        char ch = i < n ? p[i] : '|';
        if (i < n && ch == '\\') {
            i++;
            continue;
        }
        if (in_class) {
            if (ch == ']')
                in_class = false;
            if (i < n)
                continue;
        }
        if (ch == '[')
            in_class = true;
        else if (ch == '(')
            depth++;
        else if (ch == ')')
            depth--;
        else if (ch == '|' && depth == 0) {
            const char *a = p + start;
            size_t len = i - start;
            bool head = len > 0 && a[0] == '^';
            bool tail = len > 0 && a[len - 1] == '$' && !(len >= 2 && a[len - 2] == '\\');
            if (head) {
                a++;
                len--;
            }
            if (tail && len > 0)
                len--;
            else if (tail)
                tail = false;
            if (b.len)
                cc_buf_putc(&b, '|');
            if (!head)
                cc_buf_puts(&b, "[\\s\\S]*");
            cc_buf_append(&b, a, len);
            if (!tail)
                cc_buf_puts(&b, "[\\s\\S]*");
            start = i + 1;
        }
    }
    if (b.failed || !b.data) {
        cc_buf_free(&b);
        snprintf(why, why_n, "out of memory");
        return false;
    }
    size_t bl;
    *out = cc_buf_take(&b, &bl);
    return pattern_compiles(out, why, why_n);
}

/* `pattern`/`key_pattern` from the schema's pattern v at ptr/kw. */
static void put_pattern(ictx_t *c, cc_buf_t *b, int ind, const char *key, const cJSON *v,
                        const char *ptr, const char *kw)
{
    char *p = ptr_child(c, ptr, kw);
    if (!cJSON_IsString(v)) {
        cannot(c, p, "'%s' is not a string", kw);
        free(p);
        return;
    }
    char *t = NULL, why[200];
    bool changed;
    if (!translate_pattern(v->valuestring, &t, &changed, why, sizeof why)) {
        cannot(c, p, "pattern %s is outside the contract's pattern language (§6.2): %s",
               v->valuestring, why);
        free(p);
        return;
    }
    if (changed)
        note(c, p, "pattern-translated",
             "search %s written as the whole-string match %s", v->valuestring, t);
    indent(b, ind);
    cc_buf_printf(b, "%s: ", key);
    yaml_str(b, t);
    cc_buf_putc(b, '\n');
    free(t);
    free(p);
}

/* A decimal's scale and sign from gen_schema's pattern, or -1. */
static int decimal_pattern(const char *p, bool *is_signed)
{
    *is_signed = strncmp(p, "^-?", 3) == 0;
    const char *r = p + (*is_signed ? 3 : 1);
    if (!*is_signed && p[0] != '^')
        return -1;
    if (strncmp(r, "(0|[1-9][0-9]*)", 15) != 0)
        return -1;
    r += 15;
    if (strcmp(r, "$") == 0)
        return 0;
    unsigned scale;
    char tail[4];
    if (sscanf(r, "\\.[0-9]{%u}%3s", &scale, tail) == 2 && strcmp(tail, "$") == 0 && scale >= 1 &&
        scale <= 18) {
        char again[48];
        snprintf(again, sizeof again, "\\.[0-9]{%u}$", scale);
        if (strcmp(r, again) == 0)
            return (int)scale;
    }
    return -1;
}

/* The string formats written as patterns (ledgered `format-mapped`,
 * docs/contract-language.md §17): exact for uuid, ipv4, json-pointer,
 * relative-json-pointer and OpenAPI's byte; for the others the pattern is
 * the format's alphabet and outline, and `why` says what it leaves out. */
typedef struct format_map {
    const char *name;
    const char *pattern;
    unsigned max_length; /* 0: none */
    bool openapi_only;   /* a format of OpenAPI's alone (unknown elsewhere) */
    const char *why;     /* NULL: the pattern is the format */
} format_map_t;

#define URI_CHAR "([A-Za-z0-9\\-._~:/?#\\[\\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})"
#define HOST_LABEL "[A-Za-z0-9]([A-Za-z0-9\\-]{0,61}[A-Za-z0-9])?"
static const format_map_t format_maps[] = {
    {"uuid", "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", 0, false,
     NULL},
    {"ipv4",
     "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]))"
     "{3}",
     0, false, NULL},
    {"json-pointer", "(/([^~/]|~[01])*)*", 0, false, NULL},
    {"relative-json-pointer", "(0|[1-9][0-9]*)(#|(/([^~/]|~[01])*)*)", 0, false, NULL},
    {"byte", "([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?", 0, true, NULL},
    {"uri", "[A-Za-z][A-Za-z0-9+.\\-]*:" URI_CHAR "*", 0, false,
     "a scheme, a colon and RFC 3986's characters; the parts after the scheme are not checked"},
    {"uri-reference", URI_CHAR "*", 0, false,
     "RFC 3986's characters; the parts of the reference are not checked"},
    {"email", "[^\\s@]+@[^\\s@]+", 0, false,
     "a local part and a domain around one @, no white space; RFC 5321's grammar is not checked"},
    {"hostname", HOST_LABEL "(\\." HOST_LABEL ")*", 253, false,
     "RFC 1123 labels of letters, digits and inner hyphens, at most 63 each and 253 in all"},
    {"time",
     "([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]+)?([Zz]|[+\\-]([01][0-9]|2[0-3]):[0-5]"
     "[0-9])",
     0, false, "RFC 3339's full-time; a leap second is not tied to 23:59 UTC"},
};

/* Every format a JSON Schema draft (04 to 2020-12) or OpenAPI defines;
 * any other name has no validation meaning (validators ignore an unknown
 * format) and is ledgered `ignored`. */
static bool format_defined(const ictx_t *c, const char *f)
{
    static const char *const drafts[] = {
        "date-time", "date", "time", "duration", "email", "idn-email", "hostname",
        "idn-hostname", "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference",
        "uuid", "uri-template", "json-pointer", "relative-json-pointer", "regex"};
    static const char *const openapi[] = {"int32", "int64", "float", "double", "byte", "binary",
                                          "password"};
    for (size_t i = 0; i < sizeof drafts / sizeof drafts[0]; i++)
        if (strcmp(f, drafts[i]) == 0)
            return true;
    for (size_t i = 0; c->openapi && i < sizeof openapi / sizeof openapi[0]; i++)
        if (strcmp(f, openapi[i]) == 0)
            return true;
    /* int32, uint32, int64 are read on integers whatever the document */
    return strcmp(f, "int32") == 0 || strcmp(f, "int64") == 0 || strcmp(f, "uint32") == 0;
}

static const format_map_t *format_map(const ictx_t *c, const char *f)
{
    for (size_t i = 0; i < sizeof format_maps / sizeof format_maps[0]; i++)
        if (strcmp(f, format_maps[i].name) == 0 && (c->openapi || !format_maps[i].openapi_only))
            return &format_maps[i];
    return NULL;
}

/* A format that is no format of the schema's draft: ignored, ledgered. */
static bool format_unknown(ictx_t *c, const char *f, const char *ptr, seen_t *seen)
{
    if (c->openapi && (strcmp(f, "password") == 0 || strcmp(f, "binary") == 0)) {
        /* OpenAPI's hints: a field to mask, a file's octets; any string */
        mark(seen, "format");
        char *p = ptr_child(c, ptr, "format");
        note(c, p, "ignored", "format %s is OpenAPI's hint: no validation meaning", f);
        free(p);
        return true;
    }
    if (format_defined(c, f))
        return false;
    mark(seen, "format");
    char *p = ptr_child(c, ptr, "format");
    note(c, p, "ignored", "format %s is no format of JSON Schema%s: no validation meaning", f,
         c->openapi ? " or OpenAPI" : "");
    free(p);
    return true;
}

/* A format on a number or an integer that is not one of numbers (int32,
 * uint32, int64, float, double): a string format, which a number passes,
 * or an unknown one; either has no validation meaning there. */
static bool format_not_numeric(ictx_t *c, const char *f, const char *ptr, seen_t *seen)
{
    static const char *const numeric[] = {"int32", "uint32", "int64", "float", "double"};
    for (size_t i = 0; i < sizeof numeric / sizeof numeric[0]; i++)
        if (strcmp(f, numeric[i]) == 0)
            return false;
    if (format_unknown(c, f, ptr, seen))
        return true;
    mark(seen, "format");
    char *p = ptr_child(c, ptr, "format");
    note(c, p, "ignored", "format %s is a format of strings: a number passes it", f);
    free(p);
    return true;
}

static void string_value(ictx_t *c, const cJSON *s, const char *ptr, cc_buf_t *b, int ind,
                         seen_t *seen)
{
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(s, "format");
    const cJSON *pat = cJSON_GetObjectItemCaseSensitive(s, "pattern");
    const cJSON *minl = cJSON_GetObjectItemCaseSensitive(s, "minLength");
    const cJSON *maxl = cJSON_GetObjectItemCaseSensitive(s, "maxLength");
    bool sg;
    int scale;
    if (cJSON_IsString(pat) && !fmt && !minl && !maxl &&
        (scale = decimal_pattern(pat->valuestring, &sg)) >= 0) {
        mark(seen, "pattern");
        indent(b, ind);
        cc_buf_printf(b, "type: decimal\n");
        indent(b, ind);
        cc_buf_printf(b, "scale: %d\n", scale);
        if (sg) {
            indent(b, ind);
            cc_buf_puts(b, "signed: true\n");
        }
        return;
    }
    if (cJSON_IsString(fmt) && !pat && !minl && !maxl &&
        (strcmp(fmt->valuestring, "date") == 0 || strcmp(fmt->valuestring, "date-time") == 0)) {
        mark(seen, "format");
        bool date = strcmp(fmt->valuestring, "date") == 0;
        indent(b, ind);
        cc_buf_puts(b, date ? "type: date\n" : "type: datetime\n");
        char *p = ptr_child(c, ptr, "format");
        note(c, p, "format-profile",
             date ? "format date read as the contract's date: YYYY-MM-DD, a real calendar date"
                  : "format date-time read as the contract's datetime: RFC 3339 with uppercase T "
                    "and Z, seconds required, at most 9 fraction digits, no leap second");
        free(p);
        return;
    }
    indent(b, ind);
    cc_buf_puts(b, "type: string\n");
    const format_map_t *fm = cJSON_IsString(fmt) && !pat ? format_map(c, fmt->valuestring) : NULL;
    if (cJSON_IsString(fmt) && format_unknown(c, fmt->valuestring, ptr, seen))
        fmt = NULL;
    if (take(s, seen, "minLength"))
        put_uint(c, b, ind, "min_length", minl, ptr, "minLength");
    /* a format's own length cap, unless maxLength is as tight */
    bool cap = fm && fm->max_length &&
               !(cJSON_IsNumber(maxl) && maxl->valuedouble >= 0 && maxl->valuedouble <= fm->max_length);
    if (take(s, seen, "maxLength") && !cap)
        put_uint(c, b, ind, "max_length", maxl, ptr, "maxLength");
    if (cap) {
        indent(b, ind);
        cc_buf_printf(b, "max_length: %u\n", fm->max_length);
    }
    if (cJSON_IsString(fmt)) {
        const char *f = fmt->valuestring;
        if (fm) {
            mark(seen, "format");
            char *p = ptr_child(c, ptr, "format");
            if (fm->why)
                note(c, p, "format-mapped", "format %s written as the pattern %s%s (%s)", f,
                     fm->pattern, fm->max_length ? " with a length cap" : "", fm->why);
            else
                note(c, p, "format-mapped", "format %s written as the pattern %s", f, fm->pattern);
            free(p);
            indent(b, ind);
            cc_buf_puts(b, "pattern: ");
            yaml_str(b, fm->pattern);
            cc_buf_putc(b, '\n');
        } else {
            mark(seen, "format");
            char *p = ptr_child(c, ptr, "format");
            cannot(c, p, "format %s has no contract form", f);
            free(p);
        }
    }
    if (take(s, seen, "pattern"))
        put_pattern(c, b, ind, "pattern", pat, ptr, "pattern");
}

/* An integer bound at ptr/kw, folded to an inclusive integer. */
static bool int_bound(ictx_t *c, const cJSON *s, const char *ptr, seen_t *seen, bool lower,
                      double *out, bool *given)
{
    const char *inc = lower ? "minimum" : "maximum";
    const char *exc = lower ? "exclusiveMinimum" : "exclusiveMaximum";
    const cJSON *vi = take(s, seen, inc);
    const cJSON *ve = take(s, seen, exc);
    double v = lower ? -INT_LIMIT : INT_LIMIT;
    *given = false;
    if (vi && !cJSON_IsNumber(vi)) {
        char *p = ptr_child(c, ptr, inc);
        cannot(c, p, "'%s' is not a number", inc);
        free(p);
        vi = NULL;
    }
    if (vi) {
        double d = lower ? iceil(vi->valuedouble) : ifloor(vi->valuedouble);
        if (d != vi->valuedouble) {
            char *p = ptr_child(c, ptr, inc);
            note(c, p, "bound-folded", "%s %g of an integer folded to %.0f", inc, vi->valuedouble, d);
            free(p);
        }
        v = d;
        *given = true;
    }
    if (cJSON_IsBool(ve)) { /* draft-04 and OpenAPI 3.0: a flag on minimum/maximum */
        if (cJSON_IsTrue(ve) && vi) {
            v = lower ? ifloor(vi->valuedouble) + 1 : iceil(vi->valuedouble) - 1;
            char *p = ptr_child(c, ptr, exc);
            note(c, p, "bound-folded", "exclusive %s folded to the inclusive %.0f", inc, v);
            free(p);
        }
    } else if (cJSON_IsNumber(ve)) {
        double d = lower ? ifloor(ve->valuedouble) + 1 : iceil(ve->valuedouble) - 1;
        char *p = ptr_child(c, ptr, exc);
        note(c, p, "bound-folded", "%s %g of an integer folded to the inclusive %s %.0f", exc,
             ve->valuedouble, inc, d);
        free(p);
        if (!*given || (lower ? d > v : d < v))
            v = d;
        *given = true;
    } else if (ve) {
        char *p = ptr_child(c, ptr, exc);
        cannot(c, p, "'%s' is neither a number nor a boolean", exc);
        free(p);
    }
    if (v < -INT_LIMIT || v > INT_LIMIT) {
        double cl = v < -INT_LIMIT ? -INT_LIMIT : INT_LIMIT;
        if ((lower && v > INT_LIMIT) || (!lower && v < -INT_LIMIT)) {
            cannot(c, ptr, "the integer's %s %.0f is outside the contract's integer range "
                           "(±(2^53-1))", inc, v);
            return false;
        }
        note(c, ptr, "bound-folded", "%s %.0f is beyond the contract's integer range: %.0f", inc,
             v, cl);
        v = cl;
    }
    *out = v;
    return true;
}

static void integer_value(ictx_t *c, const cJSON *s, const char *ptr, cc_buf_t *b, int ind,
                          seen_t *seen)
{
    double lo, hi;
    bool glo, ghi;
    bool ok = int_bound(c, s, ptr, seen, true, &lo, &glo);
    ok = int_bound(c, s, ptr, seen, false, &hi, &ghi) && ok;
    const char *f = str_of(s, "format");
    if (f && format_not_numeric(c, f, ptr, seen))
        f = NULL;
    if (f) {
        bool known = strcmp(f, "int32") == 0 || strcmp(f, "uint32") == 0 ||
                     strcmp(f, "int64") == 0;
        double flo = strcmp(f, "int32") == 0   ? -2147483648.0
                     : strcmp(f, "int64") == 0 ? -INT_LIMIT
                                               : 0;
        double fhi = strcmp(f, "int32") == 0    ? 2147483647.0
                     : strcmp(f, "uint32") == 0 ? 4294967295.0
                                                : INT_LIMIT;
        mark(seen, "format");
        char *p = ptr_child(c, ptr, "format");
        if (known) {
            note(c, p, "format-mapped", "format %s written as the bounds %.0f to %.0f%s", f, flo,
                 fhi, strcmp(f, "int64") == 0 ? " (the contract's integer range is ±(2^53-1))" : "");
            if (!glo || flo > lo)
                lo = flo;
            if (!ghi || fhi < hi)
                hi = fhi;
            glo = ghi = true;
        } else {
            cannot(c, p, "format %s has no contract form", f);
        }
        free(p);
    }
    if (!glo || !ghi)
        note(c, ptr, "bound-folded",
             "integer without %s: the contract's integer is I-JSON's, within ±(2^53-1)",
             !glo && !ghi ? "bounds" : !glo ? "a minimum" : "a maximum");
    if (ok && lo > hi)
        cannot(c, ptr, "the integer's bounds admit no value (%.0f > %.0f)", lo, hi);
    indent(b, ind);
    cc_buf_puts(b, "type: integer\n");
    if (lo != -INT_LIMIT) {
        indent(b, ind);
        cc_buf_printf(b, "minimum: %.0f\n", lo);
    }
    if (hi != INT_LIMIT) {
        indent(b, ind);
        cc_buf_printf(b, "maximum: %.0f\n", hi);
    }
}

static void number_value(ictx_t *c, const cJSON *s, const char *ptr, cc_buf_t *b, int ind,
                         seen_t *seen)
{
    indent(b, ind);
    cc_buf_puts(b, "type: number\n");
    static const char *const keys[2] = {"minimum", "maximum"};
    for (int i = 0; i < 2; i++) {
        const cJSON *v = take(s, seen, keys[i]);
        if (!v)
            continue;
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
            char *p = ptr_child(c, ptr, keys[i]);
            cannot(c, p, "'%s' is not a number", keys[i]);
            free(p);
            continue;
        }
        char num[33];
        cc_format_number(v->valuedouble, num);
        indent(b, ind);
        cc_buf_printf(b, "%s: %s\n", keys[i], num);
    }
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(s, "exclusiveMinimum");
    if (cJSON_IsFalse(ex))
        mark(seen, "exclusiveMinimum");
    ex = cJSON_GetObjectItemCaseSensitive(s, "exclusiveMaximum");
    if (cJSON_IsFalse(ex))
        mark(seen, "exclusiveMaximum");
    const char *f = str_of(s, "format");
    if (f && (strcmp(f, "double") == 0 || strcmp(f, "float") == 0)) {
        mark(seen, "format");
        char *p = ptr_child(c, ptr, "format");
        note(c, p, "ignored", "format %s: a JSON number is read as a double already", f);
        free(p);
    } else if (f && !format_not_numeric(c, f, ptr, seen)) {
        mark(seen, "format");
        char *p = ptr_child(c, ptr, "format");
        cannot(c, p, "format %s has no contract form", f);
        free(p);
    }
}

/* C spellings already taken in one scope (an enum's constants, an
 * object's members), so that derived names are kept apart. */
typedef struct names {
    char **v;
    size_t n, cap;
} names_t;

static bool names_has(const names_t *ns, const char *s)
{
    for (size_t i = 0; i < ns->n; i++)
        if (strcmp(ns->v[i], s) == 0)
            return true;
    return false;
}

/* Takes `s` (malloc'd; NULL: out of memory). */
static void names_add(ictx_t *c, names_t *ns, char *s)
{
    if (!s) {
        c->oom = true;
        return;
    }
    if (ns->n == ns->cap) {
        size_t cap = ns->cap ? ns->cap * 2 : 16;
        char **v = realloc(ns->v, cap * sizeof *v);
        if (!v) {
            free(s);
            c->oom = true;
            return;
        }
        ns->v = v;
        ns->cap = cap;
    }
    ns->v[ns->n++] = s;
}

static void names_free(names_t *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        free(ns->v[i]);
    free(ns->v);
}

/* An enum value's constant suffix as naming.c derives it
 * (docs/contract-language.md §7.1): capitals, '_' for every code point
 * outside [A-Za-z0-9]. */
static char *constant_suffix(const char *v)
{
    cc_buf_t b = CC_BUF_INIT;
    const unsigned char *u = (const unsigned char *)v;
    for (size_t i = 0; u[i];) {
        uint32_t cp;
        size_t w = utf8_at(u + i, &cp);
        if ((cp >= 'a' && cp <= 'z'))
            cc_buf_putc(&b, (char)(cp - 32));
        else if ((cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9'))
            cc_buf_putc(&b, (char)cp);
        else
            cc_buf_putc(&b, '_');
        i += w;
    }
    size_t n;
    return b.len ? cc_buf_take(&b, &n) : (cc_buf_free(&b), cc_strdup(""));
}

static void enum_values(ictx_t *c, const cJSON *e, const char *ptr, cc_buf_t *b, int ind,
                        bool *nullable)
{
    indent(b, ind);
    cc_buf_puts(b, "values:\n");
    size_t i = 0;
    names_t taken = {NULL, 0, 0};
    for (const cJSON *v = e->child; v; v = v->next, i++) {
        bool again = false; /* the same value twice: once is the same enum */
        for (const cJSON *w = e->child; w != v && !again; w = w->next)
            again = cJSON_IsString(w) && cJSON_IsString(v) &&
                    strcmp(w->valuestring, v->valuestring) == 0;
        if (again)
            continue;
        if (cJSON_IsNull(v)) {
            *nullable = true;
            continue;
        }
        if (!cJSON_IsString(v)) {
            char *p = ptr_index(c, ptr, "enum", i);
            cannot(c, p, "an enum value that is not a string has no contract form");
            free(p);
            continue;
        }
        /* a constant naming.c would refuse (NONE is null's, an empty one,
         * two values of one spelling) gets a c_name (§4.9) */
        char *suffix = constant_suffix(v->valuestring);
        char *c_name = NULL;
        if (suffix && (!suffix[0] || strcmp(suffix, "NONE") == 0 || names_has(&taken, suffix))) {
            char alt[48];
            for (size_t k = i + 1;; k++) {
                snprintf(alt, sizeof alt, "VALUE_%zu", k);
                if (!names_has(&taken, alt))
                    break;
            }
            c_name = cc_strdup(alt);
            names_add(c, &taken, cc_strdup(alt));
            free(suffix);
        } else {
            names_add(c, &taken, suffix);
        }
        indent(b, ind + 2);
        cc_buf_puts(b, "- ");
        if (c_name) {
            cc_buf_puts(b, "{value: ");
            yaml_str(b, v->valuestring);
            cc_buf_printf(b, ", c_name: %s}", c_name);
        } else {
            yaml_str(b, v->valuestring);
        }
        cc_buf_putc(b, '\n');
        free(c_name);
    }
    names_free(&taken);
}

/* A value written at ind: "- " in place of the first line's last two
 * spaces of indentation (a block sequence item). */
static void dash_item(cc_buf_t *b, const cc_buf_t *item, int ind)
{
    if (!item->data)
        return;
    size_t at = b->len;
    cc_buf_append(b, item->data, item->len);
    if (!b->failed && b->len >= at + (size_t)ind + 2) {
        b->data[at + (size_t)ind] = '-';
    }
}

/* anyOf/oneOf branches (null branches taken out) as a tagged union
 * (docs/contract-language.md §4.11), when every branch is an object with
 * a common const tag; false when they are not. */
static bool tagged_union(ictx_t *c, const cJSON **br, const char **refs, size_t n,
                         const char *ptr, const char *kw, cc_buf_t *b, int ind)
{
    if (n < 1)
        return false;
    const cJSON *p0 = cJSON_GetObjectItemCaseSensitive(br[0], "properties");
    if (!cJSON_IsObject(p0))
        return false;
    const char *tag = NULL;
    for (const cJSON *k = p0->child; k && !tag; k = k->next) {
        bool all = true;
        for (size_t i = 0; i < n && all; i++) {
            const cJSON *pi = cJSON_GetObjectItemCaseSensitive(br[i], "properties");
            const cJSON *ti = cJSON_GetObjectItemCaseSensitive(pi, k->string);
            const cJSON *req = cJSON_GetObjectItemCaseSensitive(br[i], "required");
            bool required = false;
            for (const cJSON *r = cJSON_IsArray(req) ? req->child : NULL; r; r = r->next)
                required = required || (cJSON_IsString(r) && strcmp(r->valuestring, k->string) == 0);
            /* one branch: only a const tag (gen_schema's form of a union of
             * one variant; a one-value enum there is an object's field) */
            all = ti && cJSON_IsObject(ti) && single_string(ti) && required &&
                  (n > 1 || cJSON_IsString(cJSON_GetObjectItemCaseSensitive(ti, "const")));
            for (size_t j = 0; all && j < i; j++) {
                const cJSON *pj = cJSON_GetObjectItemCaseSensitive(br[j], "properties");
                all = strcmp(single_string(cJSON_GetObjectItemCaseSensitive(pj, k->string)),
                             single_string(ti)) != 0;
            }
        }
        if (all)
            tag = k->string;
    }
    if (!tag)
        return false;
    indent(b, ind);
    cc_buf_puts(b, "type: union\n");
    indent(b, ind);
    cc_buf_puts(b, "tag: ");
    yaml_key(b, tag);
    cc_buf_putc(b, '\n');
    indent(b, ind);
    cc_buf_puts(b, "variants:\n");
    for (size_t i = 0; i < n; i++) {
        const cJSON *pi = cJSON_GetObjectItemCaseSensitive(br[i], "properties");
        const char *value = single_string(cJSON_GetObjectItemCaseSensitive(pi, tag));
        char *raw = refs[i] ? ref_tail(refs[i]) : cc_strdup(value);
        bool fresh = false;
        named_t *t = raw ? named_slot(c, br[i], tag, raw, &fresh) : NULL;
        free(raw);
        if (!t)
            return true;
        char *bp = refs[i] ? cc_strdup(refs[i]) : ptr_index(c, ptr, kw, i);
        if (fresh) {
            if (!push(c, br[i])) {
                free(bp);
                return true;
            }
            cc_buf_t body = CC_BUF_INIT;
            seen_t seen = {{0}, 0};
            object_fields(c, br[i], bp, &body, 4, tag, &seen);
            leftovers(c, br[i], bp, &seen);
            c->depth--;
            t = NULL; /* the slots may have moved */
            for (size_t j = 0; j < c->type_count; j++)
                if (c->types[j].target == br[i] && c->types[j].skip &&
                    strcmp(c->types[j].skip, tag) == 0)
                    t = &c->types[j];
            if (t) {
                t->body = body;
                t->done = true;
            } else {
                cc_buf_free(&body);
            }
        }
        if (t) {
            indent(b, ind + 2);
            yaml_key(b, value);
            cc_buf_printf(b, ": %s\n", t->name);
        }
        free(bp);
    }
    char *up = ptr_child(c, ptr, kw);
    note(c, up, "union", "%s of %zu object%s told apart by the const key '%s': a tagged union",
         kw, n, n == 1 ? "" : "s", tag);
    free(up);
    return true;
}

/* A branch that is only a set of strings: `enum` of strings or a string
 * `const`, with `type: "string"` at most and annotations beside. */
static const cJSON *string_set(const cJSON *s)
{
    if (!cJSON_IsObject(s))
        return NULL;
    const cJSON *set = NULL;
    for (const cJSON *k = s->child; k; k = k->next) {
        if (strcmp(k->string, "type") == 0) {
            if (!cJSON_IsString(k) || strcmp(k->valuestring, "string") != 0)
                return NULL;
        } else if (strcmp(k->string, "enum") == 0 || strcmp(k->string, "const") == 0) {
            if (set)
                return NULL;
            set = k;
            for (const cJSON *v = cJSON_IsArray(k) ? k->child : k; v; v = cJSON_IsArray(k) ? v->next : NULL)
                if (!cJSON_IsString(v))
                    return NULL;
        } else if (is_validation(k->string)) {
            return NULL;
        }
    }
    return set;
}

/* How many of the n string sets hold the string v. */
static size_t sets_holding(const cJSON *const *sets, size_t n, const char *v)
{
    size_t held = 0;
    for (size_t i = 0; i < n; i++) {
        bool in = false;
        const cJSON *k = sets[i];
        for (const cJSON *w = cJSON_IsArray(k) ? k->child : k; w && !in;
             w = cJSON_IsArray(k) ? w->next : NULL)
            in = strcmp(w->valuestring, v) == 0;
        held += in;
    }
    return held;
}

/* anyOf/oneOf whose branches are all sets of strings: one enum, of the
 * strings in any branch (anyOf) or in exactly one (oneOf: a string two
 * branches hold passes neither). Exact; false when the branches are not
 * all string sets, or (a blocker) when no string is left. */
static bool enum_of_sets(ictx_t *c, const cJSON *const *br, size_t n, const char *ptr,
                         const char *kw, cc_buf_t *b, int ind, vout_t *out)
{
    const cJSON *sets[64];
    if (n > 64)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(sets[i] = string_set(br[i])))
            return false;
    bool one = strcmp(kw, "oneOf") == 0;
    cJSON *values = cJSON_CreateArray();
    if (!values || !cJSON_AddItemToArray(c->scratch, values)) {
        cJSON_Delete(values);
        c->oom = true;
        return true;
    }
    for (size_t i = 0; i < n; i++) {
        const cJSON *k = sets[i];
        for (const cJSON *w = cJSON_IsArray(k) ? k->child : k; w; w = cJSON_IsArray(k) ? w->next : NULL)
            if (!one || sets_holding(sets, n, w->valuestring) == 1) {
                cJSON *v = cJSON_CreateString(w->valuestring);
                if (!v || !cJSON_AddItemToArray(values, v)) {
                    cJSON_Delete(v);
                    c->oom = true;
                    return true;
                }
            }
    }
    char *up = ptr_child(c, ptr, kw);
    if (!values->child) {
        cannot(c, up, "every string of %s is in two branches: no string passes", kw);
        as_json(b, ind, out);
    } else {
        note(c, up, "union", "%s of %zu sets of strings: one enum of the strings %s", kw, n,
             one ? "in exactly one branch" : "in any branch");
        indent(b, ind);
        cc_buf_puts(b, "type: enum\n");
        bool listed = false;
        enum_values(c, values, up, b, ind, &listed);
    }
    free(up);
    return true;
}

/* v (an enum's list, or a const) holds integers only, within the
 * contract's ±(2^53-1), that together make the run lo, lo+1, ..., hi. */
static bool integer_run(const cJSON *v, double *lo, double *hi)
{
    size_t n = 0;
    *lo = INT_LIMIT;
    *hi = -INT_LIMIT;
    for (const cJSON *e = cJSON_IsArray(v) ? v->child : v; e; e = cJSON_IsArray(v) ? e->next : NULL) {
        if (!cJSON_IsNumber(e) || e->valuedouble != ifloor(e->valuedouble) ||
            fabs(e->valuedouble) > INT_LIMIT)
            return false;
        bool again = false;
        for (const cJSON *w = cJSON_IsArray(v) ? v->child : NULL; w && w != e; w = w->next)
            again = again || w->valuedouble == e->valuedouble;
        n += !again;
        *lo = e->valuedouble < *lo ? e->valuedouble : *lo;
        *hi = e->valuedouble > *hi ? e->valuedouble : *hi;
    }
    return n > 0 && *hi - *lo + 1 == (double)n;
}

/* A schema that lists null in its `type` or its `enum` (or OpenAPI 3.0's
 * `nullable`): leaving it out of an anyOf would lose null. */
static bool admits_null(const cJSON *s)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(s, "type");
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(s, "enum");
    for (const cJSON *v = cJSON_IsArray(t) ? t->child : NULL; v; v = v->next)
        if (cJSON_IsString(v) && strcmp(v->valuestring, "null") == 0)
            return true;
    for (const cJSON *v = cJSON_IsArray(e) ? e->child : NULL; v; v = v->next)
        if (cJSON_IsNull(v))
            return true;
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "nullable"));
}

/* A branch that says only its JSON type (and annotations): `{"type":
 * "string"}`. An anyOf branch of the same type (a number's for an
 * integer) is contained in it. */
static const char *bare_type(const cJSON *s)
{
    const char *t = NULL;
    for (const cJSON *k = cJSON_IsObject(s) ? s->child : NULL; k; k = k->next) {
        if (strcmp(k->string, "type") == 0 && cJSON_IsString(k))
            t = k->valuestring;
        else if (is_validation(k->string))
            return NULL;
    }
    return t && strcmp(t, "null") != 0 ? t : NULL;
}

/* anyOf/oneOf at s (null branches already counted into out->nullable). */
static void union_value(ictx_t *c, const cJSON *s, const char *kw, const char *ptr, cc_buf_t *b,
                        int ind, role_t role, vout_t *out)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(s, kw);
    size_t total = (size_t)cJSON_GetArraySize(arr);
    const cJSON **br = calloc(total ? total : 1, sizeof *br);
    const char **refs = calloc(total ? total : 1, sizeof *refs);
    size_t *at = calloc(total ? total : 1, sizeof *at);
    if (!br || !refs || !at) {
        c->oom = true;
        free(br);
        free(refs);
        free(at);
        return;
    }
    size_t n = 0, i = 0;
    for (const cJSON *e = arr->child; e; e = e->next, i++) {
        if (is_null_schema(e)) {
            out->nullable = true;
            continue;
        }
        refs[n] = NULL;
        at[n] = i;
        br[n] = through_ref(c, e, &refs[n]);
        n++;
    }
    /* anyOf: a branch contained in a bare one of its JSON type is left
     * out (a value passes the anyOf exactly when it passes the bare one) */
    for (size_t k = 0; strcmp(kw, "anyOf") == 0 && n > 1 && k < n;) {
        const char *ck = admits_null(br[k]) ? NULL : json_class(c, br[k]);
        size_t j = 0;
        for (; ck && j < n; j++) {
            const char *bj = j != k ? bare_type(br[j]) : NULL;
            if (bj && (strcmp(bj, ck) == 0 || (strcmp(bj, "number") == 0 && strcmp(ck, "integer") == 0)) &&
                !(j > k && bare_type(br[k]) && strcmp(bare_type(br[k]), bj) == 0))
                /* of two equal bare ones, the first stays */
                break;
        }
        if (!ck || j == n) {
            k++;
            continue;
        }
        char *kp = ptr_index(c, ptr, kw, at[k]);
        char *jp = ptr_index(c, ptr, kw, at[j]);
        note(c, kp, "union", "left out: contained in %s, which is any %s", jp, bare_type(br[j]));
        free(kp);
        free(jp);
        memmove(br + k, br + k + 1, (n - k - 1) * sizeof *br);
        memmove(refs + k, refs + k + 1, (n - k - 1) * sizeof *refs);
        memmove(at + k, at + k + 1, (n - k - 1) * sizeof *at);
        n--;
    }
    if (n == 0) {
        cannot(c, ptr, "%s admits only null", kw);
        as_json(b, ind, out);
    } else if (tagged_union(c, br, refs, n, ptr, kw, b, ind)) {
        /* written */
    } else if (n > 1 && enum_of_sets(c, br, n, ptr, kw, b, ind, out)) {
        /* written */
    } else if (n == 1) {
        /* X or null: X, nullable */
        char *bp = ptr_index(c, ptr, kw, at[0]);
        const cJSON *orig = cJSON_GetArrayItem(arr, (int)at[0]);
        value(c, orig, bp, b, ind, role, out);
        free(bp);
    } else {
        /* a value union: branches of distinct JSON types (§4.13) */
        const char *cls[64];
        char why[160] = "";
        if (n > 64)
            snprintf(why, sizeof why, "more than 64 branches");
        for (size_t k = 0; !why[0] && k < n; k++) {
            cls[k] = json_class(c, br[k]);
            if (!cls[k])
                snprintf(why, sizeof why, "branch %zu has no one JSON type", at[k]);
            for (size_t j = 0; !why[0] && j < k; j++)
                if (strcmp(cls[j], cls[k]) == 0)
                    snprintf(why, sizeof why, "branches %zu and %zu are both of type %s%s", at[j],
                             at[k], cls[k],
                             strcmp(cls[k], "object") == 0 ? " without a common const key" : "");
                else if ((strcmp(cls[j], "integer") == 0 && strcmp(cls[k], "number") == 0) ||
                         (strcmp(cls[j], "number") == 0 && strcmp(cls[k], "integer") == 0))
                    snprintf(why, sizeof why, "branches %zu and %zu overlap (integer and number)",
                             at[j], at[k]);
        }
        if (!why[0] && role == R_ALT)
            snprintf(why, sizeof why, "a value union inside an alternative of a union");
        char *up = ptr_child(c, ptr, kw);
        if (why[0]) {
            cannot(c, up, "the branches of %s are neither objects with a common const key nor "
                          "of distinct JSON types: %s", kw, why);
            as_json(b, ind, out);
        } else {
            note(c, up, "union", "%s of %zu branches of distinct JSON types: a value union "
                                 "(type: [...])", kw, n);
            cc_buf_t alts = CC_BUF_INIT;
            bool any = false; /* an alternative became json (--lenient) */
            indent(&alts, ind);
            cc_buf_puts(&alts, "type:\n");
            for (size_t k = 0; k < n; k++) {
                cc_buf_t item = CC_BUF_INIT;
                vout_t o = {false, false, NULL};
                char *bp = ptr_index(c, ptr, kw, at[k]);
                value(c, cJSON_GetArrayItem(arr, (int)at[k]), bp, &item, ind + 4, R_ALT, &o);
                free(bp);
                if (o.nullable)
                    out->nullable = true;
                any = any || o.json;
                dash_item(&alts, &item, ind + 2);
                cc_buf_free(&item);
            }
            if (any) /* json takes every alternative's values: the union is json */
                as_json(b, ind, out);
            else if (alts.data)
                cc_buf_append(b, alts.data, alts.len);
            cc_buf_free(&alts);
        }
        free(up);
    }
    free(br);
    free(refs);
    free(at);
}

/* True when s is an allOf, or a $ref beside other validation keywords
 * (2019-09 and later apply both; earlier drafts say to ignore the others,
 * which schemas in the wild rarely mean). */
static bool needs_merge(const cJSON *s)
{
    if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(s, "allOf")))
        return true;
    if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(s, "$ref")))
        return false;
    seen_t only = {{"$ref"}, 1};
    return has_validation(s, &only);
}

/* allOf at s merged into one schema (owned by c->scratch): properties
 * joined, required joined, every other keyword the same wherever given;
 * NULL when they disagree (a blocker is reported). */
static const cJSON *merge_of(ictx_t *c, const cJSON *s, const char *ptr);

static const cJSON *merge_all_of(ictx_t *c, const cJSON *s, const char *ptr)
{
    if (c->level >= IMPORT_MAX_LEVELS) { /* merges inside merges, bounded */
        c->too_big = true;
        return NULL;
    }
    c->level++;
    const cJSON *m = merge_of(c, s, ptr);
    c->level--;
    return m;
}

static const cJSON *merge_of(ictx_t *c, const cJSON *s, const char *ptr)
{
    cJSON *m = cJSON_CreateObject();
    if (!m || !cJSON_AddItemToArray(c->scratch, m)) {
        cJSON_Delete(m);
        c->oom = true;
        return NULL;
    }
    const cJSON *parts[65];
    size_t n = 0;
    parts[n++] = s;
    const cJSON *all = cJSON_GetObjectItemCaseSensitive(s, "allOf");
    const cJSON *own = cJSON_GetObjectItemCaseSensitive(s, "$ref");
    const cJSON *first = cJSON_IsArray(all) ? all->child : NULL;
    for (const cJSON *e = own ? own : first; e && n < 65; e = e == own ? first : e->next) {
        const cJSON *t = e;
        const char *ref = e == own ? (cJSON_IsString(own) ? own->valuestring : "?") : str_of(e, "$ref");
        if (ref) {
            t = deref(c, ref, ptr);
            if (!t)
                return NULL;
            if (on_stack(c, t)) {
                cannot(c, ptr, "'$ref' %s reaches itself: a contract's types are not recursive", ref);
                return NULL;
            }
        }
        if (cJSON_IsObject(t) && needs_merge(t)) {
            /* a merge inside the merge: merged first (the stack stops a
             * cycle) */
            if (on_stack(c, t) || !push(c, t)) {
                cannot(c, ptr, "allOf reaches itself");
                return NULL;
            }
            t = merge_all_of(c, t, ptr);
            c->depth--;
            if (!t)
                return NULL;
        }
        if (!cJSON_IsObject(t)) {
            if (cJSON_IsTrue(t))
                continue;
            cannot(c, ptr, "an allOf branch that is not a schema object");
            return NULL;
        }
        parts[n++] = t;
    }
    for (size_t i = 0; i < n; i++) {
        for (const cJSON *e = parts[i]->child; e; e = e->next) {
            const char *k = e->string;
            if (strcmp(k, "allOf") == 0 || strcmp(k, "$ref") == 0 || is_annotation(k))
                continue;
            cJSON *have = cJSON_GetObjectItemCaseSensitive(m, k);
            if (!have) {
                cJSON *d = cJSON_Duplicate(e, true);
                if (!d || !cJSON_AddItemToObject(m, k, d)) {
                    cJSON_Delete(d);
                    c->oom = true;
                    return NULL;
                }
            } else if (strcmp(k, "properties") == 0 && cJSON_IsObject(e)) {
                for (const cJSON *p = e->child; p; p = p->next) {
                    cJSON *hp = cJSON_GetObjectItemCaseSensitive(have, p->string);
                    if (hp && !cJSON_Compare(hp, p, true)) {
                        cannot(c, ptr, "allOf: property '%s' is given twice, differently", p->string);
                        return NULL;
                    }
                    if (!hp) {
                        cJSON *d = cJSON_Duplicate(p, true);
                        if (!d || !cJSON_AddItemToObject(have, p->string, d)) {
                            cJSON_Delete(d);
                            c->oom = true;
                            return NULL;
                        }
                    }
                }
            } else if (strcmp(k, "required") == 0 && cJSON_IsArray(e)) {
                for (const cJSON *r = e->child; r; r = r->next) {
                    bool dup = false;
                    for (const cJSON *h = have->child; h; h = h->next)
                        dup = dup || cJSON_Compare(h, r, true);
                    if (!dup) {
                        cJSON *d = cJSON_Duplicate(r, true);
                        if (!d || !cJSON_AddItemToArray(have, d)) {
                            cJSON_Delete(d);
                            c->oom = true;
                            return NULL;
                        }
                    }
                }
            } else if (!cJSON_Compare(have, e, true)) {
                cannot(c, ptr, "allOf: '%s' is given twice, differently", k);
                return NULL;
            }
        }
    }
    /* A part that closes its object (additionalProperties: false) admits
     * only the keys it names, whatever the other parts say: a key another
     * part requires and it does not name means no object passes; one
     * another part names optionally can never be given, so it is left
     * out (exact).  With patternProperties beside, not decided here. */
    cJSON *mp = cJSON_GetObjectItemCaseSensitive(m, "properties");
    const cJSON *mr = cJSON_GetObjectItemCaseSensitive(m, "required");
    const char *how = cJSON_IsArray(all) ? "allOf" : "$ref with keywords beside it";
    for (size_t i = 0; i < n; i++) {
        if (!cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(parts[i], "additionalProperties")))
            continue;
        const cJSON *own_props = cJSON_GetObjectItemCaseSensitive(parts[i], "properties");
        if (cJSON_GetObjectItemCaseSensitive(parts[i], "patternProperties")) {
            cannot(c, ptr, "%s: a part closed by additionalProperties: false beside "
                           "patternProperties is not merged", how);
            return NULL;
        }
        for (const cJSON *r = cJSON_IsArray(mr) ? mr->child : NULL; r; r = r->next)
            if (cJSON_IsString(r) && !cJSON_GetObjectItemCaseSensitive(own_props, r->valuestring)) {
                cannot(c, ptr, "%s: key '%s' is required, but a part closed by "
                               "additionalProperties: false does not name it (no object passes)",
                       how, r->valuestring);
                return NULL;
            }
        for (cJSON *q = cJSON_IsObject(mp) ? mp->child : NULL; q;) {
            cJSON *next = q->next;
            if (!cJSON_GetObjectItemCaseSensitive(own_props, q->string)) {
                char *pp = ptr_child(c, ptr, "properties");
                char *qp = pp ? ptr_child(c, pp, q->string) : NULL;
                free(pp);
                note(c, qp, "named-type", "left out: a part closed by additionalProperties: "
                                          "false does not name it, so it can never be given");
                free(qp);
                cJSON_Delete(cJSON_DetachItemViaPointer(mp, q));
            }
            q = next;
        }
    }
    if (cJSON_IsArray(all)) {
        char *p = ptr_child(c, ptr, "allOf");
        note(c, p, "named-type", "allOf of %zu schemas merged into one", n - 1);
        free(p);
    } else {
        note(c, ptr, "named-type", "$ref merged with the keywords beside it%s",
             c->draft <= 7 ? " (draft 07 and earlier ignore them: the contract applies them too, "
                             "so it is stricter)"
                           : "");
    }
    return m;
}

/* Takes out of s the keywords that apply only to JSON types other than
 * t (a type list read as one schema per type). */
static void only_keywords_of(cJSON *s, const char *t)
{
    static const struct {
        const char *type, *keys[9];
    } by_type[] = {
        {"string", {"minLength", "maxLength", "pattern", "format"}},
        {"integer", {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
                     "format"}},
        {"number", {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
                    "format"}},
        {"array", {"items", "prefixItems", "additionalItems", "contains", "minItems", "maxItems",
                   "uniqueItems", "minContains", "maxContains"}},
        {"object", {"properties", "required", "additionalProperties", "patternProperties",
                    "propertyNames", "minProperties", "maxProperties", "dependentRequired",
                    "dependentSchemas"}},
    };
    size_t nt = sizeof by_type / sizeof by_type[0];
    for (size_t i = 0; i < nt; i++) {
        if (strcmp(by_type[i].type, t) == 0)
            continue;
        for (size_t k = 0; k < 9 && by_type[i].keys[k]; k++) {
            bool mine = false;
            for (size_t j = 0; j < nt; j++)
                if (strcmp(by_type[j].type, t) == 0)
                    for (size_t m = 0; m < 9 && by_type[j].keys[m]; m++)
                        mine = mine || strcmp(by_type[j].keys[m], by_type[i].keys[k]) == 0;
            if (!mine)
                cJSON_DeleteItemFromObjectCaseSensitive(s, by_type[i].keys[k]);
        }
    }
}

/* The keys of one value (type and its constraints) at ind. */
static void value_of(ictx_t *c, const cJSON *s, const char *ptr, cc_buf_t *b, int ind,
                     role_t role, vout_t *out);

/* The keys of one value at ind (value_of below), nested at most
 * IMPORT_MAX_LEVELS deep: a contract has at most 32 levels (§3.2), and the
 * walk's recursion stays bounded whatever the schema's $refs. */
static void value(ictx_t *c, const cJSON *s, const char *ptr, cc_buf_t *b, int ind, role_t role,
                  vout_t *out)
{
    if (c->level >= IMPORT_MAX_LEVELS) {
        c->too_big = true;
        return;
    }
    c->level++;
    value_of(c, s, ptr, b, ind, role, out);
    c->level--;
}

static void value_of(ictx_t *c, const cJSON *s, const char *ptr, cc_buf_t *b, int ind,
                     role_t role, vout_t *out)
{
    if (c->oom || c->too_big)
        return;
    /* a contract is at most 1 MiB (docs/contract-language.md §3.2); a
     * schema whose references written in place pass that is refused */
    if (++c->visits > IMPORT_MAX_VALUES || b->len > IMPORT_MAX_BYTES) {
        c->too_big = true;
        return;
    }
    if (cJSON_IsTrue(s)) {
        as_json(b, ind, out);
        return;
    }
    if (!cJSON_IsObject(s)) {
        cannot(c, ptr, "%s", cJSON_IsFalse(s) ? "the schema false admits nothing"
                                              : "a schema must be an object or a boolean");
        as_json(b, ind, out);
        return;
    }
    seen_t seen = {{0}, 0};
    if (role != R_ALT && !out->description) {
        const cJSON *d = take(s, &seen, "description");
        if (cJSON_IsString(d) && !cc_is_blank(d->valuestring))
            out->description = d->valuestring;
    }
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(s, "$ref");
    if (needs_merge(s)) {
        mark(&seen, "allOf");
        mark(&seen, "$ref");
        const cJSON *m = merge_all_of(c, s, ptr);
        if (m) {
            value(c, m, ptr, b, ind, role, out);
        } else {
            as_json(b, ind, out);
        }
        /* the merged copy's keywords were seen there; here: annotations */
        for (const cJSON *e = s->child; e; e = e->next)
            if (e->string && !is_annotation(e->string))
                mark(&seen, e->string);
        leftovers(c, s, ptr, &seen);
        return;
    }
    if (cJSON_IsString(ref)) {
        mark(&seen, "$ref");
        const cJSON *t = deref(c, ref->valuestring, ptr);
        if (!t) {
            as_json(b, ind, out);
            leftovers(c, s, ptr, &seen);
            return;
        }
        if (on_stack(c, t)) {
            cannot(c, ptr, "'$ref' %s reaches itself: a contract's types are not recursive",
                   ref->valuestring);
            as_json(b, ind, out);
            leftovers(c, s, ptr, &seen);
            return;
        }
        const char *cls = json_class(c, t);
        const cJSON *te = cJSON_GetObjectItemCaseSensitive(t, "enum");
        bool named_object = cls && strcmp(cls, "object") == 0 && role != R_ROOT &&
                            cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(t, "properties")) &&
                            !cJSON_GetObjectItemCaseSensitive(t, "anyOf") &&
                            !cJSON_GetObjectItemCaseSensitive(t, "oneOf") &&
                            !cJSON_GetObjectItemCaseSensitive(t, "allOf");
        bool named_enum = cJSON_IsArray(te) && cJSON_GetArraySize(te) > 1 && role != R_ROOT &&
                          !cJSON_GetObjectItemCaseSensitive(t, "anyOf");
        for (const cJSON *v = named_enum ? te->child : NULL; v; v = v->next)
            named_enum = named_enum && cJSON_IsString(v);
        if (named_object || named_enum) {
            char *raw = ref_tail(ref->valuestring);
            bool fresh = false;
            named_t *slot = raw ? named_slot(c, t, NULL, raw, &fresh) : NULL;
            free(raw);
            if (!slot) {
                c->oom = true;
                return;
            }
            char *name = cc_strdup(slot->name);
            if (!name) {
                c->oom = true;
                return;
            }
            if (fresh) {
                note(c, ref->valuestring, "named-type", "the named type %s", name);
                cc_buf_t body = CC_BUF_INIT;
                seen_t ts = {{0}, 0};
                if (push(c, t)) {
                    if (named_object) {
                        mark(&ts, "type");
                        object_fields(c, t, ref->valuestring, &body, 4, NULL, &ts);
                    } else {
                        bool nul = false;
                        mark(&ts, "type");
                        mark(&ts, "enum");
                        enum_values(c, te, ref->valuestring, &body, 4, &nul);
                    }
                    leftovers(c, t, ref->valuestring, &ts);
                    c->depth--;
                }
                for (size_t j = 0; j < c->type_count; j++)
                    if (c->types[j].target == t && !c->types[j].skip) {
                        c->types[j].body = body;
                        c->types[j].done = true;
                        body = (cc_buf_t)CC_BUF_INIT;
                    }
                cc_buf_free(&body);
            }
            indent(b, ind);
            cc_buf_printf(b, "type: %s\n", name);
            free(name);
            leftovers(c, s, ptr, &seen);
            return;
        }
        /* anything else is written in place */
        if (!push(c, t))
            return;
        if (role != R_ROOT)
            note(c, ptr, "named-type", "$ref %s written in place (a contract names only objects "
                                       "and enums)", ref->valuestring);
        value(c, t, ref->valuestring, b, ind, role, out);
        c->depth--;
        leftovers(c, s, ptr, &seen);
        return;
    }

    /* null admitted from outside: a caller's anyOf: [X, {type: null}] */
    const bool outer_null = out->nullable;
    /* null: OpenAPI 3.0's nullable, a type list with "null" */
    const cJSON *nl = cJSON_GetObjectItemCaseSensitive(s, "nullable");
    if (c->openapi30 && cJSON_IsBool(nl)) {
        mark(&seen, "nullable");
        if (cJSON_IsTrue(nl))
            out->nullable = true;
    }
    const cJSON *ty = take(s, &seen, "type");
    const char *types[8];
    size_t tn = 0;
    if (cJSON_IsString(ty)) {
        types[tn++] = ty->valuestring;
    } else if (cJSON_IsArray(ty)) {
        for (const cJSON *e = ty->child; e; e = e->next) {
            if (!cJSON_IsString(e) || tn == 8) {
                cannot(c, ptr, "a 'type' list of something but type names");
                continue;
            }
            if (strcmp(e->valuestring, "null") == 0)
                out->nullable = true;
            else
                types[tn++] = e->valuestring;
        }
    } else if (ty) {
        char *p = ptr_child(c, ptr, "type");
        cannot(c, p, "'type' is neither a name nor a list of names");
        free(p);
    }
    for (size_t k = 0; tn > 1 && k < tn; k++) {
        /* [integer, number] is number: every JSON integer is a number, and
         * the bounds mean the same on both */
        bool has_number = false;
        for (size_t j = 0; j < tn; j++)
            has_number = has_number || strcmp(types[j], "number") == 0;
        if (has_number && strcmp(types[k], "integer") == 0) {
            memmove(&types[k], &types[k + 1], (tn - k - 1) * sizeof types[0]);
            tn--;
            k--;
        }
    }
    if (tn > 1) {
        /* type: [A, B]: a value union of the one schema read as each type */
        if (role == R_ALT || role == R_ROOT) {
            cannot(c, ptr, "a type list here has no contract form");
            as_json(b, ind, out);
            leftovers(c, s, ptr, &seen);
            return;
        }
        note(c, ptr, "union", "type list of %zu JSON types: a value union (type: [...])", tn);
        cc_buf_t alts = CC_BUF_INIT;
        bool any = false;
        indent(&alts, ind);
        cc_buf_puts(&alts, "type:\n");
        for (size_t k = 0; k < tn; k++) {
            cJSON *one = cJSON_Duplicate(s, true);
            if (!one || !cJSON_AddItemToArray(c->scratch, one)) {
                cJSON_Delete(one);
                c->oom = true;
                return;
            }
            cJSON_DeleteItemFromObjectCaseSensitive(one, "description");
            only_keywords_of(one, types[k]);
            cJSON *tt = cJSON_CreateString(types[k]);
            if (!tt || !cJSON_ReplaceItemInObjectCaseSensitive(one, "type", tt)) {
                cJSON_Delete(tt);
                c->oom = true;
                return;
            }
            cc_buf_t item = CC_BUF_INIT;
            vout_t o = {false, false, NULL};
            value(c, one, ptr, &item, ind + 4, R_ALT, &o);
            any = any || o.json;
            dash_item(&alts, &item, ind + 2);
            cc_buf_free(&item);
        }
        if (any)
            as_json(b, ind, out);
        else if (alts.data)
            cc_buf_append(b, alts.data, alts.len);
        cc_buf_free(&alts);
        for (const cJSON *e = s->child; e; e = e->next)
            mark(&seen, e->string);
        return;
    }
    const char *t = tn ? types[0] : NULL;
    /* what the type keyword admits of null (no type: null too); an enum
     * or const beside it must admit null as well (both must hold) */
    const bool type_null = !ty || out->nullable;

    const char *ukw = cJSON_GetObjectItemCaseSensitive(s, "anyOf")   ? "anyOf"
                      : cJSON_GetObjectItemCaseSensitive(s, "oneOf") ? "oneOf"
                                                                     : NULL;
    /* type: object beside a oneOf/anyOf of objects (and no properties of
     * its own): the branches say it, so it is read as their union */
    bool object_union = false;
    if (ukw && t && strcmp(t, "object") == 0 &&
        !cJSON_GetObjectItemCaseSensitive(s, "properties") &&
        cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(s, ukw))) {
        object_union = true;
        for (const cJSON *e = cJSON_GetObjectItemCaseSensitive(s, ukw)->child; e; e = e->next) {
            const char *cls = json_class(c, e);
            object_union = object_union && (is_null_schema(e) || (cls && strcmp(cls, "object") == 0));
        }
    }
    if (ukw && (!t || object_union)) {
        mark(&seen, ukw);
        if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(s, ukw))) {
            cannot(c, ptr, "'%s' is not a list", ukw);
            as_json(b, ind, out);
        } else {
            union_value(c, s, ukw, ptr, b, ind, role, out);
        }
        leftovers(c, s, ptr, &seen);
        return;
    }

    const cJSON *en = cJSON_GetObjectItemCaseSensitive(s, "enum");
    const cJSON *co = cJSON_GetObjectItemCaseSensitive(s, "const");
    double lo, hi;
    if ((cJSON_IsArray(en) || co) && !(cJSON_IsArray(en) && co) &&
        (!t || strcmp(t, "integer") == 0 || strcmp(t, "number") == 0) &&
        integer_run(cJSON_IsArray(en) ? en : co, &lo, &hi)) {
        /* integers that make one run lo..hi: the integer lo to hi, exact
         * (but 1.0, which the enum admits, is no integer here: §4.1) */
        mark(&seen, "enum");
        mark(&seen, "const");
        out->nullable = outer_null;
        indent(b, ind);
        cc_buf_printf(b, "type: integer\n");
        indent(b, ind);
        cc_buf_printf(b, "minimum: %.0f\n", lo);
        indent(b, ind);
        cc_buf_printf(b, "maximum: %.0f\n", hi);
        leftovers(c, s, ptr, &seen);
        return;
    }
    if ((cJSON_IsArray(en) || co) && (!t || strcmp(t, "string") == 0)) {
        mark(&seen, "enum");
        mark(&seen, "const");
        size_t strings = 0;
        for (const cJSON *v = cJSON_IsArray(en) ? en->child : NULL; v; v = v->next)
            strings += cJSON_IsString(v) != 0;
        if (co && !cJSON_IsString(co)) {
            char *p = ptr_child(c, ptr, "const");
            cannot(c, p, "a const that is not a string has no contract form");
            free(p);
            as_json(b, ind, out);
        } else if (!co && strings == 0) {
            char *p = ptr_child(c, ptr, "enum");
            cannot(c, p, "an enum without a string value has no contract form");
            free(p);
            as_json(b, ind, out);
        } else if (co) {
            out->nullable = outer_null; /* a string const is never null */
            indent(b, ind);
            cc_buf_puts(b, "type: enum\n");
            indent(b, ind);
            cc_buf_puts(b, "values:\n");
            indent(b, ind + 2);
            cc_buf_puts(b, "- ");
            yaml_str(b, co->valuestring);
            cc_buf_putc(b, '\n');
            if (en) {
                char *p = ptr_child(c, ptr, "enum");
                cannot(c, p, "enum beside const is not merged");
                free(p);
            }
        } else {
            indent(b, ind);
            cc_buf_puts(b, "type: enum\n");
            /* null is a value when the enum lists it and the type admits
             * it (type: [string, null] with enum: [a] admits no null) */
            bool listed = false;
            enum_values(c, en, ptr, b, ind, &listed);
            out->nullable = outer_null || (listed && type_null);
            if (type_null && ty && !listed && !outer_null) {
                /* a null the type admits, which the enum does not list */
                char *p = ptr_child(c, ptr, c->openapi30 && cJSON_IsTrue(nl) ? "nullable" : "type");
                note(c, p, "ignored", "null is admitted by %s but not listed by the enum, so null "
                                      "still fails (both must pass): not nullable",
                     c->openapi30 && cJSON_IsTrue(nl) ? "nullable: true" : "the type");
                free(p);
            }
        }
        leftovers(c, s, ptr, &seen);
        return;
    }
    if (!t && (cJSON_GetObjectItemCaseSensitive(s, "properties") ||
               cJSON_GetObjectItemCaseSensitive(s, "additionalProperties") ||
               cJSON_GetObjectItemCaseSensitive(s, "patternProperties")))
        t = "object";
    if (!t) {
        if (!has_validation(s, &seen) && !out->nullable) {
            as_json(b, ind, out); /* {}: any value (§4.14) */
        } else if (!has_validation(s, &seen)) {
            cannot(c, ptr, "a schema that admits only null");
            as_json(b, ind, out);
        } else {
            cannot(c, ptr, "a schema without 'type' whose keywords apply to several JSON types");
            json_in_place(s, b, ind, out, &seen);
        }
        leftovers(c, s, ptr, &seen);
        return;
    }

    if (strcmp(t, "string") == 0) {
        string_value(c, s, ptr, b, ind, &seen);
    } else if (strcmp(t, "integer") == 0) {
        integer_value(c, s, ptr, b, ind, &seen);
    } else if (strcmp(t, "number") == 0) {
        number_value(c, s, ptr, b, ind, &seen);
    } else if (strcmp(t, "boolean") == 0) {
        indent(b, ind);
        cc_buf_puts(b, "type: boolean\n");
    } else if (strcmp(t, "array") == 0) {
        indent(b, ind);
        cc_buf_puts(b, "type: array\n");
        const cJSON *items = take(s, &seen, "items");
        indent(b, ind);
        cc_buf_puts(b, "items:\n");
        if (!items) {
            indent(b, ind + 2);
            cc_buf_puts(b, "type: json\n");
        } else if (cJSON_IsArray(items)) {
            char *p = ptr_child(c, ptr, "items");
            cannot(c, p, "a tuple ('items' as a list) has no contract form");
            free(p);
            indent(b, ind + 2);
            cc_buf_puts(b, "type: json\n");
        } else {
            char *p = ptr_child(c, ptr, "items");
            vout_t o = {false, false, "-"}; /* items take no description */
            size_t start = b->len;
            value(c, items, p, b, ind + 2, R_ITEMS, &o);
            const char *why = o.nullable && !o.json ? nullable_items_refused(b, start, role) : NULL;
            if (why) {
                /* what the loader would refuse (docs/contract-language.md
                 * §4.6): said here, with the pointer, and json in place */
                b->len = start;
                if (b->data)
                    b->data[start] = '\0';
                cannot(c, p, "%s have no contract form", why);
                vout_t j = {false, false, "-"};
                as_json(b, ind + 2, &j);
            } else if (o.nullable && !o.json) {
                indent(b, ind + 2);
                cc_buf_puts(b, "nullable: true\n");
            }
            free(p);
        }
        if (take(s, &seen, "minItems"))
            put_uint(c, b, ind, "min_items", cJSON_GetObjectItemCaseSensitive(s, "minItems"), ptr,
                     "minItems");
        if (take(s, &seen, "maxItems"))
            put_uint(c, b, ind, "max_items", cJSON_GetObjectItemCaseSensitive(s, "maxItems"), ptr,
                     "maxItems");
        if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(s, "uniqueItems")))
            mark(&seen, "uniqueItems");
    } else if (strcmp(t, "object") == 0) {
        const cJSON *props = cJSON_GetObjectItemCaseSensitive(s, "properties");
        const cJSON *ap = cJSON_GetObjectItemCaseSensitive(s, "additionalProperties");
        bool has_props = cJSON_IsObject(props) && props->child;
        /* one patternProperties pattern and no schema for the other keys:
         * a map whose key pattern it is (the other keys, free or refused,
         * are refused); additionalProperties: false alone admits only {} */
        const cJSON *pp = cJSON_GetObjectItemCaseSensitive(s, "patternProperties");
        bool pp_map = cJSON_IsObject(pp) && pp->child && !pp->child->next &&
                      (!ap || cJSON_IsBool(ap)) &&
                      !cJSON_GetObjectItemCaseSensitive(s, "propertyNames");
        bool only_empty = !pp && cJSON_IsFalse(ap) &&
                          !cJSON_GetObjectItemCaseSensitive(s, "minProperties") &&
                          !cJSON_GetObjectItemCaseSensitive(s, "maxProperties");
        if (!has_props && role != R_ROOT &&
            (!ap || cJSON_IsObject(ap) || cJSON_IsTrue(ap) || pp_map || only_empty) &&
            !cJSON_GetObjectItemCaseSensitive(s, "required")) {
            /* a map (§4.12): free keys, one value schema ({} when absent);
             * also an alternative of a value union (§4.13) */
            if (!cJSON_GetObjectItemCaseSensitive(s, "type"))
                note(c, ptr, "type-implied", "'%s' without 'type' read as a map "
                                             "(a value of another JSON type, which the schema "
                                             "admits, is now rejected)",
                     pp_map ? "patternProperties" : "additionalProperties");
            mark(&seen, "additionalProperties");
            mark(&seen, "properties");
            indent(b, ind);
            cc_buf_puts(b, "type: map\n");
            indent(b, ind);
            cc_buf_puts(b, "values:\n");
            char *ppp = pp_map ? ptr_child(c, ptr, "patternProperties") : NULL;
            if (pp_map) {
                mark(&seen, "patternProperties");
                if (!cJSON_IsFalse(ap))
                    note(c, ptr, "closed-object", "a key that does not match the patternProperties "
                                                  "pattern is now rejected (the schema left it free)");
            }
            const cJSON *vs = pp_map ? pp->child : only_empty ? NULL : ap;
            if (cJSON_IsObject(vs) || cJSON_IsBool(vs)) {
                char *p = pp_map ? ptr_child(c, ppp, pp->child->string)
                                 : ptr_child(c, ptr, "additionalProperties");
                vout_t o = {false, false, "-"};
                cc_buf_t vb = CC_BUF_INIT;
                value(c, vs, p, &vb, ind + 2, R_ITEMS, &o);
                if (o.nullable && !o.json) {
                    /* a map's values are never null (§4.12): looser is any value */
                    cannot(c, p, "map values that may be null have no contract form");
                    indent(b, ind + 2);
                    cc_buf_puts(b, "type: json\n");
                } else if (vb.data) {
                    cc_buf_append(b, vb.data, vb.len);
                }
                cc_buf_free(&vb);
                free(p);
            } else {
                indent(b, ind + 2);
                cc_buf_puts(b, "type: json\n");
            }
            if (pp_map) {
                cJSON *key = cJSON_CreateString(pp->child->string);
                if (!key || !cJSON_AddItemToArray(c->scratch, key)) {
                    cJSON_Delete(key);
                    c->oom = true;
                } else {
                    /* a search, like every JSON Schema pattern (§6.2) */
                    put_pattern(c, b, ind, "key_pattern", key, ppp, pp->child->string);
                }
            }
            free(ppp);
            if (only_empty) {
                indent(b, ind);
                cc_buf_puts(b, "max_entries: 0\n");
            }
            const cJSON *pn = take(s, &seen, "propertyNames");
            if (cJSON_IsObject(pn)) {
                char *p = ptr_child(c, ptr, "propertyNames");
                seen_t ps = {{0}, 0};
                const cJSON *pt = take(pn, &ps, "pattern");
                const char *pnt = str_of(pn, "type");
                if (pnt && strcmp(pnt, "string") == 0)
                    mark(&ps, "type");
                if (pt)
                    put_pattern(c, b, ind, "key_pattern", pt, p, "pattern");
                leftovers(c, pn, p, &ps);
                free(p);
            } else if (pn) {
                char *p = ptr_child(c, ptr, "propertyNames");
                cannot(c, p, "'propertyNames' that is not a schema object");
                free(p);
            }
            if (take(s, &seen, "minProperties"))
                put_uint(c, b, ind, "min_entries",
                         cJSON_GetObjectItemCaseSensitive(s, "minProperties"), ptr, "minProperties");
            if (take(s, &seen, "maxProperties"))
                put_uint(c, b, ind, "max_entries",
                         cJSON_GetObjectItemCaseSensitive(s, "maxProperties"), ptr, "maxProperties");
        } else if (!has_props && !required_fields(s)) {
            cannot(c, ptr, "an object without properties %s", role == R_ROOT
                       ? "as the root (a contract's root has fields)"
                       : "but with required keys");
            as_json(b, ind, out);
        } else {
            size_t usable = required_fields(s);
            for (const cJSON *p = has_props ? props->child : NULL; p; p = p->next)
                usable += p->string[0] != 0;
            if (usable == 0) {
                cannot(c, ptr, "an object whose only key is the empty one has no contract form");
                json_in_place(s, b, ind, out, &seen);
                leftovers(c, s, ptr, &seen);
                return;
            }
            if (role != R_ROOT) {
                indent(b, ind);
                cc_buf_puts(b, "type: object\n");
            }
            object_fields(c, s, ptr, b, ind, NULL, &seen);
        }
    } else if (strcmp(t, "null") == 0) {
        cannot(c, ptr, "a schema that admits only null");
        as_json(b, ind, out);
    } else {
        char *p = ptr_child(c, ptr, "type");
        cannot(c, p, "unknown type '%s'", t);
        free(p);
        as_json(b, ind, out);
    }
    leftovers(c, s, ptr, &seen);
}

/* A key's C member as naming.c derives it (docs/contract-language.md
 * §4.9): NULL when it may stand (it is added to `taken`), else a c_name
 * that can (malloc'd): one naming.c would refuse (reserved, the runtime's
 * prefix, a leading _ with _ or a capital) or that another key of the
 * object already has. */
static char *member_name(ictx_t *c, const char *key, names_t *taken)
{
    cc_buf_t b = CC_BUF_INIT;
    if (cc_is_identifier(key)) {
        cc_buf_puts(&b, key);
        if (cc_is_c_keyword(key))
            cc_buf_putc(&b, '_');
    } else {
        char first = key[0];
        if (!((first >= 'A' && first <= 'Z') || (first >= 'a' && first <= 'z')))
            cc_buf_puts(&b, "f_");
        for (const char *p = key; *p; p++) {
            char ch = *p;
            bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
                      (ch >= '0' && ch <= '9') || ch == '_';
            cc_buf_putc(&b, ok ? ch : '_');
        }
    }
    size_t n;
    char *stem = cc_buf_take(&b, &n);
    if (!stem) {
        c->oom = true;
        return NULL;
    }
    char why[160];
    bool bad = cc_reserved_c_name(stem, CC_C_MEMBER, why, sizeof why) ||
               cc_has_runtime_prefix(stem) ||
               (stem[0] == '_' && (stem[1] == '_' || (stem[1] >= 'A' && stem[1] <= 'Z'))) ||
               /* "_": its companions _len and _count would be __len, __count */
               strcmp(stem, "_") == 0 || names_has(taken, stem);
    if (!bad) {
        names_add(c, taken, stem);
        return NULL;
    }
    cc_buf_t alt = CC_BUF_INIT;
    const char *base = cc_has_runtime_prefix(stem) ? stem + 9 : stem;
    cc_buf_printf(&alt, "f_%s", base[0] == '_' ? base + 1 : base);
    size_t len = alt.len;
    for (unsigned k = 2; alt.data && (names_has(taken, alt.data) ||
                                      cc_reserved_c_name(alt.data, CC_C_MEMBER, why, sizeof why));
         k++) {
        alt.len = len;
        alt.data[len] = 0;
        cc_buf_printf(&alt, "_%u", k);
    }
    free(stem);
    char *out = cc_buf_take(&alt, &n);
    if (out)
        names_add(c, taken, cc_strdup(out));
    else
        c->oom = true;
    return out;
}

/* One field: KEY:, then its value's keys and nullable, optional,
 * description. */
static void field(ictx_t *c, const cJSON *ps, const char *key, bool optional, const char *ptr,
                  cc_buf_t *b, int ind, const char *c_name)
{
    indent(b, ind);
    yaml_key(b, key);
    cc_buf_puts(b, ":\n");
    vout_t o = {false, false, NULL};
    value(c, ps, ptr, b, ind + 2, R_FIELD, &o);
    if (o.nullable && !o.json) {
        indent(b, ind + 2);
        cc_buf_puts(b, "nullable: true\n");
    }
    if (optional) {
        indent(b, ind + 2);
        cc_buf_puts(b, "optional: true\n");
    }
    if (c_name) {
        indent(b, ind + 2);
        cc_buf_printf(b, "c_name: %s\n", c_name);
    }
    if (o.description) {
        indent(b, ind + 2);
        cc_buf_puts(b, "description: ");
        yaml_str(b, o.description);
        cc_buf_putc(b, '\n');
    }
}

/* `fields:` of the object s at ind (`skip`: a union's tag, left out). */
static bool object_fields(ictx_t *c, const cJSON *s, const char *ptr, cc_buf_t *b, int ind,
                          const char *skip, seen_t *seen)
{
    if (!cJSON_GetObjectItemCaseSensitive(s, "type"))
        note(c, ptr, "type-implied", "'properties' without 'type' read as an object (a value "
                                     "of another JSON type, which the schema admits, is now rejected)");
    mark(seen, "type");
    const cJSON *props = take(s, seen, "properties");
    const cJSON *req = take(s, seen, "required");
    const cJSON *ap = take(s, seen, "additionalProperties");
    if (!ap || cJSON_IsTrue(ap) || (cJSON_IsObject(ap) && !ap->child)) { /* {} is true */
        note(c, ptr, "closed-object", "open object closed (additional keys are now rejected)");
    } else if (!cJSON_IsFalse(ap)) {
        char *p = ptr_child(c, ptr, "additionalProperties");
        cannot(c, p, "'additionalProperties' beside 'properties' has no contract form (an object "
                     "is closed, a map has no fixed keys)");
        free(p);
    }
    for (const cJSON *r = cJSON_IsArray(req) ? req->child : NULL; r; r = r->next) {
        if (!cJSON_IsString(r)) {
            char *p = ptr_child(c, ptr, "required");
            cannot(c, p, "a required key that is not a string");
            free(p);
        } else if (!r->valuestring[0] && !cJSON_GetObjectItemCaseSensitive(props, "")) {
            char *p = ptr_child(c, ptr, "required");
            cannot(c, p, "the empty key has no contract form");
            free(p);
        } else if (cJSON_IsFalse(ap) && !cJSON_GetObjectItemCaseSensitive(props, r->valuestring)) {
            char *p = ptr_child(c, ptr, "required");
            cannot(c, p, "required key '%s' is neither among the properties nor allowed by "
                         "'additionalProperties': false (no object passes)", r->valuestring);
            free(p);
        }
    }
    indent(b, ind);
    cc_buf_puts(b, "fields:\n");
    size_t count = 0;
    names_t members = {NULL, 0, 0};
    for (const cJSON *p = cJSON_IsObject(props) ? props->child : NULL; p; p = p->next) {
        char *pp0 = ptr_child(c, ptr, "properties");
        char *pp = pp0 ? ptr_child(c, pp0, p->string) : NULL;
        free(pp0);
        if (skip && strcmp(p->string, skip) == 0) {
            /* the tag: its const is the variant's name */
            seen_t ts = {{0}, 0};
            mark(&ts, "type");
            mark(&ts, "const");
            mark(&ts, "enum");
            if (cJSON_IsObject(p))
                leftovers(c, p, pp, &ts);
            free(pp);
            continue;
        }
        bool required = false;
        for (const cJSON *r = cJSON_IsArray(req) ? req->child : NULL; r; r = r->next)
            required = required || (cJSON_IsString(r) && strcmp(r->valuestring, p->string) == 0);
        if (cJSON_IsFalse(p) && required) {
            cannot(c, pp, "key '%s' is required and its schema is false (no object passes)",
                   p->string);
        } else if (cJSON_IsFalse(p)) {
            /* the key may not be given: in a closed object, exactly that */
            note(c, pp, "named-type", "left out: its schema is false, so it can never be given");
        } else if (p->string[0] == 0) {
            cannot(c, pp, "the empty key has no contract form");
        } else {
            char *c_name = member_name(c, p->string, &members);
            field(c, p, p->string, !required, pp, b, ind + 2, c_name);
            free(c_name);
            count++;
        }
        free(pp);
    }
    /* a required key the properties do not name, in an object whose other
     * keys are free: the key must be there, with any value (§4.14) */
    size_t ri = 0;
    for (const cJSON *r = cJSON_IsArray(req) && !cJSON_IsFalse(ap) ? req->child : NULL; r;
         r = r->next, ri++) {
        if (!extra_required(req, props, r) || (skip && strcmp(r->valuestring, skip) == 0))
            continue;
        char *pp = ptr_index(c, ptr, "required", ri);
        cJSON *any = cJSON_CreateTrue();
        if (!any || !cJSON_AddItemToArray(c->scratch, any)) {
            cJSON_Delete(any);
            c->oom = true;
            free(pp);
            break;
        }
        char *c_name = member_name(c, r->valuestring, &members);
        field(c, any, r->valuestring, false, pp, b, ind + 2, c_name);
        free(c_name);
        free(pp);
        count++;
    }
    names_free(&members);
    if (count == 0) {
        /* no contract has an object without fields: never dropped */
        cc_buf_printf(c->report, "%s: cannot carry: an object without a property a contract can "
                                 "hold\n", ptr);
        c->blockers++;
        return false;
    }
    return true;
}

/* ---- the whole ---------------------------------------------------------- */

/* Duplicate keys anywhere: JSON a schema reader may read either way. */
static const char *duplicate_key(const cJSON *n)
{
    for (const cJSON *e = n ? n->child : NULL; e; e = e->next) {
        if (cJSON_IsObject(n))
            for (const cJSON *f = e->next; f; f = f->next)
                if (strcmp(e->string, f->string) == 0)
                    return e->string;
        const char *d = duplicate_key(e);
        if (d)
            return d;
    }
    return NULL;
}

bool cc_import_name_ok(const char *name)
{
    if (!name || !(name[0] >= 'a' && name[0] <= 'z'))
        return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return false;
    char why[128];
    return !cc_is_c_keyword(name) && !cc_reserved_c_name(name, CC_C_ORDINARY, why, sizeof why) &&
           !cc_shadows_header(name) && !cc_has_runtime_prefix(name);
}

/* raw in lower snake case ("OrderLine", "order-line.schema" ->
 * "order_line"), valid per cc_import_name_ok (else with "_reply"). */
static char *snake_name(const char *raw)
{
    cc_buf_t b = CC_BUF_INIT;
    for (const char *p = raw; *p; p++) {
        char ch = *p;
        bool up = ch >= 'A' && ch <= 'Z', low = ch >= 'a' && ch <= 'z', dig = ch >= '0' && ch <= '9';
        if (up && p > raw && ((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= '0' && p[-1] <= '9')))
            cc_buf_putc(&b, '_');
        if (up)
            cc_buf_putc(&b, (char)(ch + 32));
        else if (low || dig)
            cc_buf_putc(&b, ch);
        else if (b.len && b.data[b.len - 1] != '_')
            cc_buf_putc(&b, '_');
    }
    while (b.len && b.data[b.len - 1] == '_')
        b.data[--b.len] = 0;
    cc_buf_t r = CC_BUF_INIT;
    if (!b.len || !(b.data[0] >= 'a' && b.data[0] <= 'z'))
        cc_buf_puts(&r, "schema_");
    if (b.len)
        cc_buf_puts(&r, b.data);
    cc_buf_free(&b);
    if (r.data && !cc_import_name_ok(r.data))
        cc_buf_puts(&r, "_reply");
    size_t n;
    return cc_buf_take(&r, &n);
}

/* The contract name: --name, $id urn:contractc:NAME:vN, title, the file. */
static char *contract_name(const cJSON *root, const cc_import_options_t *opt, uint32_t *version)
{
    const char *id = str_of(root, "$id");
    if (id && strncmp(id, "urn:contractc:", 14) == 0) {
        const char *nm = id + 14;
        const char *colon = strrchr(nm, ':');
        unsigned long v = 0;
        char *end = NULL;
        if (colon && colon[1] == 'v') {
            v = strtoul(colon + 2, &end, 10);
            if (end && *end == 0 && v >= 1 && v <= UINT32_MAX)
                *version = (uint32_t)v;
        }
        if (!opt->name && colon) {
            char *n = cc_strndup(nm, (size_t)(colon - nm));
            if (n && cc_import_name_ok(n))
                return n;
            free(n);
        }
    }
    if (opt->name)
        return cc_strdup(opt->name);
    const char *title = str_of(root, "title");
    if (title && !cc_is_blank(title))
        return snake_name(title);
    /* --pointer /components/schemas/Refund: the schema's own name */
    const char *tail = opt->pointer ? strrchr(opt->pointer, '/') : NULL;
    if (tail && tail[1] && !strchr(tail + 1, '~'))
        return snake_name(tail + 1);
    const char *f = opt->file_name ? opt->file_name : "imported";
    const char *slash = strrchr(f, '/');
    char *base = cc_strdup(slash ? slash + 1 : f);
    if (!base)
        return NULL;
    char *dot = strchr(base, '.');
    if (dot && dot != base)
        *dot = 0;
    char *n = snake_name(strcmp(base, "-") == 0 ? "imported" : base);
    free(base);
    return n;
}

/* The last part of a path ("a JSON Schema" for none or -): the contract's
 * first line must not depend on where the file was. */
static const char *base_name(const char *path)
{
    if (!path || strcmp(path, "-") == 0)
        return "a JSON Schema";
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int fail(cc_buf_t *report, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int fail(cc_buf_t *report, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    cc_buf_puts(report, tmp);
    return CC_IMPORT_BAD_INPUT;
}

int cc_import(const char *json, size_t len, const cc_import_options_t *opt, char **yaml,
              size_t *yaml_len, cc_buf_t *report)
{
    *yaml = NULL;
    *yaml_len = 0;
    /* JSON text is UTF-8 (RFC 8259 §8.1); cJSON passes any bytes on */
    size_t good = contractc_utf8_valid_prefix(json, len);
    if (good != len)
        return fail(report, "invalid JSON: not UTF-8 at byte %zu\n", good);
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(json, len, &end, false);
    if (!doc) {
        size_t at = end && end >= json ? (size_t)(end - json) : 0;
        char where[32];
        snprintf(where, sizeof where, "%zu", at);
        return fail(report, "invalid JSON near byte %s\n", where);
    }
    for (const char *p = end; p && p < json + len; p++)
        if (!strchr(" \t\r\n", *p)) {
            cJSON_Delete(doc);
            return fail(report, "invalid JSON: %s after the value\n", "text");
        }
    const char *dup = duplicate_key(doc);
    if (dup) {
        int rc = fail(report, "invalid JSON Schema: the key '%s' is given twice in one object\n",
                      dup);
        cJSON_Delete(doc);
        return rc;
    }
    ictx_t c;
    memset(&c, 0, sizeof c);
    c.doc = doc;
    c.report = report;
    c.lenient = opt->lenient;
    c.opt = opt;
    c.draft = 2020;
    c.scratch = cJSON_CreateArray();
    const char *oa = str_of(doc, "openapi");
    if (oa) {
        c.openapi = true;
        c.openapi30 = strncmp(oa, "3.0", 3) == 0;
    }

    const cJSON *root = doc;
    char *rptr = NULL;
    if (opt->pointer && opt->pointer[0]) {
        if (opt->pointer[0] != '/') {
            cJSON_Delete(c.scratch);
            cJSON_Delete(doc);
            return fail(report, "--pointer %s is not a JSON Pointer (it starts with /)\n",
                        opt->pointer);
        }
        root = resolve_pointer(doc, opt->pointer);
        if (!root) {
            cJSON_Delete(c.scratch);
            cJSON_Delete(doc);
            return fail(report, "--pointer %s names nothing in the document\n", opt->pointer);
        }
    } else if (oa) {
        int rc = fail(report, "an OpenAPI %s document: name its schema with --pointer "
                              "(e.g. /components/schemas/NAME)\n", oa);
        cJSON_Delete(c.scratch);
        cJSON_Delete(doc);
        return rc;
    }
    {
        cc_buf_t p = CC_BUF_INIT;
        cc_buf_printf(&p, "#%s", opt->pointer ? opt->pointer : "");
        size_t n;
        rptr = cc_buf_take(&p, &n);
    }
    const char *sch = str_of(doc, "$schema");
    if (sch) {
        if (strstr(sch, "draft-04"))
            c.draft = 4;
        else if (strstr(sch, "draft-06"))
            c.draft = 6;
        else if (strstr(sch, "draft-07"))
            c.draft = 7;
        else if (strstr(sch, "2019-09"))
            c.draft = 2019;
    } else if (str_of(doc, "id") && !oa) {
        c.draft = 4;
    }

    uint32_t version = 1;
    if (!cJSON_IsObject(root)) {
        cc_buf_printf(report, "%s: cannot carry: the root must be an object schema with "
                              "properties (a contract's root is an object)\n", rptr ? rptr : "#");
        cJSON_Delete(c.scratch);
        cJSON_Delete(doc);
        free(rptr);
        return CC_IMPORT_REFUSED;
    }
    /* a root $ref is written in place */
    const cJSON *rs = through_ref(&c, root, NULL);
    char *name = contract_name(root, opt, &version);
    if (!name || !rptr || !c.scratch) {
        free(name);
        cJSON_Delete(c.scratch);
        cJSON_Delete(doc);
        free(rptr);
        return fail(report, "%s\n", "out of memory");
    }
    /* an allOf (or a $ref with keywords beside it) at the root: merged */
    const cJSON *body = rs;
    if (cJSON_IsObject(rs) && needs_merge(rs) && push(&c, rs)) {
        body = merge_all_of(&c, rs, rptr);
        c.depth = 0;
    }
    bool root_object = cJSON_IsObject(body) &&
                       (json_class(&c, body) && strcmp(json_class(&c, body), "object") == 0) &&
                       cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(body, "properties"));
    cc_buf_t fields = CC_BUF_INIT;
    const char *desc = NULL;
    if (!root_object) {
        cc_buf_printf(report, "%s: cannot carry: the root must be an object schema with "
                              "properties (a contract's root is an object)\n", rptr);
        c.blockers++;
    } else {
        seen_t seen = {{0}, 0};
        mark(&seen, "$schema");
        mark(&seen, "$id");
        mark(&seen, "title");
        if (rs == root && opt->pointer == NULL) {
            mark(&seen, "openapi");
        }
        const cJSON *d = take(rs, &seen, "description");
        if (!cJSON_IsString(d) || cc_is_blank(d->valuestring))
            d = take(root, &seen, "description");
        if (cJSON_IsString(d) && !cc_is_blank(d->valuestring))
            desc = d->valuestring;
        if (!push(&c, rs))
            c.oom = true;
        if (rs != root)
            note(&c, rptr, "named-type", "the root's $ref %s written in place",
                 str_of(root, "$ref"));
        const cJSON *ids = cJSON_GetObjectItemCaseSensitive(rs, "$id");
        if (cJSON_IsString(ids) && strncmp(ids->valuestring, "urn:contractc:", 14) != 0) {
            char *p = ptr_child(&c, rptr, "$id");
            note(&c, p, "ignored", "'$id' %s is not kept", ids->valuestring);
            free(p);
        }
        if (body != rs) {
            /* the merged copy holds no annotations: they are rs's */
            seen_t bs = {{0}, 0};
            object_fields(&c, body, rptr, &fields, 0, NULL, &bs);
            leftovers(&c, body, rptr, &bs);
            for (const cJSON *e = rs->child; e; e = e->next)
                if (e->string && !is_annotation(e->string))
                    mark(&seen, e->string);
            leftovers(&c, rs, rptr, &seen);
        } else {
            const cJSON *t = take(rs, &seen, "type");
            if (t && !(cJSON_IsString(t) && strcmp(t->valuestring, "object") == 0)) {
                char *p = ptr_child(&c, rptr, "type");
                cannot(&c, p, "the root's type must be object");
                free(p);
            }
            object_fields(&c, rs, rptr, &fields, 0, NULL, &seen);
            leftovers(&c, rs, rptr, &seen);
        }
        if (rs != root) {
            seen_t rseen = {{0}, 0};
            mark(&rseen, "$ref");
            mark(&rseen, "$schema");
            mark(&rseen, "$id");
            mark(&rseen, "title");
            mark(&rseen, "description");
            leftovers(&c, root, "#", &rseen);
        }
        c.depth = 0;
    }
    int rc = CC_IMPORT_OK;
    size_t total = fields.len;
    for (size_t i = 0; i < c.type_count; i++)
        total += c.types[i].body.len;
    if (c.too_big || total > IMPORT_MAX_BYTES) {
        cc_buf_printf(report, "%s: cannot carry: the contract would pass 1 MiB, %d values or "
                              "%u levels of nesting (the schema's references, written out where "
                              "a contract cannot name them, expand past the loader's caps)\n",
                      rptr, IMPORT_MAX_VALUES, IMPORT_MAX_LEVELS);
        c.blockers++;
    }
    if (c.oom || fields.failed) {
        cc_buf_puts(report, "out of memory\n");
        rc = CC_IMPORT_BAD_INPUT;
    } else if (c.blockers) {
        rc = CC_IMPORT_REFUSED;
    }
    if (rc == CC_IMPORT_OK) {
        const char *title = str_of(rs, "title");
        if (!title)
            title = str_of(root, "title");
        cc_buf_t y = CC_BUF_INIT;
        cc_buf_printf(&y, "# Imported by contractc import from %s (the ledger of what changed "
                          "went to stderr).\n",
                      base_name(opt->file_name));
        cc_buf_printf(&y, "contract: %s\nversion: %u\n", name, (unsigned)version);
        if (desc) {
            cc_buf_puts(&y, "description: ");
            yaml_str(&y, desc);
            cc_buf_putc(&y, '\n');
        }
        cc_buf_puts(&y, "instruction: ");
        if (desc) {
            yaml_str(&y, desc);
            note(&c, rptr, "instruction", "the instruction is the schema's description: "
                                          "review it before use");
        } else if (title && !cc_is_blank(title)) {
            yaml_str(&y, title);
            note(&c, rptr, "instruction", "the instruction is the schema's title: write a "
                                          "better one");
        } else {
            yaml_str(&y, "Reply with one JSON object of the fields below.");
            note(&c, rptr, "instruction", "the schema has no description: the instruction is a "
                                          "neutral sentence; write a better one");
        }
        cc_buf_putc(&y, '\n');
        if (c.type_count) {
            cc_buf_puts(&y, "types:\n");
            for (size_t i = 0; i < c.type_count; i++) {
                cc_buf_printf(&y, "  %s:\n", c.types[i].name);
                if (c.types[i].body.data)
                    cc_buf_append(&y, c.types[i].body.data, c.types[i].body.len);
                if (c.types[i].body.failed)
                    y.failed = true;
            }
        }
        if (fields.data)
            cc_buf_append(&y, fields.data, fields.len);
        if (y.failed) {
            cc_buf_free(&y);
            cc_buf_puts(report, "out of memory\n");
            rc = CC_IMPORT_BAD_INPUT;
        } else {
            *yaml = cc_buf_take(&y, yaml_len);
            if (c.ledger.data)
                cc_buf_append(report, c.ledger.data, c.ledger.len);
        }
    }
    cc_buf_free(&fields);
    cc_buf_free(&c.ledger);
    for (size_t i = 0; i < c.type_count; i++) {
        free(c.types[i].name);
        free(c.types[i].skip);
        cc_buf_free(&c.types[i].body);
    }
    free(c.types);
    free(c.stack);
    free(name);
    free(rptr);
    cJSON_Delete(c.scratch);
    cJSON_Delete(doc);
    return rc;
}
