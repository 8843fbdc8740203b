/* SPDX-License-Identifier: MIT */
/*
 * model.c - the contract model's destructors and accessors (model.h).  It
 * calls nothing of the pipeline: the stages fill the model, load.c drives
 * them, and every later stage only reads it.
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

const char *cc_type_name(contractc_type_t type)
{
    switch (type) {
    case CONTRACTC_TYPE_STRING: return "string";
    case CONTRACTC_TYPE_INTEGER: return "integer";
    case CONTRACTC_TYPE_NUMBER: return "number";
    case CONTRACTC_TYPE_BOOLEAN: return "boolean";
    case CONTRACTC_TYPE_DECIMAL: return "decimal";
    case CONTRACTC_TYPE_ENUM: return "enum";
    case CONTRACTC_TYPE_DATE: return "date";
    case CONTRACTC_TYPE_DATETIME: return "datetime";
    case CONTRACTC_TYPE_OBJECT: return "object";
    case CONTRACTC_TYPE_ARRAY: return "array";
    case CONTRACTC_TYPE_MAP: return "map";
    case CONTRACTC_TYPE_UNION: return "union";
    case CONTRACTC_TYPE_JSON: return "json";
    case CONTRACTC_TYPE_VALUE_UNION: return "value union";
    default: break; /* the types of v2 name themselves where they are built */
    }
    return "?";
}

bool cc_type_has_len(contractc_type_t type)
{
    return type == CONTRACTC_TYPE_STRING || type == CONTRACTC_TYPE_JSON;
}

void cc_enum_free(cc_enum_t *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->count; i++) {
        free(e->values[i]);
        if (e->c_constants)
            free(e->c_constants[i]);
    }
    free(e->values);
    free(e->value_marks);
    free(e->c_constants);
    if (e->c_names)
        for (size_t i = 0; i < e->count; i++)
            free(e->c_names[i]);
    free(e->c_names);
    free(e->c_name_marks);
    free(e->type_name);
    free(e->c_type);
    free(e->c_prefix);
    free(e->c_name_function);
    free(e->c_from_name_function);
    free(e);
}

static void path_clear(cc_path_t *p) { free(p->text); }

static void rule_clear(cc_rule_t *r)
{
    free(r->id);
    free(r->prompt);
    for (size_t i = 0; i < r->field_count; i++)
        path_clear(&r->fields[i]);
    free(r->fields);
    path_clear(&r->of);
    path_clear(&r->equals);
    free(r->tolerance_text);
    path_clear(&r->left);
    path_clear(&r->right);
    free(r->function);
    free(r->message);
}

static void object_clear(cc_object_t *o)
{
    for (size_t i = 0; i < o->field_count; i++) {
        cc_field_t *f = &o->fields[i];
        free(f->name);
        free(f->description);
        free(f->format_text);
        free(f->example);
        free(f->c_member);
        free(f->c_name);
        free(f->c_stem);
        cc_value_clear(&f->value);
    }
    free(o->fields);
    for (size_t i = 0; i < o->rule_count; i++)
        rule_clear(&o->rules[i]);
    free(o->rules);
    free(o->type_name);
    free(o->c_type);
    free(o->c_struct);
}

void cc_object_free(cc_object_t *o)
{
    if (!o)
        return;
    object_clear(o);
    free(o);
}

void cc_value_clear(cc_value_t *v)
{
    free(v->pattern);
    cc_dfa_free(v->dfa);
    free(v->minimum_text);
    free(v->maximum_text);
    /* A `type: NAME` value points at the named type without owning it.
     * Decided by type_ref, never through the pointer: the named type may
     * already be freed. */
    if (!v->type_ref) {
        cc_enum_free(v->enumeration);
        cc_object_free(v->object);
    }
    if (v->items) {
        cc_value_clear(v->items);
        free(v->items);
    }
    free(v->type_ref);
    free(v->c_list_type);
    free(v->c_entry_type);
    for (size_t i = 0; i < v->variant_count; i++) {
        free(v->variants[i].name);
        free(v->variants[i].type_ref);
        free(v->variants[i].c_constant);
        free(v->variants[i].c_member);
    }
    free(v->variants);
    free(v->tag);
    free(v->c_union_type);
    free(v->c_union_struct);
    free(v->c_kind_type);
    free(v->c_kind_prefix);
    free(v->c_item_type);
    for (size_t i = 0; i < v->alternative_count; i++)
        cc_value_clear(&v->alternatives[i]);
    free(v->alternatives);
    free(v->c_alt_constant);
    memset(v, 0, sizeof *v);
}

void cc_contract_free(cc_contract_t *c)
{
    if (!c)
        return;
    free(c->path);
    free(c->file_name);
    free(c->name);
    free(c->description);
    free(c->instruction);
    free(c->source_name);
    free(c->source_description);
    for (size_t i = 0; i < c->type_count; i++) {
        free(c->types[i].name);
        cc_object_free(c->types[i].object);
        cc_enum_free(c->types[i].enumeration);
    }
    free(c->types);
    object_clear(&c->root);
    free(c->default_dialect);
    free(c);
}

const cc_field_t *cc_path_field(const cc_object_t *owner, const cc_path_t *path)
{
    if (!owner || !path || path->step_count == 0)
        return NULL;
    const cc_object_t *o = owner;
    const cc_field_t *f = NULL;
    for (size_t i = 0; i < path->step_count; i++) {
        if (!o || path->steps[i] >= o->field_count)
            return NULL;
        f = &o->fields[path->steps[i]];
        const cc_value_t *v = &f->value;
        if (v->type == CONTRACTC_TYPE_ARRAY && v->items)
            v = v->items;
        o = v->type == CONTRACTC_TYPE_OBJECT ? v->object : NULL;
    }
    return f;
}

/* Whether an object, or a value inside it, uses what ABI 2 added. */
static bool object_needs_abi2(const cc_object_t *o);

static bool value_needs_abi2(const cc_value_t *v)
{
    for (; v; v = v->items) {
        if (v->type == CONTRACTC_TYPE_UNION || v->type == CONTRACTC_TYPE_MAP ||
            v->type == CONTRACTC_TYPE_VALUE_UNION)
            return true;
        if (v->type == CONTRACTC_TYPE_OBJECT && v->object && !v->object->named)
            return object_needs_abi2(v->object);
        if (v->type != CONTRACTC_TYPE_ARRAY)
            return false;
        if (v->items && v->items->nullable)
            return true;
    }
    return false;
}

static bool object_needs_abi2(const cc_object_t *o)
{
    for (size_t i = 0; o && i < o->field_count; i++)
        if (o->fields[i].optional || value_needs_abi2(&o->fields[i].value))
            return true;
    return false;
}

uint32_t cc_contract_abi(const cc_contract_t *c)
{
    bool v2 = object_needs_abi2(&c->root);
    for (size_t i = 0; !v2 && i < c->type_count; i++)
        v2 = object_needs_abi2(c->types[i].object);
    return v2 ? 2u : 1u;
}
