#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/cli.sh CASE - the command line's conventions, one case per ctest
# test (tests/cli.cmake): --help everywhere (and help CMD), checked standard
# output, bounded reply reads, -o and vendor parents, files rewritten only on
# change, --check's drift message, generate --depfile as GNU make reads it,
# -q and informational lines on stderr, - for stdin once per run, and the
# man page docs/contractc.1 (renders cleanly, names every command and option
# of --help).  Env: CONTRACTC (the binary), SRC, WORK.
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
    has out.txt "usage: contractc [-q] COMMAND"
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
    echo edited >> gen/tiny.prompt.txt
    run_full 1 "$C" generate --check tiny.contract.yaml -o gen
    run_full 1 "$C" help validate
    # vendor and generate print only informational lines, on stderr
    expect 0 "$C" vendor vendored
    "$C" vendor vendored2 >/dev/full 2>err.txt || fail "vendor > /dev/full failed"
    "$C" generate "$INVOICE" -o gen --schema-dialect gemini >/dev/full 2>err.txt ||
        fail "generate > /dev/full failed"
    has err.txt "invoice: gemini schema written"
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
    has err.txt "v/w/x/contractc/contractc.h"
    empty out.txt
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
help_alias)
    # contractc help CMD prints exactly CMD --help
    for cmd in generate lint schema prompt validate stats vendor; do
        "$C" "$cmd" --help > want.txt
        expect 0 "$C" help "$cmd"
        cmp -s want.txt out.txt || fail "help $cmd differs from $cmd --help"
        empty err.txt
    done
    expect 0 "$C" help
    has out.txt "help COMMAND"
    expect 2 "$C" help nosuch
    has err.txt "contractc help: unknown command 'nosuch'"
    empty out.txt
    expect 2 "$C" help generate lint
    has err.txt "one COMMAND, not 'lint' too"
    ;;
quiet)
    R=$SRC/tests/data/contracts/refund_request.contract.yaml
    # generate: the dialect summary is informational, on stderr; -q drops it
    expect 0 "$C" generate "$R" -o g --schema-dialect gemini
    empty out.txt
    has err.txt "refund_request: gemini schema written; 4 constraints not carried, listed in refund_request.gemini.notes.txt"
    for q in "-q generate $R -o g" "generate -q $R -o g" "generate $R -o g --quiet"; do
        # shellcheck disable=SC2086
        expect 0 "$C" $q --schema-dialect gemini
        empty out.txt
        empty err.txt
    done
    [ -f g/refund_request.gemini.notes.txt ] || fail "-q wrote no files"
    # vendor: the file list is informational
    expect 0 "$C" vendor v
    empty out.txt
    has err.txt "v/contractc_runtime.c"
    expect 0 "$C" -q vendor v2
    empty out.txt
    empty err.txt
    [ -f v2/contractc_runtime.c ] || fail "vendor -q wrote nothing"
    # schema: the result on stdout either way, the not-carried list only without -q
    expect 0 "$C" schema "$R" --schema-dialect gemini
    cp out.txt loud.json
    has err.txt "not carried by gemini"
    expect 0 "$C" schema -q "$R" --schema-dialect gemini
    cmp -s loud.json out.txt || fail "schema -q printed another schema"
    empty err.txt
    # validate: the note on check rules
    cat > chk.contract.yaml <<'YAML'
contract: chk
version: 1
description: A word that C code checks.
instruction: Say a word.
fields:
  word: {type: string}
rules:
  - id: known_word
    check: {function: chk_known_word, message: "not a known word"}
    prompt: The word is known.
YAML
    echo '{"word":"hi"}' > hi.json
    expect 0 "$C" validate chk.contract.yaml hi.json
    has out.txt '{"word":"hi"}'
    has err.txt "contractc validate: note: check rules are the user's C code and did not run: known_word"
    expect 0 "$C" validate -q chk.contract.yaml hi.json
    has out.txt '{"word":"hi"}'
    empty err.txt
    # diagnostics are not informational: lint -q still prints them
    printf 'contract: bad\nversion: 1\nfields: 7\n' > bad.yaml
    expect 1 "$C" lint -q bad.yaml
    has err.txt "bad.yaml:"
    ;;
stdin)
    # generate -: the same files, the banner's regenerate command reads stdin
    expect 0 "$C" generate - -o from-stdin < tiny.contract.yaml
    expect 0 "$C" generate tiny.contract.yaml -o from-file
    has from-stdin/tiny.c "Regenerate: contractc generate - -o DIR"
    has from-file/tiny.c "Regenerate: contractc generate tiny.contract.yaml -o DIR"
    cmp -s from-stdin/tiny.prompt.txt from-file/tiny.prompt.txt || fail "generate - prompt differs"
    cmp -s from-stdin/tiny.schema.json from-file/tiny.schema.json || fail "generate - schema differs"
    # diagnostics name it <stdin>
    printf 'contract: bad\nversion: 1\nfields: 7\n' > bad.yaml
    expect 1 "$C" lint - < bad.yaml
    has err.txt "<stdin>:"
    "$C" prompt - < tiny.contract.yaml > p1.txt || fail "prompt -"
    cmp -s p1.txt from-file/tiny.prompt.txt || fail "prompt - differs from the generated prompt"
    # standard input is read once: two inputs that want it are refused
    expect 2 "$C" generate - - -o twice < tiny.contract.yaml
    has err.txt "contractc generate: only one CONTRACT can be - (standard input, read once)"
    [ ! -e twice ] || fail "generate - - made its directory"
    expect 2 "$C" lint - - < tiny.contract.yaml
    has err.txt "contractc lint: only one CONTRACT can be -"
    expect 2 "$C" stats - - < /dev/null
    has err.txt "contractc stats: only one LOG can be -"
    expect 2 "$C" validate - - < tiny.contract.yaml
    has err.txt "only one of CONTRACT, REPLY and --source can be -"
    R=$SRC/examples/refund
    expect 2 "$C" validate "$R/refund_request.contract.yaml" - --source - < "$R/data/a1063.email.txt"
    has err.txt "only one of CONTRACT, REPLY and --source can be -"
    ;;
depfile)
    # paths Make treats specially: a space, '#', '$'
    mkdir -p 'src dir#1$x'
    cp tiny.contract.yaml 'src dir#1$x/tiny.contract.yaml'
    K='src dir#1$x/tiny.contract.yaml'
    expect 0 "$C" generate "$K" -o 'out dir#2$y' --schema-dialect gemini --depfile deps/tiny.d
    printf '%s\n' \
        'out\ dir\#2$$y/tiny.h \' \
        '  out\ dir\#2$$y/tiny.c \' \
        '  out\ dir\#2$$y/tiny.schema.json \' \
        '  out\ dir\#2$$y/tiny.prompt.txt \' \
        '  out\ dir\#2$$y/tiny.gemini.schema.json \' \
        '  out\ dir\#2$$y/tiny.gemini.notes.txt: \' \
        '  src\ dir\#1$$x/tiny.contract.yaml' > want.d
    cmp -s want.d deps/tiny.d || { diff want.d deps/tiny.d; fail "the depfile differs"; }
    # GNU make reads it back to the real names: every target is up to date
    # while the contract is older, and out of date once it is newer
    if command -v make > /dev/null; then
        printf 'include deps/tiny.d\n%%.h %%.c %%.json %%.txt:\n\t@echo '"'"'regenerate $@'"'"'\n' > mk
        touch -d '-1 hour' "$K"
        make -s -f mk > make.txt 2>&1 || fail "make cannot read the depfile: $(cat make.txt)"
        empty make.txt
        touch "$K"
        make -s -f mk > make.txt 2>&1 || fail "make: $(cat make.txt)"
        [ "$(cat make.txt)" = 'regenerate out dir#2$y/tiny.h' ] || fail "make after an edit: $(cat make.txt)"
    fi
    # an unchanged run leaves the depfile (and everything else) alone
    touch -d '2001-01-01 00:00:00' deps/tiny.d
    expect 0 "$C" -q generate "$K" -o 'out dir#2$y' --schema-dialect gemini --depfile deps/tiny.d
    [ "$(stat -c %Y deps/tiny.d)" = "$(date -d '2001-01-01 00:00:00' +%s)" ] || fail "an unchanged depfile was rewritten"
    # a contract from stdin is no prerequisite
    expect 0 "$C" generate - -o o2 --depfile o2.d < tiny.contract.yaml
    [ "$(tail -1 o2.d)" = "  o2/tiny.prompt.txt:" ] || fail "generate - --depfile: $(cat o2.d)"
    # refused: with --check, to stdout, a path with a line break; none after errors
    expect 2 "$C" generate tiny.contract.yaml -o o3 --check --depfile o3.d
    has err.txt "--depfile writes a file and --check writes nothing"
    expect 2 "$C" generate tiny.contract.yaml -o o3 --depfile -
    has err.txt "--depfile needs a file name, not '-'"
    expect 1 "$C" generate tiny.contract.yaml -o "$(printf 'o\n4')" --depfile o4.d
    has err.txt "a path with a line break cannot be written in a depfile"
    [ ! -e o4.d ] || fail "a depfile with a line break was written"
    printf 'contract: bad\nversion: 1\nfields: 7\n' > bad.yaml
    expect 1 "$C" generate bad.yaml -o o5 --depfile o5.d
    [ ! -e o5.d ] || fail "a failed generate wrote a depfile"
    ;;
manpage)
    page=$SRC/docs/contractc.1
    command -v man > /dev/null || { echo "skipped: no man (man-db; scripts/install-deps.sh)"; exit 77; }
    # man-db renders it with all of groff's warnings on (-ww): none
    LC_ALL=C MANWIDTH=200 man --warnings=w -l "$page" 2> man.err | col -bx > man.txt
    empty man.err
    LC_ALL=C MANWIDTH=80 man --warnings=w -l "$page" 2> man.err > /dev/null
    empty man.err
    grep -q '^NAME' man.txt && grep -q '^SYNOPSIS' man.txt && grep -q '^EXIT STATUS' man.txt &&
        grep -q '^FILES' man.txt && grep -q '^EXAMPLES' man.txt ||
        fail "the man page lacks NAME, SYNOPSIS, FILES, EXAMPLES or EXIT STATUS"
    version=$("$C" --version | awk '{print $2}')
    grep -q "contractc $version" man.txt || fail "the man page is not for contractc $version"
    # every command of --help, with the synopsis of its own --help, as a section
    "$C" --help > overview.txt
    commands=$(awk '/^  [a-z]+ / {print $1}' overview.txt)
    [ "$(echo $commands)" = "generate lint validate schema prompt grammar toolset import vendor stats help" ] ||
        fail "contractc --help lists: $(echo $commands)"
    texts=overview.txt
    for cmd in $commands; do
        [ "$cmd" = help ] && continue
        "$C" "$cmd" --help > "help-$cmd.txt"
        texts="$texts help-$cmd.txt"
        # the usage line and its continuations, spaces squeezed
        synopsis=$(awk 'NR == 1 {sub(/^usage: contractc /, ""); s = $0; next}
                        /^                  +\[/ {s = s " " $0; next} {exit} END {print s}' \
                   "help-$cmd.txt" | tr -s ' ')
        grep -qxF "   $synopsis" man.txt || fail "the man page has no section '$synopsis'"
    done
    grep -qx '   help \[COMMAND\]' man.txt || fail "the man page has no section 'help [COMMAND]'"
    # every option any --help names is described in the page (outside the
    # commands' synopsis lines)
    grep -vE '^   [a-z]+( |$)' man.txt > described.txt
    options=$(cat $texts | grep -oE '(^|[][ (,])--?[a-z][a-z-]*' | sed 's/^[][ (,]//' | sort -u)
    n=0
    for opt in $options; do
        grep -qE -- "(^|[^a-z-])$opt([^a-z-]|\$)" described.txt || fail "the man page lacks $opt (from --help)"
        n=$((n + 1))
    done
    [ "$n" -ge 10 ] || fail "only $n options found in --help: $options"
    echo "man page: $(echo $commands | wc -w) commands, $n options: $(echo $options)"
    ;;
*)
    echo "unknown case $1"
    exit 2
    ;;
esac
[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok: $1"
