/* SPDX-License-Identifier: MIT */
/*
 * loop.c - the transcript and the repair loop (docs/contract-language.md
 * §9, "The prompt", and §14, "The repair loop").
 *
 * The loop is generic over a contract's descriptor tables and knows nothing
 * about networks: the model is a function the caller supplies.  What it
 * guarantees is the shape of the conversation after a rejection -- the
 * rejected reply as the assistant turn, then the repair turn with every
 * problem -- so that the model sees exactly what it said just above the
 * complaint, and that every attempt ends up in the decision in the terms of
 * the log (path, kind, rule; never a reply value).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "reader.h"

const char *contractc_role_name(contractc_role_t role)
{
    switch (role) {
    case CONTRACTC_ROLE_SYSTEM: return "system";
    case CONTRACTC_ROLE_USER: return "user";
    case CONTRACTC_ROLE_ASSISTANT: return "assistant";
    case CONTRACTC_ROLE_TOOL: return "tool";
    }
    return "?";
}

/* The reader's UTF-8 rule (cc_utf8_valid_prefix), public. */
size_t contractc_utf8_valid_prefix(const char *text, size_t len)
{
    return text ? cc_utf8_valid_prefix((const unsigned char *)text, len) : 0;
}

const char *contractc_attempt_outcome_name(contractc_attempt_outcome_t outcome)
{
    switch (outcome) {
    case CONTRACTC_ATTEMPT_ACCEPTED: return "accepted";
    case CONTRACTC_ATTEMPT_REJECTED: return "rejected";
    case CONTRACTC_ATTEMPT_MODEL_ERROR: return "model_error";
    case CONTRACTC_ATTEMPT_TRUNCATED: return "truncated";
    case CONTRACTC_ATTEMPT_REFUSED: return "refused";
    case CONTRACTC_ATTEMPT_FILTERED: return "filtered";
    }
    return "?";
}

const char *contractc_outcome_name(contractc_outcome_t outcome)
{
    switch (outcome) {
    case CONTRACTC_OUTCOME_ACCEPTED: return "accepted";
    case CONTRACTC_OUTCOME_ESCALATED: return "escalated";
    case CONTRACTC_OUTCOME_FAILED: return "failed";
    case CONTRACTC_OUTCOME_TRUNCATED: return "truncated";
    case CONTRACTC_OUTCOME_REFUSED: return "refused";
    case CONTRACTC_OUTCOME_FILTERED: return "filtered";
    }
    return "?";
}

const char *contractc_error_class_name(contractc_error_class_t error_class)
{
    switch (error_class) {
    case CONTRACTC_ERROR_CLASS_NONE: return NULL;
    case CONTRACTC_ERROR_CLASS_TIMEOUT: return "timeout";
    case CONTRACTC_ERROR_CLASS_NETWORK: return "network";
    case CONTRACTC_ERROR_CLASS_HTTP_429: return "http_429";
    case CONTRACTC_ERROR_CLASS_HTTP_5XX: return "http_5xx";
    case CONTRACTC_ERROR_CLASS_AUTH: return "auth";
    case CONTRACTC_ERROR_CLASS_BAD_REQUEST: return "bad_request";
    case CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE: return "malformed_response";
    }
    return NULL;
}

/* ---- transcript --------------------------------------------------------- */

void contractc_transcript_init(contractc_transcript_t *transcript,
                               const contractc_allocator_t *allocator)
{
    if (!transcript)
        return;
    memset(transcript, 0, sizeof *transcript);
    transcript->allocator_ = allocator;
}

void contractc_transcript_clear(contractc_transcript_t *transcript)
{
    if (!transcript)
        return;
    const contractc_allocator_t *a = transcript->allocator_;
    for (size_t i = 0; i < transcript->count_; i++) {
        contractc_message_t *m = &transcript->items_[i];
        cc_free(a, m->text, m->len + 1);
        if (m->tool_call_id)
            cc_free(a, m->tool_call_id, strlen(m->tool_call_id) + 1);
        if (m->tool_name)
            cc_free(a, m->tool_name, strlen(m->tool_name) + 1);
    }
    cc_free(a, transcript->items_, transcript->capacity_ * sizeof *transcript->items_);
    transcript->items_ = NULL;
    transcript->count_ = transcript->capacity_ = 0;
}

/* Appends a message whose text is the concatenation of up to three parts;
 * the first-turn builder needs that, and one allocation keeps it simple. */
static contractc_status_t transcript_add3(contractc_transcript_t *t, contractc_role_t role,
                                          const char *p1, size_t n1, const char *p2,
                                          size_t n2, const char *p3, size_t n3)
{
    if (!t || role < CONTRACTC_ROLE_SYSTEM || role > CONTRACTC_ROLE_TOOL)
        return CONTRACTC_EINVAL;
    if ((!p1 && n1) || (!p2 && n2) || (!p3 && n3))
        return CONTRACTC_EINVAL;
    if (t->count_ >= CONTRACTC_TRANSCRIPT_MAX_MESSAGES)
        return CONTRACTC_EINVAL;
    if (n1 > SIZE_MAX - n2 - n3 - 1 || n2 > SIZE_MAX - n3 - 1)
        return CONTRACTC_ENOMEM;
    const contractc_allocator_t *a = t->allocator_;
    if (t->count_ == t->capacity_) {
        size_t cap = t->capacity_ ? t->capacity_ * 2 : 8;
        contractc_message_t *items = cc_alloc(a, cap * sizeof *items);
        if (!items)
            return CONTRACTC_ENOMEM;
        if (t->count_)
            memcpy(items, t->items_, t->count_ * sizeof *items);
        cc_free(a, t->items_, t->capacity_ * sizeof *items);
        t->items_ = items;
        t->capacity_ = cap;
    }
    size_t len = n1 + n2 + n3;
    char *text = cc_alloc(a, len + 1);
    if (!text)
        return CONTRACTC_ENOMEM;
    if (n1)
        memcpy(text, p1, n1);
    if (n2)
        memcpy(text + n1, p2, n2);
    if (n3)
        memcpy(text + n1 + n2, p3, n3);
    text[len] = '\0';
    contractc_message_t *m = &t->items_[t->count_++];
    memset(m, 0, sizeof *m);
    m->role = role;
    m->text = text;
    m->len = len;
    return CONTRACTC_OK;
}

static char *dup_str(const contractc_allocator_t *a, const char *s);

/* Gives the last message (just added) its tool call id and tool name;
 * out of memory, the message is taken back. */
static contractc_status_t tag_last(contractc_transcript_t *t, const char *id, const char *name,
                                   bool is_error)
{
    contractc_message_t *m = &t->items_[t->count_ - 1];
    m->is_error = is_error;
    m->tool_call_id = dup_str(t->allocator_, id);
    m->tool_name = name && m->tool_call_id ? dup_str(t->allocator_, name) : NULL;
    if (m->tool_call_id && (!name || m->tool_name))
        return CONTRACTC_OK;
    if (m->tool_call_id)
        cc_free(t->allocator_, m->tool_call_id, strlen(m->tool_call_id) + 1);
    cc_free(t->allocator_, m->text, m->len + 1);
    t->count_--;
    return CONTRACTC_ENOMEM;
}

contractc_status_t contractc_transcript_add_tool_call(contractc_transcript_t *transcript,
                                                      const char *id, const char *name,
                                                      const char *args, size_t len)
{
    if (!id || !id[0] || !name || !name[0])
        return CONTRACTC_EINVAL;
    contractc_status_t st =
        transcript_add3(transcript, CONTRACTC_ROLE_ASSISTANT, args, len, NULL, 0, NULL, 0);
    return st == CONTRACTC_OK ? tag_last(transcript, id, name, false) : st;
}

contractc_status_t contractc_transcript_add_tool_result(contractc_transcript_t *transcript,
                                                        const char *id, const char *text,
                                                        size_t len, bool is_error)
{
    if (!id || !id[0])
        return CONTRACTC_EINVAL;
    contractc_status_t st =
        transcript_add3(transcript, CONTRACTC_ROLE_TOOL, text, len, NULL, 0, NULL, 0);
    return st == CONTRACTC_OK ? tag_last(transcript, id, NULL, is_error) : st;
}

contractc_status_t contractc_transcript_add(contractc_transcript_t *transcript,
                                            contractc_role_t role,
                                            const char *text, size_t len)
{
    if (role == CONTRACTC_ROLE_TOOL) /* a result needs its call's id */
        return CONTRACTC_EINVAL;
    return transcript_add3(transcript, role, text, len, NULL, 0, NULL, 0);
}

#define CC_LOOP_SOURCE_MAX CONTRACTC_MAX_SOURCE_BYTES /* as contractc_parse */

contractc_status_t contractc_transcript_begin(contractc_transcript_t *transcript,
                                              const contractc_contract_t *contract,
                                              const char *prompt, size_t prompt_len,
                                              const char *source, size_t source_len)
{
    if (!transcript || !contract || (!prompt && prompt_len))
        return CONTRACTC_EINVAL;
    if (!contract->needs_source) {
        if (source)
            return CONTRACTC_EINVAL;
        return transcript_add3(transcript, CONTRACTC_ROLE_USER, prompt, prompt_len, NULL, 0,
                               NULL, 0);
    }
    if (!source || source_len > CC_LOOP_SOURCE_MAX ||
        !cc_utf8_valid((const unsigned char *)source, source_len))
        return CONTRACTC_EINVAL;
    /* "Here is the customer email:" -- the source's description is written
     * for the prompt ("the customer email"), so it reads as a phrase. */
    cc_str_t head;
    cc_str_init(&head, transcript->allocator_);
    if (prompt_len && prompt[prompt_len - 1] != '\n')
        cc_str_puts(&head, "\n");
    cc_str_puts(&head, "\nHere is ");
    cc_str_puts(&head, contract->source_name ? contract->source_name : "the source text");
    cc_str_puts(&head, ":\n\n");
    if (head.failed) {
        cc_str_free(&head);
        return CONTRACTC_ENOMEM;
    }
    contractc_status_t st = transcript_add3(transcript, CONTRACTC_ROLE_USER, prompt, prompt_len,
                                            head.data, head.len, source, source_len);
    cc_str_free(&head);
    return st;
}

size_t contractc_transcript_count(const contractc_transcript_t *transcript)
{
    return transcript ? transcript->count_ : 0;
}

const contractc_message_t *contractc_transcript_at(const contractc_transcript_t *transcript,
                                                   long index)
{
    if (!transcript)
        return NULL;
    size_t n = transcript->count_;
    if (index >= 0) {
        return (size_t)index < n ? &transcript->items_[index] : NULL;
    }
    /* -1 is the last: -(index + 1) avoids negating LONG_MIN. */
    size_t back = (size_t)(-(index + 1)) + 1;
    return back <= n ? &transcript->items_[n - back] : NULL;
}

/* ---- decision ------------------------------------------------------------ */

static void attempt_free(const contractc_allocator_t *a, contractc_attempt_t *at)
{
    for (size_t i = 0; i < at->problem_count; i++) {
        contractc_logged_problem_t *p = &at->problems[i];
        if (p->path)
            cc_free(a, p->path, strlen(p->path) + 1);
        if (p->rule)
            cc_free(a, p->rule, strlen(p->rule) + 1);
    }
    cc_free(a, at->problems, at->problem_count * sizeof *at->problems);
    at->problems = NULL;
    at->problem_count = 0;
    if (at->refusal)
        cc_free(a, at->refusal, at->refusal_len + 1);
    at->refusal = NULL;
    at->refusal_len = 0;
    for (size_t i = 0; i < at->tool_call_count; i++)
        if (at->tool_calls[i].tool)
            cc_free(a, at->tool_calls[i].tool, strlen(at->tool_calls[i].tool) + 1);
    cc_free(a, at->tool_calls, at->tool_call_count * sizeof *at->tool_calls);
    at->tool_calls = NULL;
    at->tool_call_count = 0;
}

void contractc_decision_free(contractc_decision_t *decision)
{
    if (!decision)
        return;
    const contractc_allocator_t *a = decision->allocator_;
    for (size_t i = 0; i < decision->attempt_count; i++)
        attempt_free(a, &decision->attempts[i]);
    cc_free(a, decision->attempts, decision->attempt_capacity_ * sizeof *decision->attempts);
    memset(decision, 0, sizeof *decision);
}

static char *dup_str(const contractc_allocator_t *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = cc_alloc(a, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Copies what the log may keep of each problem: path, kind, rule id. */
static bool attempt_keep_problems(const contractc_allocator_t *a, contractc_attempt_t *at,
                                  const contractc_problems_t *problems)
{
    size_t n = contractc_problems_count(problems);
    size_t had = at->problem_count; /* a turn of tool calls appends each call's */
    at->dropped += problems->dropped;
    if (n == 0)
        return true;
    contractc_logged_problem_t *items = cc_alloc(a, (had + n) * sizeof *items);
    if (!items)
        return false;
    memset(items, 0, (had + n) * sizeof *items);
    if (had)
        memcpy(items, at->problems, had * sizeof *items);
    cc_free(a, at->problems, had * sizeof *items);
    at->problems = items;
    /* The whole array counts from here, so a failure below frees what was
     * copied, and frees the array at the size it was allocated with. */
    at->problem_count = had + n;
    for (size_t i = 0; i < n; i++) {
        const contractc_problem_t *p = contractc_problems_at(problems, i);
        contractc_logged_problem_t *q = &at->problems[had + i];
        q->kind = p->kind;
        q->path = dup_str(a, p->path ? p->path : "$");
        if (!q->path)
            return false;
        if (p->rule && !(q->rule = dup_str(a, p->rule)))
            return false;
    }
    return true;
}

/* Copies a NUL-terminated text into a fixed buffer, cut to fit at a UTF-8
 * boundary. */
static void copy_fixed(char *dst, size_t size, const char *src, size_t max_src)
{
    size_t n = 0;
    while (n < max_src && src[n])
        n++;
    if (n > size - 1) {
        n = size - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* The longest prefix of at most `max` bytes that does not split a UTF-8
 * sequence (the bytes before a cut need not be valid UTF-8 themselves). */
static size_t utf8_cut(const char *text, size_t len, size_t max)
{
    if (len <= max)
        return len;
    size_t n = max;
    for (int back = 0; back < 3 && n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80; back++)
        n--;
    return n;
}

/* Appends the rejected reply as the assistant turn, cut to `max` bytes at a
 * UTF-8 boundary with the marker "\n[... N bytes cut]" when it is longer:
 * one bad answer must not grow every later request without bound, and the
 * model must see that what it is shown is not all it wrote.  A reply the
 * model function stopped receiving at DEAD (`stopped`, §18) ends with
 * "\n[... reply stopped here]": the end it sees is where reading stopped,
 * not where it stopped writing. */
static contractc_status_t add_echo(contractc_transcript_t *t, const char *text, size_t len,
                                   size_t max, bool stopped)
{
    size_t keep = utf8_cut(text, len, max);
    if (keep == len && !stopped)
        return contractc_transcript_add(t, CONTRACTC_ROLE_ASSISTANT, text, len);
    char marker[96];
    cc_str_t m;
    cc_str_init_buf(&m, t->allocator_, marker, sizeof marker);
    if (keep < len) {
        cc_str_puts(&m, "\n[... ");
        cc_str_putu(&m, len - keep);
        cc_str_puts(&m, " bytes cut]");
    }
    if (stopped)
        cc_str_puts(&m, "\n[... reply stopped here]");
    contractc_status_t st =
        m.failed ? CONTRACTC_ENOMEM
                 : transcript_add3(t, CONTRACTC_ROLE_ASSISTANT, text, keep, m.data, m.len, NULL, 0);
    cc_str_free(&m);
    return st;
}

/* The stop reasons that are not wrong answers (docs/contract-language.md,
 * "Outcomes that are not wrong answers"): 0 for any other. */
static contractc_attempt_outcome_t stop_outcome(const char *finish_reason)
{
    if (strcmp(finish_reason, "length") == 0 || strcmp(finish_reason, "max_tokens") == 0)
        return CONTRACTC_ATTEMPT_TRUNCATED;
    if (strcmp(finish_reason, "refusal") == 0)
        return CONTRACTC_ATTEMPT_REFUSED;
    if (strcmp(finish_reason, "content_filter") == 0)
        return CONTRACTC_ATTEMPT_FILTERED;
    return (contractc_attempt_outcome_t)0;
}

static contractc_outcome_t outcome_of(contractc_attempt_outcome_t stop)
{
    switch (stop) {
    case CONTRACTC_ATTEMPT_REFUSED: return CONTRACTC_OUTCOME_REFUSED;
    case CONTRACTC_ATTEMPT_FILTERED: return CONTRACTC_OUTCOME_FILTERED;
    default: return CONTRACTC_OUTCOME_TRUNCATED;
    }
}

/* ---- a turn of tool calls ------------------------------------------------ */

/*
 * What one run reads tool calls with.  contractc_loop_run makes a one-tool
 * set of its contract (named loop->tool_name or the contract's name) and
 * one record, `out`; contractc_loop_run_toolset takes the caller's set and
 * records.  The set's options are the loop's, so one allocator and one set
 * of limits serve every parse of a run.
 */
typedef struct run_tools {
    contractc_toolset_t set;
    void *const *records;  /* set.count records, as contractc_toolset_parse takes */
    void **scratch;        /* set.count pointers to one scratch record */
    size_t scratch_size;   /* bytes of the scratch record: the largest record */
    bool text_is_call;     /* a toolset run: a text reply called no tool */
} run_tools_t;

/* The name tool `which` of the set is called by. */
static const char *run_tool_name(const run_tools_t *rt, size_t which)
{
    const contractc_tool_t *tool = &rt->set.tools[which];
    return tool->name ? tool->name : tool->contract->name;
}

/* Routes call `call` through the run's set and validates its arguments
 * into records[*which] (contractc_toolset_parse); its problems in
 * `problems` (cleared first).  OK or REJECTED, or a failure status. */
static contractc_status_t tool_parse(const run_tools_t *rt, const contractc_reply_tool_call_t *call,
                                     const char *source, size_t source_len,
                                     void *const *records, size_t *which,
                                     contractc_problems_t *problems)
{
    contractc_problems_clear(problems);
    *which = CONTRACTC_TOOL_NONE;
    if (!call->arguments && call->arguments_len)
        return CONTRACTC_EINVAL;
    return contractc_toolset_parse(&rt->set, call->name, call->arguments ? call->arguments : "",
                                   call->arguments_len, source, source_len, which, records,
                                   problems);
}

/* The reply's calls as the transcript can keep them: ids and names,
 * arguments' bytes, and few enough for two messages each. */
static bool tool_calls_usable(const contractc_model_reply_t *reply)
{
    if (!reply->tool_calls || reply->tool_call_count > CONTRACTC_TRANSCRIPT_MAX_MESSAGES / 2)
        return false;
    for (size_t k = 0; k < reply->tool_call_count; k++) {
        const contractc_reply_tool_call_t *call = &reply->tool_calls[k];
        if (!call->tool_call_id || !call->tool_call_id[0] || !call->name || !call->name[0] ||
            (!call->arguments && call->arguments_len))
            return false;
    }
    return true;
}

/*
 * Reads every call of the reply: the first accepted call's record is
 * rt->records[*first] when every call is accepted (*first stays
 * CONTRACTC_TOOL_NONE otherwise); the attempt gets one tool_calls entry
 * per call and every rejected call's problems (`last` the first rejected
 * call's, for the escalation); *routed is the tool of the first call that
 * named one of the set.  The calls are appended as tool-call messages
 * either way (*last_index: the first rejected call's message).  *rejected
 * says whether any call was.  Returns CONTRACTC_OK or a failure status.
 */
static contractc_status_t tool_turn(const contractc_loop_t *loop, const run_tools_t *rt,
                                    contractc_transcript_t *t,
                                    const contractc_model_reply_t *reply, const char *source,
                                    size_t source_len, size_t *first, size_t *routed,
                                    contractc_attempt_t *at, size_t echo_max,
                                    contractc_problems_t *last, bool *rejected,
                                    size_t *last_index)
{
    const contractc_allocator_t *a = rt->set.options ? rt->set.options->allocator : NULL;
    const size_t n = reply->tool_call_count; /* tool_calls_usable holds */
    *first = *routed = CONTRACTC_TOOL_NONE;
    if (!(at->tool_calls = cc_alloc(a, n * sizeof *at->tool_calls)))
        return CONTRACTC_ENOMEM;
    memset(at->tool_calls, 0, n * sizeof *at->tool_calls);
    at->tool_call_count = n;
    contractc_problems_t problems;
    contractc_problems_init_with(&problems, loop->problem_cap, a);
    contractc_status_t st = CONTRACTC_OK;
    bool have_last = false;
    *rejected = false;
    for (size_t k = 0; k < n; k++) {
        const contractc_reply_tool_call_t *call = &reply->tool_calls[k];
        /* The first accepted call fills its tool's record; the others are
         * checked in the scratch record and freed. */
        size_t which;
        st = tool_parse(rt, call, source, source_len,
                        *first == CONTRACTC_TOOL_NONE ? rt->records : rt->scratch, &which,
                        &problems);
        at->fenced = at->fenced || problems.fenced;
        if (which != CONTRACTC_TOOL_NONE) {
            if (*routed == CONTRACTC_TOOL_NONE)
                *routed = which;
            if (!(at->tool_calls[k].tool = dup_str(a, run_tool_name(rt, which)))) {
                if (st == CONTRACTC_OK)
                    contractc_record_free(rt->set.tools[which].contract,
                                          *first == CONTRACTC_TOOL_NONE ? rt->records[which]
                                                                        : rt->scratch[which]);
                st = CONTRACTC_ENOMEM;
                break;
            }
        }
        if (st == CONTRACTC_OK) {
            if (*first != CONTRACTC_TOOL_NONE)
                contractc_record_free(rt->set.tools[which].contract, rt->scratch[which]);
            else
                *first = which;
        } else if (st == CONTRACTC_REJECTED) {
            *rejected = true;
            at->tool_calls[k].problems = contractc_problems_count(&problems) + problems.dropped;
            if (!attempt_keep_problems(a, at, &problems)) {
                st = CONTRACTC_ENOMEM;
                break;
            }
            if (!have_last) {
                contractc_problems_t swap = *last;
                *last = problems;
                problems = swap;
                have_last = true;
                *last_index = t->count_ + k;
            }
        } else {
            break;
        }
        st = CONTRACTC_OK;
    }
    /* A rejected turn's calls are echoed as a rejected reply is (cut to
     * echo_max bytes, with the marker); an accepted turn's are kept whole. */
    for (size_t k = 0; st == CONTRACTC_OK && k < n; k++) {
        const contractc_reply_tool_call_t *call = &reply->tool_calls[k];
        if (!*rejected) {
            st = contractc_transcript_add_tool_call(t, call->tool_call_id, call->name,
                                                    call->arguments, call->arguments_len);
            continue;
        }
        st = add_echo(t, call->arguments ? call->arguments : "", call->arguments_len, echo_max,
                      false);
        if (st == CONTRACTC_OK)
            st = tag_last(t, call->tool_call_id, call->name, false);
    }
    if (*first != CONTRACTC_TOOL_NONE && (*rejected || st != CONTRACTC_OK)) {
        /* the record stays zeroed */
        contractc_record_free(rt->set.tools[*first].contract, rt->records[*first]);
        *first = CONTRACTC_TOOL_NONE;
    }
    contractc_problems_clear(&problems);
    return st;
}

/* After a rejected turn of tool calls: one tool result per call, in the
 * calls' order -- a rejected call's repair turn for a tool call (is_error),
 * an accepted one's CONTRACTC_REPAIR_NOT_RUN.  Each call is read again for
 * its own repair turn (the attempt kept only the log's terms). */
static contractc_status_t tool_results(const contractc_loop_t *loop, const run_tools_t *rt,
                                       contractc_transcript_t *t,
                                       const contractc_model_reply_t *reply,
                                       const contractc_attempt_t *at, const char *source,
                                       size_t source_len)
{
    const contractc_allocator_t *a = rt->set.options ? rt->set.options->allocator : NULL;
    contractc_problems_t problems;
    contractc_problems_init_with(&problems, loop->problem_cap, a);
    contractc_status_t st = CONTRACTC_OK;
    for (size_t k = 0; st == CONTRACTC_OK && k < reply->tool_call_count; k++) {
        const contractc_reply_tool_call_t *call = &reply->tool_calls[k];
        if (at->tool_calls[k].problems == 0) {
            static const char not_run[] = CONTRACTC_REPAIR_NOT_RUN;
            st = contractc_transcript_add_tool_result(t, call->tool_call_id, not_run,
                                                      sizeof not_run - 1, false);
            continue;
        }
        size_t which;
        st = tool_parse(rt, call, source, source_len, rt->scratch, &which, &problems);
        if (st == CONTRACTC_OK) { /* cannot be: it was rejected above */
            contractc_record_free(rt->set.tools[which].contract, rt->scratch[which]);
            st = CONTRACTC_EINVAL;
            break;
        }
        if (st != CONTRACTC_REJECTED)
            break;
        char *turn = NULL;
        size_t turn_len = 0;
        st = contractc_repair_prompt_tool_call(&problems, &turn, &turn_len);
        if (st == CONTRACTC_OK)
            st = contractc_transcript_add_tool_result(t, call->tool_call_id, turn, turn_len, true);
        free(turn); /* contractc_repair_prompt_tool_call allocates with malloc */
    }
    contractc_problems_clear(&problems);
    return st;
}

/* ---- the loop ------------------------------------------------------------ */

/* Parses a text reply: with the run's one contract, or, in a toolset run,
 * as a call of no tool (one `unknown_tool` problem; no record is
 * touched). */
static contractc_status_t text_parse(const contractc_loop_t *loop, const run_tools_t *rt,
                                     const char *text, size_t len, const char *source,
                                     size_t source_len, contractc_problems_t *problems)
{
    if (rt->text_is_call) {
        size_t which;
        return contractc_toolset_parse(&rt->set, NULL, text, len, source, source_len, &which,
                                       rt->records, problems);
    }
    return contractc_parse(loop->contract, text, len, source, source_len, loop->options,
                           rt->records[0], problems);
}

/*
 * The loop over a set of tools (one tool and `contract`'s own text
 * replies for contractc_loop_run).  `rt` is checked by the callers, but
 * for its records and scratch, which this allocates.
 */
static contractc_status_t loop_run(const contractc_loop_t *loop, run_tools_t *rt,
                                   contractc_transcript_t *transcript, const char *source,
                                   size_t source_len, size_t *out_index,
                                   contractc_decision_t *decision)
{
    unsigned max_attempts = loop->max_attempts ? loop->max_attempts : CONTRACTC_LOOP_DEFAULT_ATTEMPTS;
    if (max_attempts > CONTRACTC_LOOP_MAX_ATTEMPTS)
        return CONTRACTC_EINVAL;
    const contractc_options_t *options = loop->options;
    const contractc_allocator_t *a = options ? options->allocator : NULL;
    decision->contract = rt->set.tools[0].contract;
    decision->allocator_ = a;

    contractc_problems_t problems, last;
    contractc_problems_init_with(&problems, loop->problem_cap, a);
    contractc_problems_init_with(&last, loop->problem_cap, a);

    /* The scratch record: as large as the largest record of the set. */
    size_t max_bytes = 0;
    bool unlimited = false;
    for (size_t i = 0; i < rt->set.count; i++) {
        const contractc_contract_t *k = rt->set.tools[i].contract;
        if (k->root->size > rt->scratch_size)
            rt->scratch_size = k->root->size;
        if (!k->max_bytes)
            unlimited = true;
        else if (k->max_bytes > max_bytes)
            max_bytes = k->max_bytes;
    }
    if (unlimited)
        max_bytes = 0;
    if (options && options->max_bytes)
        max_bytes = options->max_bytes;
    void *scratch = cc_alloc(a, rt->scratch_size);
    rt->scratch = cc_alloc(a, rt->set.count * sizeof *rt->scratch);
    contractc_status_t st = scratch && rt->scratch ? CONTRACTC_OK : CONTRACTC_ENOMEM;
    for (size_t i = 0; st == CONTRACTC_OK && i < rt->set.count; i++)
        rt->scratch[i] = scratch;

    /* A bad source is the caller's error, not the model's: find it before
     * spending a model call.  Parsing the empty reply checks the source
     * exactly as every later parse will, and is otherwise an `empty`
     * rejection.  A toolset hands the source to the tools that declare
     * one, so those are the ones checked.  The caller's records are not
     * touched. */
    for (size_t i = 0; st == CONTRACTC_OK && i < rt->set.count; i++) {
        const contractc_contract_t *k = rt->set.tools[i].contract;
        if (rt->text_is_call && !k->needs_source)
            continue;
        st = contractc_parse(k, "", 0, source, source_len, options, scratch, &problems);
        contractc_problems_clear(&problems);
        if (st == CONTRACTC_OK) /* a contract that accepts nothing at all? */
            contractc_record_free(k, scratch);
        if (st == CONTRACTC_OK || st == CONTRACTC_REJECTED)
            st = CONTRACTC_OK;
    }
    if (st == CONTRACTC_OK &&
        !(decision->attempts = cc_alloc(a, max_attempts * sizeof *decision->attempts)))
        st = CONTRACTC_ENOMEM;
    if (st != CONTRACTC_OK) {
        cc_free(a, scratch, rt->scratch_size);
        cc_free(a, rt->scratch, rt->set.count * sizeof *rt->scratch);
        rt->scratch = NULL;
        return st;
    }
    memset(decision->attempts, 0, max_attempts * sizeof *decision->attempts);
    decision->attempt_capacity_ = max_attempts;
    /* Every record starts zeroed: one that is not filled stays so. */
    for (size_t i = 0; i < rt->set.count; i++)
        memset(rt->records[i], 0, rt->set.tools[i].contract->root->size);

    /* The echo is never longer than a reply may be (max_bytes: for a
     * toolset, the largest of its tools'), nor than echo_max_bytes. */
    size_t echo_max =
        loop->echo_max_bytes ? loop->echo_max_bytes : CONTRACTC_LOOP_DEFAULT_ECHO_MAX_BYTES;
    if (max_bytes && max_bytes < echo_max)
        echo_max = max_bytes;
    bool have_last = false;
    size_t last_index = 0; /* transcript index of the last rejected reply */
    bool retried_truncated = false;
    unsigned max_tokens = loop->max_tokens;
    /* The stream offered to the model function (contractc_loop_t.stream):
     * one per call, for the run's one contract. */
    const bool streaming = loop->stream && !rt->text_is_call && rt->set.count == 1;
    contractc_stream_t *stream = NULL;
    st = CONTRACTC_REJECTED;

    for (unsigned i = 0; i < max_attempts; i++) {
        contractc_attempt_t *at = &decision->attempts[decision->attempt_count++];
        contractc_model_reply_t reply;
        memset(&reply, 0, sizeof reply);
        reply.max_tokens = max_tokens;
        contractc_stream_free(stream);
        stream = NULL;
        if (streaming &&
            !(stream = contractc_stream_new(loop->contract, source, source_len, options))) {
            decision->attempt_count--; /* no call was made */
            st = CONTRACTC_ENOMEM;     /* the source was checked above */
            goto done;
        }
        reply.stream = stream;
        int rc = loop->model(loop->model_user, transcript, &reply);
        copy_fixed(at->finish_reason, sizeof at->finish_reason, reply.finish_reason,
                   sizeof reply.finish_reason);
        if (rc == 0 && !reply.text && reply.len) {
            rc = -1;
            copy_fixed(reply.error, sizeof reply.error,
                       "the model function returned a length without text", SIZE_MAX);
        }
        if (rc == 0 && reply.tool_call_count && !tool_calls_usable(&reply)) {
            rc = -1;
            copy_fixed(reply.error, sizeof reply.error,
                       "the model function returned a tool call without an id, a name or "
                       "its arguments' bytes", SIZE_MAX);
        }
        if (rc == 0 && reply.stopped &&
            (reply.tool_call_count || !stream || contractc_stream_dead_at(stream) == SIZE_MAX)) {
            rc = -1;
            copy_fixed(reply.error, sizeof reply.error,
                       "the model function stopped a reply that its stream had not found dead",
                       SIZE_MAX);
        }
        if (rc != 0) {
            at->outcome = CONTRACTC_ATTEMPT_MODEL_ERROR;
            at->error_class = contractc_error_class_name(reply.error_class)
                                  ? reply.error_class : CONTRACTC_ERROR_CLASS_NONE;
            copy_fixed(at->error, sizeof at->error,
                       reply.error[0] ? reply.error : "the model function failed",
                       sizeof reply.error);
            continue;
        }
        const char *text = reply.text ? reply.text : "";
        contractc_problems_clear(&problems);
        contractc_attempt_outcome_t stop = stop_outcome(at->finish_reason);
        if (stop == CONTRACTC_ATTEMPT_REFUSED || stop == CONTRACTC_ATTEMPT_FILTERED) {
            /* Not an answer at all: nothing to parse or repair. */
            at->outcome = stop;
            if (stop == CONTRACTC_ATTEMPT_REFUSED && reply.len) {
                if (!(at->refusal = cc_alloc(a, reply.len + 1))) {
                    st = CONTRACTC_ENOMEM;
                    goto done;
                }
                memcpy(at->refusal, text, reply.len);
                at->refusal[reply.len] = '\0';
                at->refusal_len = reply.len;
            }
            decision->outcome = outcome_of(stop);
            if (loop->escalate)
                loop->escalate(loop->escalate_user, decision, text, reply.len, &problems);
            st = CONTRACTC_REJECTED;
            goto done;
        }
        if (reply.tool_call_count) {
            /* A turn of tool calls (docs/tools.md, "Tool calls in the
             * transcript"): every call is read, and the turn is accepted
             * only when every call is. */
            bool rejected = false;
            size_t first, routed;
            st = tool_turn(loop, rt, transcript, &reply, source, source_len, &first, &routed,
                           at, echo_max, &last, &rejected, &last_index);
            if (routed != CONTRACTC_TOOL_NONE)
                decision->contract = rt->set.tools[routed].contract;
            if (st != CONTRACTC_OK)
                goto done;
            if (!rejected) {
                at->outcome = CONTRACTC_ATTEMPT_ACCEPTED;
                at->truncated = stop == CONTRACTC_ATTEMPT_TRUNCATED;
                decision->outcome = CONTRACTC_OUTCOME_ACCEPTED;
                *out_index = first;
                goto done;
            }
            at->outcome = CONTRACTC_ATTEMPT_REJECTED;
            have_last = true;
            st = CONTRACTC_REJECTED;
            if (i + 1 < max_attempts &&
                (st = tool_results(loop, rt, transcript, &reply, at, source, source_len)) !=
                    CONTRACTC_OK)
                goto done;
            st = CONTRACTC_REJECTED;
            continue;
        }
        if (reply.stopped) {
            /* Stopped at DEAD: the stream's problems, those found before
             * the cut (§18), and its bytes, which are what the model
             * function fed (its text/len are not read then). */
            at->stopped = true;
            at->stopped_at = contractc_stream_dead_at(stream);
            text = cc_stream_bytes(stream, &reply.len);
            at->received = reply.len;
            st = contractc_stream_finish(stream, rt->records[0], &problems);
        } else {
            st = text_parse(loop, rt, text, reply.len, source, source_len, &problems);
        }
        at->fenced = problems.fenced;
        if (st == CONTRACTC_OK) {
            at->outcome = CONTRACTC_ATTEMPT_ACCEPTED;
            at->truncated = stop == CONTRACTC_ATTEMPT_TRUNCATED;
            st = contractc_transcript_add(transcript, CONTRACTC_ROLE_ASSISTANT, text, reply.len);
            if (st != CONTRACTC_OK) {
                contractc_record_free(loop->contract, rt->records[0]);
                goto done;
            }
            decision->outcome = CONTRACTC_OUTCOME_ACCEPTED;
            *out_index = 0;
            goto done;
        }
        if (st != CONTRACTC_REJECTED)
            goto done; /* out of memory while parsing */
        at->outcome = stop == CONTRACTC_ATTEMPT_TRUNCATED ? stop : CONTRACTC_ATTEMPT_REJECTED;
        if (!attempt_keep_problems(a, at, &problems)) {
            st = CONTRACTC_ENOMEM;
            goto done;
        }
        if (stop == CONTRACTC_ATTEMPT_TRUNCATED) {
            /* The provider cut it: "fix every problem" cannot help, a
             * larger token limit may.  The cut reply is not added. */
            if (loop->on_truncated && !retried_truncated && i + 1 < max_attempts &&
                loop->on_truncated(loop->on_truncated_user, decision, &max_tokens)) {
                retried_truncated = true;
                st = CONTRACTC_REJECTED;
                continue;
            }
            decision->outcome = CONTRACTC_OUTCOME_TRUNCATED;
            if (loop->escalate)
                loop->escalate(loop->escalate_user, decision, text, reply.len, &problems);
            st = CONTRACTC_REJECTED;
            goto done;
        }
        /* The rejected reply, as the model wrote it, stays in the
         * conversation (cut to echo_max_bytes, said by a marker). */
        st = add_echo(transcript, text, reply.len, echo_max, reply.stopped);
        if (st != CONTRACTC_OK)
            goto done;
        last_index = transcript->count_ - 1;
        have_last = true;
        contractc_problems_t swap = last;
        last = problems;
        problems = swap;
        if (i + 1 < max_attempts) {
            char *turn = NULL;
            size_t turn_len = 0;
            st = contractc_repair_prompt(&last, &turn, &turn_len);
            if (st == CONTRACTC_OK)
                st = contractc_transcript_add(transcript, CONTRACTC_ROLE_USER, turn, turn_len);
            free(turn); /* contractc_repair_prompt allocates with malloc */
            if (st != CONTRACTC_OK)
                goto done;
        }
        st = CONTRACTC_REJECTED;
    }

    if (have_last) {
        decision->outcome = CONTRACTC_OUTCOME_ESCALATED;
        if (loop->escalate) {
            const contractc_message_t *m = &transcript->items_[last_index];
            loop->escalate(loop->escalate_user, decision, m->text, m->len, &last);
        }
    } else {
        decision->outcome = CONTRACTC_OUTCOME_FAILED;
    }
    st = CONTRACTC_REJECTED;

done:
    contractc_stream_free(stream);
    contractc_problems_clear(&problems);
    contractc_problems_clear(&last);
    cc_free(a, scratch, rt->scratch_size);
    cc_free(a, rt->scratch, rt->set.count * sizeof *rt->scratch);
    rt->scratch = NULL;
    return st;
}

contractc_status_t contractc_loop_run(const contractc_loop_t *loop,
                                      contractc_transcript_t *transcript,
                                      const char *source, size_t source_len,
                                      void *out, contractc_decision_t *decision)
{
    if (!decision)
        return CONTRACTC_EINVAL;
    memset(decision, 0, sizeof *decision);
    if (!loop || !loop->contract || !loop->contract->root || !loop->model || !transcript ||
        !out || transcript->count_ == 0)
        return CONTRACTC_EINVAL;
    /* Tool calls are routed through a one-tool set of the contract. */
    const contractc_tool_t tool = {loop->contract, loop->tool_name};
    void *const records[1] = {out};
    run_tools_t rt;
    memset(&rt, 0, sizeof rt);
    rt.set.tools = &tool;
    rt.set.count = 1;
    rt.set.options = loop->options;
    rt.records = records;
    size_t index = CONTRACTC_TOOL_NONE;
    return loop_run(loop, &rt, transcript, source, source_len, &index, decision);
}

contractc_status_t contractc_loop_run_toolset(const contractc_loop_t *loop,
                                              const contractc_toolset_t *set,
                                              contractc_transcript_t *transcript,
                                              const char *source, size_t source_len,
                                              void *const *records, size_t *out_index,
                                              contractc_decision_t *decision)
{
    if (out_index)
        *out_index = CONTRACTC_TOOL_NONE;
    if (!decision)
        return CONTRACTC_EINVAL;
    memset(decision, 0, sizeof *decision);
    if (!loop || !loop->model || !set || !set->tools || set->count == 0 || !transcript ||
        !records || !out_index || transcript->count_ == 0)
        return CONTRACTC_EINVAL;
    for (size_t i = 0; i < set->count; i++)
        if (!set->tools[i].contract || !set->tools[i].contract->root)
            return CONTRACTC_EINVAL;
    run_tools_t rt;
    memset(&rt, 0, sizeof rt);
    rt.set = *set;
    rt.set.options = loop->options;
    rt.records = records;
    rt.text_is_call = true;
    /* The set's own checks (names, records), before any model call: a
     * call of no tool is only a rejection once the set is sound. */
    contractc_problems_t problems;
    contractc_problems_init_with(&problems, 1, loop->options ? loop->options->allocator : NULL);
    size_t which;
    contractc_status_t st = contractc_toolset_parse(&rt.set, NULL, "", 0, NULL, 0, &which,
                                                    records, &problems);
    contractc_problems_clear(&problems);
    if (st != CONTRACTC_REJECTED)
        return st == CONTRACTC_OK ? CONTRACTC_EINVAL : st;
    return loop_run(loop, &rt, transcript, source, source_len, out_index, decision);
}
