/* SPDX-License-Identifier: MIT */
/*
 * toolset.c - a tool call routed by name to its contract and parsed there
 * (contractc.h, "Toolsets"; docs/tools.md).
 *
 * The route is a linear search over the set's names: a request offers a
 * handful of tools (Anthropic allows 20 strict ones), so a table would
 * cost more to build than it saves.  A call that names no tool of the set,
 * or no tool at all, is one document-level problem, `unknown_tool` at "$",
 * like the reader's: nothing of the arguments is read, because no contract
 * says what they should be.
 */
#include "contractc/contractc.h"

#include <string.h>

#include "internal.h"

/* The tool's name: its own, else its contract's. */
static const char *toolset_name(const contractc_tool_t *t)
{
    return t->name ? t->name : t->contract ? t->contract->name : NULL;
}

size_t contractc_toolset_find(const contractc_toolset_t *set, const char *name, size_t name_len)
{
    if (!set || !name || !set->tools)
        return CONTRACTC_TOOL_NONE;
    for (size_t i = 0; i < set->count; i++) {
        const char *n = toolset_name(&set->tools[i]);
        if (n && strlen(n) == name_len && memcmp(n, name, name_len) == 0)
            return i;
    }
    return CONTRACTC_TOOL_NONE;
}

/* True when the model's name can be quoted in the repair turn: 1 to 64
 * printable ASCII bytes, no quote or backslash (a provider's tool names
 * are [A-Za-z0-9_.:-]; anything else is said without its bytes). */
static bool toolset_quotable(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 64)
        return false;
    for (size_t i = 0; i < n; i++)
        if (name[i] < 0x20 || name[i] > 0x7e || name[i] == '\'' || name[i] == '\\')
            return false;
    return true;
}

/* The unknown_tool problem: the message names the model's tool (when it
 * can be quoted) and the set's tools; the log's message only the set's. */
static contractc_status_t toolset_unknown(const contractc_toolset_t *set, const char *name,
                                          contractc_problems_t *problems)
{
    const contractc_allocator_t *a = set->options ? set->options->allocator : NULL;
    cc_str_t m, log;
    cc_str_init(&m, a);
    cc_str_init(&log, a);
    const char *what = !name ? "no tool was called; call one of the tools"
                             : "the tool called is not one of the tools offered; call one of";
    if (name && toolset_quotable(name)) {
        cc_str_puts(&m, "there is no tool '");
        cc_str_puts(&m, name);
        cc_str_puts(&m, "'; call one of");
    } else {
        cc_str_puts(&m, what);
    }
    cc_str_puts(&log, what);
    for (size_t i = 0; i < set->count; i++) {
        const char *sep = i == 0 ? ": " : i + 1 == set->count ? " or " : ", ";
        cc_str_puts(&m, sep);
        cc_str_puts(&m, toolset_name(&set->tools[i]));
        cc_str_puts(&log, sep);
        cc_str_puts(&log, toolset_name(&set->tools[i]));
    }
    bool ok = !m.failed && !log.failed &&
              cc_problems_add(problems, CONTRACTC_KIND_UNKNOWN_TOOL, "$", 1, m.data, m.len,
                              log.data, log.len, NULL, 0, 0);
    cc_str_free(&m);
    cc_str_free(&log);
    return ok ? CONTRACTC_REJECTED : CONTRACTC_ENOMEM;
}

contractc_status_t contractc_toolset_parse(const contractc_toolset_t *set, const char *name,
                                           const char *args, size_t len, const char *source,
                                           size_t source_len, size_t *out_index,
                                           void *const *out_records,
                                           contractc_problems_t *problems)
{
    if (out_index)
        *out_index = CONTRACTC_TOOL_NONE;
    if (!problems)
        return CONTRACTC_EINVAL;
    if (!set || !out_index || !out_records || !set->tools || set->count == 0) {
        problems->error = "contractc_toolset_parse: NULL set, out_index or out_records, or an "
                          "empty set";
        return CONTRACTC_EINVAL;
    }
    for (size_t i = 0; i < set->count; i++) {
        const char *n = toolset_name(&set->tools[i]);
        if (!set->tools[i].contract || !n || !out_records[i]) {
            problems->error = "contractc_toolset_parse: a tool without a contract, a name or a "
                              "record";
            return CONTRACTC_EINVAL;
        }
        if (contractc_toolset_find(set, n, strlen(n)) != i) {
            problems->error = "contractc_toolset_parse: two tools of one name";
            return CONTRACTC_EINVAL;
        }
    }
    size_t i = name ? contractc_toolset_find(set, name, strlen(name)) : CONTRACTC_TOOL_NONE;
    if (i == CONTRACTC_TOOL_NONE)
        return toolset_unknown(set, name, problems);
    *out_index = i;
    const contractc_contract_t *k = set->tools[i].contract;
    return contractc_parse(k, args, len, k->needs_source ? source : NULL,
                           k->needs_source ? source_len : 0, set->options, out_records[i],
                           problems);
}
