#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The generated enum name functions (NAME_F_name, NAME_F_from_name) of named
# and inline enums, with values that are not C identifiers, compile
# warning-free with gcc and clang as C99 and C11 and turn every value into
# its text and back; unknown texts, prefixes, NUL bytes, NONE and values out
# of range are refused.  From ctest: CONTRACTC (the generator), INCLUDE (the
# runtime's headers), RUNTIME_SRC (runtime/src), WORK (a scratch directory).
set -euo pipefail
: "${CONTRACTC:?}" "${INCLUDE:?}" "${RUNTIME_SRC:?}" "${WORK:?}"
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >enum_names.yaml <<'Y'
contract: enum_names
version: 1
instruction: x
types:
  status:
    values: [open, closed, "on-hold", "café", 'say "hi"']
  line:
    fields:
      state: {type: status}
      unit: {type: enum, values: [kg]}
fields:
  status: {type: status}
  previous: {type: status, nullable: true}
  lines: {type: array, items: {type: line}}
  colour: {type: enum, values: [red, green]}
Y
"$CONTRACTC" generate enum_names.yaml -o gen >/dev/null
for f in enum_names_status_name enum_names_status_from_name enum_names_line_unit_name \
         enum_names_line_unit_from_name enum_names_colour_name enum_names_colour_from_name; do
  grep -q "^[a-z].* \*\?$f(" gen/enum_names.h || fail "enum_names.h does not declare $f"
done
[ "$(grep -c '^const char \*enum_names_status_name(' gen/enum_names.c)" = 1 ] \
  || fail "the named enum's functions are not defined exactly once"

cat >check_enum_names.c <<'C'
#include <stdio.h>
#include <string.h>
#include "enum_names.h"
static int failures;
#define EXPECT(cond) do { if (!(cond)) { printf("line %d: %s\n", __LINE__, #cond); failures++; } } while (0)
int main(void)
{
    static const char *const texts[] = {"open", "closed", "on-hold", "caf\xc3\xa9", "say \"hi\""};
    static const enum_names_status_t values[] = {ENUM_NAMES_STATUS_OPEN, ENUM_NAMES_STATUS_CLOSED,
        ENUM_NAMES_STATUS_ON_HOLD, ENUM_NAMES_STATUS_CAF_, ENUM_NAMES_STATUS_SAY__HI_};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        enum_names_status_t v = ENUM_NAMES_STATUS_NONE;
        EXPECT(strcmp(enum_names_status_name(values[i]), texts[i]) == 0);
        EXPECT(enum_names_status_from_name(texts[i], strlen(texts[i]), &v) && v == values[i]);
    }
    enum_names_status_t v = ENUM_NAMES_STATUS_OPEN;
    EXPECT(enum_names_status_name(ENUM_NAMES_STATUS_NONE) == NULL);
    EXPECT(enum_names_status_name((enum_names_status_t)6) == NULL);
    EXPECT(enum_names_status_name((enum_names_status_t)-1) == NULL);
    EXPECT(!enum_names_status_from_name("ope", 3, &v) && v == ENUM_NAMES_STATUS_NONE);
    v = ENUM_NAMES_STATUS_OPEN;
    EXPECT(!enum_names_status_from_name("opened", 6, &v) && v == ENUM_NAMES_STATUS_NONE);
    EXPECT(!enum_names_status_from_name("OPEN", 4, &v));
    EXPECT(!enum_names_status_from_name("open\0", 5, &v));
    EXPECT(!enum_names_status_from_name("", 0, &v));
    EXPECT(!enum_names_status_from_name(NULL, 0, &v) && v == ENUM_NAMES_STATUS_NONE);
    EXPECT(!enum_names_status_from_name("open", 4, NULL));
    EXPECT(enum_names_status_from_name("open!", 4, &v) && v == ENUM_NAMES_STATUS_OPEN);
    enum_names_line_unit_t u;
    EXPECT(enum_names_line_unit_from_name("kg", 2, &u) && u == ENUM_NAMES_LINE_UNIT_KG);
    EXPECT(strcmp(enum_names_line_unit_name(u), "kg") == 0);
    enum_names_colour_t c;
    EXPECT(enum_names_colour_from_name("green", 5, &c) && c == ENUM_NAMES_COLOUR_GREEN);
    EXPECT(strcmp(enum_names_colour_name(ENUM_NAMES_COLOUR_RED), "red") == 0);

    /* the parser's value and the name functions agree */
    enum_names_t r;
    contractc_problems_t p;
    contractc_problems_init(&p);
    const char reply[] = "{\"status\":\"on-hold\",\"previous\":null,"
                         "\"lines\":[{\"state\":\"caf\xc3\xa9\",\"unit\":\"kg\"}],\"colour\":\"red\"}";
    EXPECT(enum_names_parse(reply, sizeof reply - 1, NULL, 0, &r, &p) == CONTRACTC_OK);
    if (failures == 0) {
        EXPECT(strcmp(enum_names_status_name(r.status), "on-hold") == 0);
        EXPECT(r.lines_count == 1 && strcmp(enum_names_status_name(r.lines[0].state), "caf\xc3\xa9") == 0);
        enum_names_free(&r);
    }
    contractc_problems_clear(&p);
    if (failures == 0)
        printf("ok\n");
    return failures ? 1 : 0;
}
C

compilers=()
for cc in gcc clang; do command -v $cc >/dev/null && compilers+=($cc); done
[ ${#compilers[@]} -eq 2 ] || fail "gcc and clang are both needed (found: ${compilers[*]})"
warn="-Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wconversion -Werror"
n=0
for cc in "${compilers[@]}"; do
  for std in c99 c11; do
    $cc -std=$std $warn -I"$INCLUDE" -Igen -c gen/enum_names.c -o enum_names.$cc.$std.o 2>$cc.log \
      || { cat $cc.log >&2; fail "$cc -std=$std does not compile enum_names.c"; }
    $cc -std=$std -Wall -Wextra -Wpedantic -Werror -I"$INCLUDE" -Igen check_enum_names.c \
      enum_names.$cc.$std.o "$RUNTIME_SRC"/*.c -I"$RUNTIME_SRC" -o check.$cc.$std 2>$cc.log \
      || { cat $cc.log >&2; fail "$cc -std=$std does not build the check"; }
    ./check.$cc.$std >run.log || { cat run.log >&2; fail "$cc -std=$std: the name functions are wrong"; }
    n=$((n + 1))
  done
done
echo "ok: $n builds (gcc and clang, C99 and C11, -Wconversion -Werror), every value to its text and back"
