/* SPDX-License-Identifier: MIT */
/*
 * repair.c - the repair turn sent after a rejection
 * (docs/contract-language.md, "The prompt"): the rejected reply stays just
 * above it in the transcript.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The first line after a rejected reply, and after a rejected tool call
 * (sent as the call's error result, docs/tools.md, "Tool calls in the
 * transcript"): the model is to call the tool again, not to answer in
 * text. */
static const char repair_first_line[] =
    "Your reply was rejected. Fix every problem and reply with the corrected JSON object only:\n";
static const char repair_first_line_tool_call[] =
    "Your tool call was rejected. Fix every problem and make the call again with the corrected "
    "arguments:\n";

/* The repair turn: `first_line`, then one line per problem. */
static contractc_status_t repair_turn(const char *first_line,
                                      const contractc_problems_t *problems, char **text,
                                      size_t *len)
{
    if (!problems || !text)
        return CONTRACTC_EINVAL;
    *text = NULL;
    cc_str_t s;
    cc_str_init(&s, NULL);
    cc_str_puts(&s, first_line);
    for (size_t i = 0; i < problems->count_; i++) {
        const contractc_problem_t *p = &problems->items_[i];
        cc_str_puts(&s, "- ");
        cc_str_puts(&s, p->path);
        cc_str_puts(&s, ": ");
        cc_str_puts(&s, p->message);
        cc_str_puts(&s, "\n");
    }
    if (problems->dropped) {
        cc_str_puts(&s, "- ... and ");
        cc_str_putu(&s, problems->dropped);
        cc_str_puts(&s, problems->dropped == 1 ? " more problem\n" : " more problems\n");
    }
    if (s.failed) {
        cc_str_free(&s);
        return CONTRACTC_ENOMEM;
    }
    if (len)
        *len = s.len;
    *text = s.data; /* cc_str_t with a NULL allocator uses malloc: free() it */
    return CONTRACTC_OK;
}

contractc_status_t contractc_repair_prompt(const contractc_problems_t *problems,
                                           char **text, size_t *len)
{
    return repair_turn(repair_first_line, problems, text, len);
}

contractc_status_t contractc_repair_prompt_tool_call(const contractc_problems_t *problems,
                                                     char **text, size_t *len)
{
    return repair_turn(repair_first_line_tool_call, problems, text, len);
}
