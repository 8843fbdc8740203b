#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/cli.sh CASE - the command line's conventions, one case per ctest
# test (tests/cli.cmake): --help everywhere, checked standard output, bounded
# reply reads, -o and vendor parents, files rewritten only on change, and
# --check's drift message.  Env: CONTRACTC (the binary), SRC, WORK.
set -u
C=${CONTRACTC:?}
WORK=${WORK:?}
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# expect CODE CMD...: runs CMD (stdout in out.txt, stderr in err.txt)
expect() {
    local want=$1
    shift
    "$@" >out.txt 2>err.txt
    local got=$?
    [ "$got" = "$want" ] || fail "$* exited $got, not $want; stderr: $(head -c 300 err.txt)"
}
has() { grep -qF -- "$2" "$1" || fail "$1 lacks '$2': $(head -c 300 "$1")"; }
empty() { [ ! -s "$1" ] || fail "$1 is not empty: $(head -c 300 "$1")"; }

cat > tiny.contract.yaml <<'YAML'
contract: tiny
version: 1
description: A tiny contract.
instruction: Say a word.
reply:
  max_bytes: 64
fields:
  word: {type: string}
YAML
INVOICE=$SRC/tests/data/contracts/invoice.contract.yaml

case "$1" in
help)
    for cmd in generate lint schema prompt validate stats vendor; do
        for flag in --help -h; do
            expect 0 "$C" "$cmd" "$flag"
            has out.txt "usage: contractc $cmd"
            empty err.txt
        done
    done
    # --help anywhere among the arguments, even after a contract
    expect 0 "$C" schema tiny.contract.yaml --help
    has out.txt "usage: contractc schema CONTRACT"
    expect 0 "$C" --help
    has out.txt "usage: contractc COMMAND"
    has out.txt "contractc COMMAND --help"
    # no file named --help is opened, no unknown option
    expect 0 "$C" lint --help
    empty err.txt
    ;;
stdout_full)
    [ -w /dev/full ] || { echo "skipped: no /dev/full"; exit 77; }
    echo '{"word":"hi"}' > hi.json
    "$C" generate tiny.contract.yaml -o gen > /dev/null || fail "generate"
    run_full() { # CODE CMD...: stdout is /dev/full
        local want=$1
        shift
        "$@" >/dev/full 2>err.txt
        local got=$?
        [ "$got" = "$want" ] || fail "$* > /dev/full exited $got, not $want"
        has err.txt "cannot write standard output: No space left on device"
    }
    run_full 1 "$C" schema "$INVOICE"
    run_full 1 "$C" prompt "$INVOICE"
    run_full 1 "$C" schema "$INVOICE" --schema-dialect gemini
    run_full 2 "$C" validate tiny.contract.yaml hi.json
    run_full 2 "$C" validate tiny.contract.yaml hi.json --json
    run_full 1 "$C" vendor vendored
    run_full 1 "$C" generate "$INVOICE" -o gen --schema-dialect gemini
    echo '{"version":1}' > log.jsonl
    run_full 1 "$C" stats log.jsonl
    run_full 1 "$C" --help
    run_full 1 "$C" --version
    run_full 1 "$C" schema --help
    ;;
bounded_reply)
    printf '{"word":"%s"}' "$(printf 'a%.0s' $(seq 90))" > big.json   # 101 bytes
    expect 1 "$C" validate tiny.contract.yaml big.json
    has out.txt '$: line 1, column 1: the reply is 101 bytes; the limit is 64 bytes'
    expect 1 "$C" validate tiny.contract.yaml big.json --json
    has out.txt '"kind":"limit","message":"line 1, column 1: the reply is 101 bytes; the limit is 64 bytes"'
    # from a pipe the size is not known: only 65 bytes are read
    cat big.json | "$C" validate tiny.contract.yaml - >out.txt 2>err.txt
    [ $? = 1 ] || fail "a 101-byte pipe is not rejected"
    has out.txt '$: line 1, column 1: the reply is more than 64 bytes; the limit is 64 bytes'
    # an endless pipe ends at once (read whole, it would never end)
    start=$(date +%s)
    yes '{"word":"aaaa' | timeout 20 "$C" validate tiny.contract.yaml - >out.txt 2>err.txt
    codes=("${PIPESTATUS[@]}")
    [ "${codes[1]}" = 1 ] || fail "an endless pipe exited ${codes[1]}, not 1"
    [ $(( $(date +%s) - start )) -lt 10 ] || fail "an endless pipe took too long"
    has out.txt 'the reply is more than 64 bytes'
    # exactly the limit is read and judged as usual
    printf '{"word":"%s"}' "$(printf 'a%.0s' $(seq 53))" > edge.json    # 64 bytes
    expect 0 "$C" validate tiny.contract.yaml edge.json
    cat edge.json | "$C" validate tiny.contract.yaml - >out.txt || fail "64 bytes from a pipe"
    has out.txt "\"word\":\"$(printf 'a%.0s' $(seq 53))\""
    # only one input can be standard input
    expect 2 "$C" validate - - < edge.json
    has err.txt "only one of CONTRACT, REPLY and --source can be -"
    # the source text from standard input
    R=$SRC/examples/refund
    "$C" validate "$R/refund_request.contract.yaml" "$R/data/a1063-correct.reply.json" --source - \
        < "$R/data/a1063.email.txt" > out.txt 2>err.txt || fail "--source -: $(cat err.txt)"
    has out.txt '"amount_text":"1.250,00 EUR"'
    # a contract from standard input
    "$C" schema tiny.contract.yaml > want.json
    "$C" schema - < tiny.contract.yaml > got.json || fail "schema -"
    cmp -s want.json got.json || fail "schema - differs from schema FILE"
    ;;
directories)
    expect 0 "$C" generate tiny.contract.yaml -o a/b/c
    for f in tiny.h tiny.c tiny.schema.json tiny.prompt.txt; do
        [ -f a/b/c/$f ] || fail "generate -o a/b/c did not write $f"
    done
    expect 2 "$C" generate tiny.contract.yaml -o -
    has err.txt "-o needs a directory, not '-'"
    [ ! -e ./- ] || fail "a directory named - was made"
    : > afile
    expect 1 "$C" generate tiny.contract.yaml -o afile/sub
    has err.txt "contractc generate: cannot create afile"
    expect 0 "$C" vendor v/w/x
    [ -f v/w/x/contractc_runtime.c ] && [ -f v/w/x/contractc/contractc.h ] ||
        fail "vendor v/w/x did not write its files"
    has out.txt "v/w/x/contractc/contractc.h"
    ;;
unchanged)
    "$C" generate tiny.contract.yaml -o out --schema-dialect gemini >/dev/null || fail "generate"
    "$C" vendor ven >/dev/null || fail "vendor"
    touch -d '2001-01-01 00:00:00' out/* ven/contractc_runtime.c
    expect 0 "$C" generate tiny.contract.yaml -o out --schema-dialect gemini
    expect 0 "$C" vendor ven
    old=$(date -d '2001-01-01 00:00:00' +%s)
    for f in out/* ven/contractc_runtime.c; do
        [ "$(stat -c %Y "$f")" = "$old" ] || fail "$f was rewritten though its bytes did not change"
    done
    # a changed contract rewrites what changed, and only that
    sed -i 's/Say a word./Say one word./' tiny.contract.yaml
    expect 0 "$C" generate tiny.contract.yaml -o out --schema-dialect gemini
    [ "$(stat -c %Y out/tiny.prompt.txt)" != "$old" ] || fail "the changed prompt was not rewritten"
    [ "$(stat -c %Y out/tiny.gemini.notes.txt)" = "$old" ] || fail "unchanged notes were rewritten"
    grep -q "Say one word" out/tiny.prompt.txt || fail "the prompt does not hold the change"
    ls out | grep -q tmp && fail "a temporary file was left in out/"
    ;;
check_message)
    "$C" generate tiny.contract.yaml -o 'my out' --schema-dialect gemini --schema-dialect anthropic \
        >/dev/null || fail "generate"
    expect 0 "$C" generate --check tiny.contract.yaml -o 'my out' --schema-dialect gemini \
        --schema-dialect anthropic
    echo >> 'my out/tiny.c'
    rm 'my out/tiny.anthropic.notes.txt'
    expect 1 "$C" generate --check tiny.contract.yaml -o 'my out' --schema-dialect gemini \
        --schema-dialect anthropic
    regen="(run contractc generate tiny.contract.yaml -o 'my out' --schema-dialect gemini --schema-dialect anthropic)"
    has out.txt "my out/tiny.c: differs from tiny.contract.yaml $regen"
    has out.txt "my out/tiny.anthropic.notes.txt: is missing $regen"
    [ "$(wc -l < out.txt)" = 2 ] || fail "more than the two drifted files reported: $(cat out.txt)"
    ;;
*)
    echo "unknown case $1"
    exit 2
    ;;
esac
[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok: $1"
