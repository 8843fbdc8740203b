/* SPDX-License-Identifier: MIT */
/*
 * lexical.c - the lexical predicates of the contract language (lexical.h).
 */
#include "lexical.h"

#include "contractc/contractc.h"

#include <stdlib.h>
#include <string.h>

static bool ident_start(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool ident_char(char ch)
{
    return ident_start(ch) || (ch >= '0' && ch <= '9');
}

bool cc_is_identifier_n(const char *s, size_t len)
{
    if (!s || len == 0 || !ident_start(s[0]))
        return false;
    for (size_t i = 1; i < len; i++)
        if (!ident_char(s[i]))
            return false;
    return true;
}

bool cc_is_identifier(const char *s)
{
    return s && cc_is_identifier_n(s, strlen(s));
}

/* C11, C23 and C++20 keywords, and C++'s alternative tokens: sorted for
 * bsearch (strcmp order). */
static const char *const keywords[] = {
    "_Alignas", "_Alignof", "_Atomic", "_BitInt", "_Bool", "_Complex", "_Decimal128",
    "_Decimal32", "_Decimal64", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert",
    "_Thread_local", "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
    "bool", "break", "case", "catch", "char", "char16_t", "char32_t", "char8_t", "class",
    "co_await", "co_return", "co_yield", "compl", "concept", "const", "const_cast", "consteval",
    "constexpr", "constinit", "continue", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept",
    "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
    "register", "reinterpret_cast", "requires", "restrict", "return", "short", "signed",
    "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
    "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "typeof",
    "typeof_unqual", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t",
    "while", "xor", "xor_eq"
};

static int compare_words(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool cc_is_c_keyword(const char *word)
{
    return word && bsearch(&word, keywords, sizeof keywords / sizeof keywords[0],
                           sizeof keywords[0], compare_words) != NULL;
}

bool cc_is_integer_text(const char *s)
{
    if (*s == '-')
        s++;
    if (*s == '0')
        return s[1] == '\0';
    if (*s < '1' || *s > '9')
        return false;
    while (*s >= '0' && *s <= '9')
        s++;
    return *s == '\0';
}

/* RFC 8259 number grammar (a number bound is written as a JSON number). */
bool cc_is_json_number(const char *s)
{
    return contractc_json_number_valid(s, strlen(s)); /* the reader's own grammar */
}

size_t cc_code_points(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return n;
}

bool cc_is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool cc_is_blank(const char *s)
{
    if (!s)
        return true;
    for (; *s; s++)
        if (!cc_is_space(*s))
            return false;
    return true;
}
