/* SPDX-License-Identifier: MIT */
/*
 * naming.c - every generated C name of a contract, in one place (stages.h:
 * cc_name_contract), the pipeline's third stage; after nanopb's naming and
 * reserved-word handling.
 *
 * The rules (docs/contract-language.md §7, "Generated C surface"):
 *   record              NAME_t             (struct tag NAME)
 *   named type T        NAME_T_t           (struct tag NAME_T)
 *   inline object/enum  the path of field names from its nearest named
 *                       owner: NAME_F_t, NAME_T_F_t, NAME_F_G_t; an array's
 *                       items take the array field's name
 *   enum constants      the type name without _t, in capitals, + '_' + the
 *                       value with every character outside [A-Za-z0-9]
 *                       mapped to '_' (one per code point), in capitals;
 *                       PREFIX_NONE = 0 is reserved for null
 *   enum functions      the type name without _t + "_name" and +
 *                       "_from_name" (checked with the type names: C
 *                       puts functions and typedef names in one namespace)
 *   C members           the field's stem, or stem_ for a C/C++ keyword (a
 *                       note); a nullable or optional field adds has_X, a
 *                       field both nullable and optional X_null, a string
 *                       X_len, an array X_count; the record adds arena_.
 *                       The stem (docs/contract-language.md §4.9) is
 *                       `c_name:` when written, else the key when it is an
 *                       identifier (every v1 key), else the key with every
 *                       byte outside [A-Za-z0-9_] as '_' and "f_" in front
 *                       unless it then starts with a letter; inline types
 *                       and enums take the stem too
 *   c_name of a value   {value: V, c_name: X}: the constant PREFIX_X
 *
 * A generated name that is a name of the standard headers, or otherwise
 * reserved (reserved.h), is an error at its place with the C spelling and
 * what to rename (docs/contract-language.md, "Names that can never be
 * generated").
 *
 * C puts every enum constant of a translation unit in one namespace, and
 * every struct tag in another, so collisions are looked for across the
 * whole contract: type names together, enum constants together, members
 * per struct.  Each list is sorted (n log n: a contract may have thousands
 * of names) and an equal neighbour is an error at the later position with
 * a note at the earlier one.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexical.h"
#include "reserved.h"
#include "stages.h"
#include "text.h"

/* ---- collision lists -------------------------------------------------- */

typedef struct name_entry {
    char *name;          /* the C spelling (owned) */
    char *what;          /* "field 'x'", "the null flag of field 'x'" (owned) */
    const char *value;   /* enum entries: the value as written (borrowed) */
    cc_mark_t mark;
    bool fixed;          /* no location of its own (arena_, PREFIX_NONE) */
    size_t seq;
    char *fix;           /* how c_name: renames it, for the error (owned); NULL: none */
} name_entry_t;

typedef struct name_list {
    name_entry_t *items;
    size_t count, capacity;
    bool oom;
} name_list_t;

typedef struct namer {
    cc_contract_t *c;
    cc_diags_t *d;
    const char *path;
    bool oom;
    bool prefix_refused; /* the contract name is reserved as a prefix: every name
                            derived from it would be too, so only it is reported */
    name_list_t types, constants;
} namer_t;

static char *fmt(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static char *fmt(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, format, ap);
    va_end(ap);
    char *s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, format, ap2);
    va_end(ap2);
    return s;
}

/* Adds an entry; takes ownership of name and what (even on failure). */
static void list_add(name_list_t *l, char *name, char *what, const char *value, cc_mark_t mark,
                     bool fixed)
{
    if (!name || !what || l->oom) {
        free(name);
        free(what);
        l->oom = true;
        return;
    }
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? l->capacity * 2 : 16;
        name_entry_t *p = realloc(l->items, cap * sizeof *p);
        if (!p) {
            free(name);
            free(what);
            l->oom = true;
            return;
        }
        l->items = p;
        l->capacity = cap;
    }
    name_entry_t *e = &l->items[l->count];
    e->name = name;
    e->what = what;
    e->value = value;
    e->mark = mark;
    e->fixed = fixed;
    e->seq = l->count;
    e->fix = NULL;
    l->count++;
}

/* Sets the c_name: advice of the entry list_add added last (takes fix). */
static void list_fix_last(name_list_t *l, char *fix)
{
    if (l->oom || l->count == 0 || !fix) {
        free(fix);
        l->oom |= fix == NULL;
        return;
    }
    free(l->items[l->count - 1].fix);
    l->items[l->count - 1].fix = fix;
}

static void list_free(name_list_t *l)
{
    for (size_t i = 0; i < l->count; i++) {
        free(l->items[i].name);
        free(l->items[i].what);
        free(l->items[i].fix);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* Equal names together; within them, fixed entries first, then by position. */
static int compare_entries(const void *a, const void *b)
{
    const name_entry_t *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    if (r)
        return r;
    if (x->fixed != y->fixed)
        return x->fixed ? -1 : 1;
    if (x->mark.line != y->mark.line)
        return x->mark.line < y->mark.line ? -1 : 1;
    if (x->mark.column != y->mark.column)
        return x->mark.column < y->mark.column ? -1 : 1;
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

static bool differ_in_case_only(const char *a, const char *b)
{
    if (strcmp(a, b) == 0 || strlen(a) != strlen(b))
        return false;
    for (; *a; a++, b++)
        if (toupper((unsigned char)*a) != toupper((unsigned char)*b))
            return false;
    return true;
}

/* Reports every entry equal to an earlier one. */
static void report_collisions(namer_t *N, name_list_t *l)
{
    if (l->oom) {
        N->oom = true;
        return;
    }
    if (l->count > 1) /* qsort's pointer must not be NULL, even for 0 items */
        qsort(l->items, l->count, sizeof *l->items, compare_entries);
    size_t first = 0;
    for (size_t i = 1; i < l->count; i++) {
        if (strcmp(l->items[i].name, l->items[first].name) != 0) {
            first = i;
            continue;
        }
        const name_entry_t *e = &l->items[i], *f = &l->items[first];
        const char *fix = e->fix ? e->fix : f->fix;
        if (f->fixed) {
            cc_error(N->d, N->path, e->mark, "the C name '%s' of %s collides with %s%s%s", e->name,
                     e->what, f->what, fix ? "; " : "", fix ? fix : "");
            continue;
        }
        cc_error(N->d, N->path, e->mark, "the C name '%s' of %s collides with that of %s%s%s",
                 e->name, e->what, f->what, fix ? "; " : "", fix ? fix : "");
        if (e->value && f->value && differ_in_case_only(e->value, f->value))
            cc_diag_related(N->d, N->path, f->mark,
                            "%s is here; the values differ only in case, and C constants "
                            "are in capitals", f->what);
        else
            cc_diag_related(N->d, N->path, f->mark, "%s is here", f->what);
    }
}

/* ---- reserved names ----------------------------------------------------- */

/* Reports `c_name`, the C name of `what` at `at`, when it is reserved for
 * `use`; `fix` says what to rename ("rename the field").  True if it did. */
static bool refuse_reserved(namer_t *N, const char *c_name, cc_c_use_t use, const char *what,
                            cc_mark_t at, const char *fix)
{
    char why[160];
    if (!c_name || (N->prefix_refused && use != CC_C_MEMBER))
        return false;
    if (!cc_reserved_c_name(c_name, use, why, sizeof why))
        return false;
    cc_error(N->d, N->path, at, "the C name '%s' of %s is %s; %s", c_name, what, why, fix);
    return true;
}

/* The names the contract name alone gives (docs/contract-language.md,
 * "Generated C surface"): the record's struct tag and type, the entry
 * points, the texts and the header guard. */
static const struct {
    const char *suffix;
    cc_c_use_t use;
    const char *kind;
} contract_names[] = {
    {"", CC_C_TAG, "struct tag"},
    {"_t", CC_C_ORDINARY, "type"},
    {"_parse", CC_C_ORDINARY, "function"},
    {"_free", CC_C_ORDINARY, "function"},
    {"_to_json", CC_C_ORDINARY, "function"},
    {"_repair_prompt", CC_C_ORDINARY, "function"},
    {"_contract", CC_C_ORDINARY, "variable"},
    {"_prompt", CC_C_ORDINARY, "variable"},
    {"_prompt_len", CC_C_ORDINARY, "variable"},
    {"_schema_json", CC_C_ORDINARY, "variable"},
    {"_schema_json_len", CC_C_ORDINARY, "variable"},
    {"_dialects", CC_C_ORDINARY, "variable"},
    {"_contract_hash", CC_C_ORDINARY, "variable"},
    {"_H", CC_C_ORDINARY, "header guard macro"},
};

/* Refuses a contract name whose header would hide a standard one, or any
 * of whose own C names is reserved; one error, the first reason found. */
static void check_contract_name(namer_t *N)
{
    const char *name = N->c->name;
    cc_mark_t at = N->c->name_mark;
    if (cc_shadows_header(name)) {
        cc_error(N->d, N->path, at,
                 "contract name '%s' gives the header '%s.h', which would hide the standard "
                 "<%s.h> wherever the generated directory is on the include path; choose "
                 "another name, such as '%s_reply'", name, name, name, name);
        return;
    }
    for (size_t i = 0; i < sizeof contract_names / sizeof contract_names[0]; i++) {
        char why[160];
        char *c_name = fmt("%s%s", name, contract_names[i].suffix);
        if (!c_name) {
            N->oom = true;
            return;
        }
        if (contract_names[i].suffix[0] == '_' && contract_names[i].suffix[1] == 'H')
            for (char *p = c_name; *p; p++)
                *p = (char)toupper((unsigned char)*p);
        if (!cc_reserved_c_name(c_name, contract_names[i].use, why, sizeof why)) {
            free(c_name);
            continue;
        }
        if (cc_has_runtime_prefix(name)) {
            /* contractc_record: suggest the name without the prefix */
            const char *rest = name + 9;
            while (*rest == '_')
                rest++;
            N->prefix_refused = true;
            if (*rest >= 'a' && *rest <= 'z')
                cc_error(N->d, N->path, at, "contract name '%s' is %s; choose another name, such "
                         "as '%s'", name, why, rest);
            else
                cc_error(N->d, N->path, at, "contract name '%s' is %s; choose another name",
                         name, why);
        } else {
            cc_error(N->d, N->path, at, "contract name '%s' gives the C %s '%s', which is %s; "
                     "choose another name, such as '%s_reply'", name, contract_names[i].kind,
                     c_name, why, name);
        }
        free(c_name);
        return;
    }
}

/* ---- names ------------------------------------------------------------ */

static char *upper(const char *s)
{
    char *u = cc_strdup(s);
    if (u)
        for (char *p = u; *p; p++)
            *p = (char)toupper((unsigned char)*p);
    return u;
}

/* The value part of an enum constant: [A-Za-z0-9] in capitals, anything
 * else '_' once per code point (UTF-8 continuation bytes add nothing). */
static char *mangle(const char *value)
{
    size_t n = strlen(value);
    char *m = malloc(n + 1);
    if (!m)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)value[i];
        if ((ch & 0xC0) == 0x80)
            continue;
        m[k++] = isalnum(ch) && ch < 0x80 ? (char)toupper(ch) : '_';
    }
    m[k] = '\0';
    return m;
}

/* "field 'x'" or "field 'x' of type 'T'" ("field ['e-mail']": see
 * cc_diag_quote) */
static char *field_what(const char *path, const char *type_name)
{
    const char *q = cc_diag_quote(path);
    return type_name ? fmt("field %s%s%s of type '%s'", q, path, q, type_name)
                     : fmt("field %s%s%s", q, path, q);
}

/* Names an enum: `what` says which ("field 'x'", "type 'T'"), `fix` what
 * to rename when one of its names is reserved. */
static void name_enum(namer_t *N, cc_enum_t *e, const char *base, const char *what,
                      cc_mark_t at, const char *fix)
{
    e->c_type = fmt("%s_t", base);
    e->c_prefix = upper(base);
    e->c_name_function = fmt("%s_name", base);
    e->c_from_name_function = fmt("%s_from_name", base);
    if (!e->c_type || !e->c_prefix || !e->c_name_function || !e->c_from_name_function) {
        N->oom = true;
        return;
    }
    if (!refuse_reserved(N, base, CC_C_TAG, what, at, fix)) /* once for the two */
        refuse_reserved(N, e->c_type, CC_C_ORDINARY, what, at, fix);
    list_add(&N->types, cc_strdup(e->c_type), cc_strdup(what), NULL, at, false);
    if (!e->named) /* an inline enum is named after its field */
        list_fix_last(&N->types, fmt("write c_name: on %s to choose another C name", what));
    /* Functions share the ordinary identifiers with the typedef names. */
    list_add(&N->types, cc_strdup(e->c_name_function), fmt("the name function of %s", what),
             NULL, at, false);
    list_add(&N->types, cc_strdup(e->c_from_name_function),
             fmt("the from_name function of %s", what), NULL, at, false);
    char *none = fmt("%s_NONE", e->c_prefix);
    char *none_what = fmt("the null constant of %s", what);
    if (none && none_what)
        refuse_reserved(N, none, CC_C_ORDINARY, none_what, at, fix);
    list_add(&N->constants, none, none_what, NULL, at, true);
    if (e->count == 0)
        return;
    e->c_constants = calloc(e->count, sizeof *e->c_constants);
    if (!e->c_constants) {
        N->oom = true;
        return;
    }
    for (size_t i = 0; i < e->count; i++) {
        const char *chosen = e->c_names ? e->c_names[i] : NULL;
        char *m = chosen ? cc_strdup(chosen) : mangle(e->values[i]);
        if (!m) {
            N->oom = true;
            return;
        }
        e->c_constants[i] = fmt("%s_%s", e->c_prefix, m);
        if (!e->c_constants[i]) {
            free(m);
            N->oom = true;
            return;
        }
        cc_mark_t vat = chosen ? e->c_name_marks[i] : e->value_marks[i];
        if (*m == '\0') {
            cc_error(N->d, N->path, e->value_marks[i],
                     "the empty enum value of %s has no C constant (it would be '%s'); write it "
                     "as {value: \"\", c_name: EMPTY} to name its constant", what,
                     e->c_constants[i]);
        } else if (strcmp(m, "NONE") == 0) {
            cc_error(N->d, N->path, vat,
                     "enum value '%s' of %s gives the C constant '%s', which is reserved for "
                     "null%s", e->values[i], what, e->c_constants[i],
                     chosen ? "; choose another c_name" : "");
        } else {
            char *vw = fmt("enum value '%s' of %s", e->values[i], what);
            if (vw)
                refuse_reserved(N, e->c_constants[i], CC_C_ORDINARY, vw, vat,
                                chosen ? "choose another c_name" : fix);
            list_add(&N->constants, cc_strdup(e->c_constants[i]), vw, e->values[i], vat, false);
            list_fix_last(&N->constants,
                          chosen ? fmt("choose another c_name for '%s'", e->values[i])
                                 : fmt("write the value as {value: '%s', c_name: NAME} to name "
                                       "its constant", e->values[i]));
        }
        free(m);
    }
}

static void name_object(namer_t *N, cc_object_t *o, const char *base, const char *type_name,
                        const char *path_prefix, bool is_record, cc_mark_t at);
static char *key_stem(const char *key);

/* The names a tagged and a value union share (docs/contract-language.md
 * §4.11, §4.13): the struct "BASE_t" (tag BASE), the kind enum
 * "BASE_kind_t" and its constant BASE_KIND_NONE, each refused when
 * reserved and listed for the collision check.  False when out of memory. */
static bool name_kind_struct(namer_t *N, cc_value_t *v, const char *base, const char *what,
                             cc_mark_t at)
{
    v->c_union_struct = cc_strdup(base);
    v->c_union_type = fmt("%s_t", base);
    v->c_kind_type = fmt("%s_kind_t", base);
    char *kind = fmt("%s_KIND", base);
    v->c_kind_prefix = kind ? upper(kind) : NULL;
    free(kind);
    if (!v->c_union_struct || !v->c_union_type || !v->c_kind_type || !v->c_kind_prefix) {
        N->oom = true;
        return false;
    }
    const char *fix = "rename the field or the contract";
    if (!refuse_reserved(N, v->c_union_struct, CC_C_TAG, what, at, fix))
        refuse_reserved(N, v->c_union_type, CC_C_ORDINARY, what, at, fix);
    refuse_reserved(N, v->c_kind_type, CC_C_ORDINARY, what, at, fix);
    list_add(&N->types, cc_strdup(v->c_union_type), cc_strdup(what), NULL, at, false);
    list_fix_last(&N->types, fmt("write c_name: on %s to choose another C name", what));
    list_add(&N->types, cc_strdup(v->c_kind_type), fmt("the kind enum of %s", what), NULL, at,
             false);
    list_add(&N->constants, fmt("%s_NONE", v->c_kind_prefix),
             fmt("the no-kind constant of %s", what), NULL, at, true);
    return true;
}

/* Names a tagged union (docs/contract-language.md §4.11): its struct
 * "BASE_t", its kind enum "BASE_kind_t" with the constants BASE_KIND_NONE
 * and BASE_KIND_<VALUE> (each tag value spelt as an enum constant), and the
 * members of `as`, each tag value mangled as a field name. */
static void name_union(namer_t *N, cc_value_t *v, const char *base, const char *what,
                       cc_mark_t at)
{
    if (!name_kind_struct(N, v, base, what, at))
        return;
    name_list_t members = {NULL, 0, 0, false};
    for (size_t i = 0; i < v->variant_count && !N->oom; i++) {
        cc_variant_t *var = &v->variants[i];
        char *m = mangle(var->name);
        char *stem = key_stem(var->name);
        if (!m || !stem) {
            free(m);
            free(stem);
            N->oom = true;
            return;
        }
        var->c_constant = fmt("%s_%s", v->c_kind_prefix, m);
        var->c_member = cc_is_c_keyword(stem) ? fmt("%s_", stem) : cc_strdup(stem);
        free(stem);
        if (!var->c_constant || !var->c_member) {
            free(m);
            N->oom = true;
            return;
        }
        char *vw = fmt("variant '%s' of %s", var->name, what);
        if (*m == '\0' || strcmp(m, "NONE") == 0)
            cc_error(N->d, N->path, var->mark,
                     "variant '%s' of %s gives the C constant '%s', which is %s; choose "
                     "another tag value", var->name, what, var->c_constant,
                     *m ? "reserved for no kind" : "not a name");
        else if (vw) { /* as name_enum: the null constant's clash is said once, above */
            refuse_reserved(N, var->c_constant, CC_C_ORDINARY, vw, var->mark,
                            "choose another tag value");
            list_add(&N->constants, cc_strdup(var->c_constant), cc_strdup(vw), var->name,
                     var->mark, false);
        }
        list_add(&members, cc_strdup(var->c_member), vw, NULL, var->mark, false);
        free(m);
    }
    report_collisions(N, &members);
    list_free(&members);
}

/* The member of `as` of a value union's alternative of type t
 * (docs/contract-language.md §4.13): the type's name, `enum_` for enum. */
static const char *alternative_member(contractc_type_t t)
{
    switch (t) {
    case CONTRACTC_TYPE_STRING: return "string";
    case CONTRACTC_TYPE_INTEGER: return "integer";
    case CONTRACTC_TYPE_NUMBER: return "number";
    case CONTRACTC_TYPE_BOOLEAN: return "boolean";
    case CONTRACTC_TYPE_DECIMAL: return "decimal";
    case CONTRACTC_TYPE_DATE: return "date";
    case CONTRACTC_TYPE_DATETIME: return "datetime";
    case CONTRACTC_TYPE_ENUM: return "enum_";
    case CONTRACTC_TYPE_OBJECT: return "object";
    case CONTRACTC_TYPE_ARRAY: return "array";
    case CONTRACTC_TYPE_MAP: return "map";
    default: return "unused_";
    }
}

/* Names a value union (docs/contract-language.md §4.13) as name_union
 * names a tagged union: its struct "BASE_t", its kind enum "BASE_kind_t"
 * with BASE_KIND_NONE and BASE_KIND_<TYPE> per alternative; the members of
 * `as` are the types' names; an inline enum alternative is "BASE_enum_t". */
static void name_value(namer_t *N, cc_value_t *v, const char *base, const char *type_name,
                       const char *path, cc_mark_t at);

static void name_value_union(namer_t *N, cc_value_t *v, const char *base, const char *what,
                             const char *type_name, const char *path, cc_mark_t at)
{
    if (!name_kind_struct(N, v, base, what, at))
        return;
    const char *fix = "rename the field or the contract";
    for (size_t i = 0; i < v->alternative_count && !N->oom; i++) {
        cc_value_t *a = &v->alternatives[i];
        char *type = upper(cc_type_name(a->type));
        a->c_alt_member = alternative_member(a->type);
        a->c_alt_constant = type ? fmt("%s_%s", v->c_kind_prefix, type) : NULL;
        free(type);
        char *aw = fmt("alternative '%s' of %s", cc_type_name(a->type), what);
        if (!a->c_alt_constant || !aw) {
            free(aw);
            N->oom = true;
            return;
        }
        refuse_reserved(N, a->c_alt_constant, CC_C_ORDINARY, aw, a->mark, fix);
        list_add(&N->constants, cc_strdup(a->c_alt_constant), aw, NULL, a->mark, false);
        if (a->type == CONTRACTC_TYPE_ENUM && a->enumeration && !a->type_ref) {
            char *eb = fmt("%s_enum", base);
            if (!eb) {
                N->oom = true;
                return;
            }
            name_enum(N, a->enumeration, eb, what, a->mark, fix);
            free(eb);
        } else if (a->type == CONTRACTC_TYPE_OBJECT && a->object && !a->type_ref) {
            /* an inline object alternative: "BASE_object_t", its fields at
             * the union's path */
            char *ob = fmt("%s_object", base);
            if (!ob) {
                N->oom = true;
                return;
            }
            name_object(N, a->object, ob, type_name, path, false, a->mark);
            free(ob);
        } else if (a->type == CONTRACTC_TYPE_ARRAY && a->items) {
            /* an array alternative: as.array is "BASE_list_t" ({ T *items;
             * size_t count; }); its items are named from "BASE_array" */
            a->c_list_type = fmt("%s_list_t", base);
            char *ab = fmt("%s_array", base);
            char *lw = fmt("the list of %s", what);
            if (!a->c_list_type || !ab || !lw) {
                free(ab);
                free(lw);
                N->oom = true;
                return;
            }
            refuse_reserved(N, a->c_list_type, CC_C_ORDINARY, lw, a->mark, fix);
            list_add(&N->types, cc_strdup(a->c_list_type), lw, NULL, a->mark, false);
            name_value(N, a, ab, type_name, path, a->mark);
            free(ab);
        } else if (a->type == CONTRACTC_TYPE_MAP && a->items) {
            /* a map alternative (docs/contract-language.md §4.12): as.map
             * is "BASE_map_t" ({ BASE_value_entry_t *entries; size_t
             * count; }); its values are named from "BASE_value", as a
             * map's map values are */
            a->c_list_type = fmt("%s_map_t", base);
            char *vb = fmt("%s_value", base);
            char *mw = fmt("the map of %s", what);
            if (!a->c_list_type || !vb || !mw) {
                free(vb);
                free(mw);
                N->oom = true;
                return;
            }
            refuse_reserved(N, a->c_list_type, CC_C_ORDINARY, mw, a->mark, fix);
            list_add(&N->types, cc_strdup(a->c_list_type), mw, NULL, a->mark, false);
            name_value(N, a, vb, type_name, path, a->mark);
            free(vb);
        }
    }
}

/* Names the inline object or enum of a value (a field's, or its items'). */
static void name_value(namer_t *N, cc_value_t *v, const char *base, const char *type_name,
                       const char *path, cc_mark_t at)
{
    if (v->type == CONTRACTC_TYPE_ARRAY && v->items) {
        char *p = fmt("%s[]", path);
        if (!p) {
            N->oom = true;
            return;
        }
        if (v->items->type == CONTRACTC_TYPE_ARRAY && !v->items->c_list_type) {
            /* One inner list of an array of arrays: NAME_F_list_t, and one
             * more "_list" per level ("[][]" in the path). */
            cc_buf_t b = CC_BUF_INIT;
            cc_buf_puts(&b, base);
            for (const char *q = strstr(p, "[]"); q; q = strstr(q + 2, "[]"))
                cc_buf_puts(&b, "_list");
            cc_buf_puts(&b, "_t");
            v->items->c_list_type = cc_buf_take(&b, NULL);
            char *what = v->items->c_list_type ? fmt("the lists of %s", p) : NULL;
            if (!v->items->c_list_type || !what) {
                free(what);
                free(p);
                N->oom = true;
                return;
            }
            refuse_reserved(N, v->items->c_list_type, CC_C_ORDINARY, what, at,
                            "rename the field or the contract");
            list_add(&N->types, cc_strdup(v->items->c_list_type), what, NULL, at, false);
        }
        if (v->items->type == CONTRACTC_TYPE_MAP && !v->items->c_list_type) {
            /* a map as the items (docs/contract-language.md §4.12): one map is
             * NAME_F_map_t { NAME_F_entry_t *entries; size_t count; } */
            v->items->c_list_type = fmt("%s_map_t", base);
            char *what = v->items->c_list_type ? fmt("the maps of %s[]", path) : NULL;
            if (!what) {
                free(p);
                N->oom = true;
                return;
            }
            refuse_reserved(N, v->items->c_list_type, CC_C_ORDINARY, what, at,
                            "rename the field or the contract");
            list_add(&N->types, cc_strdup(v->items->c_list_type), what, NULL, at, false);
        }
        if (v->items->nullable && !v->items->c_item_type) {
            /* One item that may be null (docs/contract-language.md §4.6):
             * NAME_F_item_t { bool has_value; T value; }. */
            v->items->c_item_type = fmt("%s_item_t", base);
            char *what = v->items->c_item_type ? fmt("the items of %s", p) : NULL;
            if (!v->items->c_item_type || !what) {
                free(what);
                free(p);
                N->oom = true;
                return;
            }
            refuse_reserved(N, v->items->c_item_type, CC_C_ORDINARY, what, at,
                            "rename the field or the contract");
            list_add(&N->types, cc_strdup(v->items->c_item_type), what, NULL, at, false);
        }
        name_value(N, v->items, base, type_name, p, at);
        free(p);
        return;
    }
    if (v->type == CONTRACTC_TYPE_MAP && v->items) {
        /* docs/contract-language.md §4.12: one entry is NAME_F_entry_t; an
         * inline object or enum of the values is named as an array's
         * items are (NAME_F_t), its fields' paths below "F.*".  A map as
         * the values is named from NAME_F_value: NAME_F_value_map_t and
         * NAME_F_value_entry_t. */
        char *p = fmt("%s.*", path);
        v->c_entry_type = fmt("%s_entry_t", base);
        if (v->items->type == CONTRACTC_TYPE_MAP && !v->items->c_list_type) {
            char *vb = fmt("%s_value", base);
            v->items->c_list_type = vb ? fmt("%s_map_t", vb) : NULL;
            char *what = v->items->c_list_type ? fmt("the maps of %s.*", path) : NULL;
            if (!what) {
                free(vb);
                free(p);
                N->oom = true;
                return;
            }
            refuse_reserved(N, v->items->c_list_type, CC_C_ORDINARY, what, at,
                            "rename the field or the contract");
            list_add(&N->types, cc_strdup(v->items->c_list_type), what, NULL, at, false);
            char *ew = p && v->c_entry_type ? fmt("the entries of %s", path) : NULL;
            if (!ew) {
                free(vb);
                free(p);
                N->oom = true;
                return;
            }
            refuse_reserved(N, v->c_entry_type, CC_C_ORDINARY, ew, at,
                            "rename the field or the contract");
            list_add(&N->types, cc_strdup(v->c_entry_type), ew, NULL, at, false); /* owns ew */
            name_value(N, v->items, vb, type_name, p, at);
            free(vb);
            free(p);
            return;
        }
        char *what = p && v->c_entry_type ? fmt("the entries of %s", path) : NULL;
        if (!what) {
            free(p);
            N->oom = true;
            return;
        }
        refuse_reserved(N, v->c_entry_type, CC_C_ORDINARY, what, at,
                        "rename the field or the contract");
        list_add(&N->types, cc_strdup(v->c_entry_type), what, NULL, at, false);
        name_value(N, v->items, base, type_name, p, at);
        free(p);
        return;
    }
    if (v->type_ref)
        return; /* named: named once, with its type */
    char *what = field_what(path, type_name);
    if (!what) {
        N->oom = true;
        return;
    }
    if (v->type == CONTRACTC_TYPE_ENUM && v->enumeration)
        name_enum(N, v->enumeration, base, what, at, "rename the field or the contract");
    else if (v->type == CONTRACTC_TYPE_OBJECT && v->object)
        name_object(N, v->object, base, type_name, path, false, at);
    else if (v->type == CONTRACTC_TYPE_UNION)
        name_union(N, v, base, what, at);
    else if (v->type == CONTRACTC_TYPE_VALUE_UNION)
        name_value_union(N, v, base, what, type_name, path, at);
    free(what);
}

/* Adds a struct member of field f (owning name and what), refusing a
 * reserved one: once per field (*refused), not again for its has_X.  `fw`
 * names the field for the c_name: advice of a collision. */
static void add_member(namer_t *N, name_list_t *members, const cc_field_t *f, const char *fw,
                       char *name, char *what, bool *refused)
{
    const char *rename = f->c_name ? "choose another c_name"
                                   : "rename the field, or choose its C name with c_name:";
    if (name && what && !*refused)
        *refused = refuse_reserved(N, name, CC_C_MEMBER, what, f->c_name ? f->c_name_mark : f->mark,
                                   rename);
    list_add(members, name, what, NULL, f->c_name ? f->c_name_mark : f->mark, false);
    list_fix_last(members, f->c_name ? fmt("choose another c_name for %s", fw)
                                     : fmt("write c_name: on %s to choose another C name", fw));
}

/* The stem of a field's C names (docs/contract-language.md §4.9): its
 * c_name, an identifier key as it is, else the key with every byte outside
 * [A-Za-z0-9_] as '_', with "f_" in front unless that starts with a
 * letter ("$schema" -> "f__schema", "2fa" -> "f_2fa"). */
static char *field_stem(const cc_field_t *f)
{
    return f->c_name ? cc_strdup(f->c_name) : key_stem(f->name);
}

/* The C stem of a JSON key (or a tag value) without c_name:, as
 * field_stem says. */
static char *key_stem(const char *key)
{
    if (cc_is_identifier(key))
        return cc_strdup(key);
    size_t n = strlen(key);
    char *s = malloc(n + 3);
    if (!s)
        return NULL;
    size_t k = 0;
    unsigned char first = (unsigned char)key[0];
    if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z'))) {
        s[k++] = 'f';
        s[k++] = '_';
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)key[i];
        bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '_';
        s[k++] = keep ? (char)ch : '_';
    }
    s[k] = '\0';
    return s;
}

/* A field's path below path_prefix, as messages write it ("a.b",
 * "a['first-name']", "['$schema']"). */
static char *field_path(const char *path_prefix, const char *key)
{
    cc_buf_t b = CC_BUF_INIT;
    bool first = !(path_prefix && *path_prefix);
    if (!first)
        cc_buf_puts(&b, path_prefix);
    cc_buf_key_segment(&b, key, first);
    return cc_buf_take(&b, NULL);
}

static void name_object(namer_t *N, cc_object_t *o, const char *base, const char *type_name,
                        const char *path_prefix, bool is_record, cc_mark_t at)
{
    name_list_t members = {NULL, 0, 0, false};
    o->c_struct = cc_strdup(base);
    o->c_type = fmt("%s_t", base);
    if (!o->c_struct || !o->c_type) {
        N->oom = true;
        return;
    }
    char *what = is_record ? cc_strdup("the record")
                 : o->named ? fmt("type '%s'", o->type_name)
                            : field_what(path_prefix, type_name);
    if (what && !is_record) { /* the record's names: check_contract_name */
        const char *fix = o->named ? "rename the type or the contract"
                                   : "rename the field or the contract";
        if (!refuse_reserved(N, o->c_struct, CC_C_TAG, what, at, fix)) /* once for the two */
            refuse_reserved(N, o->c_type, CC_C_ORDINARY, what, at, fix);
    }
    list_add(&N->types, cc_strdup(o->c_type), what, NULL, at, false);
    if (!is_record && !o->named && what) /* an inline object is named after its field */
        list_fix_last(&N->types, fmt("write c_name: on %s to choose another C name", what));
    if (is_record)
        list_add(&members, cc_strdup("arena_"), cc_strdup("the record's arena member 'arena_'"),
                 NULL, at, true);

    for (size_t i = 0; i < o->field_count && !N->oom; i++) {
        cc_field_t *f = &o->fields[i];
        char *path = field_path(path_prefix, f->name);
        char *fw = path ? field_what(path, type_name) : NULL;
        f->c_stem = field_stem(f);
        bool keyword = f->c_stem && cc_is_c_keyword(f->c_stem);
        f->c_member = !f->c_stem ? NULL : keyword ? fmt("%s_", f->c_stem) : cc_strdup(f->c_stem);
        if (!path || !fw || !f->c_member) {
            free(path);
            free(fw);
            N->oom = true;
            break;
        }
        if (keyword && strcmp(f->c_stem, f->name) == 0)
            cc_note(N->d, N->path, f->mark, "field '%s' is a C keyword; its C member is '%s'",
                    f->name, f->c_member);
        else if (keyword)
            cc_note(N->d, N->path, f->mark,
                    "the C name '%s' derived from %s is a C keyword; its C member is '%s'",
                    f->c_stem, fw, f->c_member);
        bool refused = false;
        add_member(N, &members, f, fw, cc_strdup(f->c_member), cc_strdup(fw), &refused);
        if (f->nullable && !f->optional)
            add_member(N, &members, f, fw, fmt("has_%s", f->c_member),
                       fmt("the null flag of %s", fw), &refused);
        else if (f->optional)
            add_member(N, &members, f, fw, fmt("has_%s", f->c_member),
                       fmt("the presence flag of %s", fw), &refused);
        if (f->nullable && f->optional)
            add_member(N, &members, f, fw, fmt("%s_null", f->c_member),
                       fmt("the null flag of %s", fw), &refused);
        if (cc_type_has_len(f->value.type))
            add_member(N, &members, f, fw, fmt("%s_len", f->c_member),
                       fmt("the length of %s", fw), &refused);
        if (f->value.type == CONTRACTC_TYPE_ARRAY)
            add_member(N, &members, f, fw, fmt("%s_count", f->c_member),
                       fmt("the item count of %s", fw), &refused);
        if (f->value.type == CONTRACTC_TYPE_MAP)
            add_member(N, &members, f, fw, fmt("%s_count", f->c_member),
                       fmt("the entry count of %s", fw), &refused);

        char *child = fmt("%s_%s", base, f->c_stem);
        if (!child) {
            N->oom = true;
        } else {
            name_value(N, &f->value, child, type_name, path, f->mark);
            free(child);
        }
        free(path);
        free(fw);
    }
    report_collisions(N, &members);
    list_free(&members);
}

/* The check functions of one object's rules, once each (two rules of one
 * object may call one function: the same declaration twice). */
static void name_checks(namer_t *N, const cc_object_t *o)
{
    for (size_t i = 0; o && i < o->rule_count; i++) {
        const cc_rule_t *r = &o->rules[i];
        if (r->kind != CC_RULE_CHECK || !r->function || !cc_is_identifier(r->function))
            continue;
        size_t j = 0;
        while (j < i && !(o->rules[j].kind == CC_RULE_CHECK && o->rules[j].function &&
                          strcmp(o->rules[j].function, r->function) == 0))
            j++;
        if (j == i)
            list_add(&N->types, cc_strdup(r->function),
                     fmt("the check function of rule '%s'", r->id), NULL, r->function_mark,
                     false);
    }
}

/* Adds the other file-scope names: the entry points and texts the contract
 * name gives, and the check functions, which share C's ordinary name space
 * with the types (a check function 'NAME_parse' or 'NAME_T_t' collides). */
static void name_functions(namer_t *N)
{
    for (size_t i = 0; i < sizeof contract_names / sizeof contract_names[0]; i++) {
        const char *suffix = contract_names[i].suffix;
        if (contract_names[i].use != CC_C_ORDINARY || strcmp(suffix, "_t") == 0 ||
            strcmp(suffix, "_H") == 0)
            continue; /* the tag and the record's type are named with it */
        list_add(&N->types, fmt("%s%s", N->c->name, suffix),
                 fmt("the generated %s '%s%s'", contract_names[i].kind, N->c->name, suffix),
                 NULL, N->c->name_mark, true);
    }
    name_checks(N, &N->c->root);
    for (size_t i = 0; i < N->c->type_count; i++)
        name_checks(N, N->c->types[i].object);
}

bool cc_name_contract(cc_contract_t *c, cc_diags_t *diags)
{
    /* Names derive from the contract name: without a valid one there is
     * nothing sound to derive (its error is already reported). */
    if (!c || !c->name || !cc_is_identifier(c->name))
        return true;
    namer_t N;
    memset(&N, 0, sizeof N);
    N.c = c;
    N.d = diags;
    N.path = c->path;
    check_contract_name(&N);

    for (size_t i = 0; i < c->type_count && !N.oom; i++) {
        cc_named_type_t *t = &c->types[i];
        char *base = fmt("%s_%s", c->name, t->name);
        if (!base) {
            N.oom = true;
            break;
        }
        if (t->object) {
            name_object(&N, t->object, base, t->name, "", false, t->mark);
        } else if (t->enumeration) {
            char *what = fmt("type '%s'", t->name);
            if (what)
                name_enum(&N, t->enumeration, base, what, t->mark,
                          "rename the type or the contract");
            else
                N.oom = true;
            free(what);
        }
        free(base);
    }
    if (!N.oom)
        name_object(&N, &c->root, c->name, NULL, "", true, c->name_mark);
    if (!N.oom)
        name_functions(&N);
    if (!N.oom) {
        report_collisions(&N, &N.types);
        report_collisions(&N, &N.constants);
    }
    list_free(&N.types);
    list_free(&N.constants);
    return !N.oom;
}
