/* SPDX-License-Identifier: MIT */
/*
 * test_reader.c - the strict JSON reader (runtime/src/reader.h) through its
 * internal API: document-level problems with their exact kind, byte offset,
 * line, column and message; the Markdown fence; BOMs and UTF-8 (RFC 3629
 * section 4); string escapes and their decoded bytes; numbers (RFC 8259
 * section 6) and literals; white space (RFC 8259 section 2); the depth cap
 * for containers entered by a caller and inside cc_skip_value; skipping
 * large nested documents.
 *
 * Offsets are bytes in the raw reply (before a fence is stripped); line and
 * column are 1-based, the column counting bytes (docs/contract-language.md
 * §6.3, "Fine print").  Every table row is one Check loop iteration, named in
 * failure messages.
 */
#include "convert.h"
#include "reader.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

/* The highest max_depth a contract may set; the reader clamps to it. */
#define DEPTH_CAP 1024u
/* The default max_depth of a contract. */
#define DEFAULT_DEPTH 64u

/* ------------------------------------------------------------------------
 * Whole documents: cc_read_document (begin, skip one value, finish)
 * ------------------------------------------------------------------------ */

typedef struct doc_row {
    const char *name;
    const char *text;
    size_t len;            /* texts may hold NUL bytes */
    bool fence_allowed;
    bool accept;
    bool fenced;           /* accepted rows: a fence was stripped */
    contractc_kind_t kind; /* rejected rows: */
    size_t offset;         /* byte offset in the raw reply */
    size_t line, column;   /* 1-based, from cc_reader_line_column */
    const char *fragment;  /* must occur in the message */
} doc_row_t;

/* Text arguments are string literals: sizeof counts embedded NULs. */
#define ACCEPT(name, text, fence, fenced)                                     \
    {name, text, sizeof text - 1, fence, true, fenced, CONTRACTC_KIND_EMPTY, \
     0, 0, 0, NULL}
#define REJECT(name, text, fence, kind, offset, line, column, fragment)       \
    {name, text, sizeof text - 1, fence, false, false, CONTRACTC_KIND_##kind, \
     offset, line, column, fragment}

static const doc_row_t doc_rows[] = {
    /* empty */
    REJECT("an empty reply", "", true, EMPTY, 0, 1, 1, "the reply is empty"),
    REJECT("only white space", "  \n\t\r ", true, EMPTY, 6, 2, 4,
           "the reply is only white space"),
    REJECT("an empty ```json fence", "```json\n```", true, EMPTY, 8, 2, 1,
           "the fence is empty: no JSON text inside"),
    REJECT("an empty ``` fence holding white space", "```\n  \t\n```", true,
           EMPTY, 4, 2, 1, "the fence is empty"),
    REJECT("an empty CRLF fence", "```json\r\n\r\n```", true, EMPTY, 9, 2, 1,
           "the fence is empty"),

    /* syntax: grammar */
    REJECT("a leading zero", "01", true, SYNTAX, 0, 1, 1,
           "a number may not have a leading zero (in \"01\")"),
    REJECT("a trailing comma in an array", "[1,]", true, SYNTAX, 2, 1, 3,
           "unexpected ',' after the last item of an array"),
    REJECT("a trailing comma in an object", "{\"a\":1,}", true, SYNTAX, 6, 1,
           7, "unexpected ',' after the last member of an object"),
    REJECT("a single-quoted string", "'a'", true, SYNTAX, 0, 1, 1,
           "single quotes are not JSON: strings use double quotes"),
    REJECT("a single-quoted key", "{'a':1}", true, SYNTAX, 1, 1, 2,
           "single quotes are not JSON: keys are strings in double quotes"),
    REJECT("a single-quoted item", "[1,'a']", true, SYNTAX, 3, 1, 4,
           "single quotes are not JSON"),
    REJECT("an unterminated string", "[\"abc", true, SYNTAX, 5, 1, 6,
           "the reply ends inside a string (it starts at line 1, column 2)"),
    REJECT("an unterminated string after an escape", "\"ab\\", true, SYNTAX,
           4, 1, 5, "the reply ends inside a string"),
    REJECT("a reply cut inside a \\u escape", "[\"\\u00", true, SYNTAX, 6,
           1, 7, "the reply ends inside a string (it starts at line 1, "
           "column 2)"),
    REJECT("a reply cut after a high surrogate escape", "\"\\uD83D", true,
           SYNTAX, 7, 1, 8, "the reply ends inside a string"),
    REJECT("a reply cut inside the low surrogate escape",
           "\"\\uD83D\\uDE", true, SYNTAX, 11, 1, 12,
           "the reply ends inside a string"),
    REJECT("a fenced text cut after a high surrogate escape",
           "```json\n\"\\uD83D\n```", true, ENCODING, 9, 2, 2,
           "lone surrogate \\uD83D"),
    REJECT("an invalid escape", "\"a\\x\"", true, SYNTAX, 2, 1, 3,
           "invalid escape '\\x' in a string (valid: \\\" \\\\ \\/ \\b \\f "
           "\\n \\r \\t \\uXXXX)"),
    REJECT("an escaped single quote", "\"\\'\"", true, SYNTAX, 1, 1, 2,
           "invalid escape '\\''"),
    REJECT("a \\u escape with three hex digits", "\"\\u12\"", true, SYNTAX, 1,
           1, 2, "it needs exactly four hex digits"),
    REJECT("a \\u escape with a non-hex digit", "\"\\u12G4\"", true, SYNTAX,
           1, 1, 2, "it needs exactly four hex digits"),
    REJECT("an uppercase \\U escape", "\"\\U0041\"", true, SYNTAX, 1, 1, 2,
           "invalid escape '\\U'"),
    REJECT("a raw tab in a string", "\"a\tb\"", true, SYNTAX, 2, 1, 3,
           "raw control character U+0009 in a string (write \\t)"),
    REJECT("a raw line feed in a string", "[\"a\nb\"]", true, SYNTAX, 3, 1,
           4, "raw control character U+000A in a string (write \\n)"),
    REJECT("a raw U+0001 in a string", "\"\x01\"", true, SYNTAX, 1, 1, 2,
           "raw control character U+0001 in a string (write \\u0001)"),
    REJECT("a raw U+001F in a string", "\"\x1F\"", true, SYNTAX, 1, 1, 2,
           "(write \\u001F)"),
    REJECT("a raw NUL in a string", "\"a\0b\"", true, SYNTAX, 2, 1, 3,
           "raw control character U+0000 in a string (NUL is not allowed in "
           "a string, escaped or not)"),
    REJECT("text after the value", "{} x", true, SYNTAX, 3, 1, 4,
           "text after the JSON value (reply with one JSON value and nothing "
           "else)"),
    REJECT("a second JSON text", "{}{}", true, SYNTAX, 2, 1, 3,
           "text after the JSON value"),
    REJECT("a second JSON text on the next line", "[1]\n[2]", true, SYNTAX,
           4, 2, 1, "text after the JSON value"),
    REJECT("two numbers", "1 2", true, SYNTAX, 2, 1, 3,
           "text after the JSON value"),
    REJECT("text before the value", "Here is the JSON:\n{}", true, SYNTAX, 0,
           1, 1,
           "text before the JSON value: the reply must start with a JSON "
           "value or a ``` fence, found 'H'"),
    REJECT("NaN as the whole reply", "NaN", true, SYNTAX, 0, 1, 1,
           "unexpected word 'NaN' where a value was expected (JSON has no "
           "NaN or Infinity"),
    REJECT("NaN in an array", "[NaN]", true, SYNTAX, 1, 1, 2,
           "unexpected word 'NaN' after '[' (JSON has no NaN or Infinity"),
    REJECT("Infinity as a member value", "{\"x\": Infinity}", true, SYNTAX,
           6, 1, 7, "unexpected word 'Infinity' after ':' (JSON has no NaN"),
    REJECT("Infinity as the whole reply", "Infinity", true, SYNTAX, 0, 1, 1,
           "unexpected word 'Infinity' where a value was expected (JSON has "
           "no NaN or Infinity: write a finite number or null)"),
    REJECT("lowercase nan in an array", "[1, nan]", true, SYNTAX, 4, 1, 5,
           "unexpected word 'nan' where a value was expected (JSON has no NaN"),
    REJECT("a word and more text before the value", "Sure! {}", true, SYNTAX,
           0, 1, 1, "text before the JSON value"),
    REJECT("a word before the value", "json\n{}", true, SYNTAX, 0, 1, 1,
           "text before the JSON value"),
    REJECT("-Infinity in an array", "[-Infinity]", true, SYNTAX, 2, 1, 3,
           "expected a digit after '-' (in \"-Infinity\")"),
    REJECT("a missing comma between items", "[1 2]", true, SYNTAX, 3, 1, 4,
           "expected ',' or ']' after an item of an array, found a number"),
    REJECT("a missing comma between members", "{\"a\":1 \"b\":2}", true,
           SYNTAX, 7, 1, 8,
           "expected ',' or '}' after a member of an object, found a string"),
    REJECT("a missing colon", "{\"a\" 1}", true, SYNTAX, 5, 1, 6,
           "expected ':' after the key, found a number"),
    REJECT("a number as a key", "{1:2}", true, SYNTAX, 1, 1, 2,
           "expected a key (a string in double quotes), found a number"),
    REJECT("a mismatched bracket", "[}", true, SYNTAX, 1, 1, 2,
           "expected a value after '[', found '}'"),
    REJECT("a truncated array", "[", true, SYNTAX, 1, 1, 2,
           "expected a value after '[', found the end of the reply"),
    REJECT("a truncated member", "{\"a\":", true, SYNTAX, 5, 1, 6,
           "expected a value after ':', found the end of the reply"),
    /* The end of a reply is the end of its JSON text: white space after
     * it does not move where a cut-off reply is said to end. */
    REJECT("a truncated member, then white space", "{\"a\":  \n ", true, SYNTAX, 5, 1, 6,
           "expected a value after ':', found the end of the reply"),
    REJECT("a truncated object", "{", true, SYNTAX, 1, 1, 2,
           "expected a key (a string in double quotes), found the end of the "
           "reply"),
    REJECT("an unclosed array", "[1,2", true, SYNTAX, 4, 1, 5,
           "expected ',' or ']' after an item of an array, found the end"),
    REJECT("a trailing comma on line 3", "\n\n  [1,\n   ]", true, SYNTAX, 6,
           3, 5, "unexpected ',' after the last item"),
    REJECT("a trailing comma after CRLF lines", "[1,\r\n  2,\r\n]", true,
           SYNTAX, 8, 2, 4, "unexpected ',' after the last item"),
    REJECT("an invalid escape on line 3", "[\"a\"\n,\n\"b\\q\"]", true,
           SYNTAX, 9, 3, 3, "invalid escape '\\q'"),
    REJECT("a comment", "[1 /* one */]", true, SYNTAX, 3, 1, 4,
           "found '/'"),

    /* numbers (RFC 8259 section 6) */
    REJECT("number 01", "[01]", true, SYNTAX, 1, 1, 2, "leading zero"),
    REJECT("number -01", "-01", true, SYNTAX, 1, 1, 2,
           "a number may not have a leading zero (in \"-01\")"),
    REJECT("number 1.", "1.", true, SYNTAX, 2, 1, 3,
           "expected a digit after the decimal point (in \"1.\")"),
    REJECT("number 1.e5", "[1.e5]", true, SYNTAX, 3, 1, 4,
           "expected a digit after the decimal point"),
    REJECT("number .5", ".5", true, SYNTAX, 0, 1, 1,
           "a number must start with a digit (write 0.5, not .5)"),
    REJECT("number .5 in an array", "[.5]", true, SYNTAX, 1, 1, 2,
           "write 0.5, not .5"),
    REJECT("number +1", "+1", true, SYNTAX, 0, 1, 1,
           "a number may not start with '+'"),
    REJECT("number 1e", "1e", true, SYNTAX, 2, 1, 3,
           "expected a digit in the exponent (in \"1e\")"),
    REJECT("number 1E+", "[1E+]", true, SYNTAX, 4, 1, 5,
           "expected a digit in the exponent"),
    REJECT("number -", "-", true, SYNTAX, 1, 1, 2,
           "expected a digit after '-' (in \"-\")"),
    REJECT("number - in an array", "[-]", true, SYNTAX, 2, 1, 3,
           "expected a digit after '-'"),
    REJECT("number 0x1", "0x1", true, SYNTAX, 1, 1, 2,
           "invalid number (in \"0x1\")"),
    REJECT("number 1.5.3", "1.5.3", true, SYNTAX, 3, 1, 4,
           "invalid number (in \"1.5.3\")"),
    REJECT("number 2e5.1", "[2e5.1]", true, SYNTAX, 4, 1, 5,
           "invalid number"),
    REJECT("number 1_000", "1_000", true, SYNTAX, 1, 1, 2, "invalid number"),

    /* literals */
    REJECT("literal tru", "tru", true, SYNTAX, 0, 1, 1,
           "unexpected word 'tru' where a value was expected (JSON has only "
           "true, false and null, in lowercase)"),
    REJECT("literal nul", "nul", true, SYNTAX, 0, 1, 1,
           "unexpected word 'nul'"),
    REJECT("literal True", "True", true, SYNTAX, 0, 1, 1,
           "unexpected word 'True' where a value was expected (JSON has only "
           "true, false and null, in lowercase)"),
    REJECT("literal tru in an array", "[tru]", true, SYNTAX, 1, 1, 2,
           "unexpected word 'tru'"),
    REJECT("literal True in an array", "[True]", true, SYNTAX, 1, 1, 2,
           "unexpected word 'True' after '['"),
    REJECT("literal None as a member value", "{\"a\":None}", true, SYNTAX, 5,
           1, 6, "unexpected word 'None' after ':'"),
    REJECT("literal truex", "truex", true, SYNTAX, 0, 1, 1,
           "unexpected word 'truex'"),
    REJECT("literal nullnull", "nullnull", true, SYNTAX, 0, 1, 1,
           "unexpected word 'nullnull'"),
    REJECT("literal FALSE", "[false,FALSE]", true, SYNTAX, 7, 1, 8,
           "unexpected word 'FALSE' after ','"),

    /* the fence */
    ACCEPT("a ```json fence", "```json\n{}\n```", true, true),
    ACCEPT("a ``` fence", "```\n{}\n```", true, true),
    ACCEPT("a ```json fence with CRLF", "```json\r\n{}\r\n```", true, true),
    ACCEPT("a ``` fence with CRLF", "```\r\n[1]\r\n```", true, true),
    ACCEPT("spaces and a tab after the tag", "```json  \t\n{}\n```", true,
           true),
    ACCEPT("spaces and a tab after the tag, CRLF", "```json \t \r\n{}\r\n```",
           true, true),
    ACCEPT("spaces after a bare fence", "```   \n{}\n```", true, true),
    ACCEPT("white space around the fence", "  \n```json\n{}\n```\n  ", true,
           true),
    ACCEPT("tabs and CRLF around the fence", "\t\r\n```json\n{}\n```\r\n\t",
           true, true),
    ACCEPT("white space inside the fence", "```json\n\n  [1, 2]  \n\n```",
           true, true),
    ACCEPT("no fence where one is allowed", "{}", true, false),
    ACCEPT("no fence where none is allowed", " {} ", false, false),
    REJECT("an uppercase JSON tag", "```JSON\n{}\n```", true, SYNTAX, 3, 1, 4,
           "unexpected text after the opening ``` fence (only a lowercase "
           "json tag may follow it on its line)"),
    REJECT("another tag", "```js\n{}\n```", true, SYNTAX, 3, 1, 4,
           "only a lowercase json tag"),
    REJECT("JSON on the fence line", "```json {}\n```", true, SYNTAX, 8, 1,
           9, "unexpected text after the opening ``` fence"),
    REJECT("text before the fence", "Here:\n```json\n{}\n```", true, SYNTAX,
           0, 1, 1, "text before the JSON value"),
    REJECT("text after the closing fence", "```json\n{}\n```\nThanks!", true,
           SYNTAX, 15, 4, 1, "text after the closing ``` fence"),
    REJECT("a fence where none is allowed", "```json\n{}\n```", false,
           SYNTAX, 0, 1, 1,
           "a ``` fence is not allowed: reply with the JSON text alone"),
    REJECT("a bare fence where none is allowed", "\n```\n{}\n```", false,
           SYNTAX, 1, 2, 1, "a ``` fence is not allowed"),
    REJECT("a fence missing its closing line", "```json\n{}\n", true, SYNTAX,
           10, 2, 3, "the ``` fence is never closed"),
    REJECT("a fence missing its closing line, CRLF", "```json\r\n{\r\n}\r\n",
           true, SYNTAX, 13, 3, 2, "the ``` fence is never closed"),
    REJECT("a closing fence not on its own line", "```json\n{}```", true,
           SYNTAX, 10, 2, 3, "the closing ``` fence must be on its own line"),
    /* Only the opening line: the problem is that the fence is never
     * closed, with or without a line break after it. */
    REJECT("a fence with no line break", "```json", true, SYNTAX, 7, 1, 8,
           "the ``` fence is never closed (nothing follows its opening line)"),
    REJECT("only a fence's opening line", "```json\n", true, SYNTAX, 7, 1, 8,
           "the ``` fence is never closed (nothing follows its opening line)"),
    REJECT("only a fence's opening line, CRLF", "```json\r\n", true, SYNTAX, 7, 1,
           8, "the ``` fence is never closed (nothing follows its opening line)"),
    REJECT("only a bare fence's opening line and white space", "```  \n \n", true,
           SYNTAX, 3, 1, 4,
           "the ``` fence is never closed (nothing follows its opening line)"),
    REJECT("text after the value inside a fence", "```json\n{} x\n```", true,
           SYNTAX, 11, 2, 4, "text after the JSON value"),
    REJECT("a trailing comma inside a fence", "```json\n[1,]\n```", true,
           SYNTAX, 10, 2, 3, "unexpected ',' after the last item"),
    REJECT("a string cut by the closing fence", "```json\n\"ab\n```", true,
           SYNTAX, 11, 2, 4, "raw control character U+000A"),
    REJECT("an array cut by the closing fence", "```json\n[1,\n```", true,
           SYNTAX, 12, 3, 1,
           "expected a value after ',', found the end of the fenced text"),

    /* BOMs and UTF-8 (RFC 3629 section 4), in strings */
    REJECT("a UTF-8 BOM", "\xEF\xBB\xBF{}", true, ENCODING, 0, 1, 1,
           "the reply starts with a byte order mark (BOM); send UTF-8 "
           "without it"),
    REJECT("a UTF-8 BOM before a fence", "\xEF\xBB\xBF```json\n{}\n```", true,
           ENCODING, 0, 1, 1, "byte order mark (BOM)"),
    REJECT("a UTF-16LE BOM", "\xFF\xFE[\0]\0", true, ENCODING, 0, 1, 1,
           "the reply is UTF-16"),
    REJECT("a UTF-16BE BOM", "\xFE\xFF\0[\0]", true, ENCODING, 0, 1, 1,
           "the reply is UTF-16"),
    REJECT("overlong C0 80", "\"\xC0\x80\"", true, ENCODING, 1, 1, 2,
           "invalid UTF-8: an overlong UTF-8 encoding (byte 0xC0)"),
    REJECT("overlong C1 BF", "\"\xC1\xBF\"", true, ENCODING, 1, 1, 2,
           "an overlong UTF-8 encoding (byte 0xC1)"),
    REJECT("overlong E0 80 80", "\"\xE0\x80\x80\"", true, ENCODING, 1, 1, 2,
           "an overlong UTF-8 encoding (byte 0xE0)"),
    REJECT("overlong E0 9F BF", "\"\xE0\x9F\xBF\"", true, ENCODING, 1, 1, 2,
           "an overlong UTF-8 encoding"),
    REJECT("overlong F0 80 80 80", "\"\xF0\x80\x80\x80\"", true, ENCODING, 1,
           1, 2, "an overlong UTF-8 encoding (byte 0xF0)"),
    REJECT("overlong F0 8F BF BF", "\"\xF0\x8F\xBF\xBF\"", true, ENCODING, 1,
           1, 2, "an overlong UTF-8 encoding"),
    REJECT("surrogate ED A0 80", "\"\xED\xA0\x80\"", true, ENCODING, 1, 1, 2,
           "invalid UTF-8: a UTF-16 surrogate encoded in UTF-8 (byte 0xED)"),
    REJECT("surrogate ED BF BF", "[\"x\xED\xBF\xBF\"]", true, ENCODING, 3, 1,
           4, "a UTF-16 surrogate encoded in UTF-8"),
    REJECT("above U+10FFFF: F4 90 80 80", "\"\xF4\x90\x80\x80\"", true,
           ENCODING, 1, 1, 2,
           "invalid UTF-8: a UTF-8 sequence above U+10FFFF (byte 0xF4)"),
    REJECT("above U+10FFFF: F5", "\"\xF5\x80\x80\x80\"", true, ENCODING, 1,
           1, 2, "a UTF-8 sequence above U+10FFFF (byte 0xF5)"),
    REJECT("a five-byte lead F8", "\"\xF8\x88\x80\x80\x80\"", true, ENCODING,
           1, 1, 2, "a byte that never occurs in UTF-8 (byte 0xF8)"),
    REJECT("byte FF", "\"\xFF\"", true, ENCODING, 1, 1, 2,
           "a byte that never occurs in UTF-8 (byte 0xFF)"),
    REJECT("a 3-byte sequence truncated at the end of input", "\"\xE2\x82",
           true, ENCODING, 1, 1, 2,
           "invalid UTF-8: a truncated UTF-8 sequence (byte 0xE2)"),
    REJECT("a 2-byte sequence truncated at the end of input", "[\"\xC3",
           true, ENCODING, 2, 1, 3, "a truncated UTF-8 sequence (byte 0xC3)"),
    REJECT("a 3-byte sequence truncated before a quote", "\"\xE2\x82\"", true,
           ENCODING, 1, 1, 2, "a truncated UTF-8 sequence (byte 0xE2)"),
    REJECT("a 4-byte sequence truncated before a quote",
           "\"\xF0\x9F\x98\"", true, ENCODING, 1, 1, 2,
           "a truncated UTF-8 sequence (byte 0xF0)"),
    REJECT("a 2-byte sequence truncated by ASCII", "\"\xC3" "A\"", true,
           ENCODING, 1, 1, 2, "a truncated UTF-8 sequence"),
    REJECT("a Latin-1 byte", "\"caf\xE9\"", true, ENCODING, 4, 1, 5,
           "a truncated UTF-8 sequence (byte 0xE9)"),
    REJECT("a lone continuation byte 80", "\"\x80\"", true, ENCODING, 1, 1, 2,
           "invalid UTF-8: a UTF-8 continuation byte without a lead byte "
           "(byte 0x80)"),
    REJECT("a lone continuation byte BF", "\"a\xBF\"", true, ENCODING, 2, 1,
           3, "a UTF-8 continuation byte without a lead byte (byte 0xBF)"),
    REJECT("an extra continuation byte", "[\"ok\", \"\xC3\xA9\xA9\"]", true,
           ENCODING, 10, 1, 11, "continuation byte without a lead byte"),
    REJECT("invalid UTF-8 in a key on line 2", "{\n\"k\xC0\xAF\":1}", true,
           ENCODING, 4, 2, 3, "an overlong UTF-8 encoding"),

    /* escapes that policy rejects (I-JSON, RFC 7493 section 2.1) */
    REJECT("\\u0000", "\"\\u0000\"", true, ENCODING, 1, 1, 2,
           "\\u0000 (NUL) is not allowed in a string"),
    REJECT("\\u0000 in a key", "{\"a\\u0000\":1}", true, ENCODING, 3, 1, 4,
           "\\u0000 (NUL) is not allowed"),
    REJECT("a lone high surrogate", "\"\\uD800\"", true, ENCODING, 1, 1, 2,
           "lone surrogate \\uD800 in a string (a high surrogate must be "
           "followed by a low one, \\uDC00-\\uDFFF)"),
    REJECT("a lone high surrogate in lowercase", "\"ab\\udbff\"", true,
           ENCODING, 3, 1, 4, "lone surrogate \\uDBFF"),
    REJECT("a lone low surrogate", "\"\\uDC00\"", true, ENCODING, 1, 1, 2,
           "lone surrogate \\uDC00 in a string (a low surrogate must follow a "
           "high one, \\uD800-\\uDBFF)"),
    REJECT("a lone low surrogate \\uDFFF", "[1,\"\\uDFFF\"]", true, ENCODING,
           4, 1, 5, "lone surrogate \\uDFFF"),
    REJECT("a high surrogate then \\n", "\"\\uD800\\n\"", true, ENCODING, 1,
           1, 2, "lone surrogate \\uD800"),
    REJECT("a high surrogate then \\u0041", "\"ab\\uD83D\\u0041\"", true,
           ENCODING, 3, 1, 4, "lone surrogate \\uD83D"),
    REJECT("a high surrogate then a high one", "\"\\uD800\\uD800\"", true,
           ENCODING, 1, 1, 2, "lone surrogate \\uD800"),
    REJECT("a high surrogate then text", "\"\\uD800abcdef\"", true, ENCODING,
           1, 1, 2, "lone surrogate \\uD800"),
    REJECT("a high surrogate at the end of the string", "\"\\uD800\" ", true,
           ENCODING, 1, 1, 2, "lone surrogate \\uD800"),
    REJECT("inverted surrogates", "\"\\uDE00\\uD83D\"", true, ENCODING, 1, 1,
           2, "lone surrogate \\uDE00"),

    /* white space is only space, tab, LF, CR (RFC 8259 section 2) */
    ACCEPT("all four white-space bytes", " \t\r\n[ 1 ,\t2\r\n,\n3 ]\n\r\t ",
           false, false),
    REJECT("a form feed before the value", "\f1", true, SYNTAX, 0, 1, 1,
           "expected a value at the start of the reply, found U+000C"),
    REJECT("a form feed after the value", "1\f", true, SYNTAX, 1, 1, 2,
           "text after the JSON value"),
    REJECT("a form feed between items", "[1,\f2]", true, SYNTAX, 3, 1, 4,
           "expected a value after ',', found U+000C"),
    REJECT("a vertical tab", "\v[]", true, SYNTAX, 0, 1, 1, "found U+000B"),
    REJECT("a vertical tab after a key", "{\"a\"\v:1}", true, SYNTAX, 4, 1,
           5, "expected ':' after the key, found U+000B"),
    REJECT("a NUL byte as the reply", "\0", true, SYNTAX, 0, 1, 1,
           "expected a value at the start of the reply, found U+0000"),
    REJECT("a NUL byte in an array", "[\0]", true, SYNTAX, 1, 1, 2,
           "expected a value after '[', found U+0000"),
    REJECT("a NUL byte after the value", "[1]\0", true, SYNTAX, 3, 1, 4,
           "text after the JSON value"),
    REJECT("a DEL byte outside strings", "[1,\x7F]", true, SYNTAX, 3, 1, 4,
           "found U+007F"),
    REJECT("a no-break space before the value", "\xC2\xA0[]", true, SYNTAX, 0,
           1, 1, "found U+00A0"),
    REJECT("a no-break space after an item", "[1\xC2\xA0]", true, SYNTAX, 2,
           1, 3, "expected ',' or ']' after an item of an array, found U+00A0"),
    REJECT("an em space in an array", "[\xE2\x80\x83 1]", true, SYNTAX, 1, 1,
           2, "expected a value after '[', found U+2003"),
    REJECT("an ideographic space after the value", "{}\xE3\x80\x80", true,
           SYNTAX, 2, 1, 3, "text after the JSON value"),
    /* A BOM anywhere before the JSON text is `encoding`, as at byte 0;
     * inside it, it is a character where a token was wanted. */
    REJECT("a BOM after white space", " \xEF\xBB\xBF{}", true, ENCODING, 1, 1, 2,
           "a byte order mark (BOM) before the JSON text; send UTF-8 without it"),
    REJECT("a BOM after line breaks", "\r\n\n\xEF\xBB\xBF{}", true, ENCODING, 3, 3,
           1, "a byte order mark (BOM) before the JSON text"),
    REJECT("a BOM right after a fence line", "```json\n\xEF\xBB\xBF{}\n```", true,
           ENCODING, 8, 2, 1, "a byte order mark (BOM) before the JSON text"),
    REJECT("a BOM after a CRLF fence line and white space",
           "```json\r\n \t\xEF\xBB\xBF{}\r\n```", true, ENCODING, 11, 2, 3,
           "a byte order mark (BOM) before the JSON text"),
    REJECT("a BOM after white space under fence: reject", "\n\xEF\xBB\xBF{}", false,
           ENCODING, 1, 2, 1, "a byte order mark (BOM) before the JSON text"),
    REJECT("a BOM inside the JSON text is no BOM: U+FEFF", "[\xEF\xBB\xBF" "1]",
           true, SYNTAX, 1, 1, 2, "found U+FEFF (a byte order mark)"),
    REJECT("a non-ASCII letter as the value", "\xC3\xA9", true, SYNTAX, 0, 1,
           1, "expected a value at the start of the reply, found U+00E9"),
    REJECT("an emoji as an item", "[\xF0\x9F\x98\x80]", true, SYNTAX, 1, 1, 2,
           "found U+1F600"),
    REJECT("invalid UTF-8 outside strings", "\x80", true, ENCODING, 0, 1, 1,
           "a UTF-8 continuation byte without a lead byte (byte 0x80)"),
    REJECT("truncated UTF-8 outside strings", "[1,\xC3]", true, ENCODING, 3,
           1, 4, "a truncated UTF-8 sequence (byte 0xC3)"),
    REJECT("invalid UTF-8 after the value", "{}\xFF", true, ENCODING, 2, 1, 3,
           "a byte that never occurs in UTF-8 (byte 0xFF)"),
    REJECT("a surrogate after a key", "{\"a\"\xED\xA0\x80:1}", true, ENCODING,
           4, 1, 5, "a UTF-16 surrogate encoded in UTF-8"),

    /* accepted documents */
    ACCEPT("every escape", "\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9\"",
           false, false),
    ACCEPT("noncharacters U+FFFF and U+FDD0",
           "[\"\xEF\xBF\xBF\", \"\xEF\xB7\x90\", \"\\uFFFF\\ufdd0\"]", false,
           false),
    ACCEPT("a DEL byte in a string", "\"\x7F\"", false, false),
    ACCEPT("an empty key", "{\"\":0}", false, false),
    ACCEPT("a duplicate key (the reader does not judge keys)",
           "{\"a\":1,\"a\":2}", false, false),
    ACCEPT("a scalar root", " -0.0e+0 ", false, false),
};

START_TEST(documents_get_the_expected_outcome_offset_and_message)
{
    const doc_row_t *row = &doc_rows[_i];
    cc_reader_t r;
    size_t line = 0, column = 0;
    bool ok = cc_read_document(&r, row->text, row->len, row->fence_allowed,
                               DEFAULT_DEPTH);
    if (row->accept) {
        ck_assert_msg(ok, "%s: rejected (%s at %zu): %s", row->name,
                      contractc_kind_name(r.fail_kind), r.fail_offset,
                      r.fail_message);
        ck_assert_msg(r.fenced == row->fenced, "%s: fenced %d", row->name,
                      (int)r.fenced);
        ck_assert_msg(r.depth == 0, "%s: depth %u after the value", row->name,
                      (unsigned)r.depth);
        ck_assert_msg(r.p == r.end, "%s: stopped before the end", row->name);
        return;
    }
    ck_assert_msg(!ok, "%s: accepted", row->name);
    ck_assert_msg(r.failed, "%s: failed not set", row->name);
    ck_assert_msg(r.fail_kind == row->kind, "%s: kind %s, expected %s (%s)",
                  row->name, contractc_kind_name(r.fail_kind),
                  contractc_kind_name(row->kind), r.fail_message);
    ck_assert_msg(r.fail_offset == row->offset,
                  "%s: offset %zu, expected %zu (%s)", row->name,
                  r.fail_offset, row->offset, r.fail_message);
    cc_reader_line_column(&r, r.fail_offset, &line, &column);
    ck_assert_msg(line == row->line && column == row->column,
                  "%s: line %zu column %zu, expected %zu:%zu", row->name,
                  line, column, row->line, row->column);
    ck_assert_msg(strstr(r.fail_message, row->fragment) != NULL,
                  "%s: message \"%s\" lacks \"%s\"", row->name,
                  r.fail_message, row->fragment);
}
END_TEST

/* ------------------------------------------------------------------------
 * Where cc_reader_begin puts the JSON text of a fenced reply
 * ------------------------------------------------------------------------ */

static const struct {
    const char *text;
    size_t start, end; /* r->p and r->end as raw offsets */
    bool fenced;
} bounds_rows[] = {
    {"```json\n{}\n```", 8, 11, true},
    {"```json\r\n{}\r\n```", 9, 13, true},
    {"  \n```\n[1]\n```\n ", 7, 11, true},
    {"```json \t\n{}\n```", 10, 13, true},
    {" \t{} \r\n", 2, 4, false},
    {"{\"a\":\"```\"}", 0, 11, false},
};

START_TEST(begin_sets_the_bounds_of_the_json_text)
{
    cc_reader_t r;
    const char *text = bounds_rows[_i].text;
    ck_assert_msg(cc_reader_begin(&r, text, strlen(text), true, DEFAULT_DEPTH),
                  "%s: %s", text, r.fail_message);
    ck_assert_uint_eq((size_t)(r.p - r.raw), bounds_rows[_i].start);
    ck_assert_uint_eq((size_t)(r.end - r.raw), bounds_rows[_i].end);
    ck_assert_int_eq(r.fenced, bounds_rows[_i].fenced);
    ck_assert_int_eq(r.depth, 0);
    ck_assert(!r.failed);
}
END_TEST

/* ------------------------------------------------------------------------
 * Strings: cc_scan_string and cc_decode_string
 * ------------------------------------------------------------------------ */

typedef struct string_row {
    const char *name;
    const char *json;      /* one JSON string */
    const char *decoded;   /* the expected bytes (no NUL inside) */
    size_t decoded_len;
    size_t code_points;
    bool has_escapes;
} string_row_t;

#define STR(name, json, decoded, points, escapes)                            \
    {name, json, decoded, sizeof decoded - 1, points, escapes}

static const string_row_t string_rows[] = {
    STR("the empty string", "\"\"", "", 0, false),
    STR("plain ASCII", "\"abc 123\"", "abc 123", 7, false),
    STR("\\\"", "\"\\\"\"", "\"", 1, true),
    STR("\\\\", "\"\\\\\"", "\\", 1, true),
    STR("\\/", "\"\\/\"", "/", 1, true),
    STR("\\b", "\"\\b\"", "\b", 1, true),
    STR("\\f", "\"\\f\"", "\f", 1, true),
    STR("\\n", "\"\\n\"", "\n", 1, true),
    STR("\\r", "\"\\r\"", "\r", 1, true),
    STR("\\t", "\"\\t\"", "\t", 1, true),
    STR("all short escapes between text",
        "\"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\"", "a\"b\\c/d\be\ff\ng\rh\ti", 17,
        true),
    STR("\\u0041 (1 byte)", "\"\\u0041\"", "A", 1, true),
    STR("\\u00e9 lowercase (2 bytes)", "\"\\u00e9\"", "\xC3\xA9", 1, true),
    STR("\\u00E9 uppercase (2 bytes)", "\"\\u00E9\"", "\xC3\xA9", 1, true),
    STR("\\u20ac and \\u20AC (3 bytes)", "\"\\u20ac\\u20AC\"",
        "\xE2\x82\xAC\xE2\x82\xAC", 2, true),
    STR("UTF-8 length boundaries",
        "\"\\u0001\\u007F\\u0080\\u07FF\\u0800\\uFFFD\"",
        "\x01\x7F\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBD", 6, true),
    STR("a surrogate pair, uppercase", "\"\\uD83D\\uDE00\"",
        "\xF0\x9F\x98\x80", 1, true),
    STR("a surrogate pair, lowercase", "\"\\ud83d\\ude00\"",
        "\xF0\x9F\x98\x80", 1, true),
    STR("the lowest pair: U+10000", "\"\\uD800\\uDC00\"", "\xF0\x90\x80\x80",
        1, true),
    STR("the highest pair: U+10FFFF", "\"\\uDBFF\\uDFFF\"",
        "\xF4\x8F\xBF\xBF", 1, true),
    STR("escaped noncharacters U+FFFF and U+FDD0", "\"\\uFFFF\\uFDD0\"",
        "\xEF\xBF\xBF\xEF\xB7\x90", 2, true),
    STR("raw noncharacters U+FFFF and U+FDD0", "\"\xEF\xBF\xBF\xEF\xB7\x90\"",
        "\xEF\xBF\xBF\xEF\xB7\x90", 2, false),
    STR("raw 2-, 3- and 4-byte characters",
        "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"",
        "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", 3, false),
    STR("raw boundaries U+0080 U+07FF U+0800 U+D7FF U+E000",
        "\"\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80\"",
        "\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80", 5, false),
    STR("raw U+10000 and U+10FFFF", "\"\xF0\x90\x80\x80\xF4\x8F\xBF\xBF\"",
        "\xF0\x90\x80\x80\xF4\x8F\xBF\xBF", 2, false),
    STR("a raw DEL", "\"\x7F\"", "\x7F", 1, false),
    STR("raw and escaped text mixed", "\"a\\nb\xC3\xA9\\u00e9" "c\"",
        "a\nb\xC3\xA9\xC3\xA9" "c", 6, true),
    STR("an escaped backslash before u", "\"\\\\u0041\"", "\\u0041", 6, true),
    STR("a JSON text inside a string stays a string", "\"{\\\"a\\\":[1]}\"",
        "{\"a\":[1]}", 9, true),
};

START_TEST(strings_decode_to_the_expected_bytes_and_counts)
{
    const string_row_t *row = &string_rows[_i];
    cc_reader_t r;
    cc_string_token_t t;
    char *buf;
    size_t json_len = strlen(row->json), points;

    ck_assert(cc_reader_begin(&r, row->json, json_len, false, DEFAULT_DEPTH));
    ck_assert_int_eq(cc_peek(&r), '"');
    ck_assert_msg(cc_scan_string(&r, &t), "%s: %s", row->name,
                  r.fail_message);
    ck_assert_msg(t.raw == r.raw + 1, "%s: raw does not follow the quote",
                  row->name);
    ck_assert_uint_eq(t.raw_len, json_len - 2);
    ck_assert_msg(t.decoded_len == row->decoded_len,
                  "%s: decoded_len %zu, expected %zu", row->name,
                  t.decoded_len, row->decoded_len);
    ck_assert_msg(t.has_escapes == row->has_escapes, "%s: has_escapes %d",
                  row->name, (int)t.has_escapes);
    /* The decoder writes exactly decoded_len bytes: the canary survives. */
    buf = malloc(t.decoded_len + 1);
    ck_assert_ptr_nonnull(buf);
    buf[t.decoded_len] = '#';
    cc_decode_string(&t, buf);
    ck_assert_msg(memcmp(buf, row->decoded, row->decoded_len) == 0,
                  "%s: decoded bytes differ", row->name);
    ck_assert_int_eq(buf[t.decoded_len], '#');
    points = cc_utf8_code_points((const unsigned char *)buf, t.decoded_len);
    ck_assert_msg(points == row->code_points,
                  "%s: %zu code points, expected %zu", row->name, points,
                  row->code_points);
    free(buf);
    ck_assert_msg(cc_reader_finish(&r), "%s: %s", row->name, r.fail_message);
}
END_TEST

/*
 * One special byte sequence at every position 0..47 of a 48-byte run of
 * 'a': the string scan may step over plain text in blocks (8 bytes at a
 * time), so each position of a block, and the tail after the last block,
 * must see it.
 */
static const struct {
    const char *name;
    const char *bytes;      /* inserted at the position */
    size_t len;
    bool accept;
    contractc_kind_t kind;  /* rejected: at the inserted byte */
    const char *out;        /* accepted: the insert decoded, */
    size_t decoded, points; /* its length and code points */
    bool escapes;
} special_rows[] = {
    {"a quote ends the string", "\"", 1, true, CONTRACTC_KIND_EMPTY, "", 0, 0,
     false},
    {"a short escape", "\\n", 2, true, CONTRACTC_KIND_EMPTY, "\n", 1, 1,
     true},
    {"a \\u escape", "\\u00e9", 6, true, CONTRACTC_KIND_EMPTY, "\xC3\xA9",
     2, 1, true},
    {"a surrogate pair", "\\ud83d\\ude00", 12, true, CONTRACTC_KIND_EMPTY,
     "\xF0\x9F\x98\x80", 4, 1, true},
    {"a 2-byte character", "\xC3\xA9", 2, true, CONTRACTC_KIND_EMPTY,
     "\xC3\xA9", 2, 1, false},
    {"a 4-byte character", "\xF0\x9F\x98\x80", 4, true,
     CONTRACTC_KIND_EMPTY, "\xF0\x9F\x98\x80", 4, 1, false},
    {"a DEL byte", "\x7F", 1, true, CONTRACTC_KIND_EMPTY, "\x7F", 1, 1,
     false},
    {"a space", " ", 1, true, CONTRACTC_KIND_EMPTY, " ", 1, 1, false},
    {"a NUL byte", "\0", 1, false, CONTRACTC_KIND_SYNTAX, "", 0, 0, false},
    {"a U+0001 byte", "\x01", 1, false, CONTRACTC_KIND_SYNTAX, "", 0, 0, false},
    {"a U+001F byte", "\x1F", 1, false, CONTRACTC_KIND_SYNTAX, "", 0, 0, false},
    {"a lone continuation byte", "\x80", 1, false, CONTRACTC_KIND_ENCODING,
     "", 0, 0, false},
    {"a byte FF", "\xFF", 1, false, CONTRACTC_KIND_ENCODING, "", 0, 0, false},
    {"an invalid escape", "\\x", 2, false, CONTRACTC_KIND_SYNTAX, "", 0, 0,
     false},
    {"a lone high surrogate", "\\ud83d", 6, false, CONTRACTC_KIND_ENCODING,
     "", 0, 0, false},
};

START_TEST(special_bytes_are_found_at_every_position_of_a_long_string)
{
    enum { RUN = 48 };
    char doc[RUN + 16], dec[RUN + 16], want[RUN + 16];
    size_t k, len, insert = special_rows[_i].len;
    for (k = 0; k < RUN; k++) {
        cc_reader_t r;
        cc_string_token_t t;
        bool ok;
        doc[0] = '"';
        memset(doc + 1, 'a', RUN);
        memcpy(doc + 1 + k, special_rows[_i].bytes, insert);
        memset(doc + 1 + k + insert, 'a', RUN - k - 1);
        len = 1 + k + insert + (RUN - k - 1);
        doc[len++] = '"';
        ck_assert(cc_reader_begin(&r, doc, len, false, DEFAULT_DEPTH));
        ok = cc_scan_string(&r, &t);
        if (!special_rows[_i].accept) {
            ck_assert_msg(!ok, "%s at %zu: accepted", special_rows[_i].name,
                          k);
            ck_assert_int_eq(r.fail_kind, special_rows[_i].kind);
            ck_assert_msg(r.fail_offset == 1 + k, "%s at %zu: offset %zu",
                          special_rows[_i].name, k, r.fail_offset);
            continue;
        }
        ck_assert_msg(ok, "%s at %zu: %s", special_rows[_i].name, k,
                      r.fail_message);
        if (special_rows[_i].bytes[0] == '"') {
            /* The string is the k bytes before the quote. */
            ck_assert_uint_eq(t.raw_len, k);
            ck_assert_uint_eq(t.decoded_len, k);
            ck_assert_uint_eq(cc_utf8_code_points(t.raw, t.raw_len), k);
            continue;
        }
        ck_assert_uint_eq(t.raw_len, len - 2);
        ck_assert_msg(t.decoded_len == RUN - 1 + special_rows[_i].decoded,
                      "%s at %zu: decoded_len %zu", special_rows[_i].name, k,
                      t.decoded_len);
        ck_assert_int_eq(t.has_escapes, special_rows[_i].escapes);
        /* Expected: k 'a's, the decoded insert, the other 'a's. */
        memset(want, 'a', sizeof want);
        memcpy(want + k, special_rows[_i].out, special_rows[_i].decoded);
        cc_decode_string(&t, dec);
        ck_assert_msg(memcmp(dec, want, t.decoded_len) == 0,
                      "%s at %zu: decoded bytes differ", special_rows[_i].name,
                      k);
        ck_assert_uint_eq(cc_utf8_code_points((unsigned char *)dec,
                                              t.decoded_len),
                          RUN - 1 + special_rows[_i].points);
        ck_assert(cc_reader_finish(&r));
    }
}
END_TEST

/* Long strings with escapes spread over them decode byte for byte. */
START_TEST(long_strings_with_escapes_decode_exactly)
{
    enum { N = 300 };
    char doc[N * 7 + 2], want[N * 2], *got;
    size_t i, n = 0, w = 0;
    cc_reader_t r;
    cc_string_token_t t;
    doc[n++] = '"';
    for (i = 0; i < N; i++) {
        switch (i % 5) {
        case 0: memcpy(doc + n, "\\t", 2); n += 2; want[w++] = '\t'; break;
        case 1: memcpy(doc + n, "\\u00e9", 6); n += 6;
                memcpy(want + w, "\xC3\xA9", 2); w += 2; break;
        case 2: memcpy(doc + n, "\\\\", 2); n += 2; want[w++] = '\\'; break;
        default: doc[n++] = (char)('a' + i % 26); want[w++] = (char)('a' + i % 26);
        }
    }
    doc[n++] = '"';
    ck_assert(cc_reader_begin(&r, doc, n, false, DEFAULT_DEPTH));
    ck_assert(cc_scan_string(&r, &t));
    ck_assert_uint_eq(t.decoded_len, w);
    got = malloc(w);
    ck_assert_ptr_nonnull(got);
    cc_decode_string(&t, got);
    ck_assert(memcmp(got, want, w) == 0);
    ck_assert_uint_eq(cc_utf8_code_points((unsigned char *)got, w), N);
    free(got);
}
END_TEST

/*
 * Generated strings: content of every length 0..40 with one insert at
 * every position, in five places: the whole reply (the last bytes take the
 * careful path), an array item followed by more text (the fast path runs
 * to the end), the content across the first 4096-byte UTF-8 chunk boundary,
 * an item before a bad byte (the careful path from 8 bytes before it), and
 * the last item after a string of escapes (the scan's last step, which
 * ends at the end of the reply, starts among the quotes and backslashes
 * before the string).
 */
static const struct {
    const char *name;
    const char *bytes;
    size_t len;
    const char *out;        /* accepted: the decoded insert, */
    size_t decoded, points; /* its length and code points */
    bool escapes;
    contractc_kind_t kind;  /* rejected (out == NULL): */
    size_t at;              /* the offset in the insert, */
    const char *message;    /* the whole message */
} gen_rows[] = {
#define GEN_OK(name, bytes, out, points, esc)                                \
    {name, bytes, sizeof bytes - 1, out, sizeof out - 1, points, esc,        \
     CONTRACTC_KIND_EMPTY, 0, NULL}
#define GEN_BAD(name, bytes, kind, at, message)                              \
    {name, bytes, sizeof bytes - 1, NULL, 0, 0, false, CONTRACTC_KIND_##kind, \
     at, message}
    GEN_OK("a quote", "\"", "", 0, false),
    GEN_OK("\\\"", "\\\"", "\"", 1, true),
    GEN_OK("\\\\", "\\\\", "\\", 1, true),
    GEN_OK("\\/", "\\/", "/", 1, true),
    GEN_OK("\\b", "\\b", "\b", 1, true),
    GEN_OK("\\f", "\\f", "\f", 1, true),
    GEN_OK("\\n", "\\n", "\n", 1, true),
    GEN_OK("\\r", "\\r", "\r", 1, true),
    GEN_OK("\\t", "\\t", "\t", 1, true),
    GEN_OK("\\u00e9", "\\u00e9", "\xC3\xA9", 1, true),
    GEN_OK("\\u20AC", "\\u20AC", "\xE2\x82\xAC", 1, true),
    GEN_OK("a surrogate pair", "\\ud83d\\ude00", "\xF0\x9F\x98\x80", 1, true),
    GEN_OK("a 2-byte character", "\xC3\xA9", "\xC3\xA9", 1, false),
    GEN_OK("a 3-byte character", "\xE2\x82\xAC", "\xE2\x82\xAC", 1, false),
    GEN_OK("a 4-byte character", "\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80", 1,
           false),
    GEN_OK("U+10FFFF", "\xF4\x8F\xBF\xBF", "\xF4\x8F\xBF\xBF", 1, false),
    GEN_OK("a DEL byte", "\x7F", "\x7F", 1, false),
    GEN_BAD("a NUL byte", "\0", SYNTAX, 0,
            "raw control character U+0000 in a string (NUL is not allowed "
            "in a string, escaped or not)"),
    GEN_BAD("a U+0001 byte", "\x01", SYNTAX, 0,
            "raw control character U+0001 in a string (write \\u0001)"),
    GEN_BAD("a raw line feed", "\n", SYNTAX, 0,
            "raw control character U+000A in a string (write \\n)"),
    GEN_BAD("a U+001F byte", "\x1F", SYNTAX, 0,
            "raw control character U+001F in a string (write \\u001F)"),
    GEN_BAD("byte 80", "\x80", ENCODING, 0,
            "invalid UTF-8: a UTF-8 continuation byte without a lead byte "
            "(byte 0x80)"),
    GEN_BAD("C0 80", "\xC0\x80", ENCODING, 0,
            "invalid UTF-8: an overlong UTF-8 encoding (byte 0xC0)"),
    GEN_BAD("a surrogate ED A0 80", "\xED\xA0\x80", ENCODING, 0,
            "invalid UTF-8: a UTF-16 surrogate encoded in UTF-8 (byte 0xED)"),
    GEN_BAD("F4 90 80 80", "\xF4\x90\x80\x80", ENCODING, 0,
            "invalid UTF-8: a UTF-8 sequence above U+10FFFF (byte 0xF4)"),
    GEN_BAD("F4 90, then the rest", "\xF4\x90", ENCODING, 0,
            "invalid UTF-8: a UTF-8 sequence above U+10FFFF (byte 0xF4)"),
    GEN_BAD("byte FF", "\xFF", ENCODING, 0,
            "invalid UTF-8: a byte that never occurs in UTF-8 (byte 0xFF)"),
    GEN_BAD("a truncated 3-byte sequence", "\xE2\x82", ENCODING, 0,
            "invalid UTF-8: a truncated UTF-8 sequence (byte 0xE2)"),
    GEN_BAD("a truncated 4-byte sequence", "\xF0\x9F\x98", ENCODING, 0,
            "invalid UTF-8: a truncated UTF-8 sequence (byte 0xF0)"),
    GEN_BAD("a character, then a lone continuation byte", "\xC3\xA9\xA9",
            ENCODING, 2,
            "invalid UTF-8: a UTF-8 continuation byte without a lead byte "
            "(byte 0xA9)"),
    GEN_BAD("an invalid escape", "\\x", SYNTAX, 0,
            "invalid escape '\\x' in a string (valid: \\\" \\\\ \\/ \\b \\f "
            "\\n \\r \\t \\uXXXX)"),
    GEN_BAD("\\u0000", "\\u0000", ENCODING, 0,
            "\\u0000 (NUL) is not allowed in a string"),
    GEN_BAD("a lone high surrogate", "\\ud83d", ENCODING, 0,
            "lone surrogate \\uD83D in a string (a high surrogate must be "
            "followed by a low one, \\uDC00-\\uDFFF)"),
    GEN_BAD("a lone low surrogate", "\\uDE00", ENCODING, 0,
            "lone surrogate \\uDE00 in a string (a low surrogate must follow "
            "a high one, \\uD800-\\uDBFF)"),
#undef GEN_OK
#undef GEN_BAD
};

enum { GEN_MAX = 40, GEN_CHUNK = 4096 };

/* The reply of place `where` around `str` (str_len bytes, quotes
 * included); *start receives the offset of the string's opening quote.
 * Exactly as long as the reply (ASan sees any read beyond it).  The caller
 * frees. */
static char *gen_reply(int where, const char *str, size_t str_len,
                       size_t *len, size_t *start)
{
    /* Place 2: the string's content starts 20 bytes before the boundary;
     * place 4: the first item, ["\"\\", is 4 + 4 bytes. */
    size_t before = where == 2 ? GEN_CHUNK - 20 - 1 - 4 : where == 4 ? 4 : 0, n = 0;
    const char *tail = where == 1   ? ", \"bbbbbbbbbbbbbbbbbbbbbbbb\"]"
                       : where == 2 || where == 4 ? "]"
                       : where == 3 ? ", \"\xFF\"]"
                                    : "";
    char *s = malloc(str_len + before + 4 + strlen(tail) + 1);
    ck_assert_ptr_nonnull(s);
    if (where == 2) {
        memcpy(s, "[\"", 2);
        memset(s + 2, 'b', before);
        memcpy(s + 2 + before, "\",", 2);
        n = before + 4;
    } else if (where == 4) {
        memcpy(s, "[\"\\\"\\\\\",", 8);
        n = 8;
    } else if (where != 0) {
        s[n++] = '[';
    }
    *start = n;
    memcpy(s + n, str, str_len);
    n += str_len;
    memcpy(s + n, tail, strlen(tail));
    n += strlen(tail);
    *len = n;
    return s;
}

/*
 * The string scans under test: cc_scan_string (mode 0), and
 * cc_scan_string_copy with room for any string here (mode 1) and with room
 * for 24 bytes (mode 2: it gives up to the general scan part of the way).
 * Sets *copied when buf holds the decoded text.
 */
enum { SCAN_MODES = 3 };

static bool scan_in_mode(cc_reader_t *r, cc_string_token_t *t, int mode, char *buf,
                         size_t cap, bool *copied)
{
    *copied = false;
    if (mode == 0)
        return cc_scan_string(r, t);
    return cc_scan_string_copy(r, t, buf, mode == 1 ? cap : 24, copied);
}

START_TEST(generated_strings_decode_or_fail_exactly_at_every_position)
{
    const char *name = gen_rows[_i].name;
    size_t ins = gen_rows[_i].len, len, k, n, start, doc_len, points;
    bool quote = gen_rows[_i].bytes[0] == '"' && ins == 1;
    char str[GEN_MAX + 16], want[GEN_MAX + 8], dec[GEN_MAX + 8];
    char copy[GEN_MAX + 32];
    size_t copies = 0;
    int where, mode;

    for (mode = 0; mode < SCAN_MODES; mode++)
    for (where = 0; where < 5; where++)
        for (len = 0; len <= GEN_MAX; len++)
            for (k = 0; k <= len; k++) {
                cc_reader_t r;
                cc_string_token_t t;
                char *doc;
                bool ok, copied;
                /* '"', k 'a's, the insert, len - k 'a's, '"' */
                n = 0;
                str[n++] = '"';
                memset(str + n, 'a', k), n += k;
                memcpy(str + n, gen_rows[_i].bytes, ins), n += ins;
                memset(str + n, 'a', len - k), n += len - k;
                str[n++] = '"';
                doc = gen_reply(where, str, n, &doc_len, &start);
                ck_assert(cc_reader_begin(&r, doc, doc_len, false,
                                          DEFAULT_DEPTH));
                if (where != 0)
                    ck_assert(cc_expect(&r, '[', "'['"));
                if (where == 2 || where == 4) {
                    ck_assert(cc_scan_string(&r, &t));
                    ck_assert(cc_expect(&r, ',', "','"));
                }
                ck_assert_int_eq(cc_peek(&r), '"');
                ok = scan_in_mode(&r, &t, mode, copy, sizeof copy, &copied);
                if (!gen_rows[_i].out) {
                    ck_assert_msg(!ok, "%s at %zu of %zu (place %d, mode %d): accepted",
                                  name, k, len, where, mode);
                    ck_assert(!copied);
                    ck_assert_msg(r.fail_kind == gen_rows[_i].kind &&
                                      r.fail_offset ==
                                          start + 1 + k + gen_rows[_i].at &&
                                      strcmp(r.fail_message,
                                             gen_rows[_i].message) == 0,
                                  "%s at %zu of %zu (place %d): %s at %zu: %s",
                                  name, k, len, where,
                                  contractc_kind_name(r.fail_kind),
                                  r.fail_offset, r.fail_message);
                    free(doc);
                    continue;
                }
                ck_assert_msg(ok, "%s at %zu of %zu (place %d): %s", name, k,
                              len, where, r.fail_message);
                ck_assert(t.raw == (const unsigned char *)doc + start + 1);
                /* A quote ends the string after the k 'a's. */
                ck_assert_uint_eq(t.raw_len, quote ? k : n - 2);
                memset(want, 'a', sizeof want);
                memcpy(want + k, gen_rows[_i].out, gen_rows[_i].decoded);
                ck_assert_msg(t.decoded_len ==
                                  (quote ? k : len + gen_rows[_i].decoded),
                              "%s at %zu of %zu (place %d): decoded_len %zu",
                              name, k, len, where, t.decoded_len);
                ck_assert_int_eq(t.has_escapes, gen_rows[_i].escapes);
                if (copied) {
                    copies++;
                    memcpy(dec, copy, t.decoded_len);
                } else {
                    cc_decode_string(&t, dec);
                }
                ck_assert_msg(memcmp(dec, want, t.decoded_len) == 0,
                              "%s at %zu of %zu (place %d, mode %d): decoded bytes",
                              name, k, len, where, mode);
                points = cc_utf8_code_points((unsigned char *)dec,
                                             t.decoded_len);
                ck_assert_uint_eq(points,
                                  quote ? k : len + gen_rows[_i].points);
                ck_assert(r.p == t.raw + t.raw_len + 1);
                free(doc);
            }
    /* The copying scan wrote most accepted strings itself (the others end
     * in the last bytes of the reply, or hold a \u escape). */
    if (gen_rows[_i].out && !strstr(gen_rows[_i].bytes, "\\u"))
        ck_assert_msg(copies > 0, "%s: cc_scan_string_copy never copied", name);
}
END_TEST

/* ------------------------------------------------------------------------
 * Shift invariance: the fast and careful string paths agree wherever a
 * string lies (JSONTestSuite's files, padded)
 * ------------------------------------------------------------------------ */

typedef struct outcome {
    bool ok;
    contractc_kind_t kind;
    char message[sizeof(((cc_reader_t *)0)->fail_message)];
    /* Where: an offset from the start of the text, or, in what follows
     * it, the byte there (-1: the end of the JSON text). */
    bool after;
    long long at;
} outcome_t;

/* Reads pre + text + post, in a buffer of exactly that size. */
static outcome_t read_wrapped(const char *pre, size_t pre_len,
                              const char *text, size_t len, const char *post,
                              size_t post_len)
{
    outcome_t o;
    cc_reader_t r;
    char *doc = malloc(pre_len + len + post_len + 1);
    ck_assert_ptr_nonnull(doc);
    memcpy(doc, pre, pre_len);
    memcpy(doc + pre_len, text, len);
    memcpy(doc + pre_len + len, post, post_len);
    o.ok = cc_read_document(&r, doc, pre_len + len + post_len, false,
                            DEPTH_CAP);
    o.kind = o.ok ? CONTRACTC_KIND_EMPTY : r.fail_kind;
    memcpy(o.message, r.fail_message, sizeof o.message);
    o.after = !o.ok && r.fail_offset >= pre_len + len;
    o.at = o.ok                         ? 0
           : !o.after                   ? (long long)r.fail_offset - (long long)pre_len
           : r.raw + r.fail_offset == r.end ? -1
                                        : (unsigned char)doc[r.fail_offset];
    free(doc);
    return o;
}

/* got (read with `pad`) and base agree: the verdict, the kind, the message
 * and where. */
static void same_outcome(const char *file, const char *form, size_t pad,
                         const outcome_t *got, const outcome_t *base)
{
    ck_assert_msg(got->ok == base->ok && got->kind == base->kind &&
                      strcmp(got->message, base->message) == 0 &&
                      got->after == base->after && got->at == base->at,
                  "%s, %s, pad %zu: %s %s at %s%lld (\"%s\"); unpadded: %s "
                  "%s at %s%lld (\"%s\")", file, form, pad,
                  got->ok ? "accepted" : "rejected",
                  contractc_kind_name(got->kind), got->after ? "after " : "",
                  got->at, got->message, base->ok ? "accepted" : "rejected",
                  contractc_kind_name(base->kind),
                  base->after ? "after " : "", base->at, base->message);
}

START_TEST(jsontestsuite_outcomes_do_not_depend_on_where_the_text_lies)
{
    char pre[64], post[64];
    DIR *dir = opendir(CONTRACTC_TEST_DATA "/jsontestsuite/test_parsing");
    struct dirent *e;
    size_t files = 0, pad;
    ck_assert_ptr_nonnull(dir);
    while ((e = readdir(dir)) != NULL) {
        char path[512];
        FILE *f;
        char *text;
        long size;
        outcome_t base, got;
        if (e->d_name[0] != 'y' && e->d_name[0] != 'n' && e->d_name[0] != 'i')
            continue;
        snprintf(path, sizeof path, "%s/%s",
                 CONTRACTC_TEST_DATA "/jsontestsuite/test_parsing", e->d_name);
        f = fopen(path, "rb");
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
        size = ftell(f);
        ck_assert_int_ge(size, 0);
        rewind(f);
        text = malloc((size_t)size + 1);
        ck_assert_ptr_nonnull(text);
        ck_assert_uint_eq(fread(text, 1, (size_t)size, f), (size_t)size);
        fclose(f);
        files++;

        /* Form 1: pad spaces and a line break before the text (the break
         * keeps the columns in messages). */
        for (pad = 0; pad < 16; pad++) {
            memset(pre, ' ', pad);
            pre[pad] = '\n';
            got = read_wrapped(pre, pad + 1, text, (size_t)size, "", 0);
            if (pad == 0)
                base = got;
            else
                same_outcome(e->d_name, "leading spaces", pad, &got, &base);
        }

        /* Form 2: an array item after a string of pad 'a's and before
         * 15 - pad spaces, the length constant: the text's strings move
         * towards the end of the reply (where the careful path runs) and
         * across the UTF-8 chunks. */
        for (pad = 0; pad < 16; pad++) {
            size_t pre_len = 0;
            pre[pre_len++] = '[';
            pre[pre_len++] = '"';
            memset(pre + pre_len, 'a', pad), pre_len += pad;
            memcpy(pre + pre_len, "\",\n", 3), pre_len += 3;
            post[0] = '\n';
            memset(post + 1, ' ', 15 - pad);
            post[16 - pad] = ']';
            got = read_wrapped(pre, pre_len, text, (size_t)size, post,
                               17 - pad);
            if (pad == 0)
                base = got;
            else
                same_outcome(e->d_name, "array item", pad, &got, &base);
        }
        free(text);
    }
    closedir(dir);
    ck_assert_uint_eq(files, 318);
}
END_TEST

/* ------------------------------------------------------------------------
 * UTF-8: cc_utf8_length, cc_utf8_valid_prefix, cc_utf8_valid
 * ------------------------------------------------------------------------ */

/*
 * RFC 3629 stated independently of reader.c: decode by the bit patterns,
 * then refuse overlongs, surrogates and code points above U+10FFFF.
 */
static size_t ref_utf8_length(const unsigned char *s, size_t n)
{
    size_t need, i;
    uint32_t cp, least;
    if (n == 0)
        return 0;
    if (s[0] < 0x80)
        return 1;
    if ((s[0] & 0xE0) == 0xC0) {
        need = 2, cp = s[0] & 0x1Fu, least = 0x80;
    } else if ((s[0] & 0xF0) == 0xE0) {
        need = 3, cp = s[0] & 0x0Fu, least = 0x800;
    } else if ((s[0] & 0xF8) == 0xF0) {
        need = 4, cp = s[0] & 0x07u, least = 0x10000;
    } else {
        return 0;
    }
    if (n < need)
        return 0;
    for (i = 1; i < need; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    if (cp < least || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
        return 0;
    return need;
}

static size_t ref_valid_prefix(const unsigned char *s, size_t n)
{
    size_t i = 0, len;
    while (i < n) {
        if ((len = ref_utf8_length(s + i, n - i)) == 0)
            return i;
        i += len;
    }
    return n;
}

/* Every lead and second byte, the later bytes continuation or not, every
 * length available: the reader's rule is RFC 3629's. */
START_TEST(utf8_length_follows_rfc3629_for_every_lead_and_second_byte)
{
    static const unsigned char later[] = {0x41, 0x7F, 0x80, 0xBF, 0xC0};
    unsigned b0, b1, i2, i3;
    size_t n;
    unsigned char s[4];
    for (b0 = 0; b0 < 256; b0++)
        for (b1 = 0; b1 < 256; b1++)
            for (i2 = 0; i2 < sizeof later; i2++)
                for (i3 = 0; i3 < sizeof later; i3++) {
                    s[0] = (unsigned char)b0, s[1] = (unsigned char)b1;
                    s[2] = later[i2], s[3] = later[i3];
                    for (n = 0; n <= 4; n++)
                        if (cc_utf8_length(s, n) != ref_utf8_length(s, n))
                            ck_abort_msg("%02X %02X %02X %02X (n %zu): %zu, "
                                         "expected %zu", s[0], s[1], s[2],
                                         s[3], n, cc_utf8_length(s, n),
                                         ref_utf8_length(s, n));
                }
}
END_TEST

/* Sequences put at every position of an ASCII run, so that each lands in
 * each byte of a 16-byte block and in the tail after the last block. */
static const struct {
    const char *name;
    const char *bytes;
    size_t len;
    size_t bad_at; /* where the bad sequence starts; len: none */
} utf8_rows[] = {
    {"U+00E9", "\xC3\xA9", 2, 2},
    {"U+20AC", "\xE2\x82\xAC", 3, 3},
    {"U+1F600", "\xF0\x9F\x98\x80", 4, 4},
    {"U+10FFFF", "\xF4\x8F\xBF\xBF", 4, 4},
    {"U+D7FF and U+E000", "\xED\x9F\xBF\xEE\x80\x80", 6, 6},
    {"Cyrillic text", "\xD0\xBF\xD1\x80\xD0\xB8", 6, 6},
    {"a lone continuation byte", "\x80", 1, 0},
    {"C0 80", "\xC0\x80", 2, 0},
    {"a surrogate ED A0 80", "\xED\xA0\x80", 3, 0},
    {"above U+10FFFF: F4 90", "\xF4\x90\x80\x80", 4, 0},
    {"F5", "\xF5\x80\x80\x80", 4, 0},
    {"FF", "\xFF", 1, 0},
    {"a 3-byte sequence cut by ASCII", "\xE2\x82" "a", 3, 0},
    {"a 4-byte sequence cut by ASCII", "\xF0\x9F\x98" "a", 4, 0},
    {"a valid character then a bad byte", "\xC3\xA9\xC3", 3, 2},
};

START_TEST(utf8_valid_prefix_stops_at_the_first_bad_sequence_at_every_position)
{
    /* Past 256 + 64: the SSE2 check takes 64 bytes a step on texts of 256
     * bytes or more, so every row also straddles its block boundaries. */
    enum { RUN = 330 };
    unsigned char s[RUN + 16];
    size_t k, n, tail, len = utf8_rows[_i].len;
    for (k = 0; k <= RUN; k++) {
        for (tail = 0; tail < 3; tail++) {
            /* tail 0: the sequence ends the text (a cut one is truncated);
             * 1: ASCII follows; 2: the text ends inside the sequence. */
            memset(s, 'a', sizeof s);
            memcpy(s + k, utf8_rows[_i].bytes, len);
            n = tail == 0 ? k + len : tail == 1 ? k + len + 3 : k + len - 1;
            if (n == k)
                continue;
            ck_assert_msg(cc_utf8_valid_prefix(s, n) == ref_valid_prefix(s, n),
                          "%s at %zu of %zu: %zu, expected %zu",
                          utf8_rows[_i].name, k, n, cc_utf8_valid_prefix(s, n),
                          ref_valid_prefix(s, n));
            ck_assert_int_eq(cc_utf8_valid(s, n), ref_valid_prefix(s, n) == n);
            if (tail < 2)
                ck_assert_uint_eq(cc_utf8_valid_prefix(s, n),
                                  utf8_rows[_i].bad_at == len
                                      ? n : k + utf8_rows[_i].bad_at);
        }
    }
}
END_TEST

/* Pseudo-random texts, mostly ASCII with UTF-8 pieces and now and then a
 * damaged byte, of every length up to 500 (the SSE2 blocks from 256 on). */
START_TEST(utf8_valid_prefix_agrees_with_the_reference_on_random_texts)
{
    static const char *const pieces[] = {
        "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
        "\303\274berweisung", "caf\xC3\xA9", "\\\"", "0123456789abcdef"};
    unsigned char s[512];
    uint32_t seed = 12345;
    size_t round, n, i, bad = 0;
    for (round = 0; round < 8000; round++) {
        size_t len = round % 500 + 1;
        n = 0;
        while (n < len) {
            seed = seed * 1103515245u + 12345u;
            if ((seed >> 16) % 4 == 0) {
                const char *p = pieces[(seed >> 8) % COUNT(pieces)];
                for (i = 0; p[i] && n < len; i++)
                    s[n++] = (unsigned char)p[i];
            } else {
                s[n++] = (unsigned char)(' ' + (seed >> 20) % 90);
            }
        }
        if (round % 3 == 0) {
            seed = seed * 1103515245u + 12345u;
            s[(seed >> 16) % n] = (unsigned char)(0x80 + (seed >> 4) % 128);
        }
        if (ref_valid_prefix(s, n) < n)
            bad++;
        ck_assert_msg(cc_utf8_valid_prefix(s, n) == ref_valid_prefix(s, n),
                      "round %zu (%zu bytes): %zu, expected %zu", round, n,
                      cc_utf8_valid_prefix(s, n), ref_valid_prefix(s, n));
    }
    ck_assert_uint_gt(bad, 500); /* both outcomes were exercised */
    ck_assert_uint_lt(bad, 3500);
}
END_TEST

/*
 * The differential tests below compare cc_utf8_valid_prefix with a second
 * reference that reads one byte at a time, as Unicode's table 3-7 is
 * written: after a lead, the continuation bytes still due and the range
 * the next one must fall in.  Returns where the first ill-formed sequence
 * starts (a sequence cut by the end of the text included), or n.
 */
static size_t ref_bytewise_valid_prefix(const unsigned char *s, size_t n)
{
    size_t i, lead = 0;
    unsigned due = 0, lo = 0x80, hi = 0xBF;
    for (i = 0; i < n; i++) {
        unsigned b = s[i];
        if (due) {
            if (b < lo || b > hi)
                return lead;
            lo = 0x80, hi = 0xBF;
            due--;
            continue;
        }
        lead = i;
        if (b <= 0x7F)
            continue;
        else if (b >= 0xC2 && b <= 0xDF)
            due = 1;
        else if (b == 0xE0)
            due = 2, lo = 0xA0;
        else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF)
            due = 2;
        else if (b == 0xED)
            due = 2, hi = 0x9F;
        else if (b == 0xF0)
            due = 3, lo = 0x90;
        else if (b >= 0xF1 && b <= 0xF3)
            due = 3;
        else if (b == 0xF4)
            due = 3, hi = 0x8F;
        else
            return i;
    }
    return due ? lead : n;
}

/* cc_utf8_valid_prefix(s, n) against both references, or a failure that
 * names the case. */
static void check_prefix(const unsigned char *s, size_t n, const char *what,
                         size_t at, unsigned value)
{
    size_t got = cc_utf8_valid_prefix(s, n), want = ref_bytewise_valid_prefix(s, n);
    if (got != want || want != ref_valid_prefix(s, n))
        ck_abort_msg("%s %06X at %zu of %zu: %zu, expected %zu (decoding "
                     "reference %zu)", what, value, at, n, got, want,
                     ref_valid_prefix(s, n));
}

/*
 * Where a 1- to 4-byte value is put so that it meets every kind of block
 * edge: the first bytes; each split across the 16-, 32- and 48-byte edges
 * inside a 64-byte step (16-byte vectors, the two halves of a 32-byte
 * one); each split across the 64-byte steps; around 256, where a 300-byte
 * text passes from the blocks to the tail; and the last bytes.
 */
static const size_t edge_offsets[] = {
    0, 1, 13, 14, 15, 16, 29, 30, 31, 32, 45, 46, 47, 48, 61, 62, 63, 64,
    125, 126, 127, 128, 253, 254, 255, 256,
};

/* Texts of TEXT_LONG bytes take the 64-byte steps; of TEXT_SHORT bytes,
 * the short-input path (16-byte blocks or the scalar loop). */
enum { TEXT_LONG = 300, TEXT_SHORT = 70 };

/*
 * The value v (len bytes, first byte lowest) at `at` in a text of n bytes
 * of 'a' (n may cut it), the text filled in by the caller.  The rest being
 * ASCII, the expected prefix follows from the references run over the
 * value alone: all of the text when the value is well formed, else the
 * value's offset plus its own valid prefix.
 */
static void check_value_at(const unsigned char *s, size_t n, size_t at,
                           uint32_t v, size_t len, const char *what)
{
    size_t m = n - at < len ? n - at : len;
    size_t own = ref_bytewise_valid_prefix(s + at, m);
    size_t want = own == m ? n : at + own, got;
    if (own != ref_valid_prefix(s + at, m))
        ck_abort_msg("%s %06X: the references disagree", what, (unsigned)v);
    got = cc_utf8_valid_prefix(s, n);
    if (got != want)
        ck_abort_msg("%s %06X at %zu of %zu: %zu, expected %zu", what,
                     (unsigned)v, at, n, got, want);
}

/* Puts the len bytes of v at s + at. */
static void put_value(unsigned char *s, size_t at, uint32_t v, size_t len)
{
    size_t k;
    for (k = 0; k < len; k++)
        s[at + k] = (unsigned char)(v >> (8 * k));
}

/* Every 1- and 2-byte value at every edge offset of a long text, at every
 * offset of a short one, each followed by ASCII, ending the text, and cut
 * by its end. */
START_TEST(utf8_valid_prefix_matches_a_bytewise_reference_for_every_1_and_2_byte_value)
{
    unsigned char s[TEXT_LONG];
    uint32_t v;
    size_t j, at, len;
    memset(s, 'a', sizeof s);
    for (len = 1; len <= 2; len++)
        for (v = 0; v < (len == 1 ? 0x100u : 0x10000u); v++) {
            for (j = 0; j < (size_t)COUNT(edge_offsets); j++) {
                at = edge_offsets[j];
                put_value(s, at, v, len);
                check_value_at(s, TEXT_LONG, at, v, len, "value");
                check_value_at(s, at + len, at, v, len, "value");
                check_value_at(s, at + len - 1, at, v, len, "value");
                put_value(s, at, 0x61616161u, len);
            }
            for (at = 0; at + len <= TEXT_SHORT; at++) {
                put_value(s, at, v, len);
                check_value_at(s, TEXT_SHORT, at, v, len, "value");
                check_value_at(s, at + len, at, v, len, "value");
                put_value(s, at, 0x61616161u, len);
            }
        }
}
END_TEST

/*
 * Every 3-byte value whose first byte is _i (a loop test, 0x80-0xFF: an
 * ASCII first byte makes it a 2-byte value one byte on, tested above),
 * split every way across a 16-byte edge (the halves of a 32-byte vector),
 * a 32-byte edge and a 64-byte step of a 256-byte text, and across the first
 * 16-byte block of a short one, which also ends right after it.  (A value
 * cut by the end of the text is the shorter value ending there.)
 */
START_TEST(utf8_valid_prefix_matches_a_bytewise_reference_for_every_3_byte_value)
{
    static const size_t long_at[] = {14, 15, 30, 31, 62, 63};
    unsigned char s[TEXT_LONG];
    uint32_t v;
    size_t j, at;
    memset(s, 'a', sizeof s);
    for (v = (uint32_t)_i; v < 0x1000000; v += 0x100) {
        for (j = 0; j < (size_t)COUNT(long_at); j++) {
            put_value(s, long_at[j], v, 3);
            check_value_at(s, 256, long_at[j], v, 3, "3 bytes");
            put_value(s, long_at[j], 0x616161u, 3);
        }
        for (at = 14; at <= 15; at++) {
            put_value(s, at, v, 3);
            check_value_at(s, TEXT_SHORT, at, v, 3, "3 bytes");
            check_value_at(s, at + 3, at, v, 3, "3 bytes");
            put_value(s, at, 0x616161u, 3);
        }
    }
}
END_TEST

/* 4-byte values: every lead C0-FF (_i) and second byte (which carries
 * the range checks), the third and fourth ASCII, the edges of the
 * continuation range or leads, at the offsets that split them across each
 * edge of a long text and across and at the end of a short one. */
START_TEST(utf8_valid_prefix_matches_a_bytewise_reference_for_4_byte_values)
{
    static const unsigned char later[] = {0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xFF};
    unsigned char s[TEXT_LONG];
    uint32_t b0 = (uint32_t)_i, b1;
    size_t i2, i3, j, at, cut;
    memset(s, 'a', sizeof s);
    for (b1 = 0; b1 < 0x100; b1++)
        for (i2 = 0; i2 < sizeof later; i2++)
            for (i3 = 0; i3 < sizeof later; i3++) {
                uint32_t v = b0 | b1 << 8 | (uint32_t)later[i2] << 16 |
                             (uint32_t)later[i3] << 24;
                for (j = 0; j < (size_t)COUNT(edge_offsets); j++) {
                    at = edge_offsets[j];
                    if (at % 16 == 0 && at != 0)
                        continue; /* not split: the ends are enough */
                    put_value(s, at, v, 4);
                    check_value_at(s, TEXT_LONG, at, v, 4, "4 bytes");
                    put_value(s, at, 0x61616161u, 4);
                }
                for (at = 13; at <= 16; at += 3) {
                    put_value(s, at, v, 4);
                    check_value_at(s, TEXT_SHORT, at, v, 4, "4 bytes");
                    for (cut = 1; cut <= 4; cut++)
                        check_value_at(s, at + cut, at, v, 4, "4 bytes");
                    put_value(s, at, 0x61616161u, 4);
                }
            }
}
END_TEST

/* Random texts of every length 0..300 made of pieces: well-formed
 * characters of each length (any code point), ASCII runs, and, now and
 * then, an ill-formed piece (a lone byte, a cut sequence, an overlong, a
 * surrogate, a code point above U+10FFFF). */
START_TEST(utf8_valid_prefix_matches_a_bytewise_reference_on_random_mixes)
{
    unsigned char s[TEXT_LONG + 8];
    uint32_t seed = 20210504u;
    size_t round, n, len, bad = 0, k;
#define NEXT() (seed = seed * 1103515245u + 12345u, seed >> 8)
    for (round = 0; round < 60000; round++) {
        len = round % (TEXT_LONG + 1);
        /* one text in 8 stays well formed: errors otherwise come early */
        unsigned bad_odds = round % 8 == 0 ? 0 : 1 + (unsigned)(round % 5) * 40;
        n = 0;
        while (n < len) {
            uint32_t r = NEXT(), cp;
            unsigned char piece[8];
            size_t pl = 0;
            if (bad_odds && r % bad_odds == 0) {
                switch (NEXT() % 6) {
                case 0: /* any byte at all */
                    piece[pl++] = (unsigned char)NEXT();
                    break;
                case 1: /* a lead cut short */
                    piece[pl++] = (unsigned char)(0xC2 + NEXT() % 0x33);
                    if (piece[0] >= 0xF0)
                        piece[pl++] = 0x90;
                    break;
                case 2: /* overlong */
                    piece[pl++] = (unsigned char)(NEXT() % 2 ? 0xE0 : 0xF0);
                    piece[pl++] = 0x80 + NEXT() % 16;
                    piece[pl++] = 0x80;
                    if (piece[0] == 0xF0)
                        piece[pl++] = 0x80;
                    break;
                case 3: /* surrogate */
                    piece[pl++] = 0xED;
                    piece[pl++] = (unsigned char)(0xA0 + NEXT() % 32);
                    piece[pl++] = 0x80;
                    break;
                case 4: /* above U+10FFFF */
                    piece[pl++] = (unsigned char)(0xF4 + NEXT() % 4);
                    piece[pl++] = (unsigned char)(0x90 + NEXT() % 48);
                    piece[pl++] = 0x80;
                    piece[pl++] = 0x80;
                    break;
                default: /* a continuation byte too many */
                    piece[pl++] = (unsigned char)(0x80 + NEXT() % 64);
                    break;
                }
            } else if (r % 3 == 0) {
                /* a well-formed character of random length */
                switch (NEXT() % 4) {
                case 0: cp = NEXT() % 0x80; break;
                case 1: cp = 0x80 + NEXT() % 0x780; break;
                case 2:
                    cp = 0x800 + NEXT() % 0xF800;
                    if (cp >= 0xD800 && cp <= 0xDFFF)
                        cp -= 0x800;
                    break;
                default: cp = 0x10000 + NEXT() % 0x100000; break;
                }
                if (cp < 0x80) {
                    piece[pl++] = (unsigned char)cp;
                } else if (cp < 0x800) {
                    piece[pl++] = (unsigned char)(0xC0 | cp >> 6);
                    piece[pl++] = (unsigned char)(0x80 | (cp & 0x3F));
                } else if (cp < 0x10000) {
                    piece[pl++] = (unsigned char)(0xE0 | cp >> 12);
                    piece[pl++] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
                    piece[pl++] = (unsigned char)(0x80 | (cp & 0x3F));
                } else {
                    piece[pl++] = (unsigned char)(0xF0 | cp >> 18);
                    piece[pl++] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
                    piece[pl++] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
                    piece[pl++] = (unsigned char)(0x80 | (cp & 0x3F));
                }
            } else {
                /* an ASCII run */
                size_t run = 1 + NEXT() % 8;
                for (k = 0; k < run; k++)
                    piece[pl++] = (unsigned char)(' ' + NEXT() % 95);
            }
            for (k = 0; k < pl && n < len; k++)
                s[n++] = piece[k];
        }
        if (ref_bytewise_valid_prefix(s, n) < n)
            bad++;
        check_prefix(s, n, "random text, round", 0, (unsigned)round);
    }
#undef NEXT
    ck_assert_uint_gt(bad, 60000 / 4); /* both outcomes, plenty of each */
    ck_assert_uint_lt(bad, 60000 * 9 / 10);
}
END_TEST

/* Code points of valid texts of every length 0..64 built from 1- to
 * 4-byte characters, every character at every position of an 8-byte
 * block: the count of sequences the reference decoder finds. */
START_TEST(utf8_code_points_count_the_characters_of_valid_text)
{
    static const char *const chars[] = {"a", "\x7F", "\xC2\x80", "\xDF\xBF",
                                        "\xE2\x82\xAC", "\xEF\xBF\xBF",
                                        "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF"};
    unsigned char s[80];
    size_t len, n, chars_in, i, k;
    for (len = 0; len <= 64; len++) {
        for (k = 0; k < COUNT(chars); k++) {
            /* len characters: `chars[k]` repeated, shifted by one 'a' per
             * round so each byte position of a block is covered. */
            size_t shift;
            for (shift = 0; shift < 8; shift++) {
                n = 0, chars_in = 0;
                for (i = 0; i < shift && n < len; i++, chars_in++)
                    s[n++] = 'a';
                while (n + strlen(chars[k]) <= len) {
                    memcpy(s + n, chars[k], strlen(chars[k]));
                    n += strlen(chars[k]);
                    chars_in++;
                }
                ck_assert_uint_eq(ref_valid_prefix(s, n), n);
                ck_assert_msg(cc_utf8_code_points(s, n) == chars_in,
                              "%zu bytes of char %zu shifted %zu: %zu, "
                              "expected %zu", n, k, shift,
                              cc_utf8_code_points(s, n), chars_in);
            }
        }
    }
    ck_assert_uint_eq(cc_utf8_code_points(NULL, 0), 0);
}
END_TEST

/* The UTF-8 the string scan validates ahead of itself, in chunks. */
#define UTF8_CHUNK 4096u

START_TEST(the_valid_utf8_prefix_grows_with_the_scan_up_to_the_first_bad_byte)
{
    static const struct {
        const char *text;
        bool accept;
        size_t utf8_end; /* raw offset after the read */
        bool final;
    } rows[] = {
        {"[\"caf\xC3\xA9\"]", true, 9, true},
        {"  [\"a\xC3\"] ", false, 5, true},              /* the bad byte */
        {"```json\n[\"\xC3\xA9\"]\n```\n", true, 15, true}, /* the fence */
        {"```json\n[\"\xFF\"]\n```", false, 10, true},
        {"\xE2\x82\xAC", false, 0, false}, /* no string: nothing validated */
    };
    size_t i, len, k;
    cc_reader_t r;
    char *doc;

    for (i = 0; i < sizeof rows / sizeof *rows; i++) {
        ck_assert_int_eq(cc_read_document(&r, rows[i].text,
                                          strlen(rows[i].text), true,
                                          DEFAULT_DEPTH),
                         rows[i].accept);
        ck_assert_msg((size_t)(r.utf8_end - r.raw) == rows[i].utf8_end,
                      "%zu: utf8_end %zu, expected %zu", i,
                      (size_t)(r.utf8_end - r.raw), rows[i].utf8_end);
        ck_assert_int_eq(r.utf8_final, rows[i].final);
    }

    /* A string, then 1 MiB nested too deep: the reader stops at the 65th
     * '[' and has validated at most a chunk beyond the string. */
    len = 1u << 20;
    doc = malloc(len);
    ck_assert_ptr_nonnull(doc);
    k = strlen("{\"a\": \"\xC3\xA9\", \"b\": ");
    memcpy(doc, "{\"a\": \"\xC3\xA9\", \"b\": ", k);
    memset(doc + k, '[', len - k);
    ck_assert(!cc_read_document(&r, doc, len, false, DEFAULT_DEPTH));
    ck_assert_int_eq(r.fail_kind, CONTRACTC_KIND_LIMIT);
    ck_assert_uint_le((size_t)(r.utf8_end - r.raw), UTF8_CHUNK);
    ck_assert(!r.utf8_final);

    /* One long string of 2-byte characters: validated to its end. */
    doc[0] = '"';
    for (k = 1; k + 2 < len; k += 2)
        memcpy(doc + k, "\xC3\xA9", 2);
    doc[k] = '"';
    ck_assert(cc_read_document(&r, doc, k + 1, false, DEFAULT_DEPTH));
    ck_assert(r.utf8_end == r.end);
    ck_assert(r.utf8_final);
    free(doc);
}
END_TEST

/* ------------------------------------------------------------------------
 * Numbers: cc_scan_number, RFC 8259 section 6
 * ------------------------------------------------------------------------ */

static const struct {
    const char *text;
    bool negative, has_fraction, has_exponent;
} number_rows[] = {
    {"0", false, false, false},
    {"-0", true, false, false},
    {"7", false, false, false},
    {"-42", true, false, false},
    {"0.5", false, true, false},
    {"-0.0", true, true, false},
    {"1e5", false, false, true},
    {"1E+5", false, false, true},
    {"1e-5", false, false, true},
    {"-12.50e-003", true, true, true},
    {"0E0", false, false, true},
    {"123456789012345678901234567890", false, false, false},
    {"1.7976931348623157e309", false, true, true},
};

START_TEST(numbers_follow_rfc8259_and_report_their_parts)
{
    cc_reader_t r;
    cc_number_token_t t;
    const char *text = number_rows[_i].text;
    char doc[64];
    int len = snprintf(doc, sizeof doc, " %s\n", text);

    ck_assert(cc_reader_begin(&r, doc, (size_t)len, false, DEFAULT_DEPTH));
    ck_assert_int_eq(cc_peek(&r), text[0]);
    ck_assert_msg(cc_scan_number(&r, &t), "%s: %s", text, r.fail_message);
    ck_assert_ptr_eq(t.text, r.raw + 1);
    ck_assert_uint_eq(t.len, strlen(text));
    ck_assert_int_eq(t.negative, number_rows[_i].negative);
    ck_assert_int_eq(t.has_fraction, number_rows[_i].has_fraction);
    ck_assert_int_eq(t.has_exponent, number_rows[_i].has_exponent);
    ck_assert(cc_reader_finish(&r));
}
END_TEST

/* A number ends at the structural byte after it. */
START_TEST(numbers_in_containers_end_at_the_next_structural_byte)
{
    static const char doc[] = "[1,-2.5e3,0]";
    static const size_t lens[] = {1, 6, 1};
    cc_reader_t r;
    cc_number_token_t t;
    int i;
    ck_assert(cc_reader_begin(&r, doc, sizeof doc - 1, false, DEFAULT_DEPTH));
    ck_assert(cc_expect(&r, '[', "'['"));
    ck_assert(cc_enter(&r));
    for (i = 0; i < 3; i++) {
        if (i > 0)
            ck_assert(cc_expect(&r, ',', "','"));
        ck_assert(cc_peek(&r) != -1);
        ck_assert(cc_scan_number(&r, &t));
        ck_assert_uint_eq(t.len, lens[i]);
    }
    ck_assert(cc_expect(&r, ']', "']'"));
    cc_leave(&r);
    ck_assert_int_eq(r.depth, 0);
    ck_assert(cc_reader_finish(&r));
}
END_TEST

/*
 * cc_scan_small_integer against the general path (cc_scan_number, then
 * cc_convert_integer): integers of 1 to 20 digits, signed or not, with and
 * without a leading zero, before every kind of next byte.  The fast path
 * must take exactly the plain integers of at most 15 digits that the
 * general path accepts, give the same value and end at the same byte, and
 * leave the reader untouched for everything else.
 */
START_TEST(small_integers_read_in_one_pass_agree_with_the_general_path)
{
    static const char *const nexts[] = {"", ",", "]", "}", " ", "\n", ".5", "e3", "E+1",
                                        "x", "-", "+", "\"", "0", "9"};
    static const char digits[] = "12345678909876543210";
    size_t taken = 0, cases = 0;
    for (int sign = 0; sign < 2; sign++)
        for (int zero = 0; zero < 2; zero++)
            for (size_t n = 1; n <= 20; n++)
                for (size_t k = 0; k < sizeof nexts / sizeof nexts[0]; k++) {
                    char doc[64];
                    int len = snprintf(doc, sizeof doc, "%s%s%.*s%s", sign ? "-" : "",
                                       zero ? "0" : "", (int)n, digits, nexts[k]);
                    cc_reader_t fast, slow;
                    cc_number_token_t t;
                    int64_t got = 77, want = 0;
                    ck_assert(cc_reader_begin(&fast, doc, (size_t)len, false, DEFAULT_DEPTH));
                    ck_assert(cc_reader_begin(&slow, doc, (size_t)len, false, DEFAULT_DEPTH));
                    const bool general = cc_scan_number(&slow, &t) && !t.has_fraction &&
                                         !t.has_exponent &&
                                         cc_convert_integer((const char *)t.text, t.len, &want) ==
                                             CC_CONVERT_OK;
                    const bool expect = general && t.len - (size_t)sign <= 15;
                    const bool took = cc_scan_small_integer(&fast, &got);
                    cases++;
                    ck_assert_msg(took == expect, "%s: fast %d, expected %d", doc, took, expect);
                    if (took) {
                        taken++;
                        ck_assert_msg(got == want, "%s: %lld, want %lld", doc, (long long)got,
                                      (long long)want);
                        ck_assert_ptr_eq(fast.p, slow.p);
                    } else {
                        ck_assert_int_eq(got, 77);
                        ck_assert_ptr_eq(fast.p, fast.raw);
                        ck_assert(!fast.failed);
                    }
                }
    /* per sign: 1..15 digits before the 7 nexts that end a number (the
     * end, ',', ']', '}', ' ', '\n', '"'), and 1..14 before a further
     * digit ("0", "9"); a leading zero is never taken */
    ck_assert_uint_eq(cases, 2 * 2 * 20 * 15);
    ck_assert_uint_eq(taken, 2 * (15 * 7 + 14 * 2));
}
END_TEST

/* ------------------------------------------------------------------------
 * Literals: cc_scan_literal
 * ------------------------------------------------------------------------ */

static const struct {
    const char *text;
    cc_literal_t which;
} literal_rows[] = {
    {"true", CC_LITERAL_TRUE},
    {"false", CC_LITERAL_FALSE},
    {"null", CC_LITERAL_NULL},
    {" null\r\n", CC_LITERAL_NULL},
};

START_TEST(literals_are_lowercase_true_false_and_null)
{
    cc_reader_t r;
    cc_literal_t which = CC_LITERAL_NULL;
    const char *text = literal_rows[_i].text;
    ck_assert(cc_reader_begin(&r, text, strlen(text), false, DEFAULT_DEPTH));
    ck_assert(cc_peek(&r) != -1);
    ck_assert_msg(cc_scan_literal(&r, &which), "%s: %s", text,
                  r.fail_message);
    ck_assert_int_eq(which, literal_rows[_i].which);
    ck_assert(cc_reader_finish(&r));
}
END_TEST

START_TEST(a_literal_run_into_a_letter_is_rejected_by_scan_literal)
{
    static const char *const words[] = {"tru", "nul", "fals", "truee",
                                        "null1", "nullx"};
    size_t i;
    for (i = 0; i < sizeof words / sizeof *words; i++) {
        cc_reader_t r;
        cc_literal_t which;
        ck_assert(cc_reader_begin(&r, words[i], strlen(words[i]), false,
                                  DEFAULT_DEPTH));
        ck_assert(cc_peek(&r) != -1);
        ck_assert_msg(!cc_scan_literal(&r, &which), "%s accepted", words[i]);
        ck_assert_int_eq(r.fail_kind, CONTRACTC_KIND_SYNTAX);
        ck_assert_uint_eq(r.fail_offset, 0);
        ck_assert_msg(strstr(r.fail_message, "unexpected word") != NULL,
                      "%s: %s", words[i], r.fail_message);
    }
}
END_TEST

/* Every byte after true, false, null and "fals": the literal is read only
 * when the byte cannot go on a word or a number (letters, digits, '_',
 * '.', '+', '-'), and "fals" only as "false". */
START_TEST(a_literal_ends_exactly_where_a_word_cannot_go_on)
{
    static const char *const words[] = {"true", "false", "null", "fals"};
    size_t i;
    int b;
    for (i = 0; i < sizeof words / sizeof *words; i++)
        for (b = 0; b < 256; b++) {
            const size_t n = strlen(words[i]);
            const bool fals = n == 4 && words[i][0] == 'f';
            const bool word_byte = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') ||
                                   (b >= '0' && b <= '9') || b == '_' || b == '.' ||
                                   b == '+' || b == '-';
            char *text = malloc(n + 1); /* exactly the text: ASan sees a read past it */
            cc_reader_t r;
            cc_literal_t which;
            bool ok;
            ck_assert_ptr_nonnull(text);
            memcpy(text, words[i], n);
            text[n] = (char)b;
            ck_assert(cc_reader_begin(&r, text, n + 1, false, DEFAULT_DEPTH));
            ck_assert(cc_peek(&r) != -1);
            ok = cc_scan_literal(&r, &which);
            ck_assert_msg(ok == (fals ? b == 'e' : !word_byte), "%s then byte 0x%02X: %s",
                          words[i], (unsigned)b, ok ? "read" : r.fail_message);
            if (ok) {
                ck_assert(r.p == (const unsigned char *)text + (fals ? n + 1 : n));
                ck_assert_int_eq(which, words[i][0] == 't'   ? CC_LITERAL_TRUE
                                        : words[i][0] == 'f' ? CC_LITERAL_FALSE
                                                             : CC_LITERAL_NULL);
            } else {
                ck_assert_uint_eq(r.fail_offset, 0);
                ck_assert_msg(strstr(r.fail_message, "unexpected word") != NULL,
                              "%s then byte 0x%02X: %s", words[i], (unsigned)b,
                              r.fail_message);
            }
            free(text);
        }
}
END_TEST

/* ------------------------------------------------------------------------
 * Depth: max_depth open containers, the root is 1
 * ------------------------------------------------------------------------ */

/* `levels` nested containers around 1: arrays, or objects and arrays
 * alternating ({"k":[{"k":[...]}]}) when `mixed`.  *opener_at receives the
 * offset of the opener of level `mark` (1-based).  The caller frees. */
static char *nested(size_t levels, bool mixed, size_t mark, size_t *len,
                    size_t *opener_at)
{
    char *s = malloc(levels * 6 + 2);
    size_t n = 0, i;
    ck_assert_ptr_nonnull(s);
    *opener_at = 0;
    for (i = 1; i <= levels; i++) {
        if (i == mark)
            *opener_at = n;
        if (mixed && i % 2 == 1) {
            memcpy(s + n, "{\"k\":", 5);
            n += 5;
        } else {
            s[n++] = '[';
        }
    }
    s[n++] = '1';
    for (i = levels; i >= 1; i--)
        s[n++] = mixed && i % 2 == 1 ? '}' : ']';
    *len = n;
    return s;
}

static const struct {
    const char *name;
    uint32_t max_depth;   /* as given to cc_reader_begin */
    uint32_t limit;       /* after the clamp */
    bool mixed;
} depth_rows[] = {
    {"1024 arrays", DEPTH_CAP, DEPTH_CAP, false},
    {"1024 objects and arrays", DEPTH_CAP, DEPTH_CAP, true},
    {"64 arrays (the default)", DEFAULT_DEPTH, DEFAULT_DEPTH, false},
    {"64 objects and arrays", DEFAULT_DEPTH, DEFAULT_DEPTH, true},
    {"1 array", 1, 1, false},
    {"a max_depth above the cap clamps to 1024", 100000, DEPTH_CAP, false},
};

START_TEST(skip_value_accepts_max_depth_and_rejects_one_more_as_limit)
{
    const char *name = depth_rows[_i].name;
    uint32_t limit = depth_rows[_i].limit;
    bool mixed = depth_rows[_i].mixed;
    char expect[80];
    size_t len, at, line, column;
    cc_reader_t r;
    char *doc;

    doc = nested(limit, mixed, 1, &len, &at);
    ck_assert_msg(cc_read_document(&r, doc, len, false,
                                   depth_rows[_i].max_depth),
                  "%s: %s at %zu", name, r.fail_message, r.fail_offset);
    ck_assert_uint_eq(r.max_depth, limit);
    ck_assert_int_eq(r.depth, 0);
    free(doc);

    doc = nested(limit + 1, mixed, limit + 1, &len, &at);
    ck_assert_msg(!cc_read_document(&r, doc, len, false,
                                    depth_rows[_i].max_depth),
                  "%s: one more level accepted", name);
    ck_assert_msg(r.fail_kind == CONTRACTC_KIND_LIMIT, "%s: %s", name,
                  contractc_kind_name(r.fail_kind));
    ck_assert_msg(r.fail_offset == at, "%s: offset %zu, expected %zu", name,
                  r.fail_offset, at);
    cc_reader_line_column(&r, r.fail_offset, &line, &column);
    ck_assert_uint_eq(line, 1);
    ck_assert_uint_eq(column, at + 1);
    snprintf(expect, sizeof expect,
             "nesting deeper than the limit of %u level%s of objects and "
             "arrays", (unsigned)limit, limit == 1 ? "" : "s");
    ck_assert_str_eq(r.fail_message, expect);
    free(doc);
}
END_TEST

/*
 * A caller (validate.c) enters `entered` levels itself with cc_enter, then
 * skips the rest: the reader counts both against the same cap.
 */
static const struct {
    size_t entered, total;
    bool accept;
} enter_rows[] = {
    {1024, 1024, true},   /* all by cc_enter */
    {1024, 1025, false},  /* cc_enter refuses the 1025th */
    {1000, 1024, true},   /* 24 more inside cc_skip_value */
    {1000, 1025, false},  /* 25 more: cc_skip_value refuses */
    {1, 1024, true},
    {1, 1025, false},
};

START_TEST(enter_and_skip_value_share_one_depth_count)
{
    size_t entered = enter_rows[_i].entered, total = enter_rows[_i].total;
    size_t len, at, i;
    cc_reader_t r;
    char *doc = nested(total, false, DEPTH_CAP + 1, &len, &at);
    bool ok = true;

    ck_assert(cc_reader_begin(&r, doc, len, false, DEPTH_CAP));
    for (i = 0; i < entered && ok; i++)
        ok = cc_expect(&r, '[', "'['") && cc_enter(&r);
    if (ok)
        ok = cc_skip_value(&r);
    for (i = 0; i < entered && ok; i++) {
        ok = cc_expect(&r, ']', "']'");
        cc_leave(&r);
    }
    if (ok)
        ok = cc_reader_finish(&r);
    free(doc);
    if (enter_rows[_i].accept) {
        ck_assert_msg(ok, "%zu+%zu: %s", entered, total - entered,
                      r.fail_message);
        ck_assert_int_eq(r.depth, 0);
        return;
    }
    ck_assert_msg(!ok, "%zu+%zu accepted", entered, total - entered);
    ck_assert_int_eq(r.fail_kind, CONTRACTC_KIND_LIMIT);
    ck_assert_uint_eq(r.fail_offset, DEPTH_CAP);
    ck_assert_str_eq(r.fail_message, "nesting deeper than the limit of 1024 "
                                     "levels of objects and arrays");
}
END_TEST

START_TEST(a_max_depth_of_zero_accepts_only_scalars)
{
    cc_reader_t r;
    ck_assert(cc_read_document(&r, "\"a\"", 3, false, 0));
    ck_assert(!cc_read_document(&r, "[]", 2, false, 0));
    ck_assert_int_eq(r.fail_kind, CONTRACTC_KIND_LIMIT);
    ck_assert_uint_eq(r.fail_offset, 0);
    ck_assert_str_eq(r.fail_message, "nesting deeper than the limit of 0 "
                                     "levels of objects and arrays");
}
END_TEST

/* ------------------------------------------------------------------------
 * cc_skip_value over large documents
 * ------------------------------------------------------------------------ */

typedef struct buf {
    char *data;
    size_t len, cap;
} buf_t;

static void put(buf_t *b, const char *s)
{
    size_t n = strlen(s);
    if (b->len + n + 1 > b->cap) {
        char *grown;
        b->cap = (b->len + n + 1) * 2;
        grown = realloc(b->data, b->cap);
        ck_assert_ptr_nonnull(grown);
        b->data = grown;
    }
    memcpy(b->data + b->len, s, n + 1);
    b->len += n;
}

/* One record of every JSON type, with escapes, UTF-8 and `depth` extra
 * nested levels alternating objects and arrays. */
static void put_record(buf_t *b, unsigned id, unsigned depth)
{
    char num[96];
    unsigned i;
    snprintf(num, sizeof num,
             "{\"id\": %u, \"price\": -%u.%02ue-%u, \"zero\": 0, ", id,
             id % 1000, id % 100, id % 7);
    put(b, num);
    put(b, "\"name\": \"caf\xC3\xA9 \\\"quoted\\\" \\u20AC \\ud83d\\ude00 "
           "\xF0\x9F\x98\x80 \\n\\t\\\\ \\/\", ");
    put(b, "\"flags\": [true, false, null, [], {}, [[]], {\"\": {}}],\r\n");
    put(b, "\t\"deep\": ");
    for (i = 0; i < depth; i++)
        put(b, i % 2 ? "[" : "{\"k\" : ");
    put(b, "\"leaf\"");
    for (i = depth; i > 0; i--)
        put(b, (i - 1) % 2 ? "]" : "}");
    put(b, "}");
}

START_TEST(skip_value_reads_a_large_nested_mixed_document)
{
    buf_t b = {NULL, 0, 0};
    cc_reader_t r;
    unsigned i;
    size_t comma;

    put(&b, "[\n");
    for (i = 0; i < 2000; i++) {
        if (i)
            put(&b, ",\n");
        put_record(&b, i, i % 60);
    }
    put(&b, "\n]\n");
    ck_assert_uint_gt(b.len, 300000);
    ck_assert_msg(cc_read_document(&r, b.data, b.len, false, DEFAULT_DEPTH),
                  "%s at %zu", r.fail_message, r.fail_offset);
    ck_assert_int_eq(r.depth, 0);
    ck_assert(r.p == r.end);

    /* Record 59 is the first to reach 2 + 59 = 61 levels, over a max_depth
     * of 60: its 59th nested level opens with '{'. */
    ck_assert(!cc_read_document(&r, b.data, b.len, false, 60));
    ck_assert_int_eq(r.fail_kind, CONTRACTC_KIND_LIMIT);
    ck_assert_int_eq(b.data[r.fail_offset], '{');

    /* A trailing comma before the final ']' is found at its exact byte. */
    comma = b.len - 3;
    ck_assert_int_eq(b.data[comma], '\n');
    b.data[comma] = ',';
    ck_assert(!cc_read_document(&r, b.data, b.len, false, DEFAULT_DEPTH));
    ck_assert_int_eq(r.fail_kind, CONTRACTC_KIND_SYNTAX);
    ck_assert_uint_eq(r.fail_offset, comma);
    ck_assert_str_eq(r.fail_message,
                     "unexpected ',' after the last item of an array");
    free(b.data);
}
END_TEST

/* Every proper prefix of a document is rejected with a syntax problem at
 * or before its end; nothing reads beyond it (ASan checks the bound: each
 * prefix is a fresh allocation of exactly its length). */
START_TEST(every_truncation_of_a_document_is_a_syntax_problem)
{
    static const char doc[] =
        "{\"a\": [1, -2.5e+3, true, false, null, \"x\\\"y\\u00e9\\uD83D\\uDE00\"],"
        " \"b\": {\"c\": [[], {}], \"d\": \"\"}, \"e\": 0.0}";
    size_t n, len = sizeof doc - 1;
    cc_reader_t r;
    for (n = 1; n < len; n++) {
        char *copy = malloc(n);
        ck_assert_ptr_nonnull(copy);
        memcpy(copy, doc, n);
        ck_assert_msg(!cc_read_document(&r, copy, n, false, DEFAULT_DEPTH),
                      "prefix of %zu bytes accepted", n);
        ck_assert_msg(r.fail_kind == CONTRACTC_KIND_SYNTAX,
                      "prefix %zu: %s: %s", n,
                      contractc_kind_name(r.fail_kind), r.fail_message);
        ck_assert_uint_le(r.fail_offset, n);
        free(copy);
    }
    ck_assert(cc_read_document(&r, doc, len, false, DEFAULT_DEPTH));
}
END_TEST

/* validate.c reads the members it wants and skips the others: the cursor
 * lands just after each skipped value and the depth is unchanged. */
START_TEST(skip_value_inside_an_entered_object_stops_after_the_value)
{
    static const char doc[] =
        "{\"keep\": 1, \"skip\": {\"a\": [1, {\"b\": null}], \"c\": \"}]\"}, "
        "\"z\": [\"]\"]}";
    static const char *const keys[] = {"keep", "skip", "z"};
    static const char *const after[] = {", \"skip\"", ", \"z\"", "}"};
    cc_reader_t r;
    cc_string_token_t key;
    int i;

    ck_assert(cc_reader_begin(&r, doc, sizeof doc - 1, false, 4));
    ck_assert(cc_expect(&r, '{', "'{'"));
    ck_assert(cc_enter(&r));
    for (i = 0; i < 3; i++) {
        if (i)
            ck_assert(cc_expect(&r, ',', "','"));
        ck_assert_int_eq(cc_peek(&r), '"');
        ck_assert(cc_scan_string(&r, &key));
        ck_assert_uint_eq(key.raw_len, strlen(keys[i]));
        ck_assert(memcmp(key.raw, keys[i], key.raw_len) == 0);
        ck_assert(cc_expect(&r, ':', "':'"));
        ck_assert_msg(cc_skip_value(&r), "%s: %s", keys[i], r.fail_message);
        ck_assert_int_eq(r.depth, 1);
        ck_assert_msg(strncmp((const char *)r.p, after[i], strlen(after[i]))
                          == 0, "after %s: %s", keys[i], (const char *)r.p);
    }
    ck_assert(cc_expect(&r, '}', "'}'"));
    cc_leave(&r);
    ck_assert(cc_reader_finish(&r));

    /* The same document under a max_depth of 3: the root, "skip", "a" and
     * {"b": null} are 4 levels. */
    ck_assert(!cc_read_document(&r, doc, sizeof doc - 1, false, 3));
    ck_assert_int_eq(r.fail_kind, CONTRACTC_KIND_LIMIT);
    ck_assert_uint_eq(r.fail_offset,
                      (size_t)(strstr(doc, "{\"b\"") - doc));
}
END_TEST

/* ------------------------------------------------------------------------
 * Problems: the first one is kept, and everything fails after it
 * ------------------------------------------------------------------------ */

START_TEST(after_a_problem_every_call_fails_and_the_first_is_kept)
{
    static const char doc[] = "[1,,\"a\"]";
    cc_reader_t r;
    cc_string_token_t s;
    cc_number_token_t n;
    cc_literal_t l;

    ck_assert(!cc_read_document(&r, doc, sizeof doc - 1, false, 8));
    ck_assert_uint_eq(r.fail_offset, 3);
    ck_assert_str_eq(r.fail_message, "expected a value after ',', found ','");
    ck_assert(!cc_reader_fail(&r, CONTRACTC_KIND_LIMIT, 0, "second"));
    ck_assert_int_eq(r.fail_kind, CONTRACTC_KIND_SYNTAX);
    ck_assert_uint_eq(r.fail_offset, 3);
    ck_assert_str_eq(r.fail_message, "expected a value after ',', found ','");
    r.p = r.raw + 4; /* at the string */
    ck_assert(!cc_scan_string(&r, &s));
    r.p = r.raw + 1; /* at the number */
    ck_assert(!cc_scan_number(&r, &n));
    ck_assert(!cc_scan_literal(&r, &l));
    ck_assert(!cc_expect(&r, '1', "'1'"));
    ck_assert(!cc_enter(&r));
    ck_assert(!cc_skip_value(&r));
    ck_assert(!cc_reader_finish(&r));
    ck_assert_str_eq(r.fail_message, "expected a value after ',', found ','");
}
END_TEST

START_TEST(fail_clamps_the_offset_and_cuts_a_long_message)
{
    char longmsg[400];
    cc_reader_t r;
    ck_assert(cc_reader_begin(&r, "[1]", 3, false, 8));
    memset(longmsg, 'm', sizeof longmsg - 1);
    longmsg[sizeof longmsg - 1] = '\0';
    ck_assert(!cc_reader_fail(&r, CONTRACTC_KIND_RANGE, 99, longmsg));
    ck_assert(r.failed);
    ck_assert_int_eq(r.fail_kind, CONTRACTC_KIND_RANGE);
    ck_assert_uint_eq(r.fail_offset, 3);
    ck_assert_uint_eq(strlen(r.fail_message), sizeof r.fail_message - 1);
}
END_TEST

START_TEST(a_null_reply_is_empty)
{
    cc_reader_t r;
    ck_assert(!cc_read_document(&r, NULL, 0, true, 8));
    ck_assert_int_eq(r.fail_kind, CONTRACTC_KIND_EMPTY);
    ck_assert_uint_eq(r.fail_offset, 0);
    ck_assert_str_eq(r.fail_message, "the reply is empty");
}
END_TEST

/* ------------------------------------------------------------------------
 * Line and column: 1-based, the column in bytes, LF ends a line
 * ------------------------------------------------------------------------ */

static const struct {
    size_t offset, line, column;
} line_rows[] = {
    {0, 1, 1},  {2, 1, 3},  /* the LF itself is on line 1 */
    {3, 2, 1},  {5, 2, 3},  /* the CR of CRLF is on its line */
    {7, 3, 1},  {8, 3, 2},  /* "\xC3\xA9": two columns */
    {10, 3, 4}, /* the end of the reply */
    {99, 3, 4}, /* clamped to the end */
};

START_TEST(line_and_column_count_lf_lines_and_byte_columns)
{
    static const char text[] = "ab\ncd\r\n\xC3\xA9x";
    cc_reader_t r;
    size_t line = 0, column = 0;
    ck_assert(cc_reader_begin(&r, text, sizeof text - 1, false, 8));
    cc_reader_line_column(&r, line_rows[_i].offset, &line, &column);
    ck_assert_msg(line == line_rows[_i].line && column == line_rows[_i].column,
                  "offset %zu: %zu:%zu", line_rows[_i].offset, line, column);
}
END_TEST

static Suite *reader_suite(void)
{
    Suite *s = suite_create("reader");
    TCase *tc = tcase_create("document");
    tcase_add_loop_test(tc, documents_get_the_expected_outcome_offset_and_message,
                        0, COUNT(doc_rows));
    tcase_add_loop_test(tc, begin_sets_the_bounds_of_the_json_text, 0,
                        COUNT(bounds_rows));
    tcase_add_test(tc, after_a_problem_every_call_fails_and_the_first_is_kept);
    tcase_add_test(tc, fail_clamps_the_offset_and_cuts_a_long_message);
    tcase_add_test(tc, a_null_reply_is_empty);
    tcase_add_loop_test(tc, line_and_column_count_lf_lines_and_byte_columns, 0,
                        COUNT(line_rows));
    suite_add_tcase(s, tc);

    tc = tcase_create("token");
    tcase_add_loop_test(tc, strings_decode_to_the_expected_bytes_and_counts, 0,
                        COUNT(string_rows));
    tcase_add_loop_test(tc,
                        special_bytes_are_found_at_every_position_of_a_long_string,
                        0, COUNT(special_rows));
    tcase_add_test(tc, long_strings_with_escapes_decode_exactly);
    tcase_add_loop_test(tc,
                        generated_strings_decode_or_fail_exactly_at_every_position,
                        0, COUNT(gen_rows));
    tcase_add_test(tc, jsontestsuite_outcomes_do_not_depend_on_where_the_text_lies);
    tcase_add_test(tc, utf8_length_follows_rfc3629_for_every_lead_and_second_byte);
    tcase_add_loop_test(tc,
                        utf8_valid_prefix_stops_at_the_first_bad_sequence_at_every_position,
                        0, COUNT(utf8_rows));
    tcase_add_test(tc, utf8_valid_prefix_agrees_with_the_reference_on_random_texts);
    tcase_add_test(tc, the_valid_utf8_prefix_grows_with_the_scan_up_to_the_first_bad_byte);
    tcase_add_test(tc, utf8_code_points_count_the_characters_of_valid_text);
    tcase_add_loop_test(tc, numbers_follow_rfc8259_and_report_their_parts, 0,
                        COUNT(number_rows));
    tcase_add_test(tc, numbers_in_containers_end_at_the_next_structural_byte);
    tcase_add_test(tc, small_integers_read_in_one_pass_agree_with_the_general_path);
    tcase_add_loop_test(tc, literals_are_lowercase_true_false_and_null, 0,
                        COUNT(literal_rows));
    tcase_add_test(tc, a_literal_run_into_a_letter_is_rejected_by_scan_literal);
    tcase_add_test(tc, a_literal_ends_exactly_where_a_word_cannot_go_on);
    suite_add_tcase(s, tc);

    /* The differential UTF-8 tests: exhaustive, so given more time. */
    tc = tcase_create("utf8");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, utf8_valid_prefix_matches_a_bytewise_reference_for_every_1_and_2_byte_value);
    tcase_add_loop_test(tc, utf8_valid_prefix_matches_a_bytewise_reference_for_every_3_byte_value,
                        0x80, 0x100);
    tcase_add_loop_test(tc, utf8_valid_prefix_matches_a_bytewise_reference_for_4_byte_values,
                        0xC0, 0x100);
    tcase_add_test(tc, utf8_valid_prefix_matches_a_bytewise_reference_on_random_mixes);
    suite_add_tcase(s, tc);

    tc = tcase_create("depth");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc,
                        skip_value_accepts_max_depth_and_rejects_one_more_as_limit,
                        0, COUNT(depth_rows));
    tcase_add_loop_test(tc, enter_and_skip_value_share_one_depth_count, 0,
                        COUNT(enter_rows));
    tcase_add_test(tc, a_max_depth_of_zero_accepts_only_scalars);
    tcase_add_test(tc, skip_value_reads_a_large_nested_mixed_document);
    tcase_add_test(tc, every_truncation_of_a_document_is_a_syntax_problem);
    tcase_add_test(tc, skip_value_inside_an_entered_object_stops_after_the_value);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(reader_suite());
    int failed;
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
