#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `contractc import` from the command line (docs/contract-language.md §17).
#   import.sh pydantic CONTRACTC DATA WORK   the pydantic story: a schema as
#       pydantic v2's model_json_schema() writes it (tests/data/import/),
#       imported; the contract and the ledger equal their goldens (read
#       them to review), the contract lints clean, a reply the model might
#       write is accepted and one with a key the schema left open rejected
#   import.sh cli CONTRACTC DATA WORK        exit statuses, -o, stdin, --help
set -u
case_=$1 C=$2 DATA=$3 WORK=$4
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 2
cp "$DATA"/pydantic_order.schema.json .
case "$case_" in
pydantic)
    "$C" import pydantic_order.schema.json > order.contract.yaml 2> order.ledger.txt
    rc=$?
    [ $rc = 0 ] || fail "import exit $rc: $(cat order.ledger.txt)"
    diff -u "$DATA"/pydantic_order.contract.yaml order.contract.yaml || fail "the contract differs from its golden"
    diff -u "$DATA"/pydantic_order.ledger.txt order.ledger.txt || fail "the ledger differs from its golden"
    "$C" lint order.contract.yaml 2> lint.txt || fail "lint: $(cat lint.txt)"
    [ ! -s lint.txt ] || fail "lint is not clean: $(cat lint.txt)"
    cat > ok.json <<'JSON'
{"order_id": "A-1042", "placed_at": "2026-12-01T09:30:00Z",
 "shipping": {"street": "1 Main St", "city": "Springfield"},
 "lines": [{"sku": "ABC-1234", "quantity": 2, "unit_price": 9.5}],
 "notes": null}
JSON
    "$C" validate order.contract.yaml ok.json > ok.out || fail "the reply is rejected: $(cat ok.out)"
    cat > open.json <<'JSON'
{"order_id": "A-1042", "placed_at": "2026-12-01T09:30:00Z",
 "shipping": {"street": "1 Main St", "city": "Springfield", "country": "US"},
 "lines": [{"sku": "ABC-1234", "quantity": 0, "unit_price": 9.5}]}
JSON
    "$C" validate order.contract.yaml open.json > open.out; rc=$?
    [ $rc = 1 ] || fail "the open reply gave exit $rc"
    grep -q '^\$\.shipping\.country: ' open.out || fail "no problem at \$.shipping.country: $(cat open.out)"
    grep -q '^\$\.lines\[0\]\.quantity: ' open.out || fail "no problem at \$.lines[0].quantity: $(cat open.out)"
    cat open.out
    ;;
cli)
    "$C" import --help | grep -q '^usage: contractc import SCHEMA.json' || fail "import --help"
    "$C" import pydantic_order.schema.json -o out.contract.yaml 2> /dev/null || fail "-o"
    "$C" lint out.contract.yaml || fail "lint of -o's file"
    "$C" import - < pydantic_order.schema.json > stdin.contract.yaml 2> /dev/null || fail "stdin"
    head -1 stdin.contract.yaml | grep -q 'from a JSON Schema' || fail "stdin's first line: $(head -1 stdin.contract.yaml)"
    expect() { # STATUS PATTERN ARG...
        local want=$1 pat=$2; shift 2
        "$C" import "$@" > out.txt 2> err.txt; local rc=$?
        [ $rc = "$want" ] || fail "import $* gave $rc, not $want: $(cat err.txt)"
        grep -qE -- "$pat" err.txt || fail "import $*: no '$pat' in: $(cat err.txt)"
        [ "$want" = 0 ] || [ ! -s out.txt ] || fail "import $* wrote a contract"
    }
    expect 2 "needs SCHEMA.json"
    expect 2 "cannot read missing.json" missing.json
    expect 2 "unexpected argument '--frobnicate'" pydantic_order.schema.json --frobnicate
    expect 2 "--name 'Order' is not a contract name" pydantic_order.schema.json --name Order
    printf '{"type": "object",' > bad.json
    expect 2 "invalid JSON" bad.json
    printf '{"type": "object", "properties": {"e": {"type": "string", "format": "ipv6"}}}' > ipv6.json
    expect 1 "^#/properties/e/format: cannot carry: format ipv6 has no contract form$" ipv6.json
    expect 0 "^#/properties/e/format: dropped: format ipv6 has no contract form$" ipv6.json --lenient
    expect 0 "^#: closed-object: " pydantic_order.schema.json --name shop_order
    grep -q '^contract: shop_order$' out.txt || fail "--name: $(grep contract: out.txt)"
    # a $defs name whose C names a field's own enum takes: the type is named
    # again (kind_2), so what is written loads
    printf '{"type": "object", "properties": {"kind": {"type": "string", "enum": ["a", "b"]}, "other": {"$ref": "#/$defs/kind"}}, "required": ["kind", "other"], "$defs": {"kind": {"type": "string", "enum": ["x", "y"]}}}' > collide.json
    expect 0 "^#/[$]defs/kind: named-type: the named type kind_2$" collide.json
    grep -q '^    type: kind_2$' out.txt || fail "collide.json: $(cat out.txt)"
    printf '{"openapi": "3.1.0", "components": {"schemas": {"Pet": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}}}' > api.json
    expect 2 "name its schema with --pointer" api.json
    expect 0 "^#/components/schemas/Pet: closed-object: " api.json --pointer /components/schemas/Pet
    expect 2 "--pointer /components/schemas/Cat names nothing" api.json --pointer /components/schemas/Cat
    ;;
*)
    echo "unknown case $case_"; exit 2 ;;
esac
[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok: $case_"
