/* SPDX-License-Identifier: MIT */
/*
 * gen_c.c - writes NAME.h and NAME.c.
 *
 * Section order (fixed): banner and version guards (templates), enums
 * (each with its name functions' declarations), structs (each after the
 * types it contains), then in NAME.c the tables in dependency order:
 * pattern DFAs, enum values, array item values, fields, key lookups and
 * rules of each object, the objects, the contract; the typed entry points
 * (templates); the enums' name functions; the texts.  Every value comes from tables.c, so
 * NAME.c and `contractc validate` interpret the same tables; sizes,
 * offsets and alignments are written as sizeof, offsetof and
 * CONTRACTC_ALIGNOF for the compiler to fill in, a member a field lacks as
 * CONTRACTC_ABSENT, and the enums' size check as CONTRACTC_STATIC_ASSERT.
 * NAME.h has one struct member per line, its comment beside it or, past 80
 * columns, above it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "generator.h"
#include "tables.h"
#include "templates.h"

/* ---- templates ------------------------------------------------------------ */

bool cc_render_template(const char *name, const char *const *keys,
                        const char *const *values, size_t count, cc_buf_t *out)
{
    const cc_template_t *tmpl = NULL;
    for (size_t i = 0; i < cc_template_count; i++)
        if (strcmp(cc_templates[i].name, name) == 0)
            tmpl = &cc_templates[i];
    if (!tmpl)
        return false;
    const char *p = tmpl->text, *end = tmpl->text + tmpl->len;
    while (p < end) {
        const char *open = strstr(p, "{{");
        if (!open || open >= end) {
            cc_buf_append(out, p, (size_t)(end - p));
            break;
        }
        cc_buf_append(out, p, (size_t)(open - p));
        const char *close = strstr(open, "}}");
        if (!close)
            return false;
        size_t n = (size_t)(close - open - 2);
        size_t k = 0;
        while (k < count && !(strlen(keys[k]) == n && memcmp(keys[k], open + 2, n) == 0))
            k++;
        if (k == count)
            return false;
        cc_buf_puts(out, values[k]);
        p = close + 2;
    }
    return !out->failed;
}

/* ---- helpers ---------------------------------------------------------------- */

typedef struct emit {
    const cc_contract_t *m;
    const cc_tables_t *t;
    cc_buf_t types;     /* NAME.h types section */
    cc_buf_t checks;    /* NAME.h check declarations */
    cc_buf_t tables;    /* NAME.c tables section */
    bool *object_done;  /* [t->object_count] */
    bool *items_done;   /* [t->item_count] */
    bool *items_typed;  /* [t->item_count]: its C struct is written */
    bool *object_typed; /* [t->object_count] */
} emit_t;

static size_t object_index(const emit_t *e, const cc_object_t *o)
{
    for (size_t i = 0; i < e->t->object_count; i++)
        if (e->t->objects[i].model == o)
            return i;
    return (size_t)-1;
}

static size_t items_index(const emit_t *e, const cc_value_t *v)
{
    for (size_t i = 0; i < e->t->item_count; i++)
        if (e->t->items[i].model == v)
            return i;
    return (size_t)-1;
}

static const char *type_enum_name(contractc_type_t type)
{
    switch (type) {
    case CONTRACTC_TYPE_STRING: return "CONTRACTC_TYPE_STRING";
    case CONTRACTC_TYPE_INTEGER: return "CONTRACTC_TYPE_INTEGER";
    case CONTRACTC_TYPE_NUMBER: return "CONTRACTC_TYPE_NUMBER";
    case CONTRACTC_TYPE_BOOLEAN: return "CONTRACTC_TYPE_BOOLEAN";
    case CONTRACTC_TYPE_DECIMAL: return "CONTRACTC_TYPE_DECIMAL";
    case CONTRACTC_TYPE_ENUM: return "CONTRACTC_TYPE_ENUM";
    case CONTRACTC_TYPE_DATE: return "CONTRACTC_TYPE_DATE";
    case CONTRACTC_TYPE_DATETIME: return "CONTRACTC_TYPE_DATETIME";
    case CONTRACTC_TYPE_OBJECT: return "CONTRACTC_TYPE_OBJECT";
    case CONTRACTC_TYPE_ARRAY: return "CONTRACTC_TYPE_ARRAY";
    case CONTRACTC_TYPE_UNION: return "CONTRACTC_TYPE_UNION";
    case CONTRACTC_TYPE_MAP: return "CONTRACTC_TYPE_MAP";
    case CONTRACTC_TYPE_JSON: return "CONTRACTC_TYPE_JSON";
    case CONTRACTC_TYPE_VALUE_UNION: return "CONTRACTC_TYPE_VALUE_UNION";
    default: break;
    }
    return "0";
}

/* Writes text safe inside a C comment (no comment terminator, one line). */
static void comment_text(cc_buf_t *b, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '\n' || *s == '\r')
            cc_buf_putc(b, ' ');
        else if (s[0] == '*' && s[1] == '/')
            cc_buf_puts(b, "* ");
        else if (s[0] == '/' && s[1] == '*')
            cc_buf_puts(b, "/ ");
        else
            cc_buf_putc(b, *s);
    }
}

static void c_literal(cc_buf_t *b, const char *s)
{
    if (!s) {
        cc_buf_puts(b, "NULL");
        return;
    }
    cc_buf_putc(b, '"');
    cc_buf_c_string(b, s, strlen(s));
    cc_buf_putc(b, '"');
}

/* The C type of a value, for an array item or a scalar member. */
static void value_c_type(cc_buf_t *b, const cc_value_t *v)
{
    switch (v->type) {
    case CONTRACTC_TYPE_STRING:
    case CONTRACTC_TYPE_JSON: cc_buf_puts(b, "contractc_string_t"); break;
    case CONTRACTC_TYPE_INTEGER:
    case CONTRACTC_TYPE_DECIMAL: cc_buf_puts(b, "int64_t"); break;
    case CONTRACTC_TYPE_NUMBER: cc_buf_puts(b, "double"); break;
    case CONTRACTC_TYPE_BOOLEAN: cc_buf_puts(b, "bool"); break;
    case CONTRACTC_TYPE_ENUM: cc_buf_puts(b, v->enumeration->c_type); break;
    case CONTRACTC_TYPE_DATE: cc_buf_puts(b, "contractc_date_t"); break;
    case CONTRACTC_TYPE_DATETIME: cc_buf_puts(b, "contractc_datetime_t"); break;
    case CONTRACTC_TYPE_OBJECT: cc_buf_puts(b, v->object->c_type); break;
    case CONTRACTC_TYPE_ARRAY:
    case CONTRACTC_TYPE_MAP: /* an item or a map's value: the struct of one list or map */
        cc_buf_puts(b, v->c_list_type ? v->c_list_type : "void");
        break;
    case CONTRACTC_TYPE_UNION: cc_buf_puts(b, v->c_union_type); break;
    case CONTRACTC_TYPE_VALUE_UNION: cc_buf_puts(b, v->c_union_type); break;
    default: /* the types of v2 write their own C types */
        break;
    }
}

/* The C type of an array item or scalar member: an item that may be null
 * is its NAME_F_item_t (docs/contract-language.md §4.6). */
static void item_c_type(cc_buf_t *b, const cc_value_t *v)
{
    if (v->c_item_type)
        cc_buf_puts(b, v->c_item_type);
    else
        value_c_type(b, v);
}

/* ---- NAME.h: enums and structs --------------------------------------------- */

static void emit_enum_type(emit_t *e, const cc_table_enum_t *te)
{
    const cc_enum_t *em = te->model;
    cc_buf_t *b = &e->types;
    cc_buf_printf(b, "\n/* %s: ", em->named ? "named enum" : "enum");
    for (size_t i = 0; i < em->count; i++) {
        if (i)
            cc_buf_puts(b, i + 1 == em->count ? " or " : ", ");
        cc_buf_putc(b, '"');
        comment_text(b, em->values[i]);
        cc_buf_putc(b, '"');
    }
    cc_buf_printf(b, ". 0 means none (null). */\n");
    size_t n = strlen(em->c_type);
    cc_buf_printf(b, "typedef enum %.*s {\n", (int)(n > 2 ? n - 2 : n), em->c_type);
    cc_buf_printf(b, "    %s_NONE = 0,\n", em->c_prefix);
    for (size_t i = 0; i < em->count; i++) {
        cc_buf_printf(b, "    %s%s /* \"", em->c_constants[i], i + 1 < em->count ? "," : " ");
        comment_text(b, em->values[i]);
        cc_buf_puts(b, "\" */\n");
    }
    cc_buf_printf(b, "} %s;\n", em->c_type);

    cc_buf_puts(b, "\n/* A value's text as the contract writes it, static, UTF-8 and\n"
                   " * NUL-terminated: \"");
    comment_text(b, em->count ? em->values[0] : "");
    cc_buf_printf(b, "\" for %s;\n * NULL for %s_NONE and values out of range. */\n",
                  em->count ? em->c_constants[0] : "?", em->c_prefix);
    cc_buf_printf(b, "const char *%s(%s value);\n", em->c_name_function, em->c_type);
    cc_buf_printf(b, "\n/* The value whose text is text[0..len) exactly (byte for byte, as the\n"
                     " * parser matches; text need not be NUL-terminated): true and *value set;\n"
                     " * false, with *value = %s_NONE, when no value has that text. */\n",
                  em->c_prefix);
    cc_buf_printf(b, "bool %s(const char *text, size_t len,\n        %s *value);\n",
                  em->c_from_name_function, em->c_type);
}

/* NAME.c: an enum's name functions, over its table of spellings (outside
 * the parser: contractc_parse never calls them). */
static void emit_enum_functions(cc_buf_t *b, const cc_table_enum_t *te)
{
    const cc_enum_t *em = te->model;
    uint32_t count = te->table->count;
    cc_buf_printf(b, "\nconst char *%s(%s value)\n{\n"
                     "    const int i = (int)value;\n"
                     "    return i >= 1 && i <= %" PRIu32 " ? %s_values[i - 1].text : NULL;\n}\n",
                  em->c_name_function, em->c_type, count, te->ident);
    cc_buf_printf(b, "\nbool %s(const char *text, size_t len,\n        %s *value)\n{\n"
                     "    if (value == NULL)\n        return false;\n"
                     "    *value = %s_NONE;\n"
                     "    if (text == NULL)\n        return false;\n"
                     "    for (uint32_t i = 0; i < %" PRIu32 "; i++) {\n"
                     "        if (%s_values[i].len == len &&\n"
                     "            memcmp(%s_values[i].text, text, len) == 0) {\n"
                     "            *value = (%s)(i + 1);\n"
                     "            return true;\n"
                     "        }\n"
                     "    }\n"
                     "    return false;\n}\n",
                  em->c_from_name_function, em->c_type, em->c_prefix, count, te->ident, te->ident,
                  em->c_type);
}

static void emit_object_type(emit_t *e, size_t index);

/* A tagged union's kind enum and struct (docs/contract-language.md
 * §4.11), after its variants' structs. */
static void emit_union_type(emit_t *e, const cc_value_t *v)
{
    for (size_t i = 0; i < v->variant_count; i++) {
        size_t k = object_index(e, v->variants[i].object);
        if (k != (size_t)-1)
            emit_object_type(e, k);
    }
    cc_buf_t *b = &e->types;
    cc_buf_puts(b, "\n/* The kinds of a tagged union (key \"");
    comment_text(b, v->tag);
    cc_buf_printf(b, "\"). 0 means none (null or absent). */\ntypedef enum %s_kind {\n",
                  v->c_union_struct);
    cc_buf_printf(b, "    %s_NONE = 0,\n", v->c_kind_prefix);
    for (size_t i = 0; i < v->variant_count; i++) {
        cc_buf_printf(b, "    %s%s /* \"", v->variants[i].c_constant,
                      i + 1 < v->variant_count ? "," : " ");
        comment_text(b, v->variants[i].name);
        cc_buf_puts(b, "\" */\n");
    }
    cc_buf_printf(b, "} %s;\n", v->c_kind_type);
    cc_buf_puts(b, "\n/* A tagged union: `kind` says which member of `as` holds the value. */\n");
    cc_buf_printf(b, "typedef struct %s {\n    %s kind;\n    union {\n", v->c_union_struct,
                  v->c_kind_type);
    for (size_t i = 0; i < v->variant_count; i++) {
        cc_buf_printf(b, "        %s %s; /* \"", v->variants[i].object->c_type,
                      v->variants[i].c_member);
        comment_text(b, v->tag);
        cc_buf_puts(b, "\": \"");
        comment_text(b, v->variants[i].name);
        cc_buf_puts(b, "\" */\n");
    }
    cc_buf_printf(b, "    } as;\n} %s;\n", v->c_union_type);
}

static void emit_value_types(emit_t *e, const cc_value_t *v);

/* A value union's kind enum and struct (docs/contract-language.md §4.13),
 * after the types of its alternatives. */
static void emit_value_union_type(emit_t *e, const cc_value_t *v)
{
    for (size_t i = 0; i < v->alternative_count; i++) {
        const cc_value_t *a = &v->alternatives[i];
        emit_value_types(e, a);
        if (a->type == CONTRACTC_TYPE_ARRAY && a->items && a->c_list_type) {
            size_t n = strlen(a->c_list_type);
            cc_buf_printf(&e->types, "\n/* The list of an array alternative of a value union. */\n"
                                     "typedef struct %.*s {\n    ",
                          (int)(n > 2 ? n - 2 : n), a->c_list_type);
            item_c_type(&e->types, a->items);
            cc_buf_printf(&e->types, " *items;\n    size_t count;\n} %s;\n", a->c_list_type);
        }
    }
    cc_buf_t *b = &e->types;
    cc_buf_printf(b, "\n/* The kinds of a value union, told apart by the JSON type. 0 means none\n"
                     " * (null or absent). */\ntypedef enum %s_kind {\n", v->c_union_struct);
    cc_buf_printf(b, "    %s_NONE = 0,\n", v->c_kind_prefix);
    for (size_t i = 0; i < v->alternative_count; i++) {
        const cc_value_t *a = &v->alternatives[i];
        cc_buf_printf(b, "    %s%s /* %s */\n", a->c_alt_constant,
                      i + 1 < v->alternative_count ? "," : " ", cc_type_name(a->type));
    }
    cc_buf_printf(b, "} %s;\n", v->c_kind_type);
    cc_buf_puts(b, "\n/* A value union: `kind` says which member of `as` holds the value. */\n");
    cc_buf_printf(b, "typedef struct %s {\n    %s kind;\n    union {\n", v->c_union_struct,
                  v->c_kind_type);
    for (size_t i = 0; i < v->alternative_count; i++) {
        const cc_value_t *a = &v->alternatives[i];
        cc_buf_puts(b, "        ");
        value_c_type(b, a);
        cc_buf_printf(b, " %s; /* %s", a->c_alt_member, cc_type_name(a->type));
        if (a->type_ref)
            cc_buf_printf(b, " (type %s)", a->type_ref);
        if (a->type == CONTRACTC_TYPE_DECIMAL)
            cc_buf_printf(b, " in minor units, scale %u", (unsigned)a->scale);
        if (a->type == CONTRACTC_TYPE_STRING)
            cc_buf_puts(b, ", UTF-8, NUL-terminated");
        if (a->grounded)
            cc_buf_puts(b, ", grounded");
        cc_buf_puts(b, " */\n");
    }
    cc_buf_printf(b, "    } as;\n} %s;\n", v->c_union_type);
}

/* Makes sure the C types a value needs are written first. */
static void emit_value_types(emit_t *e, const cc_value_t *v)
{
    if (v->type == CONTRACTC_TYPE_UNION) {
        emit_union_type(e, v);
    } else if (v->type == CONTRACTC_TYPE_VALUE_UNION) {
        emit_value_union_type(e, v);
    } else if (v->type == CONTRACTC_TYPE_OBJECT) {
        size_t i = object_index(e, v->object);
        if (i != (size_t)-1)
            emit_object_type(e, i);
    } else if (v->type == CONTRACTC_TYPE_MAP && v->items && v->c_entry_type) {
        /* docs/contract-language.md §4.12: one entry, in reply order */
        emit_value_types(e, v->items);
        size_t n = strlen(v->c_entry_type);
        cc_buf_printf(&e->types, "\n/* One entry of a map, in reply order: the key (UTF-8, NUL-terminated)\n"
                                 " * and its value. */\ntypedef struct %.*s {\n"
                                 "    const char *key;\n    size_t key_len; /* bytes, without the NUL */\n    ",
                      (int)(n > 2 ? n - 2 : n), v->c_entry_type);
        item_c_type(&e->types, v->items);
        cc_buf_printf(&e->types, " value;\n} %s;\n", v->c_entry_type);
        if (v->c_list_type) {
            /* a map that is an array's item or a map's value: one map */
            size_t m = strlen(v->c_list_type);
            cc_buf_printf(&e->types, "\n/* One map that is an item, a value or an alternative: its entries, in reply order. */\n"
                                     "typedef struct %.*s {\n    %s *entries;\n    size_t count;\n} %s;\n",
                          (int)(m > 2 ? m - 2 : m), v->c_list_type, v->c_entry_type, v->c_list_type);
        }
    } else if (v->type == CONTRACTC_TYPE_ARRAY && v->items) {
        emit_value_types(e, v->items);
        if (v->items->c_item_type) {
            size_t i = items_index(e, v->items);
            const char *it = v->items->c_item_type;
            if (i != (size_t)-1 && !e->items_typed[i]) {
                e->items_typed[i] = true;
                size_t n = strlen(it);
                cc_buf_printf(&e->types, "\n/* One item of a list whose items may be null. */\n"
                                         "typedef struct %.*s {\n    bool has_value; /* false: the item was null */\n    ",
                              (int)(n > 2 ? n - 2 : n), it);
                value_c_type(&e->types, v->items);
                cc_buf_printf(&e->types, " value;\n} %s;\n", it);
            }
        }
        if (v->items->type == CONTRACTC_TYPE_ARRAY) {
            size_t i = items_index(e, v->items);
            const char *list = v->items->c_list_type;
            if (i != (size_t)-1 && !e->items_typed[i] && list) {
                e->items_typed[i] = true;
                size_t n = strlen(list);
                cc_buf_printf(&e->types, "\n/* One inner list of an array of arrays. */\ntypedef struct %.*s {\n    ",
                              (int)(n > 2 ? n - 2 : n), list);
                item_c_type(&e->types, v->items->items);
                cc_buf_printf(&e->types, " *items;\n    size_t count;\n} %s;\n", list);
            }
        }
    }
}

/* What a field's member holds, for its comment: "decimal in minor units,
 * scale 2, nullable: DESCRIPTION" (safe inside a comment, one line). */
static void member_comment(cc_buf_t *b, const cc_field_t *f)
{
    const cc_value_t *v = &f->value;
    cc_buf_puts(b, cc_type_name(v->type));
    for (size_t i = 0; v->type == CONTRACTC_TYPE_VALUE_UNION && i < v->alternative_count; i++)
        cc_buf_printf(b, "%s%s", i == 0 ? " of " : i + 1 == v->alternative_count ? " or " : ", ",
                      cc_type_name(v->alternatives[i].type));
    if (v->type == CONTRACTC_TYPE_DECIMAL)
        cc_buf_printf(b, " in minor units, scale %u", (unsigned)v->scale);
    if (v->type == CONTRACTC_TYPE_STRING)
        cc_buf_puts(b, ", UTF-8, NUL-terminated");
    if (v->type == CONTRACTC_TYPE_JSON)
        cc_buf_puts(b, ": the value's JSON text as sent, NUL-terminated");
    if (v->type == CONTRACTC_TYPE_JSON && v->has_max_length)
        cc_buf_printf(b, ", at most %u bytes", (unsigned)v->max_length);
    if (v->grounded)
        cc_buf_puts(b, ", grounded");
    if (f->nullable)
        cc_buf_puts(b, ", nullable");
    if (f->optional)
        cc_buf_puts(b, ", optional");
    if (v->type == CONTRACTC_TYPE_ARRAY && v->items && v->items->nullable)
        cc_buf_puts(b, ", items nullable");
    if (f->c_name || strcmp(f->c_stem ? f->c_stem : f->name, f->name) != 0) {
        /* the JSON key, when the member is not named after it */
        cc_buf_puts(b, ", key \"");
        comment_text(b, f->name);
        cc_buf_putc(b, '"');
    }
    if (f->description) {
        cc_buf_puts(b, ": ");
        comment_text(b, f->description);
    }
}

/* The widest line a struct member takes with its comment beside it; a
 * longer comment goes above the member, wrapped at this width. */
#define MEMBER_LINE_MAX 80u

/* True when a wrapped comment may break at p[i]: a space, not after a
 * backslash or a '/' (a line ending in \ or in the trigraph ??/ would be
 * spliced with the next one, which -Wall warns of). */
static bool comment_break(const char *p, size_t i)
{
    return p[i] == ' ' && i > 0 && p[i - 1] != '\\' && p[i - 1] != '/';
}

/* One struct member on its own line: `decl` ("int64_t amount") with its
 * comment beside it when the line stays within MEMBER_LINE_MAX columns,
 * else above it, wrapped at spaces. */
static void put_member(cc_buf_t *b, const char *decl, const char *comment)
{
    size_t decl_len = strlen(decl), comment_len = comment ? strlen(comment) : 0;
    if (!comment || 4 + decl_len + 4 + comment_len + 3 <= MEMBER_LINE_MAX) {
        cc_buf_printf(b, "    %s;", decl);
        if (comment)
            cc_buf_printf(b, " /* %s */", comment);
        cc_buf_putc(b, '\n');
        return;
    }
    const size_t width = MEMBER_LINE_MAX - 7; /* after the comment's opening or its star */
    const char *p = comment;
    bool first = true;
    while (*p) {
        size_t n = strlen(p);
        if (n > width) {
            size_t cut = width;
            while (cut > 0 && !comment_break(p, cut))
                cut--;
            if (cut == 0) /* one word longer than a line: up to the next break */
                for (cut = width; p[cut] && !comment_break(p, cut); cut++)
                    ;
            n = cut;
        }
        cc_buf_puts(b, first ? "    /* " : "\n     * ");
        cc_buf_append(b, p, n);
        first = false;
        p += n;
        while (*p == ' ')
            p++;
    }
    cc_buf_printf(b, " */\n    %s;\n", decl);
}

static void emit_object_type(emit_t *e, size_t index)
{
    if (e->object_typed[index])
        return;
    e->object_typed[index] = true;
    const cc_object_t *o = e->t->objects[index].model;
    for (size_t i = 0; i < o->field_count; i++)
        emit_value_types(e, &o->fields[i].value);
    cc_buf_t *b = &e->types;
    if (index == 0)
        cc_buf_printf(b, "\n/* The record: one accepted reply. */\n");
    else
        cc_buf_printf(b, "\n/* %s%s */\n", o->named ? "Named type " : "An inline object",
                      o->named ? o->type_name : "");
    cc_buf_printf(b, "typedef struct %s {\n", o->c_struct);
    for (size_t i = 0; i < o->field_count; i++) {
        const cc_field_t *f = &o->fields[i];
        const cc_value_t *v = &f->value;
        cc_buf_t decl = CC_BUF_INIT, comment = CC_BUF_INIT;
        if (f->nullable || f->optional) {
            cc_buf_printf(&decl, "bool has_%s", f->c_member);
            put_member(b, decl.data ? decl.data : "",
                       !f->optional ? "false: null, not stated"
                       : f->nullable ? "false: absent or null, not stated"
                                     : "false: the key was absent");
            decl.len = 0;
        }
        if (f->nullable && f->optional) {
            cc_buf_printf(&decl, "bool %s_null", f->c_member);
            put_member(b, decl.data ? decl.data : "", "true: the reply said null");
            decl.len = 0;
        }
        if (cc_type_has_len(v->type)) {
            cc_buf_printf(&decl, "const char *%s", f->c_member);
        } else if (v->type == CONTRACTC_TYPE_ARRAY) {
            item_c_type(&decl, v->items);
            cc_buf_printf(&decl, " *%s", f->c_member);
        } else if (v->type == CONTRACTC_TYPE_MAP) {
            cc_buf_printf(&decl, "%s *%s", v->c_entry_type ? v->c_entry_type : "void", f->c_member);
        } else {
            item_c_type(&decl, v);
            cc_buf_printf(&decl, " %s", f->c_member);
        }
        member_comment(&comment, f);
        b->failed |= decl.failed || comment.failed;
        put_member(b, decl.data ? decl.data : "", comment.data);
        decl.len = 0;
        if (cc_type_has_len(v->type) || v->type == CONTRACTC_TYPE_ARRAY ||
            v->type == CONTRACTC_TYPE_MAP) {
            bool string = cc_type_has_len(v->type);
            cc_buf_printf(&decl, "size_t %s_%s", f->c_member, string ? "len" : "count");
            b->failed |= decl.failed;
            put_member(b, decl.data ? decl.data : "",
                       string ? "bytes, without the NUL"
                       : v->type == CONTRACTC_TYPE_MAP ? "entries" : "items");
        }
        cc_buf_free(&decl);
        cc_buf_free(&comment);
    }
    if (index == 0)
        cc_buf_puts(b, "    contractc_arena_t *arena_; /* owns every pointer above */\n");
    else if (o->field_count == 0)
        cc_buf_puts(b, "    char unused_; /* an empty object; C has no empty struct */\n");
    cc_buf_printf(b, "} %s;\n", o->c_type);
}

/* ---- NAME.c: tables ---------------------------------------------------------- */

static void emit_dfa(emit_t *e, const cc_table_dfa_t *d)
{
    cc_buf_t *b = &e->tables;
    const contractc_dfa_t *t = d->table;
    cc_buf_puts(b, "\n/* pattern ");
    comment_text(b, t->source);
    /* The byte classes in use: tables.c may pad the count to a power of two. */
    uint32_t used = 0;
    for (int i = 0; i < 256; i++)
        if (t->byte_class[i] >= used)
            used = t->byte_class[i] + 1u;
    cc_buf_printf(b, ": %" PRIu32 " states (0 is dead), %" PRIu32 " byte classes", t->state_count,
                  t->class_count);
    if (used < t->class_count)
        cc_buf_printf(b, " (%" PRIu32 " used, padded to a power of two)", used);
    cc_buf_puts(b, " */\n");
    cc_buf_printf(b, "static const uint8_t %s_class[256] = {", d->ident);
    for (int i = 0; i < 256; i++)
        cc_buf_printf(b, "%s%u%s", i % 16 ? " " : "\n    ", t->byte_class[i], i < 255 ? "," : "");
    cc_buf_printf(b, "\n};\nstatic const uint16_t %s_next[%" PRIu32 "] = {", d->ident,
                  t->state_count * t->class_count);
    for (uint32_t s = 0; s < t->state_count; s++) {
        cc_buf_printf(b, "\n    /* %" PRIu32 " */", s);
        for (uint32_t c = 0; c < t->class_count; c++)
            cc_buf_printf(b, " %u%s", t->next[s * t->class_count + c],
                          s + 1 < t->state_count || c + 1 < t->class_count ? "," : "");
    }
    cc_buf_printf(b, "\n};\nstatic const uint8_t %s_accepting[%" PRIu32 "] = {", d->ident, t->state_count);
    for (uint32_t s = 0; s < t->state_count; s++)
        cc_buf_printf(b, "%s%u%s", s % 16 ? " " : "\n    ", t->accepting[s], s + 1 < t->state_count ? "," : "");
    cc_buf_printf(b, "\n};\nstatic const contractc_dfa_t %s = {\n", d->ident);
    cc_buf_puts(b, "    .source = ");
    c_literal(b, t->source);
    cc_buf_printf(b, ",\n    .state_count = %" PRIu32 ",\n    .class_count = %" PRIu32
                     ",\n    .start = %" PRIu32 ",\n",
                  t->state_count, t->class_count, t->start);
    cc_buf_printf(b, "    .byte_class = %s_class,\n    .next = %s_next,\n    .accepting = %s_accepting\n};\n",
                  d->ident, d->ident, d->ident);
}

static void emit_enum_table(emit_t *e, const cc_table_enum_t *te)
{
    cc_buf_t *b = &e->tables;
    cc_buf_printf(b, "\n/* allowed spellings of %s; C value = index + 1 */\n", te->table->name);
    cc_buf_printf(b, "static const contractc_enum_value_t %s_values[%" PRIu32 "] = {\n", te->ident,
                  te->table->count ? te->table->count : 1);
    for (uint32_t i = 0; i < te->table->count; i++) {
        cc_buf_puts(b, "    { ");
        c_literal(b, te->values[i].text);
        cc_buf_printf(b, ", %" PRIu32 " }%s /* %s */\n", te->values[i].len,
                      i + 1 < te->table->count ? "," : "", te->model->c_constants[i]);
    }
    cc_buf_printf(b, "};\nstatic const contractc_enum_t %s_enum = { ", te->ident);
    c_literal(b, te->table->name);
    cc_buf_printf(b, ", %s_values, %" PRIu32 " };\n", te->ident, te->table->count);
}

static void emit_object_tables(emit_t *e, size_t index);
static void emit_items_table(emit_t *e, const cc_value_t *items);
static void emit_alternatives_table(emit_t *e, const cc_value_t *v);

/* Writes the tables a value refers to. */
static void emit_value_deps(emit_t *e, const cc_value_t *v)
{
    if (v->type == CONTRACTC_TYPE_UNION) {
        for (size_t i = 0; i < v->variant_count; i++) {
            size_t k = object_index(e, v->variants[i].object);
            if (k != (size_t)-1)
                emit_object_tables(e, k);
        }
        cc_buf_printf(&e->tables, "\n/* the variants of a tagged union */\n"
                                  "static const contractc_variant_t %s_variants[%zu] = {\n",
                      v->c_union_struct, v->variant_count);
        for (size_t i = 0; i < v->variant_count; i++) {
            size_t k = object_index(e, v->variants[i].object);
            cc_buf_puts(&e->tables, "    { ");
            c_literal(&e->tables, v->variants[i].name);
            cc_buf_printf(&e->tables, ", %zu, &%s_object }%s\n", strlen(v->variants[i].name),
                          k == (size_t)-1 ? "?" : e->t->objects[k].ident,
                          i + 1 < v->variant_count ? "," : "");
        }
        cc_buf_puts(&e->tables, "};\n");
        cc_buf_printf(&e->tables, "CONTRACTC_STATIC_ASSERT(sizeof(%s) == sizeof(int), %s_kind_is_int_);\n",
                      v->c_kind_type, v->c_union_struct);
    } else if (v->type == CONTRACTC_TYPE_VALUE_UNION) {
        emit_alternatives_table(e, v);
    } else if (v->type == CONTRACTC_TYPE_OBJECT) {
        size_t i = object_index(e, v->object);
        if (i != (size_t)-1)
            emit_object_tables(e, i);
    } else if (v->type == CONTRACTC_TYPE_ARRAY && v->items) {
        emit_items_table(e, v->items);
    } else if (v->type == CONTRACTC_TYPE_MAP && v->items && v->c_entry_type) {
        emit_items_table(e, v->items);
        /* The runtime finds an entry's value where contractc.h says. */
        size_t n = strlen(v->c_entry_type);
        cc_buf_printf(&e->tables,
                      "CONTRACTC_STATIC_ASSERT(offsetof(%s, value) ==\n"
                      "                        CONTRACTC_MAP_VALUE_OFFSET(CONTRACTC_ALIGNOF(%s)),\n"
                      "                        %.*s_value_offset_);\n",
                      v->c_entry_type, v->c_entry_type, (int)(n > 2 ? n - 2 : n), v->c_entry_type);
    }
}

static void emit_value_init(emit_t *e, cc_buf_t *b, const cc_value_t *mv,
                            const contractc_value_t *v, const char *indent);

/* The alternatives of a value union (docs/contract-language.md §4.13):
 * the tables they need, then their one array. */
static void emit_alternatives_table(emit_t *e, const cc_value_t *v)
{
    for (size_t i = 0; i < v->alternative_count; i++)
        emit_value_deps(e, &v->alternatives[i]);
    const cc_table_alternatives_t *ta = cc_tables_alternatives(e->t, v);
    if (!ta) {
        e->tables.failed = true;
        return;
    }
    cc_buf_printf(&e->tables, "\n/* the alternatives of a value union */\n"
                              "static const contractc_value_t %s[%zu] = {\n",
                  ta->ident, v->alternative_count);
    for (size_t i = 0; i < v->alternative_count; i++) {
        cc_buf_puts(&e->tables, "    ");
        emit_value_init(e, &e->tables, &v->alternatives[i], &ta->table[i], "    ");
        cc_buf_puts(&e->tables, i + 1 < v->alternative_count ? ",\n" : "\n");
    }
    cc_buf_puts(&e->tables, "};\n");
    cc_buf_printf(&e->tables, "CONTRACTC_STATIC_ASSERT(sizeof(%s) == sizeof(int), %s_kind_is_int_);\n",
                  v->c_kind_type, v->c_union_struct);
}

static void put_int64(cc_buf_t *b, int64_t v)
{
    if (v == INT64_MIN)
        cc_buf_puts(b, "INT64_MIN");
    else if (v == INT64_MAX)
        cc_buf_puts(b, "INT64_MAX");
    else if (v == CONTRACTC_INTEGER_MIN)
        cc_buf_puts(b, "CONTRACTC_INTEGER_MIN");
    else if (v == CONTRACTC_INTEGER_MAX)
        cc_buf_puts(b, "CONTRACTC_INTEGER_MAX");
    else
        cc_buf_printf(b, "INT64_C(%" PRId64 ")", v);
}

static void put_u32(cc_buf_t *b, uint32_t v)
{
    if (v == CONTRACTC_UNBOUNDED)
        cc_buf_puts(b, "CONTRACTC_UNBOUNDED");
    else
        cc_buf_printf(b, "%" PRIu32, v);
}

/* The designated initializer of a contractc_value_t (members that differ
 * from zero, plus the bounds, which are always written). */
static void emit_value_init(emit_t *e, cc_buf_t *b, const cc_value_t *mv,
                            const contractc_value_t *v, const char *indent)
{
    cc_buf_printf(b, "{\n%s    .type = %s,\n", indent, type_enum_name(v->type));
    switch (v->type) {
    case CONTRACTC_TYPE_STRING:
        cc_buf_printf(b, "%s    .min_length = ", indent);
        put_u32(b, v->min_length);
        cc_buf_printf(b, ", .max_length = ");
        put_u32(b, v->max_length);
        cc_buf_puts(b, ",\n");
        if (v->pattern) {
            const cc_table_dfa_t *d = cc_tables_dfa(e->t, mv);
            cc_buf_printf(b, "%s    .pattern = &%s,\n", indent, d ? d->ident : "?");
        }
        if (v->grounded)
            cc_buf_printf(b, "%s    .grounded = true,\n", indent);
        break;
    case CONTRACTC_TYPE_JSON: /* max_bytes (docs/contract-language.md §4.14) */
        cc_buf_printf(b, "%s    .max_length = ", indent);
        put_u32(b, v->max_length);
        cc_buf_puts(b, ",\n");
        break;
    case CONTRACTC_TYPE_INTEGER:
    case CONTRACTC_TYPE_DECIMAL:
        cc_buf_printf(b, "%s    .minimum = ", indent);
        put_int64(b, v->minimum);
        cc_buf_puts(b, ", .maximum = ");
        put_int64(b, v->maximum);
        cc_buf_puts(b, ",\n");
        if (v->type == CONTRACTC_TYPE_DECIMAL)
            cc_buf_printf(b, "%s    .scale = %u, .is_signed = %s,\n", indent, (unsigned)v->scale,
                          v->is_signed ? "true" : "false");
        break;
    case CONTRACTC_TYPE_NUMBER:
        /* The shortest text that reads back to the same double, written
         * without the C locale (a host under de_DE must not get "1,5"). */
        if (v->has_number_minimum) {
            char num[33];
            cc_format_number(v->number_minimum, num);
            cc_buf_printf(b, "%s    .has_number_minimum = true, .number_minimum = %s%s,\n", indent, num,
                          strpbrk(num, ".e") ? "" : ".0");
        }
        if (v->has_number_maximum) {
            char num[33];
            cc_format_number(v->number_maximum, num);
            cc_buf_printf(b, "%s    .has_number_maximum = true, .number_maximum = %s%s,\n", indent, num,
                          strpbrk(num, ".e") ? "" : ".0");
        }
        break;
    case CONTRACTC_TYPE_ENUM: {
        const cc_table_enum_t *te = cc_tables_enum(e->t, mv->enumeration);
        cc_buf_printf(b, "%s    .enumeration = &%s_enum,\n", indent, te ? te->ident : "?");
        break;
    }
    case CONTRACTC_TYPE_OBJECT: {
        size_t i = object_index(e, mv->object);
        cc_buf_printf(b, "%s    .object = &%s_object,\n", indent,
                      i == (size_t)-1 ? "?" : e->t->objects[i].ident);
        break;
    }
    case CONTRACTC_TYPE_ARRAY: {
        size_t i = items_index(e, mv->items);
        cc_buf_printf(b, "%s    .items = &%s,\n", indent, i == (size_t)-1 ? "?" : e->t->items[i].ident);
        cc_buf_printf(b, "%s    .min_items = ", indent);
        put_u32(b, v->min_items);
        cc_buf_puts(b, ", .max_items = ");
        put_u32(b, v->max_items);
        cc_buf_printf(b, ",\n%s    .item_size = sizeof(", indent);
        item_c_type(b, mv->items);
        cc_buf_puts(b, "), .item_align = CONTRACTC_ALIGNOF(");
        item_c_type(b, mv->items);
        cc_buf_puts(b, "),\n");
        if (v->items_nullable) /* ABI 2 (contractc.h) */
            cc_buf_printf(b, "%s    .items_nullable = true, .item_has_offset = offsetof(%s, has_value),"
                             " .item_value_offset = offsetof(%s, value),\n",
                          indent, mv->items->c_item_type, mv->items->c_item_type);
        break;
    }
    case CONTRACTC_TYPE_UNION:
        cc_buf_printf(b, "%s    .tag = ", indent);
        c_literal(b, v->tag);
        cc_buf_printf(b, ", .tag_len = %" PRIu32 ",\n", v->tag_len);
        cc_buf_printf(b, "%s    .variants = %s_variants, .variant_count = %" PRIu32 ",\n", indent,
                      mv->c_union_struct, v->variant_count);
        cc_buf_printf(b, "%s    .union_offset = offsetof(%s, as),\n", indent, mv->c_union_type);
        break;
    case CONTRACTC_TYPE_VALUE_UNION: { /* docs/contract-language.md §4.13 */
        const cc_table_alternatives_t *ta = cc_tables_alternatives(e->t, mv);
        cc_buf_printf(b, "%s    .alternatives = %s, .alternative_count = %" PRIu32 ",\n", indent,
                      ta ? ta->ident : "?", v->alternative_count);
        cc_buf_printf(b, "%s    .union_offset = offsetof(%s, as),\n", indent, mv->c_union_type);
        break;
    }
    case CONTRACTC_TYPE_MAP: { /* docs/contract-language.md §4.12 */
        size_t i = items_index(e, mv->items);
        const char *entry = mv->c_entry_type ? mv->c_entry_type : "?";
        if (v->pattern) {
            const cc_table_dfa_t *d = cc_tables_dfa(e->t, mv);
            cc_buf_printf(b, "%s    .pattern = &%s,\n", indent, d ? d->ident : "?");
        }
        cc_buf_printf(b, "%s    .items = &%s,\n", indent, i == (size_t)-1 ? "?" : e->t->items[i].ident);
        cc_buf_printf(b, "%s    .min_items = ", indent);
        put_u32(b, v->min_items);
        cc_buf_puts(b, ", .max_items = ");
        put_u32(b, v->max_items);
        cc_buf_printf(b, ",\n%s    .item_size = sizeof(%s), .item_align = CONTRACTC_ALIGNOF(%s),\n",
                      indent, entry, entry);
        break;
    }
    default:
        break;
    }
    if (v->example) {
        cc_buf_printf(b, "%s    .example = ", indent);
        c_literal(b, v->example);
        cc_buf_puts(b, ",\n");
    }
    if (v->minimum_text) {
        cc_buf_printf(b, "%s    .minimum_text = ", indent);
        c_literal(b, v->minimum_text);
        cc_buf_puts(b, ",\n");
    }
    if (v->maximum_text) {
        cc_buf_printf(b, "%s    .maximum_text = ", indent);
        c_literal(b, v->maximum_text);
        cc_buf_puts(b, ",\n");
    }
    /* drop the last ",\n" for a tidy closing brace */
    if (b->len >= 2 && b->data[b->len - 2] == ',') {
        b->len -= 2;
        b->data[b->len] = '\0';
        cc_buf_putc(b, '\n');
    }
    cc_buf_printf(b, "%s}", indent);
}

static void emit_items_table(emit_t *e, const cc_value_t *items)
{
    size_t i = items_index(e, items);
    if (i == (size_t)-1 || e->items_done[i])
        return;
    e->items_done[i] = true;
    emit_value_deps(e, items);
    cc_buf_printf(&e->tables, "\n/* %s: %s */\nstatic const contractc_value_t %s = ",
                  e->t->items[i].map_values ? "map values" : "array items",
                  cc_type_name(items->type), e->t->items[i].ident);
    emit_value_init(e, &e->tables, items, e->t->items[i].table, "");
    cc_buf_puts(&e->tables, ";\n");
}

static const char *op_name(contractc_compare_op_t op)
{
    switch (op) {
    case CONTRACTC_OP_LT: return "CONTRACTC_OP_LT";
    case CONTRACTC_OP_LE: return "CONTRACTC_OP_LE";
    case CONTRACTC_OP_EQ: return "CONTRACTC_OP_EQ";
    case CONTRACTC_OP_NE: return "CONTRACTC_OP_NE";
    case CONTRACTC_OP_GE: return "CONTRACTC_OP_GE";
    case CONTRACTC_OP_GT: return "CONTRACTC_OP_GT";
    }
    return "0";
}

static const char *rule_kind_name(contractc_rule_kind_t k)
{
    switch (k) {
    case CONTRACTC_RULE_ALL_OR_NONE: return "CONTRACTC_RULE_ALL_OR_NONE";
    case CONTRACTC_RULE_AT_MOST_ONE: return "CONTRACTC_RULE_AT_MOST_ONE";
    case CONTRACTC_RULE_EXACTLY_ONE: return "CONTRACTC_RULE_EXACTLY_ONE";
    case CONTRACTC_RULE_SUM: return "CONTRACTC_RULE_SUM";
    case CONTRACTC_RULE_COMPARE: return "CONTRACTC_RULE_COMPARE";
    case CONTRACTC_RULE_CHECK: return "CONTRACTC_RULE_CHECK";
    }
    return "0";
}

static void put_field_index(cc_buf_t *b, uint16_t i)
{
    if (i == CONTRACTC_NO_FIELD)
        cc_buf_puts(b, "CONTRACTC_NO_FIELD");
    else
        cc_buf_printf(b, "%u", (unsigned)i);
}

static void emit_rules(emit_t *e, const cc_table_object_t *to)
{
    cc_buf_t *b = &e->tables;
    const cc_object_t *o = to->model;
    const char *id = to->ident;
    for (size_t i = 0; i < o->rule_count; i++) {
        const cc_rule_t *mr = &o->rules[i];
        if (mr->kind == CC_RULE_CHECK) {
            /* The user's function takes the typed struct; the runtime calls
             * through a pointer to const void, so a thunk converts. */
            cc_buf_printf(b, "\nstatic void %s_check%zu_(const void *object, contractc_check_t *check)\n{\n"
                             "    %s((const %s *)object, check);\n}\n",
                          id, i, mr->function, o->c_type);
        } else if (to->rules[i].fields) {
            cc_buf_printf(b, "\nstatic const uint16_t %s_rule%zu_fields[%" PRIu32 "] = {", id, i,
                          to->rules[i].field_count);
            for (uint32_t k = 0; k < to->rules[i].field_count; k++)
                cc_buf_printf(b, "%s%u", k ? ", " : " ", (unsigned)to->rules[i].fields[k]);
            cc_buf_puts(b, " };\n");
        }
    }
    cc_buf_printf(b, "\nstatic const contractc_rule_t %s_rules[%zu] = {\n", id, o->rule_count);
    for (size_t i = 0; i < o->rule_count; i++) {
        const contractc_rule_t *r = &to->rules[i];
        const cc_rule_t *mr = &o->rules[i];
        cc_buf_printf(b, "    { /* rules[%zu] */\n        .kind = %s,\n        .id = ", i, rule_kind_name(r->kind));
        c_literal(b, r->id);
        cc_buf_puts(b, ",\n");
        switch (r->kind) {
        case CONTRACTC_RULE_ALL_OR_NONE:
        case CONTRACTC_RULE_AT_MOST_ONE:
        case CONTRACTC_RULE_EXACTLY_ONE:
            cc_buf_printf(b, "        .fields = %s_rule%zu_fields, .field_count = %" PRIu32 ",\n", id, i,
                          r->field_count);
            break;
        case CONTRACTC_RULE_SUM:
            cc_buf_puts(b, "        .sum_array = ");
            put_field_index(b, r->sum_array);
            cc_buf_puts(b, ", .sum_item = ");
            put_field_index(b, r->sum_item);
            cc_buf_puts(b, ", .sum_total = ");
            put_field_index(b, r->sum_total);
            cc_buf_puts(b, ",\n        .tolerance = ");
            put_int64(b, r->tolerance);
            cc_buf_puts(b, ",\n");
            break;
        case CONTRACTC_RULE_COMPARE:
            cc_buf_puts(b, "        .left = ");
            put_field_index(b, r->left);
            cc_buf_printf(b, ", .op = %s, .right = ", op_name(r->op));
            put_field_index(b, r->right);
            cc_buf_puts(b, ",\n");
            break;
        case CONTRACTC_RULE_CHECK:
            cc_buf_printf(b, "        .check = %s_check%zu_, /* %s */\n", id, i, mr->function);
            break;
        }
        cc_buf_puts(b, "        .message = ");
        c_literal(b, r->message);
        cc_buf_printf(b, "\n    }%s\n", i + 1 < o->rule_count ? "," : "");
    }
    cc_buf_puts(b, "};\n");
}

static void emit_object_tables(emit_t *e, size_t index)
{
    if (e->object_done[index])
        return;
    e->object_done[index] = true;
    const cc_table_object_t *to = &e->t->objects[index];
    const cc_object_t *o = to->model;
    for (size_t i = 0; i < o->field_count; i++)
        emit_value_deps(e, &o->fields[i].value);
    cc_buf_t *b = &e->tables;
    const char *id = to->ident;
    const char *ct = o->c_type;
    cc_buf_printf(b, "\n/* %s: %zu field%s */\nstatic const contractc_field_t %s_fields[%zu] = {\n", ct,
                  o->field_count, o->field_count == 1 ? "" : "s", id,
                  o->field_count ? o->field_count : (size_t)1);
    for (size_t i = 0; i < o->field_count; i++) {
        const cc_field_t *mf = &o->fields[i];
        const contractc_field_t *f = &to->fields[i];
        cc_buf_printf(b, "    { /* field[%zu] = ", i);
        comment_text(b, mf->name);
        cc_buf_puts(b, " */\n        .name = ");
        c_literal(b, f->name);
        cc_buf_printf(b, ", .name_len = %" PRIu32 ", .path_segment = ", f->name_len);
        c_literal(b, f->path_segment);
        cc_buf_printf(b, ",\n        .nullable = %s,\n        .value = ", f->nullable ? "true" : "false");
        emit_value_init(e, b, &mf->value, &f->value, "        ");
        cc_buf_printf(b, ",\n        .offset = offsetof(%s, %s),\n        .has_offset = ", ct, mf->c_member);
        if (f->has_offset == CONTRACTC_ABSENT)
            cc_buf_puts(b, "CONTRACTC_ABSENT");
        else
            cc_buf_printf(b, "offsetof(%s, has_%s)", ct, mf->c_member);
        cc_buf_puts(b, ",\n        .aux_offset = ");
        if (f->aux_offset == CONTRACTC_ABSENT)
            cc_buf_puts(b, "CONTRACTC_ABSENT");
        else
            cc_buf_printf(b, "offsetof(%s, %s_%s)", ct, mf->c_member,
                          cc_type_has_len(mf->value.type) ? "len" : "count");
        if (e->t->contract.abi >= 2) { /* ABI 2's members (contractc.h) */
            cc_buf_printf(b, ",\n        .optional = %s, .null_offset = ",
                          f->optional ? "true" : "false");
            if (f->null_offset == CONTRACTC_ABSENT)
                cc_buf_puts(b, "CONTRACTC_ABSENT");
            else
                cc_buf_printf(b, "offsetof(%s, %s_null)", ct, mf->c_member);
        }
        cc_buf_printf(b, "\n    }%s\n", i + 1 < o->field_count ? "," : "");
    }
    cc_buf_puts(b, "};\n");
    cc_buf_printf(b, "\n/* key lookup: field indexes sorted by (length, bytes) */\n"
                     "static const uint16_t %s_lookup[%zu] = {",
                  id, o->field_count ? o->field_count : (size_t)1);
    for (size_t i = 0; i < o->field_count; i++)
        cc_buf_printf(b, "%s%u", i ? ", " : " ", (unsigned)to->lookup[i]);
    cc_buf_puts(b, o->field_count ? " };\n" : " 0 };\n");
    if (o->rule_count)
        emit_rules(e, to);
    cc_buf_printf(b, "\nstatic const contractc_object_t %s_object = {\n    .name = \"%s\",\n", id, ct);
    cc_buf_printf(b, "    .fields = %s_fields, .field_count = %zu,\n    .lookup = %s_lookup,\n", id,
                  o->field_count, id);
    if (o->rule_count)
        cc_buf_printf(b, "    .rules = %s_rules, .rule_count = %zu,\n", id, o->rule_count);
    cc_buf_printf(b, "    .size = sizeof(%s), .align = CONTRACTC_ALIGNOF(%s)\n};\n", ct, ct);
}

/* ---- texts ---------------------------------------------------------------- */

/* C99's minimum supported length of a string literal (5.2.4.1), and the
 * most source bytes one literal of a text line takes before it is wrapped
 * (a logical source line has the same minimum). */
#define TEXT_LITERAL_MAX 4095u
#define TEXT_CHUNK_MAX 1024u

/* One byte as a character constant, escaped as in a string literal (octal
 * for bytes outside printable ASCII: -Wpedantic-clean for signed char). */
static void char_constant(cc_buf_t *b, unsigned char c)
{
    cc_buf_putc(b, '\'');
    if (c == '\'')
        cc_buf_puts(b, "\\'");
    else
        cc_buf_c_string(b, (const char *)&c, 1);
    cc_buf_putc(b, '\'');
}

/* A text as const char NAME[] with NAME_len (the text's bytes, not counting
 * any NUL).  Up to TEXT_LITERAL_MAX bytes it is a string literal, one
 * literal per text line (long lines wrapped at a code point); a longer text
 * is a character array (a longer literal breaks -Wpedantic), each text line
 * quoted in a comment above its bytes. */
static void emit_text_array(cc_buf_t *b, const char *name, const char *text, size_t len,
                            const char *what)
{
    b->failed |= name == NULL; /* the caller's name buffer ran out of memory */
    if (len <= TEXT_LITERAL_MAX) {
        cc_buf_printf(b, "/* %s, %zu bytes */\nconst char %s[] =", what, len, name);
        if (!len)
            cc_buf_puts(b, " \"\"");
        for (size_t i = 0; i < len;) {
            size_t n = 0;
            while (i + n < len && n < TEXT_CHUNK_MAX && text[i + n++] != '\n')
                ;
            if (text[i + n - 1] != '\n')
                while (i + n < len && ((unsigned char)text[i + n] & 0xC0) == 0x80)
                    n++; /* never split a UTF-8 sequence */
            cc_buf_puts(b, "\n    \"");
            cc_buf_c_string(b, text + i, n);
            cc_buf_putc(b, '"');
            i += n;
        }
        cc_buf_printf(b, ";\nconst size_t %s_len = %zu;\n", name, len);
        return;
    }
    cc_buf_printf(b, "/* %s, %zu bytes */\nconst char %s[%zu] = {\n", what, len, name, len);
    size_t line_start = 0;
    for (size_t i = 0; i < len; i++) {
        if (i == line_start) {
            const char *nl = memchr(text + i, '\n', len - i);
            size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
            char *line = cc_strndup(text + i, n);
            b->failed |= line == NULL;
            cc_buf_puts(b, "    /* ");
            comment_text(b, line);
            cc_buf_puts(b, nl ? "\\n */\n" : " */\n");
            free(line);
        }
        if ((i - line_start) % 16 == 0)
            cc_buf_puts(b, "   ");
        cc_buf_putc(b, ' ');
        char_constant(b, (unsigned char)text[i]);
        cc_buf_putc(b, ',');
        if (text[i] == '\n' || (i + 1 - line_start) % 16 == 0 || i + 1 == len)
            cc_buf_putc(b, '\n');
        if (text[i] == '\n')
            line_start = i + 1;
    }
    cc_buf_printf(b, "};\nconst size_t %s_len = %zu;\n", name, len);
}

/* ---- entry --------------------------------------------------------------- */

static void dialect_ident(cc_buf_t *b, const char *name, const char *dialect)
{
    cc_buf_printf(b, "%s_schema_", name);
    for (const char *p = dialect; *p; p++)
        cc_buf_putc(b, *p == '-' ? '_' : *p);
    cc_buf_puts(b, "_json");
}

bool cc_emit_c(const cc_contract_t *m, const cc_tables_t *t, const cc_c_inputs_t *in,
               char **header, size_t *header_len, char **source, size_t *source_len)
{
    *header = *source = NULL;
    emit_t e;
    memset(&e, 0, sizeof e);
    e.m = m;
    e.t = t;
    e.object_done = calloc(t->object_count + 1, sizeof(bool));
    e.object_typed = calloc(t->object_count + 1, sizeof(bool));
    e.items_done = calloc(t->item_count + 1, sizeof(bool));
    e.items_typed = calloc(t->item_count + 1, sizeof(bool));
    cc_buf_t texts = CC_BUF_INIT, decls = CC_BUF_INIT, hb = CC_BUF_INIT, sb = CC_BUF_INIT;
    cc_buf_t enum_functions = CC_BUF_INIT, enum_doc = CC_BUF_INIT;
    char *guard = NULL, *upname = cc_upper(m->name);
    bool ok = e.object_done && e.object_typed && e.items_done && e.items_typed && upname;
    if (ok) {
        for (size_t i = 0; i < t->enum_count; i++)
            emit_enum_type(&e, &t->enums[i]);
        emit_object_type(&e, 0);
        cc_buf_putc(&e.types, '\n');

        /* user checks */
        for (size_t i = 0; i < t->object_count; i++) {
            const cc_object_t *o = t->objects[i].model;
            for (size_t k = 0; k < o->rule_count; k++) {
                const cc_rule_t *r = &o->rules[k];
                if (r->kind != CC_RULE_CHECK)
                    continue;
                if (e.checks.len == 0)
                    cc_buf_puts(&e.checks, "\n/* ---- checks you write ------------------------------------------------------ */\n");
                cc_buf_printf(&e.checks, "\n/* Rule %s: ", r->id);
                comment_text(&e.checks, r->message);
                cc_buf_printf(&e.checks, "\n * Runs on a record with no other problem, %s; report with\n"
                                         " * contractc_check_fail(check, message).  You define it. */\n",
                              i == 0 ? "once" : "once per object of this type");
                cc_buf_printf(&e.checks, "void %s(const %s *%s, contractc_check_t *check);\n", r->function,
                              o->c_type, i == 0 ? "record" : "item");
            }
        }

        for (size_t i = 0; i < t->dfa_count; i++)
            emit_dfa(&e, &t->dfas[i]);
        for (size_t i = 0; i < t->enum_count; i++) {
            emit_enum_table(&e, &t->enums[i]);
            cc_buf_printf(&e.tables, "CONTRACTC_STATIC_ASSERT(sizeof(%s) == sizeof(int), %s_is_int_);\n",
                          t->enums[i].model->c_type, t->enums[i].ident);
        }
        emit_object_tables(&e, 0);
        if (t->enum_count)
            cc_buf_puts(&enum_functions, "\n/* ---- enum names (the parser does not use them) --------------------------- */\n");
        for (size_t i = 0; i < t->enum_count; i++)
            emit_enum_functions(&enum_functions, &t->enums[i]);

        cc_buf_t nb = CC_BUF_INIT;
        cc_buf_printf(&nb, "%s_prompt", m->name);
        emit_text_array(&texts, nb.data, in->prompt, in->prompt_len, "the prompt (NAME.prompt.txt)");
        cc_buf_free(&nb);
        cc_buf_puts(&texts, "\n");
        cc_buf_printf(&nb, "%s_schema_json", m->name);
        emit_text_array(&texts, nb.data, in->schema, in->schema_len, "the JSON Schema (NAME.schema.json)");
        cc_buf_free(&nb);
        for (size_t i = 0; i < in->dialect_count; i++) {
            dialect_ident(&nb, m->name, in->dialects[i].dialect);
            cc_buf_puts(&texts, "\n");
            emit_text_array(&texts, nb.data, in->dialects[i].schema, in->dialects[i].schema_len,
                            in->dialects[i].dialect);
            cc_buf_printf(&decls, "\n/* The %s dialect of the schema. */\nextern const char %s[];\nextern const size_t %s_len;\n",
                          in->dialects[i].dialect, nb.data, nb.data);
            cc_buf_free(&nb);
        }
        if (in->gbnf) {
            /* generate --grammar gbnf (docs/grammar.md) */
            cc_buf_printf(&nb, "%s_gbnf", m->name);
            cc_buf_puts(&texts, "\n");
            emit_text_array(&texts, nb.data, in->gbnf, in->gbnf_len, "the GBNF grammar (NAME.gbnf)");
            cc_buf_printf(&decls, "\n/* The GBNF grammar (NAME.gbnf), root rule `root`. */\nextern const char %s[];\nextern const size_t %s_len;\n",
                          nb.data, nb.data);
            cc_buf_free(&nb);
        }
        for (size_t i = 0; i < in->tool_count; i++) {
            /* generate --tool D (docs/tools.md): NAME.D.tool.json */
            cc_buf_printf(&nb, "%s_tool_%s_json", m->name, in->tools[i].dialect);
            cc_buf_puts(&texts, "\n");
            emit_text_array(&texts, nb.data, in->tools[i].schema, in->tools[i].schema_len,
                            "the tool definition (NAME.D.tool.json)");
            cc_buf_printf(&decls, "\n/* The %s tool definition (NAME.%s.tool.json, docs/tools.md). */\n"
                                  "extern const char %s[];\nextern const size_t %s_len;\n",
                          in->tools[i].dialect, in->tools[i].dialect, nb.data, nb.data);
            cc_buf_free(&nb);
        }
        cc_buf_printf(&decls, "\n/* The schema dialects generated with this file (NULL-terminated). */\n"
                              "extern const char *const %s_dialects[];\n", m->name);
        cc_buf_printf(&texts, "\nconst char *const %s_dialects[] = {", m->name);
        for (size_t i = 0; i < in->dialect_count; i++)
            cc_buf_printf(&texts, " \"%s\",", in->dialects[i].dialect);
        cc_buf_puts(&texts, " NULL };\n");

        size_t glen = strlen(upname) + 3;
        guard = malloc(glen);
        if (guard)
            snprintf(guard, glen, "%s_H", upname);
        char version[16], abi[16], max_bytes[32], max_depth[16], factor[16], base[16];
        snprintf(version, sizeof version, "%" PRIu32, m->version);
        snprintf(abi, sizeof abi, "%u", (unsigned)t->contract.abi);
        snprintf(max_bytes, sizeof max_bytes, "%" PRIu64, m->max_bytes);
        snprintf(max_depth, sizeof max_depth, "%" PRIu32, m->max_depth);
        snprintf(factor, sizeof factor, "%" PRIu32, t->contract.arena_factor);
        snprintf(base, sizeof base, "%" PRIu32, t->contract.arena_base);
        cc_buf_t source_name = CC_BUF_INIT, description = CC_BUF_INIT, source_doc = CC_BUF_INIT;
        c_literal(&source_name, t->contract.source_name);
        comment_text(&description, m->description ? m->description : m->name);
        if (m->has_source) {
            cc_buf_printf(&source_doc, "\n * `source` (source_len bytes of UTF-8, at most 4 MiB) is ");
            comment_text(&source_doc, t->contract.source_name);
            cc_buf_puts(&source_doc, ": grounded values\n * must occur in it verbatim.  It is required.");
        } else {
            cc_buf_puts(&source_doc, "\n * This contract has no source text: pass NULL, 0.");
        }
        if (t->enum_count)
            cc_buf_printf(&enum_doc, "\n *\n * Each enum type E_t comes with E_name() (a value's text, as the contract\n"
                                     " * writes it) and E_from_name() (the value of a text), e.g.\n"
                                     " * %s() and %s().",
                          t->enums[0].model->c_name_function, t->enums[0].model->c_from_name_function);
        const char *keys[] = {"file", "version", "contract_file", "name", "contract_version",
                              "hash", "description", "guard", "abi", "types", "checks",
                              "dialect_decls", "tables", "texts", "max_bytes", "max_depth",
                              "fence_allowed", "needs_source", "source_name", "arena_factor",
                              "arena_base", "source_doc", "enum_functions", "enum_doc",
                              "includes"};
        const char *values[] = {m->name, CONTRACTC_VERSION, m->file_name, m->name, version,
                                in->hash, description.data ? description.data : "",
                                guard ? guard : "", abi,
                                e.types.data ? e.types.data : "", e.checks.data ? e.checks.data : "",
                                decls.data ? decls.data : "", e.tables.data ? e.tables.data : "",
                                texts.data ? texts.data : "", max_bytes, max_depth,
                                m->fence == CC_FENCE_ALLOW ? "true" : "false",
                                m->has_source ? "true" : "false",
                                source_name.data ? source_name.data : "NULL", factor, base,
                                source_doc.data ? source_doc.data : "",
                                enum_functions.data ? enum_functions.data : "",
                                enum_doc.data ? enum_doc.data : "",
                                t->enum_count ? "#include <string.h> /* memcmp */\n" : ""};
        size_t n = sizeof keys / sizeof keys[0];
        ok = guard && !e.types.failed && !e.tables.failed && !texts.failed && !decls.failed &&
             !e.checks.failed && !source_name.failed && !description.failed && !source_doc.failed &&
             !enum_functions.failed && !enum_doc.failed &&
             cc_render_template("header.h.tmpl", keys, values, n, &hb) &&
             cc_render_template("source.c.tmpl", keys, values, n, &sb);
        cc_buf_free(&source_name);
        cc_buf_free(&description);
        cc_buf_free(&source_doc);
    }
    if (ok) {
        *header = cc_buf_take(&hb, header_len);
        *source = cc_buf_take(&sb, source_len);
        ok = *header && *source;
    }
    if (!ok) {
        free(*header);
        free(*source);
        *header = *source = NULL;
    }
    cc_buf_free(&hb);
    cc_buf_free(&sb);
    cc_buf_free(&texts);
    cc_buf_free(&decls);
    cc_buf_free(&enum_functions);
    cc_buf_free(&enum_doc);
    cc_buf_free(&e.types);
    cc_buf_free(&e.checks);
    cc_buf_free(&e.tables);
    free(e.object_done);
    free(e.object_typed);
    free(e.items_done);
    free(e.items_typed);
    free(guard);
    free(upname);
    return ok;
}
