#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""jsts.py CONTRACTC SUITE WORK [--guard] [--verbose]: the JSON-Schema-Test-Suite
(tests/data/json-schema-test-suite/draft2020-12, its optional/ too) run
through `contractc import` and `contractc validate` (docs/contract-language.md
section 17).

Every test group's schema is imported strictly twice: as it is (a contract's
root is an object with properties, so most suite schemas are refused there)
and wrapped as the one required property `v` of a closed object root, its
`$defs` hoisted to the wrapper so that `#/$defs/...` still resolves.  Groups
with a `$ref` outside their document (remotes are not copied) or to a pointer
the wrapping moves (`#`, `#/properties/...`) are not wrapped.  An imported
group's instances are validated with the wrapped contract, each instance
written as {"v": DATA} (or, when only the bare schema imports, as it is), and
`accepted` is compared with the suite's `valid`.  A disagreement is put in a
class: the contract's own policy on the instance (an integer beyond
+-(2^53-1), 1.0 as an integer, a NUL or lone surrogate, the root an object),
or a ledger class the import printed that explains it; the rest are
unexplained and listed.

Exit 0 with the figures; 1 when contractc crashed or hung (an exit other than
0, 1 or 2), and with --guard also when a disagreement is unexplained.
--verbose lists every disagreement with its class.
"""
import collections
import decimal
import json
import os
import subprocess
import sys
import time


def load(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"), parse_float=decimal.Decimal)


def dump(v):
    """JSON text with the numbers as the suite wrote them (1.0 stays 1.0)."""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=True)
    if isinstance(v, list):
        return "[" + ",".join(dump(x) for x in v) + "]"
    return "{" + ",".join(json.dumps(k, ensure_ascii=True) + ":" + dump(x) for k, x in v.items()) + "}"


def refs(v, out):
    if isinstance(v, dict):
        for k, x in v.items():
            if k in ("$ref", "$dynamicRef") and isinstance(x, str):
                out.append(x)
            refs(x, out)
    elif isinstance(v, list):
        for x in v:
            refs(x, out)
    return out


def inner_ids(v, root=True):
    """A `$id` below the root: a local `$ref` under it is resolved against it."""
    if isinstance(v, dict):
        return any((k == "$id" and not root) or inner_ids(x, False) for k, x in v.items())
    if isinstance(v, list):
        return any(inner_ids(x, False) for x in v)
    return False


def wrap(schema):
    """The wrapper, or None with the reason it cannot be made."""
    if isinstance(schema, dict):
        for r in refs(schema, []):
            if r != "#" and not r.startswith("#/$defs/") and r.startswith("#/"):
                return None, "a $ref to a pointer the wrapping moves"
            if r == "#":
                return None, "a $ref to the root"
        inner = {k: v for k, v in schema.items() if k not in ("$defs", "$schema", "$id")}
    else:
        inner = schema
    w = {}
    if isinstance(schema, dict) and "$schema" in schema:
        w["$schema"] = schema["$schema"]
    w.update({"type": "object", "properties": {"v": inner}, "required": ["v"],
              "additionalProperties": False})
    if isinstance(schema, dict) and "$defs" in schema:
        w["$defs"] = schema["$defs"]
    return w, None


def instance_policy(data, integer_path):
    """The contract's own policy that rejects a valid instance, or None."""
    def walk(v):
        if isinstance(v, bool) or v is None:
            return None
        if isinstance(v, int) and abs(v) > 2**53 - 1:
            return "policy: integer beyond +-(2^53-1)"
        if isinstance(v, str):
            if "\0" in v:
                return "policy: NUL in a string"
            if any(0xD800 <= ord(c) <= 0xDFFF for c in v):
                return "policy: lone surrogate"
        if isinstance(v, list):
            for x in v:
                r = walk(x)
                if r:
                    return r
        if isinstance(v, dict):
            for x in v.values():
                r = walk(x)
                if r:
                    return r
        return None
    return walk(data)


class Run:
    def __init__(self, c, work):
        self.c, self.work, self.crashes = c, work, []

    def run(self, args, what):
        try:
            p = subprocess.run([self.c] + args, capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            self.crashes.append(what + ": timed out")
            return None
        if p.returncode not in (0, 1, 2):
            self.crashes.append("%s: exit %d" % (what, p.returncode))
            return None
        return p

    def imp(self, schema, name, what):
        path = os.path.join(self.work, name + ".schema.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(dump(schema))
        out = os.path.join(self.work, name + ".contract.yaml")
        p = self.run(["import", path, "--name", "jsts", "-o", out], "import " + what)
        if p is None:
            return None, "crash", ""
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode == 0:
            return out, None, err
        first = "(no blocker line)"
        for line in err.splitlines():
            if ": cannot carry: " in line:
                first = line.split(": cannot carry: ", 1)[1]
                break
            if "does not load" in line or (line.startswith("contractc import:") and not line.endswith("is not importable:")):
                first = line.split(": ", 1)[1]
                break
        return None, "exit %d: %s" % (p.returncode, norm(first)), err

    def validate(self, contract, text, what):
        path = os.path.join(self.work, "reply.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        p = self.run(["validate", contract, path, "--json", "-q"], "validate " + what)
        if p is None:
            return None
        if p.returncode == 2:
            return {"accepted": None, "problems": [{"kind": "exit-2", "message": p.stderr.decode("utf-8", "replace")}]}
        return json.loads(p.stdout.decode("utf-8"))


def norm(s):
    """A blocker without the schema's own words, to count alike ones together."""
    import re
    s = re.sub(r"pattern .* is outside the contract.s pattern language .*: (.*)$", r"pattern: \1", s)
    s = re.sub(r"'\$ref' \S* reaches itself.*", "recursive $ref", s)
    s = re.sub(r"'\$ref' \S* names nothing.*", "dangling $ref", s)
    s = re.sub(r"'\$ref' \S* is not local.*", "non-local $ref", s)
    s = re.sub(r"\bformat '[^']*'", "format 'F'", s)
    s = re.sub(r"required key .* is not among.*", "a required key not among the properties", s)
    s = re.sub(r"-?[0-9]+(\.[0-9]+)?", "N", s)
    return s


def classify(valid, result, ledger, wrapped, data):
    """The class that explains accepted != valid, or None."""
    classes = set()
    for line in ledger.splitlines():
        parts = line.split(": ", 2)
        if len(parts) >= 2:
            classes.add(parts[1])
    problems = result.get("problems") or []
    if valid:  # a valid instance rejected
        pol = instance_policy(data, None)
        if pol:
            return pol
        for pr in problems:
            msg, kind = pr.get("message", ""), pr.get("kind", "")
            if "outside the exact integer range" in msg:
                return "policy: integer beyond +-(2^53-1)"
            if "is not an integer" in msg and isinstance(find(data, pr.get("path", "$"), wrapped), decimal.Decimal):
                return "policy: 1.0 is not an integer"
            if kind == "duplicate":
                return "policy: duplicate key"
            if not wrapped and pr.get("path") == "$" and not isinstance(data, dict):
                return "policy: the root is an object"
            if kind in ("type", "null") and "type-implied" in classes:
                return "type-implied"
            if kind == "unexpected" and "closed-object" in classes:
                return "closed-object"
            if kind == "format" and ("format-profile" in classes or "format-mapped" in classes):
                return "format-profile" if "format-profile" in classes else "format-mapped"
            if kind == "pattern" and "format-mapped" in classes:
                return "format-mapped"
            if kind == "range" and "format-mapped" in classes:
                return "format-mapped"
        return None
    # An invalid instance accepted: strict import drops nothing, `ignored`
    # keywords have no validation meaning and a union's branches exclude each
    # other (a const tag, distinct JSON types), so no ledger class explains it.
    return None


def find(data, path, wrapped):
    """The value at a problem's $.a[0].b path of the reply."""
    v = {"v": data} if wrapped else data
    import re
    for m in re.finditer(r"\.([^.\[]+)|\[([0-9]+)\]", path[1:] if path.startswith("$") else path):
        try:
            v = v[m.group(1)] if m.group(1) is not None else v[int(m.group(2))]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
    return v


def main():
    args = [a for a in sys.argv[1:] if a not in ("--guard", "--verbose")]
    verbose = "--verbose" in sys.argv[1:]
    guard = "--guard" in sys.argv[1:]
    if len(args) != 3:
        sys.stderr.write(__doc__)
        return 2
    c, suite, work = args
    os.makedirs(work, exist_ok=True)
    r = Run(c, work)
    t0 = time.time()
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(suite) for f in fs if f.endswith(".json"))
    n_groups = n_skipped = n_direct = n_wrapped = n_imported = 0
    blockers = collections.Counter()
    n_tests = n_agree = 0
    disagree = collections.Counter()
    unexplained = []
    for path in files:
        rel = os.path.relpath(path, suite)
        for gi, g in enumerate(load(path)):
            n_groups += 1
            schema = g["schema"]
            gid = "%s #%d %s" % (rel, gi, g["description"])
            rs = refs(schema, [])
            if any(not x.startswith("#") for x in rs) or (rs and inner_ids(schema)):
                n_skipped += 1
                continue
            direct, dblock, dledger = r.imp(schema, "direct", gid)
            if direct:
                n_direct += 1
            w, why = wrap(schema)
            wrapped = None
            if w is not None:
                wrapped, wblock, wledger = r.imp(w, "wrapped", gid)
            if wrapped:
                n_wrapped += 1
                contract, ledger, is_wrapped = wrapped, wledger, True
            elif direct:
                contract, ledger, is_wrapped = direct, dledger, False
            else:
                blockers[wblock if w is not None else dblock] += 1
                continue
            n_imported += 1
            for ti, t in enumerate(g["tests"]):
                data = t["data"]
                text = ('{"v":' + dump(data) + "}") if is_wrapped else dump(data)
                res = r.validate(contract, text, "%s / %s" % (gid, t["description"]))
                if res is None:
                    continue
                n_tests += 1
                if res["accepted"] == t["valid"]:
                    n_agree += 1
                    continue
                cls = classify(t["valid"], res, ledger, is_wrapped, data)
                if cls is None:
                    unexplained.append("%s / %s: valid %s, accepted %s: %s" % (
                        gid, t["description"], t["valid"], res["accepted"],
                        "; ".join("%s %s" % (p.get("path", ""), p.get("message", "")) for p in res["problems"][:2]) or "no problem"))
                    cls = "unexplained"
                disagree[cls] += 1
                if verbose:
                    print("%s: %s / %s: valid %s, accepted %s" % (cls, gid, t["description"], t["valid"], res["accepted"]))
    print("JSON-Schema-Test-Suite draft2020-12 (with optional/) through contractc import, strict;")
    print("instances wrapped as {\"v\": DATA} under the wrapped schema's closed object root")
    print("groups: %d total, %d skipped (a $ref outside the document, or under an inner $id), %d imported (%d wrapped, %d bare as well), %d refused"
          % (n_groups, n_skipped, n_imported, n_wrapped, n_direct, n_groups - n_skipped - n_imported))
    print("first blockers of the refused groups:")
    for b, n in blockers.most_common(15):
        print("  %4d  %s" % (n, b))
    print("tests run: %d, agreeing: %d, disagreeing: %d" % (n_tests, n_agree, n_tests - n_agree))
    for cls, n in sorted(disagree.items(), key=lambda x: (-x[1], x[0])):
        print("  %4d  %s" % (n, cls))
    print("unexplained: %d" % len(unexplained))
    for u in unexplained:
        print("  " + u)
    print("%.1f s" % (time.time() - t0))
    for x in r.crashes:
        print("CRASH: " + x)
    if r.crashes:
        return 1
    if guard and unexplained:
        print("FAIL: %d unexplained disagreement(s)" % len(unexplained))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
