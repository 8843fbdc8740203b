/*
 * dfa.c - runs a pattern DFA compiled by the generator (contractc.h).
 *
 * The tables come from generated code (trusted), the string from a reply
 * (untrusted, already validated as UTF-8).  One table lookup per byte, so
 * the time is linear in the string whatever the pattern; the loop stops at
 * the dead state 0, from which nothing is accepted.
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
    while (p < end) {
        state = next[(size_t)state * classes + byte_class[*p++]];
        if (state == 0)
            return false;
    }
    return dfa->accepting[state] != 0;
}
