/* SPDX-License-Identifier: MIT */
/*
 * log.c - the decision log, `contractc-log/1` (docs/contract-language.md, "The
 * decision log"): one JSON object per line, written through a sink the caller
 * chooses, so that a decision can be replayed and defended later with the
 * exact contract (its hash) that made it.
 *
 * Two promises shape this file.  The log never holds a reply value:
 * problems are logged as path, kind and rule id only, and the accepted
 * record only when the caller opts in.  And a decision is never lost
 * silently: a sink that fails is reported to the caller, who still holds
 * the decision.
 */

/* The runtime is C99, and C99 has no thread-safe UTC conversion; POSIX has
 * gmtime_r.  Ask for POSIX only where the system is one, so the default
 * clock exists there and the file stays plain C99 elsewhere. */
#if !defined(_POSIX_C_SOURCE) && \
    (defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__)))
#define _POSIX_C_SOURCE 200112L
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__))
#include <unistd.h>
#endif

#include "internal.h"

#if defined(_POSIX_VERSION) && _POSIX_VERSION >= 200112L
#define CC_HAVE_GMTIME_R 1
#endif

/* The former names of contractc_log_write's statuses (deprecated). */
const char *contractc_log_status_name(contractc_status_t status)
{
    switch (status) {
    case CONTRACTC_OK: return "written";
    case CONTRACTC_ESINK: return "sink_failed";
    case CONTRACTC_ENOMEM: return "enomem";
    case CONTRACTC_EINVAL: return "einval";
    case CONTRACTC_REJECTED: break;
    }
    return "?";
}

int contractc_log_file_sink(void *user, const char *line, size_t len)
{
    FILE *f = user;
    if (!f || (!line && len))
        return -1;
    /* The stream's error flag is sticky: left set, every later line would
     * be reported failed though stored, and the caller's retry would write
     * it twice.  Set on entry, it tells of the last write's failure, which
     * may have left a cut line without its '\n' (stdio drops the bytes it
     * could not write, glibc and musl alike, so the failed line is not
     * written again by this flush): a line break first ends it, so that
     * this line is a line of its own (at worst a blank line, which
     * `contractc stats` skips). */
    const bool after_failure = ferror(f) != 0;
    clearerr(f);
    if (after_failure && fputc('\n', f) == EOF)
        return -1;
    if (len && fwrite(line, 1, len, f) != len)
        return -1;
    /* Flush now: a full disk must show up on this decision, not on a later
     * one or at fclose. */
    if (fflush(f) != 0 || ferror(f))
        return -1;
    return 0;
}

bool contractc_clock_utc(void *user, char *buf, size_t size)
{
    (void)user;
#ifdef CC_HAVE_GMTIME_R
    struct tm tm;
    time_t now = time(NULL);
    if (!buf || size < 21 || now == (time_t)-1 || !gmtime_r(&now, &tm))
        return false;
    size_t n = strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return n == 20;
#else
    (void)buf;
    (void)size;
    return false;
#endif
}

/* ---- checks on the caller's texts --------------------------------------- */

static bool ascii_digit(char c) { return c >= '0' && c <= '9'; }

static bool digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!ascii_digit(s[i]))
            return false;
    return true;
}

static int two(const char *s) { return (s[0] - '0') * 10 + (s[1] - '0'); }

/* RFC 3339 §5.6 date-time: "T" and "Z" uppercase, seconds required, an
 * optional fraction, offset Z or +hh:mm/-hh:mm.  The log's readers group by
 * the date part, so it must be a real shape, not any string. */
static bool rfc3339_valid(const char *s)
{
    size_t n = strlen(s);
    if (n < 20 || !digits(s, 4) || s[4] != '-' || !digits(s + 5, 2) || s[7] != '-' ||
        !digits(s + 8, 2) || s[10] != 'T' || !digits(s + 11, 2) || s[13] != ':' ||
        !digits(s + 14, 2) || s[16] != ':' || !digits(s + 17, 2))
        return false;
    int month = two(s + 5), day = two(s + 8);
    if (month < 1 || month > 12 || day < 1 || day > 31 || two(s + 11) > 23 ||
        two(s + 14) > 59 || two(s + 17) > 60)
        return false;
    size_t i = 19;
    if (s[i] == '.') {
        size_t start = ++i;
        while (i < n && ascii_digit(s[i]))
            i++;
        if (i == start)
            return false;
    }
    if (s[i] == 'Z')
        return i + 1 == n;
    if ((s[i] == '+' || s[i] == '-') && n - i == 6 && digits(s + i + 1, 2) &&
        s[i + 3] == ':' && digits(s + i + 4, 2))
        return two(s + i + 1) <= 23 && two(s + i + 4) <= 59;
    return false;
}

/* ---- JSON writing ----------------------------------------------------------- */

/* A JSON string (RFC 8259 §7) by the one escaper: invalid UTF-8 becomes
 * U+FFFD, so that the line is always valid JSON. */
static void put_string(cc_str_t *s, const char *text)
{
    cc_str_json_string(s, text, strlen(text), 0);
}

static void put_string_or_null(cc_str_t *s, const char *text)
{
    if (text)
        put_string(s, text);
    else
        cc_str_puts(s, "null");
}

static void put_key(cc_str_t *s, const char *key)
{
    cc_str_puts(s, ",\"");
    cc_str_puts(s, key);
    cc_str_puts(s, "\":");
}

/* One attempt.  Keys added after the first release (truncated,
 * stopped_at and received, error_class, refusal, tool_calls) are written
 * only when they say something, so a decision of the first release's kinds
 * logs the same line as then. */
static void put_attempt(cc_str_t *s, const contractc_attempt_t *at, bool include_value)
{
    cc_str_puts(s, "{\"outcome\":");
    put_string(s, contractc_attempt_outcome_name(at->outcome));
    put_key(s, "fenced");
    cc_str_puts(s, at->fenced ? "true" : "false");
    put_key(s, "finish_reason");
    put_string_or_null(s, at->finish_reason[0] ? at->finish_reason : NULL);
    put_key(s, "problems");
    cc_str_puts(s, "[");
    for (size_t i = 0; i < at->problem_count; i++) {
        const contractc_logged_problem_t *p = &at->problems[i];
        cc_str_puts(s, i ? ",{\"path\":" : "{\"path\":");
        put_string(s, p->path);
        put_key(s, "kind");
        put_string(s, contractc_kind_name(p->kind));
        put_key(s, "rule");
        put_string_or_null(s, p->rule);
        cc_str_puts(s, "}");
    }
    cc_str_puts(s, "]");
    if (at->dropped) {
        put_key(s, "dropped");
        cc_str_putu(s, at->dropped);
    }
    if (at->truncated) {
        put_key(s, "truncated");
        cc_str_puts(s, "true");
    }
    /* A streamed reply stopped at its first dead byte (§18, "Streaming in
     * the loop"): where it was dead, and how much had been received. */
    if (at->stopped) {
        put_key(s, "stopped_at");
        cc_str_putu(s, at->stopped_at);
        put_key(s, "received");
        cc_str_putu(s, at->received);
    }
    if (at->outcome == CONTRACTC_ATTEMPT_MODEL_ERROR) {
        put_key(s, "error");
        put_string(s, at->error);
        const char *class_name = contractc_error_class_name(at->error_class);
        if (class_name) {
            put_key(s, "error_class");
            put_string(s, class_name);
        }
    }
    /* A reply of tool calls: each call's tool (the contract's name, never
     * the model's bytes) and how many problems it had. */
    if (at->tool_call_count) {
        put_key(s, "tool_calls");
        cc_str_puts(s, "[");
        for (size_t i = 0; i < at->tool_call_count; i++) {
            cc_str_puts(s, i ? ",{\"tool\":" : "{\"tool\":");
            put_string_or_null(s, at->tool_calls[i].tool);
            put_key(s, "problems");
            cc_str_putu(s, at->tool_calls[i].problems);
            cc_str_puts(s, "}");
        }
        cc_str_puts(s, "]");
    }
    /* The refusal's words are the model's, about the customer's text:
     * logged only where the caller opted in to values. */
    if (include_value && at->refusal) {
        put_key(s, "refusal");
        put_string(s, at->refusal);
    }
    cc_str_puts(s, "}");
}

contractc_status_t contractc_log_format(const contractc_decision_t *decision,
                                        const contractc_log_entry_t *entry,
                                        const void *record,
                                        contractc_clock_fn clock, void *clock_user,
                                        char **line, size_t *len)
{
    if (!line)
        return CONTRACTC_EINVAL;
    *line = NULL;
    if (len)
        *len = 0;
    static const contractc_log_entry_t no_entry = {0};
    if (!entry)
        entry = &no_entry;
    if (!decision || !decision->contract || decision->outcome < CONTRACTC_OUTCOME_ACCEPTED ||
        decision->outcome > CONTRACTC_OUTCOME_FILTERED || decision->attempt_count == 0 ||
        (entry->setting_count && !entry->settings))
        return CONTRACTC_EINVAL;
    const contractc_contract_t *contract = decision->contract;

    char now[CONTRACTC_TIME_SIZE];
    const char *time_text = entry->time;
    if (!time_text) {
        memset(now, 0, sizeof now);
        contractc_clock_fn c = clock ? clock : contractc_clock_utc;
        if (!c(clock_user, now, sizeof now) || now[sizeof now - 1] != '\0')
            return CONTRACTC_EINVAL;
        time_text = now;
    }
    if (!rfc3339_valid(time_text))
        return CONTRACTC_EINVAL;
    for (size_t i = 0; i < entry->setting_count; i++) {
        const contractc_setting_t *set = &entry->settings[i];
        if (!set->name || !set->value || (set->is_number && !cc_json_number_valid(set->value, strlen(set->value))))
            return CONTRACTC_EINVAL;
    }

    cc_str_t s;
    cc_str_init(&s, NULL); /* the line is returned: plain malloc, free() */
    cc_str_puts(&s, "{\"log\":\"contractc-log/1\"");
    put_key(&s, "time");
    put_string(&s, time_text);
    put_key(&s, "record_id");
    put_string_or_null(&s, entry->record_id);
    put_key(&s, "contract");
    put_string_or_null(&s, contract->name);
    put_key(&s, "version");
    cc_str_putu(&s, contract->version);
    put_key(&s, "hash");
    put_string_or_null(&s, contract->hash);
    put_key(&s, "dialect");
    put_string_or_null(&s, entry->dialect);
    put_key(&s, "model");
    put_string_or_null(&s, entry->model);
    put_key(&s, "settings");
    cc_str_puts(&s, "{");
    for (size_t i = 0; i < entry->setting_count; i++) {
        const contractc_setting_t *set = &entry->settings[i];
        if (i)
            cc_str_puts(&s, ",");
        put_string(&s, set->name);
        cc_str_puts(&s, ":");
        if (set->is_number)
            cc_str_puts(&s, set->value);
        else
            put_string(&s, set->value);
    }
    cc_str_puts(&s, "}");
    put_key(&s, "attempts");
    cc_str_puts(&s, "[");
    for (size_t i = 0; i < decision->attempt_count; i++) {
        if (i)
            cc_str_puts(&s, ",");
        put_attempt(&s, &decision->attempts[i], entry->include_value);
    }
    cc_str_puts(&s, "]");
    put_key(&s, "outcome");
    put_string(&s, contractc_outcome_name(decision->outcome));
    if (entry->route) {
        put_key(&s, "route");
        put_string(&s, entry->route);
    }
    if (entry->include_value && decision->outcome == CONTRACTC_OUTCOME_ACCEPTED) {
        if (!record) {
            cc_str_free(&s);
            return CONTRACTC_EINVAL;
        }
        size_t value_len = 0;
        char *value = contractc_to_json(contract, record, &value_len);
        if (!value) {
            cc_str_free(&s);
            return CONTRACTC_ENOMEM;
        }
        put_key(&s, "value");
        cc_str_append(&s, value, value_len); /* canonical form: compact JSON */
        free(value);
    }
    cc_str_puts(&s, "}\n");
    if (s.failed) {
        cc_str_free(&s);
        return CONTRACTC_ENOMEM;
    }
    *line = s.data;
    if (len)
        *len = s.len;
    return CONTRACTC_OK;
}

contractc_status_t contractc_log_write(const contractc_log_t *log,
                                       const contractc_decision_t *decision,
                                       const contractc_log_entry_t *entry,
                                       const void *record)
{
    if (!log || !log->sink)
        return CONTRACTC_EINVAL;
    char *line = NULL;
    size_t len = 0;
    contractc_status_t st =
        contractc_log_format(decision, entry, record, log->clock, log->clock_user, &line, &len);
    if (st != CONTRACTC_OK)
        return st; /* CONTRACTC_ENOMEM or CONTRACTC_EINVAL */
    int rc = log->sink(log->sink_user, line, len);
    free(line);
    return rc == 0 ? CONTRACTC_OK : CONTRACTC_ESINK;
}
