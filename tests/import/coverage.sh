#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# coverage.sh CONTRACTC CORPUS WORK: how much of JSONSchemaBench's sample
# `contractc import` takes (docs/contract-language.md §17).  The corpus is
# outside the repository (its licence is unclear: it is read in place,
# never copied); absent, the test is skipped (exit 77).  Per subset: the
# schemas imported strictly, imported with --lenient, refused even then,
# and invalid JSON; then the most frequent first blockers of the strict
# runs.  Fails only when an import crashes, hangs or exits outside 0..2.
set -u
C=$1 CORPUS=$2 WORK=$3
if [ ! -f "$CORPUS/MANIFEST.jsonl" ]; then
    echo "SKIP: $CORPUS is absent (JSONSchemaBench's sample, kept outside the repository)"
    exit 77
fi
rm -rf "$WORK" && mkdir -p "$WORK" || exit 2
crashes=0 all_total=0 all_strict=0 all_lenient=0 all_refused=0 all_invalid=0
printf '%-16s %6s %8s %9s %8s %8s\n' subset total strict lenient refused invalid
: > "$WORK/blockers.all"
for dir in "$CORPUS"/schemas/*/; do
    subset=$(basename "$dir")
    total=0 strict=0 lenient=0 refused=0 invalid=0
    : > "$WORK/blockers.$subset"
    for f in "$dir"*.json; do
        total=$((total + 1))
        timeout 10 "$C" import "$f" > /dev/null 2> "$WORK/err"; rc=$?
        case $rc in
        0) strict=$((strict + 1)); continue ;;
        2) invalid=$((invalid + 1)); continue ;;
        1) ;;
        *) echo "CRASH: import $f exited $rc"; crashes=$((crashes + 1)); continue ;;
        esac
        # the first blocker, its pointer and the schema's own words taken out
        first=$(grep -m1 -E ': cannot carry: |does not load:' "$WORK/err" |
                sed -E 's/^.*: cannot carry: //; s/^contractc import: .*does not load:/the loader refuses the contract/;
                        s/pattern .* is outside the contract.s pattern language .*: (.*)$/pattern: \1/;
                        s/'"'"'\$ref'"'"' [^ ]* reaches itself.*/recursive $ref/;
                        s/'"'"'\$ref'"'"' [^ ]* is not local.*/remote $ref/;
                        s/'"'"'\$ref'"'"' [^ ]* names nothing.*/dangling $ref/;
                        s/unknown type .*/unknown type/;
                        s/required key .* is not among/a required key not among/;
                        s/property .* is given twice/a property is given twice/;
                        s/[0-9]+/N/g')
        [ -n "$first" ] || first="(no blocker line)"
        echo "$first" >> "$WORK/blockers.$subset"
        echo "$first" >> "$WORK/blockers.all"
        timeout 10 "$C" import --lenient "$f" > /dev/null 2> /dev/null; rc=$?
        case $rc in
        0) lenient=$((lenient + 1)) ;;
        1) refused=$((refused + 1)) ;;
        2) invalid=$((invalid + 1)) ;;
        *) echo "CRASH: import --lenient $f exited $rc"; crashes=$((crashes + 1)) ;;
        esac
    done
    printf '%-16s %6d %8d %9d %8d %8d\n' "$subset" $total $strict $lenient $refused $invalid
    all_total=$((all_total + total)) all_strict=$((all_strict + strict))
    all_lenient=$((all_lenient + lenient)) all_refused=$((all_refused + refused))
    all_invalid=$((all_invalid + invalid))
    sort "$WORK/blockers.$subset" | uniq -c | sort -rn | head -3 | sed 's/^/                   first blocker: /'
done
printf '%-16s %6d %8d %9d %8d %8d\n' total $all_total $all_strict $all_lenient $all_refused $all_invalid
echo "first blockers of the strict runs, all subsets:"
sort "$WORK/blockers.all" | uniq -c | sort -rn | head -15
[ "$crashes" = 0 ] || { echo "$crashes crash(es)"; exit 1; }
