/* SPDX-License-Identifier: MIT */
/*
 * gen_toolset.c - NAME.h and NAME.c of a generated toolset: several
 * contracts as one set of tools, routed by tool name (docs/tools.md,
 * "Generated toolsets"; `contractc toolset`).
 *
 * The files hold no tables of their own: a const contractc_toolset_t over
 * the contracts' NAME_contract descriptors, a NAME_call_t that is a tool
 * tag plus a union of the contracts' records, and four small functions
 * over contractc_toolset_parse and contractc_loop_run_toolset (templates/
 * toolset.h.tmpl and toolset.c.tmpl).  The runtime writes one record of a
 * set at a time, so the records may share the union's storage.
 *
 * Names: each contract owns the C prefix `NAME_` (its types, functions and
 * texts), and so does the toolset; a toolset name is refused when it is a
 * member's name or one name is the other's prefix up to an underscore
 * (`lookup` and `lookup_order`): lookup_call_t could then be either's.
 * Names the runtime owns (contractc...) and names whose NAME.h would hide
 * a standard header are refused as for contracts (reserved.c).
 */
#include "generator.h"

#include <stdlib.h>
#include <string.h>

#include "lexical.h"
#include "reserved.h"

/* True when `a` followed by '_' begins `b`: b is in a's C namespace. */
static bool owns_prefix(const char *a, const char *b)
{
    size_t n = strlen(a);
    return strncmp(a, b, n) == 0 && b[n] == '_';
}

bool cc_toolset_name_ok(const char *name, const cc_toolset_member_t *members, size_t count,
                        char *why, size_t why_size)
{
    size_t n = name ? strlen(name) : 0;
    bool lower = n > 0 && name[0] >= 'a' && name[0] <= 'z';
    for (size_t i = 0; lower && i < n; i++)
        lower = (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') ||
                name[i] == '_';
    if (!lower || n > 64 || cc_is_c_keyword(name)) {
        snprintf(why, why_size,
                 "the toolset name '%s' is not [a-z][a-z0-9_]* of at most 64 characters, or is "
                 "a C keyword: it names the toolset's files and C identifiers",
                 name ? name : "");
        return false;
    }
    if (cc_has_runtime_prefix(name) || cc_shadows_header(name)) {
        snprintf(why, why_size,
                 "the toolset name '%s' is reserved: %s", name,
                 cc_has_runtime_prefix(name)
                     ? "names starting with 'contractc' are the runtime's own"
                     : "its header NAME.h would hide the standard header of that name");
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        if (strcmp(members[i].name, name) == 0 || owns_prefix(name, members[i].name) ||
            owns_prefix(members[i].name, name)) {
            /* a name that passes, to suggest (none when all these clash) */
            static const char *const ideas[] = {"tools", "toolset", "agent_tools", "my_tools"};
            const char *idea = NULL;
            char ignored[8];
            for (size_t k = 0; !idea && k < sizeof ideas / sizeof ideas[0]; k++)
                if (strcmp(ideas[k], name) != 0 &&
                    cc_toolset_name_ok(ideas[k], members, count, ignored, sizeof ignored))
                    idea = ideas[k];
            snprintf(why, why_size,
                     "the toolset name '%s' and the contract '%s' share a C prefix (each owns "
                     "NAME_...): name the toolset apart from its contracts%s%s%s",
                     name, members[i].name, idea ? ", e.g. '" : "", idea ? idea : "",
                     idea ? "'" : "");
            return false;
        }
        for (size_t k = 0; k < i; k++)
            if (strcmp(members[k].name, members[i].name) == 0) {
                snprintf(why, why_size,
                         "two contracts named '%s': a tool is called by its contract's name, "
                         "so the names of a toolset must differ",
                         members[i].name);
                return false;
            }
    }
    if (count == 0) {
        snprintf(why, why_size, "a toolset needs at least one contract");
        return false;
    }
    return true;
}

bool cc_emit_toolset(const char *name, const cc_toolset_member_t *members, size_t count,
                     char **header, size_t *header_len, char **source, size_t *source_len)
{
    *header = *source = NULL;
    char *up = cc_upper(name);
    cc_buf_t files = CC_BUF_INIT, doc = CC_BUF_INIT, includes = CC_BUF_INIT,
             enums = CC_BUF_INIT, unions = CC_BUF_INIT, tools = CC_BUF_INIT,
             records = CC_BUF_INIT, guard = CC_BUF_INIT, hb = CC_BUF_INIT, sb = CC_BUF_INIT;
    for (size_t i = 0; up && i < count; i++) {
        const cc_toolset_member_t *m = &members[i];
        char *mup = cc_upper(m->name);
        if (!mup) {
            free(up);
            up = NULL;
            break;
        }
        cc_buf_printf(&files, "%s%s", i ? " " : "", m->file_name);
        cc_buf_printf(&doc, " *   %s  %s  (%s)\n", m->name, m->hash, m->file_name);
        cc_buf_printf(&includes, "#include \"%s.h\"\n", m->name);
        cc_buf_printf(&enums, "    %s_TOOL_%s = %zu,\n", up, mup, i + 1);
        cc_buf_printf(&unions, "        %s_t %s;\n", m->name, m->name);
        cc_buf_printf(&tools, "    {&%s_contract, NULL},\n", m->name);
        cc_buf_printf(&records, "%s&(call)->as.%s", i ? ", " : "", m->name);
        free(mup);
    }
    bool ok = false;
    if (up) {
        cc_buf_printf(&guard, "%s_H", up);
        const char *keys[] = {"file",  "version", "contract_files", "members_doc",
                              "guard", "upper",   "includes",       "enum_values",
                              "union_members", "first_tool", "tools", "records"};
        const char *values[] = {name,
                                CONTRACTC_VERSION,
                                files.data ? files.data : "",
                                doc.data ? doc.data : "",
                                guard.data ? guard.data : "",
                                up,
                                includes.data ? includes.data : "",
                                enums.data ? enums.data : "",
                                unions.data ? unions.data : "",
                                count ? members[0].name : "",
                                tools.data ? tools.data : "",
                                records.data ? records.data : ""};
        size_t n = sizeof keys / sizeof keys[0];
        ok = !files.failed && !doc.failed && !includes.failed && !enums.failed &&
             !unions.failed && !tools.failed && !records.failed && !guard.failed &&
             cc_render_template("toolset.h.tmpl", keys, values, n, &hb) &&
             cc_render_template("toolset.c.tmpl", keys, values, n, &sb);
    }
    if (ok) {
        *header = cc_buf_take(&hb, header_len);
        *source = cc_buf_take(&sb, source_len);
        ok = *header && *source;
        if (!ok) {
            free(*header);
            free(*source);
            *header = *source = NULL;
        }
    }
    cc_buf_free(&files);
    cc_buf_free(&doc);
    cc_buf_free(&includes);
    cc_buf_free(&enums);
    cc_buf_free(&unions);
    cc_buf_free(&tools);
    cc_buf_free(&records);
    cc_buf_free(&guard);
    cc_buf_free(&hb);
    cc_buf_free(&sb);
    free(up);
    return ok;
}
