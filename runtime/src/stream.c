/* SPDX-License-Identifier: MIT */
/*
 * stream.c - the push parser: a reply fed in chunks, DEAD at the first byte
 * that no continuation could make acceptable (docs/contract-language.md
 * §18, "Streaming a reply").
 *
 * One semantics: the stream has no check of its own.  It keeps the bytes
 * received and asks the one interpreter (validate.c, cc_parse_prefix) about
 * the prefix, with the reader in prefix mode, where running out of text
 * inside a value is `ended` and not a problem.  The prefix is DEAD when the
 * interpreter found a problem in it (a document-level one before its end,
 * or any other one), COMPLETE when the root closed and passed, and VIABLE
 * otherwise.  finish reads the whole reply with contractc_parse itself.
 *
 * Cost: each check re-reads the prefix, so checking every feed would cost
 * the square of the reply's length.  So:
 *   - bytes that cannot change the verdict are not checked: white space
 *     alone (the reader strips it from the end of a prefix, so it is
 *     invisible there), or plain string bytes when the last check ended
 *     inside a string;
 *   - within the first CC_STREAM_EAGER bytes every other feed is checked;
 *     past them a check waits until the bytes not checked are an eighth of
 *     those checked, so the checks of a whole reply read it at most about
 *     nine times (plus the eager part), whatever the chunks;
 *   - but the feed in which the root value closes (a depth count over the
 *     new bytes says so), and every feed after it, is checked: COMPLETE
 *     and text after the JSON are never late.
 * dead_at does not depend on the chunks nor on when the check ran: when a
 * check finds the stream DEAD, the first dead byte after the last viable
 * check is found by bisection (a prefix of a viable prefix is viable).
 */
#include "internal.h"
#include "reader.h"

#include <stdint.h>
#include <string.h>

/* Bytes of a reply within which every feed that may change the verdict is
 * checked (the file's comment). */
#define CC_STREAM_EAGER ((size_t)4096)
/* Bytes of an item's path ("$.line_items"; a longer key is cut). */
#define CC_ITEM_PATH_MAX 512

struct contractc_stream {
    const contractc_contract_t *contract;
    const char *source;
    size_t source_len;
    contractc_options_t options;
    const contractc_allocator_t *allocator;
    size_t max_bytes;
    char *buf;                /* the bytes fed, buf[0..len) */
    size_t len, cap;
    void *scratch;            /* a root record for the checks */
    contractc_problems_t problems; /* the checks' list */
    contractc_stream_state_t state; /* of buf[0..checked) */
    size_t checked;           /* bytes the state is known for */
    size_t dead_at;
    bool in_string;           /* the last check ran out inside a string */
    bool einval;              /* a feed had NULL bytes with len > 0 */
    /* A count of open brackets over the bytes fed, strings skipped: only
     * to tell when the root may have closed (then the check is not put
     * off); never a verdict. */
    uint32_t depth;
    bool lex_string, lex_escape, root_closed;
    /* The item callback (contractc_stream_on_item) and, per field of the
     * root, how many of its items were handed over. */
    contractc_item_fn item_fn;
    void *item_user;
    size_t *delivered;        /* root->field_count, or NULL */
    bool bisecting;           /* no items from the bisection's checks */
};

contractc_stream_t *contractc_stream_new(const contractc_contract_t *contract,
                                         const char *source, size_t source_len,
                                         const contractc_options_t *options)
{
    if (!contract || !contract->root || contract->abi < CONTRACTC_ABI_MIN_GENERATED ||
        contract->abi > CONTRACTC_ABI_VERSION)
        return NULL;
    /* The source rules of contractc_parse, checked once here (cc_parse_prefix
     * does not check them again). */
    if (contract->needs_source) {
        if (!source || source_len > CONTRACTC_MAX_SOURCE_BYTES ||
            !cc_utf8_valid((const unsigned char *)source, source_len))
            return NULL;
    } else if (source) {
        return NULL;
    }
    const contractc_allocator_t *allocator = options ? options->allocator : NULL;
    contractc_stream_t *s = cc_alloc(allocator, sizeof *s);
    if (!s)
        return NULL;
    memset(s, 0, sizeof *s);
    s->contract = contract;
    s->source = source;
    s->source_len = source ? source_len : 0;
    if (options)
        s->options = *options;
    s->allocator = allocator;
    s->max_bytes = options && options->max_bytes ? options->max_bytes : contract->max_bytes;
    s->state = CONTRACTC_STREAM_VIABLE;
    s->dead_at = SIZE_MAX;
    contractc_problems_init_with(&s->problems, 0, allocator);
    s->scratch = cc_alloc(allocator, contract->root->size ? contract->root->size : 1);
    if (!s->scratch) {
        cc_free(allocator, s, sizeof *s);
        return NULL;
    }
    return s;
}

/* cc_parse_prefix's item hook: each item once, in order (every check
 * reads the reply from its start, so it meets the items handed over
 * before again). */
static void item_hook(void *user, const contractc_field_t *field, size_t index, const void *at)
{
    contractc_stream_t *s = user;
    const size_t fi = (size_t)(field - s->contract->root->fields);
    if (s->bisecting || fi >= s->contract->root->field_count || index != s->delivered[fi])
        return;
    s->delivered[fi]++;
    char path[CC_ITEM_PATH_MAX];
    size_t n = strlen(field->path_segment);
    if (n > sizeof path - 2)
        n = sizeof path - 2;
    path[0] = '$';
    memcpy(path + 1, field->path_segment, n);
    path[n + 1] = '\0';
    s->item_fn(s->item_user, path, index, at);
}

/* The verdict on buf[0..n), by the interpreter in prefix mode. */
static contractc_stream_state_t check_prefix(contractc_stream_t *s, size_t n)
{
    cc_prefix_result_t res;
    memset(&res, 0, sizeof res);
    if (s->item_fn) {
        res.item = item_hook;
        res.item_user = s;
    }
    contractc_problems_clear(&s->problems);
    contractc_status_t st = cc_parse_prefix(s->contract, s->buf, n, s->source, s->source_len,
                                            &s->options, s->scratch, &s->problems, &res);
    /* Inside a string, unless white space was cut off its end (the reader
     * strips it from a prefix): then that white space is inside it too,
     * and the next byte shows it. */
    const unsigned char last = n ? (unsigned char)s->buf[n - 1] : 0;
    s->in_string = res.ended_in_string && last != ' ' && last != '\t' && last != '\n' &&
                   last != '\r';
    if (st == CONTRACTC_OK) {
        contractc_record_free(s->contract, s->scratch);
        return res.fence_open ? CONTRACTC_STREAM_VIABLE : CONTRACTC_STREAM_COMPLETE;
    }
    if (st != CONTRACTC_REJECTED)
        return CONTRACTC_STREAM_ERROR;
    if (res.ended)
        return res.found ? CONTRACTC_STREAM_DEAD : CONTRACTC_STREAM_VIABLE;
    return CONTRACTC_STREAM_DEAD;
}

/* Whether appending b[0..n) to a prefix whose verdict is s->state leaves
 * the verdict as it is, so that no check is needed (the file's comment). */
static bool unchanged_by(const contractc_stream_t *s, const unsigned char *b, size_t n)
{
    size_t i;
    if (s->len > s->max_bytes || n == 0)
        return n == 0;
    if (s->in_string) {
        /* Plain bytes inside the open string (not a line break or a tab:
         * they are control characters there). */
        for (i = 0; i < n; i++)
            if (b[i] < 0x20 || b[i] > 0x7E || b[i] == '"' || b[i] == '\\')
                return false;
        return true;
    }
    for (i = 0; i < n; i++)
        if (b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r')
            return false;
    return true; /* white space outside strings */
}

/* The bracket count over b[0..n) (the struct's comment). */
static void lex(contractc_stream_t *s, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = b[i];
        if (s->lex_string) {
            if (s->lex_escape)
                s->lex_escape = false;
            else if (c == '\\')
                s->lex_escape = true;
            else if (c == '"')
                s->lex_string = false;
        } else if (c == '"') {
            s->lex_string = true;
        } else if (c == '{' || c == '[') {
            s->depth++;
        } else if ((c == '}' || c == ']') && s->depth > 0 && --s->depth == 0) {
            s->root_closed = true;
        }
    }
}

static bool grow(contractc_stream_t *s, size_t need)
{
    if (need <= s->cap)
        return true;
    size_t cap = s->cap ? s->cap : 256;
    while (cap < need) {
        if (cap > SIZE_MAX / 2)
            return false;
        cap *= 2;
    }
    char *p = cc_alloc(s->allocator, cap);
    if (!p)
        return false;
    if (s->len)
        memcpy(p, s->buf, s->len);
    cc_free(s->allocator, s->buf, s->cap);
    s->buf = p;
    s->cap = cap;
    return true;
}

static contractc_stream_state_t settle(contractc_stream_t *s);

contractc_stream_state_t contractc_stream_feed(contractc_stream_t *s, const char *bytes,
                                               size_t len)
{
    if (!s)
        return CONTRACTC_STREAM_ERROR;
    if (!bytes && len)
        s->einval = true;
    if (s->einval || s->state == CONTRACTC_STREAM_ERROR)
        return CONTRACTC_STREAM_ERROR;
    if (len == 0)
        return s->state;
    if (len > SIZE_MAX - s->len || !grow(s, s->len + len))
        return s->state = CONTRACTC_STREAM_ERROR;
    memcpy(s->buf + s->len, bytes, len);
    s->len += len;
    if (s->state == CONTRACTC_STREAM_DEAD)
        return s->state; /* every continuation of a dead prefix is dead */
    lex(s, (const unsigned char *)bytes, len);
    const size_t before = s->checked, fresh = s->len - before;
    /* Only the new bytes are looked at: when older ones are not checked
     * yet, they did not leave the verdict as it was (else `checked` would
     * have moved past them), and a check is due anyway. */
    if (fresh == len && unchanged_by(s, (const unsigned char *)bytes, len)) {
        s->checked = s->len;
        return s->state;
    }
    if (!s->root_closed && before >= CC_STREAM_EAGER && fresh < before / 8)
        return s->state; /* put off (the file's comment) */
    return settle(s);
}

/* Checks all of buf and sets the state; when DEAD, dead_at too. */
static contractc_stream_state_t settle(contractc_stream_t *s)
{
    const size_t before = s->checked;
    contractc_stream_state_t st = check_prefix(s, s->len);
    s->checked = s->len;
    if (st == CONTRACTC_STREAM_DEAD) {
        /* The first dead byte is in buf[before..len): the shortest dead
         * prefix is longer than `lo` and at most `hi` bytes. */
        size_t lo = before, hi = s->len;
        s->bisecting = true;
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            contractc_stream_state_t m = check_prefix(s, mid);
            if (m == CONTRACTC_STREAM_ERROR) {
                s->bisecting = false;
                return s->state = CONTRACTC_STREAM_ERROR;
            }
            if (m == CONTRACTC_STREAM_DEAD)
                hi = mid;
            else
                lo = mid;
        }
        s->bisecting = false;
        s->dead_at = hi - 1;
    }
    return s->state = st;
}

bool contractc_stream_on_item(contractc_stream_t *s, contractc_item_fn fn, void *user)
{
    if (!s || s->len)
        return false;
    if (fn && !s->delivered) {
        const size_t n = s->contract->root->field_count ? s->contract->root->field_count : 1;
        s->delivered = cc_alloc(s->allocator, n * sizeof *s->delivered);
        if (!s->delivered)
            return false;
        memset(s->delivered, 0, n * sizeof *s->delivered);
    }
    s->item_fn = fn;
    s->item_user = user;
    return true;
}

size_t contractc_stream_dead_at(const contractc_stream_t *s)
{
    return s && s->state == CONTRACTC_STREAM_DEAD ? s->dead_at : SIZE_MAX;
}

CC_PRIVATE const char *cc_stream_bytes(const contractc_stream_t *s, size_t *len)
{
    *len = s->len;
    return s->buf ? s->buf : "";
}

contractc_status_t contractc_stream_finish(contractc_stream_t *s, void *record,
                                           contractc_problems_t *problems)
{
    if (!s || !record || !problems) {
        if (problems)
            problems->error = "NULL stream, record or problem list";
        return CONTRACTC_EINVAL;
    }
    if (s->einval) {
        memset(record, 0, s->contract->root->size);
        problems->error = "a feed had NULL bytes and a length";
        return CONTRACTC_EINVAL;
    }
    if (s->state != CONTRACTC_STREAM_DEAD && s->checked < s->len)
        settle(s); /* a check put off: DEAD may be known only now */
    if (s->state == CONTRACTC_STREAM_ERROR) {
        memset(record, 0, s->contract->root->size);
        problems->error = "out of memory";
        return CONTRACTC_ENOMEM;
    }
    if (s->state == CONTRACTC_STREAM_DEAD) {
        /* Stopped at DEAD inside a value: the problems found before the end
         * the caller cut off, from the one interpreter (§18). */
        const size_t keep = problems->count_, dropped = problems->dropped;
        cc_prefix_result_t res;
        memset(&res, 0, sizeof res);
        contractc_status_t st = cc_parse_prefix(s->contract, s->buf, s->len, s->source,
                                                s->source_len, &s->options, record, problems,
                                                &res);
        if (st == CONTRACTC_ENOMEM || (st == CONTRACTC_REJECTED && res.ended && res.found))
            return st;
        if (st == CONTRACTC_OK)
            contractc_record_free(s->contract, record);
        cc_problems_truncate(problems, keep, dropped);
    }
    return contractc_parse(s->contract, s->buf, s->len, s->source, s->source_len, &s->options,
                           record, problems);
}

void contractc_stream_free(contractc_stream_t *s)
{
    if (!s)
        return;
    const contractc_allocator_t *a = s->allocator;
    contractc_problems_clear(&s->problems);
    if (s->delivered)
        cc_free(a, s->delivered, (s->contract->root->field_count ? s->contract->root->field_count : 1) *
                                     sizeof *s->delivered);
    cc_free(a, s->buf, s->cap);
    cc_free(a, s->scratch, s->contract->root->size ? s->contract->root->size : 1);
    cc_free(a, s, sizeof *s);
}
