/* pattern.c - placeholder until the pattern compiler lands. */
#include "pattern.h"
#include <stdio.h>
cc_dfa_t *cc_pattern_compile(const char *pattern, cc_pattern_error_t *err)
{
    (void)pattern;
    err->offset = 0;
    snprintf(err->message, sizeof err->message, "patterns are not implemented yet");
    return NULL;
}
void cc_dfa_free(cc_dfa_t *dfa) { (void)dfa; }
bool cc_dfa_matches(const cc_dfa_t *dfa, const char *s, size_t len)
{
    (void)dfa; (void)s; (void)len;
    return false;
}
