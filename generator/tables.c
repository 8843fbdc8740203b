/* SPDX-License-Identifier: MIT */
/*
 * tables.c - builds a contract's descriptor tables in memory (see tables.h).
 *
 * The layout computed here is the one of the structs that gen_c.c writes
 * into NAME.h: members in contract order; a nullable or optional field's
 * `bool has_X` first (a field both nullable and optional: `bool X_null`
 * next), then its value (`const char *X; size_t X_len;` for strings,
 * `T *X; size_t X_count;` for arrays); the record ends with
 * `contractc_arena_t *arena_`.  Natural alignment, as every C ABI we target
 * lays out such structs; test_tables checks it against the compiler's
 * offsetof for every example contract.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator.h"
#include "tables.h"

/* ---- a pool of allocations freed together ----------------------------- */

typedef struct pool_node {
    struct pool_node *next;
} pool_node_t;

#define POOL_HEADER 16

typedef struct build {
    cc_tables_t *t;
    bool failed;
    uint32_t abi;   /* cc_contract_abi: null_offset is CONTRACTC_ABSENT from ABI 2 on */
} build_t;

static void *pool_alloc(build_t *b, size_t size)
{
    if (b->failed)
        return NULL;
    /* A 16-byte header keeps the payload as aligned as calloc's result. */
    pool_node_t *n = calloc(1, POOL_HEADER + size);
    if (!n) {
        b->failed = true;
        return NULL;
    }
    n->next = b->t->pool_;
    b->t->pool_ = n;
    return (unsigned char *)n + POOL_HEADER;
}

static char *pool_strdup(build_t *b, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s);
    char *p = pool_alloc(b, n + 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

/* Takes a malloc'd string into the pool; NULL stays NULL (the emitters
 * return NULL for "none"). */
static char *pool_take(build_t *b, char *s)
{
    if (!s)
        return NULL;
    char *p = pool_strdup(b, s);
    free(s);
    return p;
}

static char *pool_printf2(build_t *b, const char *a, const char *sep, const char *c)
{
    size_t n = strlen(a) + strlen(sep) + strlen(c);
    char *p = pool_alloc(b, n + 1);
    if (p) {
        strcpy(p, a);
        strcat(p, sep);
        strcat(p, c);
    }
    return p;
}

/* Grows one of the tables' lists by one zeroed entry. */
static void *list_push(build_t *b, void **list, size_t *count, size_t size)
{
    if (b->failed)
        return NULL;
    void *p = realloc(*list, (*count + 1) * size);
    if (!p) {
        b->failed = true;
        return NULL;
    }
    *list = p;
    memset((unsigned char *)p + *count * size, 0, size);
    return (unsigned char *)p + (*count)++ * size;
}

/* ---- layout ------------------------------------------------------------ */

typedef struct layout {
    uint32_t size, align;
} layout_t;

static layout_t value_layout(build_t *b, const cc_value_t *v);

static uint32_t round_up(uint32_t n, uint32_t a) { return (n + a - 1) / a * a; }

/* A struct { kind; union u as; } (a tagged or a value union): the kind, an
 * int-sized enum, then the union of layout u at *union_offset (when not
 * NULL), rounded up to u's alignment. */
static layout_t kind_then_union(layout_t u, uint32_t *union_offset)
{
    u.size = round_up(u.size, u.align);
    uint32_t at = round_up((uint32_t)sizeof(int), u.align);
    if (union_offset)
        *union_offset = at;
    layout_t l;
    l.align = u.align > CONTRACTC_ALIGNOF(int) ? u.align : (uint32_t)CONTRACTC_ALIGNOF(int);
    l.size = round_up(at + u.size, l.align);
    return l;
}

/* The layout of a tagged union's struct (gen_c.c writes it): the kind, an
 * int-sized enum, then the C union of the variants' structs at
 * *union_offset (when not NULL). */
static layout_t union_layout(build_t *b, const cc_value_t *v, uint32_t *union_offset)
{
    layout_t u = {0, 1};
    for (size_t i = 0; i < v->variant_count; i++) {
        const cc_table_object_t *o = cc_tables_object(b->t, v->variants[i].object);
        if (!o)
            continue;
        if (o->table->size > u.size)
            u.size = o->table->size;
        if (o->table->align > u.align)
            u.align = o->table->align;
    }
    return kind_then_union(u, union_offset);
}

/* The layout of a value union's struct (gen_c.c writes it, docs/
 * contract-language.md §4.13): the kind, an int-sized enum, then the C
 * union of the alternatives' values at *union_offset (when not NULL). */
static layout_t value_union_layout(build_t *b, const cc_value_t *v, uint32_t *union_offset)
{
    layout_t u = {0, 1};
    for (size_t i = 0; i < v->alternative_count; i++) {
        layout_t a = value_layout(b, &v->alternatives[i]);
        if (a.size > u.size)
            u.size = a.size;
        if (a.align > u.align)
            u.align = a.align;
    }
    return kind_then_union(u, union_offset);
}

/* The layout of a scalar member or array item of this value. */
static layout_t value_layout(build_t *b, const cc_value_t *v)
{
    layout_t l = {0, 1};
    switch (v->type) {
    case CONTRACTC_TYPE_STRING:
    case CONTRACTC_TYPE_JSON:
        l.size = sizeof(contractc_string_t);
        l.align = CONTRACTC_ALIGNOF(contractc_string_t);
        break;
    case CONTRACTC_TYPE_INTEGER:
    case CONTRACTC_TYPE_DECIMAL:
        l.size = sizeof(int64_t);
        l.align = CONTRACTC_ALIGNOF(int64_t);
        break;
    case CONTRACTC_TYPE_NUMBER:
        l.size = sizeof(double);
        l.align = CONTRACTC_ALIGNOF(double);
        break;
    case CONTRACTC_TYPE_BOOLEAN:
        l.size = sizeof(bool);
        l.align = CONTRACTC_ALIGNOF(bool);
        break;
    case CONTRACTC_TYPE_ENUM:
        l.size = sizeof(int); /* NAME.c asserts sizeof(enum) == sizeof(int) */
        l.align = CONTRACTC_ALIGNOF(int);
        break;
    case CONTRACTC_TYPE_DATE:
        l.size = sizeof(contractc_date_t);
        l.align = CONTRACTC_ALIGNOF(contractc_date_t);
        break;
    case CONTRACTC_TYPE_DATETIME:
        l.size = sizeof(contractc_datetime_t);
        l.align = CONTRACTC_ALIGNOF(contractc_datetime_t);
        break;
    case CONTRACTC_TYPE_OBJECT: {
        const cc_table_object_t *o = cc_tables_object(b->t, v->object);
        if (o) {
            l.size = o->table->size;
            l.align = o->table->align;
        }
        break;
    }
    case CONTRACTC_TYPE_ARRAY: /* { T *items; size_t count; } */
        l.size = sizeof(contractc_string_t);
        l.align = CONTRACTC_ALIGNOF(contractc_string_t);
        break;
    case CONTRACTC_TYPE_UNION: /* { enum kind; union { variant structs } as; } */
        l = union_layout(b, v, NULL);
        break;
    case CONTRACTC_TYPE_VALUE_UNION: /* { enum kind; union { alternatives } as; } */
        l = value_union_layout(b, v, NULL);
        break;
    case CONTRACTC_TYPE_MAP: /* { E *X; size_t X_count; }, members of a field only */
        l.size = sizeof(contractc_string_t);
        l.align = CONTRACTC_ALIGNOF(contractc_string_t);
        break;
    default: /* the types of v2 lay themselves out */
        break;
    }
    return l;
}

/* ---- lookups ------------------------------------------------------------ */

const cc_table_object_t *cc_tables_object(const cc_tables_t *t, const cc_object_t *o)
{
    for (size_t i = 0; i < t->object_count; i++)
        if (t->objects[i].model == o)
            return &t->objects[i];
    return NULL;
}

const cc_table_enum_t *cc_tables_enum(const cc_tables_t *t, const cc_enum_t *e)
{
    for (size_t i = 0; i < t->enum_count; i++)
        if (t->enums[i].model == e)
            return &t->enums[i];
    return NULL;
}

const cc_table_dfa_t *cc_tables_dfa(const cc_tables_t *t, const cc_value_t *v)
{
    for (size_t i = 0; i < t->dfa_count; i++)
        if (t->dfas[i].model == v)
            return &t->dfas[i];
    return NULL;
}

const cc_table_items_t *cc_tables_items(const cc_tables_t *t, const cc_value_t *v)
{
    for (size_t i = 0; i < t->item_count; i++)
        if (t->items[i].model == v)
            return &t->items[i];
    return NULL;
}

const cc_table_alternatives_t *cc_tables_alternatives(const cc_tables_t *t, const cc_value_t *v)
{
    for (size_t i = 0; i < t->alternatives_count; i++)
        if (t->alternatives[i].model == v)
            return &t->alternatives[i];
    return NULL;
}

/* ---- building ------------------------------------------------------------ */

static void build_object(build_t *b, const cc_object_t *o, const char *ident);

static char *ident_for(build_t *b, const char *stem, const char *suffix)
{
    return pool_printf2(b, stem, "_", suffix);
}

/* The smallest JSON text one array item can take, with its comma: a bound
 * on how many items a reply of n bytes can hold. */
static uint32_t min_json_bytes(const cc_value_t *v, unsigned depth)
{
    if (depth > 64)
        return 2;
    switch (v->type) {
    case CONTRACTC_TYPE_BOOLEAN: return 5;            /* true */
    case CONTRACTC_TYPE_INTEGER:
    case CONTRACTC_TYPE_NUMBER: return 1;             /* 0 */
    case CONTRACTC_TYPE_STRING: return 2;             /* "" */
    case CONTRACTC_TYPE_JSON: return 1;               /* 0 */
    case CONTRACTC_TYPE_DECIMAL: return 3;            /* "0" */
    case CONTRACTC_TYPE_ENUM: return 2;
    case CONTRACTC_TYPE_DATE: return 12;
    case CONTRACTC_TYPE_DATETIME: return 22;
    case CONTRACTC_TYPE_ARRAY: return 2;              /* [] */
    case CONTRACTC_TYPE_UNION: {
        /* {"tag":"v"} and the smallest variant's other keys */
        uint32_t least = UINT32_MAX;
        for (size_t i = 0; i < v->variant_count; i++) {
            cc_value_t ov;
            memset(&ov, 0, sizeof ov);
            ov.type = CONTRACTC_TYPE_OBJECT;
            ov.object = v->variants[i].object;
            uint32_t n = (uint32_t)(strlen(v->tag) + strlen(v->variants[i].name)) + 5 +
                         min_json_bytes(&ov, depth + 1);
            if (n < least)
                least = n;
        }
        return least == UINT32_MAX ? 2 : least;
    }
    case CONTRACTC_TYPE_MAP: return 2;                /* {} */
    case CONTRACTC_TYPE_VALUE_UNION: {                /* its shortest alternative */
        uint32_t least = UINT32_MAX;
        for (size_t i = 0; i < v->alternative_count; i++) {
            uint32_t n = min_json_bytes(&v->alternatives[i], depth + 1);
            if (n < least)
                least = n;
        }
        return least == UINT32_MAX ? 1 : least;
    }
    case CONTRACTC_TYPE_OBJECT: {
        /* An optional key may be left out: it adds nothing (v2). */
        uint32_t n = 2, written = 0;
        for (size_t i = 0; i < v->object->field_count; i++) {
            const cc_field_t *f = &v->object->fields[i];
            if (f->optional)
                continue;
            uint32_t value = f->nullable ? 4 : min_json_bytes(&f->value, depth + 1);
            n += (uint32_t)strlen(f->name) + 3 + value + (written++ ? 1 : 0);
        }
        return n;
    }
    default:
        break;
    }
    return 1;
}

/* The C layout of one entry of a map whose values are `values`
 * ({ const char *key; size_t key_len; V value; }, V laid out as an array
 * item): value at CONTRACTC_MAP_VALUE_OFFSET of the entry's alignment. */
static layout_t map_entry_layout(build_t *b, const cc_value_t *values)
{
    layout_t vl = value_layout(b, values), l;
    l.align = CONTRACTC_ALIGNOF(contractc_string_t);
    if (vl.align > l.align)
        l.align = vl.align;
    uint32_t at = (uint32_t)CONTRACTC_MAP_VALUE_OFFSET(l.align) + vl.size;
    l.size = round_up(at, l.align);
    return l;
}

/* Fills a value table from the model; `owner_ident` names its tables. */
static void build_value(build_t *b, const cc_field_t *f, const cc_value_t *v,
                        contractc_value_t *out, const char *owner_ident)
{
    out->type = v->type;
    if (v->type == CONTRACTC_TYPE_STRING || v->type == CONTRACTC_TYPE_JSON) {
        /* json: max_bytes, in bytes (docs/contract-language.md §4.14) */
        out->min_length = v->has_min_length ? v->min_length : 0;
        out->max_length = v->has_max_length ? v->max_length : CONTRACTC_UNBOUNDED;
    }
    out->grounded = v->grounded;
    out->scale = v->scale;
    out->is_signed = v->is_signed;
    out->minimum_text = pool_strdup(b, v->minimum_text);
    out->maximum_text = pool_strdup(b, v->maximum_text);
    switch (v->type) {
    case CONTRACTC_TYPE_INTEGER:
        out->minimum = v->has_minimum ? v->minimum : CONTRACTC_INTEGER_MIN;
        out->maximum = v->has_maximum ? v->maximum : CONTRACTC_INTEGER_MAX;
        break;
    case CONTRACTC_TYPE_DECIMAL:
        out->minimum = v->has_minimum ? v->minimum : INT64_MIN;
        out->maximum = v->has_maximum ? v->maximum : INT64_MAX;
        break;
    case CONTRACTC_TYPE_NUMBER:
        out->has_number_minimum = v->has_minimum;
        out->has_number_maximum = v->has_maximum;
        out->number_minimum = v->number_minimum;
        out->number_maximum = v->number_maximum;
        break;
    default:
        break;
    }
    if (f && v == &f->value && v->type != CONTRACTC_TYPE_OBJECT && v->type != CONTRACTC_TYPE_ARRAY &&
        v->type != CONTRACTC_TYPE_MAP) {
        out->example = pool_take(b, cc_value_example(f));
        if (!out->example && cc_value_has_example(f))
            b->failed = true; /* out of memory, not "no example" */
    }
    if (!out->example && (v->type == CONTRACTC_TYPE_DECIMAL || v->type == CONTRACTC_TYPE_DATE ||
                          v->type == CONTRACTC_TYPE_DATETIME)) {
        cc_field_t tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.value = *v;
        out->example = pool_take(b, cc_value_example(&tmp));
        if (!out->example && cc_value_has_example(&tmp))
            b->failed = true;
    }
    if (v->dfa) {
        cc_table_dfa_t *d = list_push(b, (void **)&b->t->dfas, &b->t->dfa_count, sizeof *d);
        contractc_dfa_t *dfa = pool_alloc(b, sizeof *dfa);
        if (!d || !dfa)
            return;
        d->model = v;
        d->table = dfa;
        char num[24];
        snprintf(num, sizeof num, "pattern%zu", b->t->dfa_count - 1);
        d->ident = ident_for(b, b->t->objects[0].ident, num);
        dfa->source = pool_strdup(b, v->pattern);
        /* The class count padded to a power of two where that is cheap
         * (cc_dfa_table_classes): the runtime's loop then shifts. */
        const uint32_t classes = cc_dfa_table_classes(v->dfa);
        uint16_t *next = pool_alloc(b, (size_t)v->dfa->state_count * classes * sizeof *next);
        if (!next)
            return;
        cc_dfa_table_next(v->dfa, classes, next);
        dfa->state_count = v->dfa->state_count;
        dfa->class_count = classes;
        dfa->start = v->dfa->start;
        dfa->byte_class = v->dfa->byte_class;
        dfa->next = next;
        dfa->accepting = v->dfa->accepting;
        out->pattern = dfa;
    }
    if (v->type == CONTRACTC_TYPE_ENUM && v->enumeration) {
        const cc_table_enum_t *have = cc_tables_enum(b->t, v->enumeration);
        if (!have) {
            const cc_enum_t *em = v->enumeration;
            cc_table_enum_t *e = list_push(b, (void **)&b->t->enums, &b->t->enum_count, sizeof *e);
            contractc_enum_t *et = pool_alloc(b, sizeof *et);
            contractc_enum_value_t *vals = pool_alloc(b, (em->count ? em->count : 1) * sizeof *vals);
            if (!e || !et || !vals)
                return;
            e->model = em;
            e->table = et;
            e->values = vals;
            /* c_type without "_t" names the tables */
            size_t n = strlen(em->c_type);
            char *stem = pool_strdup(b, em->c_type);
            if (!stem)
                return;
            if (n > 2)
                stem[n - 2] = '\0';
            e->ident = stem;
            et->name = pool_strdup(b, em->c_type);
            et->values = vals;
            et->count = (uint32_t)em->count;
            for (size_t i = 0; i < em->count; i++) {
                vals[i].text = pool_strdup(b, em->values[i]);
                vals[i].len = (uint32_t)strlen(em->values[i]);
            }
            have = e;
        }
        out->enumeration = have->table;
    }
    if (v->type == CONTRACTC_TYPE_OBJECT && v->object) {
        const cc_table_object_t *have = cc_tables_object(b->t, v->object);
        if (!have) {
            size_t n = strlen(v->object->c_type);
            char *stem = pool_strdup(b, v->object->c_type);
            if (!stem)
                return;
            if (n > 2)
                stem[n - 2] = '\0';
            build_object(b, v->object, stem);
            have = cc_tables_object(b->t, v->object);
        }
        if (have)
            out->object = have->table;
    }
    if (v->type == CONTRACTC_TYPE_UNION && v->variant_count) {
        contractc_variant_t *vars = pool_alloc(b, v->variant_count * sizeof *vars);
        if (!vars)
            return;
        out->tag = pool_strdup(b, v->tag);
        out->tag_len = (uint32_t)strlen(v->tag);
        for (size_t i = 0; i < v->variant_count; i++) {
            const cc_object_t *vo = v->variants[i].object;
            const cc_table_object_t *have = cc_tables_object(b->t, vo);
            if (!have) {
                size_t n = strlen(vo->c_type);
                char *stem = pool_strdup(b, vo->c_type);
                if (!stem)
                    return;
                if (n > 2)
                    stem[n - 2] = '\0';
                build_object(b, vo, stem);
                have = cc_tables_object(b->t, vo);
            }
            vars[i].name = pool_strdup(b, v->variants[i].name);
            vars[i].name_len = (uint32_t)strlen(v->variants[i].name);
            vars[i].object = have ? have->table : NULL;
        }
        out->variants = vars;
        out->variant_count = (uint32_t)v->variant_count;
        union_layout(b, v, &out->union_offset);
    }
    if (v->type == CONTRACTC_TYPE_VALUE_UNION && v->alternative_count) {
        /* docs/contract-language.md §4.13: "NAME_F_alternatives", after the
         * tables its alternatives need */
        contractc_value_t *alts = pool_alloc(b, v->alternative_count * sizeof *alts);
        char *ident = ident_for(b, owner_ident, "alternatives");
        if (!alts || !ident)
            return;
        for (size_t i = 0; i < v->alternative_count; i++)
            build_value(b, NULL, &v->alternatives[i], &alts[i], owner_ident);
        cc_table_alternatives_t *ta = list_push(b, (void **)&b->t->alternatives,
                                                &b->t->alternatives_count, sizeof *ta);
        if (!ta)
            return;
        ta->model = v;
        ta->table = alts;
        ta->ident = ident;
        out->alternatives = alts;
        out->alternative_count = (uint32_t)v->alternative_count;
        value_union_layout(b, v, &out->union_offset);
    }
    if (v->type == CONTRACTC_TYPE_ARRAY && v->items) {
        contractc_value_t *iv = pool_alloc(b, sizeof *iv);
        if (!iv)
            return;
        /* "matrix_grid_items" names the item value of field grid; the items
         * of its items (an array of arrays) are "matrix_grid_items_items". */
        char *stem = ident_for(b, owner_ident, "items");
        char *ident = stem ? ident_for(b, stem, "value") : NULL;
        build_value(b, NULL, v->items, iv, stem ? stem : owner_ident);
        cc_table_items_t *it = list_push(b, (void **)&b->t->items, &b->t->item_count, sizeof *it);
        if (!it)
            return;
        it->model = v->items;
        it->table = iv;
        it->ident = ident;
        layout_t l = value_layout(b, v->items);
        if (v->items->nullable) {
            /* { bool has_value; T value; } (docs/contract-language.md §4.6) */
            out->items_nullable = true;
            out->item_has_offset = 0;
            out->item_value_offset = round_up((uint32_t)sizeof(bool), l.align);
            l.size = round_up(out->item_value_offset + l.size, l.align);
            if (l.align < CONTRACTC_ALIGNOF(bool))
                l.align = CONTRACTC_ALIGNOF(bool);
        }
        out->items = iv;
        out->item_size = l.size;
        out->item_align = l.align;
        out->min_items = v->has_min_items ? v->min_items : 0;
        out->max_items = v->has_max_items ? v->max_items : CONTRACTC_UNBOUNDED;
    }
    if (v->type == CONTRACTC_TYPE_MAP && v->items) {
        /* docs/contract-language.md §4.12: the values' table is an items
         * table ("NAME_F_values"); an entry is { const char *key; size_t
         * key_len; V value; } (the key_pattern is out->pattern, above). */
        contractc_value_t *iv = pool_alloc(b, sizeof *iv);
        if (!iv)
            return;
        char *stem = ident_for(b, owner_ident, "values");
        build_value(b, NULL, v->items, iv, stem ? stem : owner_ident);
        cc_table_items_t *it = list_push(b, (void **)&b->t->items, &b->t->item_count, sizeof *it);
        if (!it)
            return;
        it->model = v->items;
        it->table = iv;
        it->ident = stem;
        it->map_values = true;
        layout_t l = map_entry_layout(b, v->items);
        out->items = iv;
        out->item_size = l.size;
        out->item_align = l.align;
        out->min_items = v->has_min_items ? v->min_items : 0;
        out->max_items = v->has_max_items ? v->max_items : CONTRACTC_UNBOUNDED;
    }
}

static int lookup_cmp_fields(const contractc_field_t *a, const contractc_field_t *c)
{
    if (a->name_len != c->name_len)
        return a->name_len < c->name_len ? -1 : 1;
    return memcmp(a->name, c->name, a->name_len);
}

static uint16_t find_index(const cc_path_t *p, size_t step)
{
    return p->step_count > step ? p->steps[step] : CONTRACTC_NO_FIELD;
}

static void build_object(build_t *b, const cc_object_t *o, const char *ident)
{
    size_t index = b->t->object_count;
    cc_table_object_t *to = list_push(b, (void **)&b->t->objects, &b->t->object_count, sizeof *to);
    contractc_object_t *table = pool_alloc(b, sizeof *table);
    contractc_field_t *fields = pool_alloc(b, (o->field_count ? o->field_count : 1) * sizeof *fields);
    uint16_t *lookup = pool_alloc(b, (o->field_count ? o->field_count : 1) * sizeof *lookup);
    if (!to || !table || !fields || !lookup)
        return;
    to->model = o;
    to->table = table;
    to->fields = fields;
    to->lookup = lookup;
    to->ident = pool_strdup(b, ident);
    table->name = pool_strdup(b, o->c_type);
    table->fields = fields;
    table->field_count = (uint32_t)o->field_count;
    table->lookup = lookup;

    uint32_t at = 0, align = CONTRACTC_ALIGNOF(void *);
    for (size_t i = 0; i < o->field_count; i++) {
        const cc_field_t *mf = &o->fields[i];
        contractc_field_t *f = &fields[i];
        f->name = pool_strdup(b, mf->name);
        f->name_len = (uint32_t)strlen(mf->name);
        cc_buf_t seg = CC_BUF_INIT;
        cc_buf_key_segment(&seg, mf->name, false);
        f->path_segment = pool_take(b, cc_buf_take(&seg, NULL));
        b->failed |= f->path_segment == NULL;
        f->nullable = mf->nullable;
        f->has_offset = f->aux_offset = CONTRACTC_ABSENT;
        f->optional = mf->optional;
        f->null_offset = b->abi >= 2 ? CONTRACTC_ABSENT : 0;
        char *field_ident = ident_for(b, ident, mf->c_stem);
        build_value(b, mf, &mf->value, &f->value, field_ident ? field_ident : ident);
        /* Objects reached through this field were appended: refresh. */
        to = &b->t->objects[index];
        if (b->failed)
            return;
        if (mf->nullable || mf->optional) {
            at = round_up(at, CONTRACTC_ALIGNOF(bool));
            f->has_offset = at;
            at += sizeof(bool);
        }
        if (mf->nullable && mf->optional) { /* bool X_null, right after has_X */
            f->null_offset = at;
            at += sizeof(bool);
        }
        layout_t l;
        if (cc_type_has_len(mf->value.type) || mf->value.type == CONTRACTC_TYPE_ARRAY ||
            mf->value.type == CONTRACTC_TYPE_MAP) {
            /* const char *X / T *X / E *X, then size_t X_len / X_count */
            at = round_up(at, CONTRACTC_ALIGNOF(void *));
            f->offset = at;
            at += sizeof(void *);
            at = round_up(at, CONTRACTC_ALIGNOF(size_t));
            f->aux_offset = at;
            at += sizeof(size_t);
            l.align = CONTRACTC_ALIGNOF(void *) > CONTRACTC_ALIGNOF(size_t) ? CONTRACTC_ALIGNOF(void *) : CONTRACTC_ALIGNOF(size_t);
        } else {
            l = value_layout(b, &mf->value);
            at = round_up(at, l.align);
            f->offset = at;
            at += l.size;
        }
        if (l.align > align)
            align = l.align;
    }
    if (index == 0) { /* the record: contractc_arena_t *arena_ */
        at = round_up(at, CONTRACTC_ALIGNOF(void *));
        b->t->contract.arena_offset = at;
        at += sizeof(void *);
    }
    if (at == 0) /* an empty object still has one member in C */
        at = 1;
    table->size = round_up(at, align);
    table->align = align;

    /* key lookup: sorted by (length, bytes) */
    for (uint16_t i = 0; i < o->field_count; i++) {
        uint16_t k = i;
        while (k > 0 && lookup_cmp_fields(&fields[lookup[k - 1]], &fields[i]) > 0) {
            lookup[k] = lookup[k - 1];
            k--;
        }
        lookup[k] = i;
    }

    if (o->rule_count) {
        contractc_rule_t *rules = pool_alloc(b, o->rule_count * sizeof *rules);
        uint16_t **rf = pool_alloc(b, o->rule_count * sizeof *rf);
        if (!rules || !rf)
            return;
        to->rules = rules;
        to->rule_fields = rf;
        table->rules = rules;
        table->rule_count = (uint32_t)o->rule_count;
        for (size_t i = 0; i < o->rule_count; i++) {
            const cc_rule_t *mr = &o->rules[i];
            contractc_rule_t *r = &rules[i];
            r->kind = (contractc_rule_kind_t)mr->kind;
            r->id = pool_strdup(b, mr->id);
            r->message = pool_take(b, cc_rule_sentence(o, mr));
            b->failed |= r->message == NULL; /* a sentence is never "none": out of memory */
            /* Operand slots a kind does not use stay 0, as in NAME.c. */
            switch (mr->kind) {
            case CC_RULE_ALL_OR_NONE:
            case CC_RULE_AT_MOST_ONE:
            case CC_RULE_EXACTLY_ONE:
                rf[i] = pool_alloc(b, (mr->field_count ? mr->field_count : 1) * sizeof **rf);
                if (!rf[i])
                    return;
                for (size_t k = 0; k < mr->field_count; k++)
                    rf[i][k] = find_index(&mr->fields[k], 0);
                r->fields = rf[i];
                r->field_count = (uint32_t)mr->field_count;
                break;
            case CC_RULE_SUM:
                r->sum_array = find_index(&mr->of, 0);
                r->sum_item = find_index(&mr->of, 1);
                r->sum_total = find_index(&mr->equals, 0);
                r->tolerance = mr->tolerance;
                break;
            case CC_RULE_COMPARE:
                r->left = find_index(&mr->left, 0);
                r->right = find_index(&mr->right, 0);
                r->op = mr->op;
                break;
            case CC_RULE_CHECK:
                r->check = NULL; /* the user's C function: only in generated code */
                break;
            }
        }
    }
}

/* The arena bound (contractc.h): strings take at most the reply's bytes;
 * each array's items at most item_size per min_json_bytes of reply, twice
 * over for growth by doubling. */
static uint32_t arena_factor_value(build_t *b, const cc_value_t *v, unsigned depth)
{
    if (depth > 64)
        return 0;
    uint32_t k = 0;
    if (v->type == CONTRACTC_TYPE_MAP && v->items) {
        /* An entry takes `"":V,` at least; its key's copy is one of the
         * reply's strings (the factor's 1), plus its NUL, at most one byte
         * per the entry's 4 bytes of reply. */
        layout_t l = map_entry_layout(b, v->items);
        uint32_t min = min_json_bytes(v->items, 0) + 4;
        k += (2 * l.size + min - 1) / min + 1;
        k += arena_factor_value(b, v->items, depth + 1);
    } else if (v->type == CONTRACTC_TYPE_ARRAY && v->items) {
        layout_t l = value_layout(b, v->items);
        uint32_t min = min_json_bytes(v->items, 0) + 1;
        k += (2 * l.size + min - 1) / min;
        k += arena_factor_value(b, v->items, depth + 1);
    } else if (v->type == CONTRACTC_TYPE_OBJECT && v->object) {
        for (size_t i = 0; i < v->object->field_count; i++)
            k += arena_factor_value(b, &v->object->fields[i].value, depth + 1);
    } else if (v->type == CONTRACTC_TYPE_UNION) {
        uint32_t most = 0; /* one variant is read */
        for (size_t i = 0; i < v->variant_count; i++) {
            cc_value_t ov;
            memset(&ov, 0, sizeof ov);
            ov.type = CONTRACTC_TYPE_OBJECT;
            ov.object = v->variants[i].object;
            uint32_t n = arena_factor_value(b, &ov, depth + 1);
            if (n > most)
                most = n;
        }
        k += most;
    } else if (v->type == CONTRACTC_TYPE_VALUE_UNION) {
        uint32_t most = 0; /* one alternative is read */
        for (size_t i = 0; i < v->alternative_count; i++) {
            uint32_t n = arena_factor_value(b, &v->alternatives[i], depth + 1);
            if (n > most)
                most = n;
        }
        k += most;
    }
    return k;
}

cc_tables_t *cc_tables_build(const cc_contract_t *m, const char *hash)
{
    cc_tables_t *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    build_t b = {t, false, cc_contract_abi(m)};
    t->model = m;
    contractc_contract_t *c = &t->contract;
    c->abi = b.abi;
    c->name = pool_strdup(&b, m->name);
    c->version = m->version;
    c->hash = pool_strdup(&b, hash ? hash : "");
    c->max_bytes = (size_t)m->max_bytes;
    c->max_depth = m->max_depth;
    c->fence_allowed = m->fence == CC_FENCE_ALLOW;
    c->needs_source = m->has_source;
    if (m->has_source)
        c->source_name = m->source_description && m->source_description[0]
                             ? pool_strdup(&b, m->source_description)
                             : pool_printf2(&b, "the", " ", m->source_name ? m->source_name : "source");
    build_object(&b, &m->root, m->name);
    if (!b.failed && t->object_count) {
        c->root = t->objects[0].table;
        cc_value_t root_value;
        memset(&root_value, 0, sizeof root_value);
        root_value.type = CONTRACTC_TYPE_OBJECT;
        root_value.object = (cc_object_t *)&m->root;
        c->arena_factor = 1 + arena_factor_value(&b, &root_value, 0);
        c->arena_base = 256;
    }
    if (b.failed) {
        cc_tables_free(t);
        return NULL;
    }
    return t;
}

void cc_tables_free(cc_tables_t *t)
{
    if (!t)
        return;
    pool_node_t *n = t->pool_;
    while (n) {
        pool_node_t *next = n->next;
        free(n);
        n = next;
    }
    free(t->objects);
    free(t->enums);
    free(t->dfas);
    free(t->items);
    free(t->alternatives);
    free(t);
}
