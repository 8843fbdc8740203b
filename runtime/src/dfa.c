/* SPDX-License-Identifier: MIT */
/*
 * dfa.c - runs a pattern DFA compiled by the generator (contractc.h).
 *
 * The tables come from generated code (trusted), the string from a reply
 * (untrusted, already validated as UTF-8).  One table lookup per byte, so
 * the time is linear in the string whatever the pattern; the loop stops at
 * the dead state 0, from which nothing is accepted.
 *
 * Each byte's lookup needs the state the previous one found: the work on
 * the way from one to the next (the row of the state, then the load) is
 * the loop's critical path.  The generator pads the class count to a power
 * of two where the table stays small, so that the row is a shift away
 * (one cycle) rather than a multiply (three); other counts still work.
 */
#include <contractc/contractc.h>

#include <stddef.h>

bool contractc_dfa_match(const contractc_dfa_t *dfa, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *end;
    const uint16_t *next;
    const uint8_t *byte_class;
    size_t classes;
    uint32_t state;

    if (dfa == NULL || dfa->next == NULL || dfa->accepting == NULL
        || dfa->byte_class == NULL || dfa->start >= dfa->state_count
        || (s == NULL && len > 0))
        return false;
    next = dfa->next;
    byte_class = dfa->byte_class;
    classes = dfa->class_count;
    state = dfa->start;
    end = len ? p + len : p; /* NULL + 0 is undefined in C */
    if (classes - 1 < 256 && (classes & (classes - 1)) == 0) {
        /* A power of two (there are at most 256 byte classes): the row of
         * a state is state << shift. */
        static const unsigned char log2_of[257] = {
            [1] = 0, [2] = 1, [4] = 2, [8] = 3, [16] = 4, [32] = 5, [64] = 6, [128] = 7, [256] = 8,
        };
        const unsigned shift = log2_of[classes];
        while (p < end) {
            state = next[((size_t)state << shift) + byte_class[*p++]];
            if (state == 0)
                return false;
        }
        return dfa->accepting[state] != 0;
    }
    while (p < end) {
        state = next[(size_t)state * classes + byte_class[*p++]];
        if (state == 0)
            return false;
    }
    return dfa->accepting[state] != 0;
}
