#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""jsb_instances.py CONTRACTC CORPUS WORK [--cap N] [--verbose] [--guard]: JSONSchemaBench's
sample (read in place from CORPUS, outside the repository: its licence is
unclear, nothing of it is copied) through `contractc import` and `contractc
validate` (docs/contract-language.md section 17).

Each schema with a tests/SUBSET/NAME.json is imported strictly and, separately,
with --lenient; for each import that succeeds, the first N (default 10) test
instances are validated (`validate --json`) and `accepted` is compared with the
benchmark's `valid`.  The benchmark labels an instance invalid when Python's
and Rust's jsonschema validators reject it, and Python's did check `format`
(195 invalid instances fail on a format alone): a format disagreement is
therefore a real one, put in a format class.  A disagreement is classed by a
ledger class the import printed (closed-object, type-implied, format-profile,
format-mapped, bound-folded, pattern-translated, dropped for --lenient) or by
the contract's own policy on the instance (a duplicate key, a lone surrogate
or NUL, an integer beyond +-(2^53-1), 1.0 as an integer, max_depth or
max_bytes); the rest are unexplained and listed.

Exit 0 with the figures; 1 on a crash or hang (an exit other than 0, 1 or 2),
or with --guard on an unexplained disagreement;
skipped (exit 77) when CORPUS is absent.
"""
import collections
import concurrent.futures
import decimal
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jsts import dump, instance_policy, find  # noqa: E402


class Dup(Exception):
    pass


def pairs(ps):
    d = {}
    for k, v in ps:
        if k in d:
            d["\0dup"] = True
        d[k] = v
    return d


def has_dup(v):
    if isinstance(v, dict):
        return "\0dup" in v or any(has_dup(x) for x in v.values())
    if isinstance(v, list):
        return any(has_dup(x) for x in v)
    return False


def depth(v):
    if isinstance(v, dict):
        return 1 + max([depth(x) for x in v.values()] or [0])
    if isinstance(v, list):
        return 1 + max([depth(x) for x in v] or [0])
    return 0


def run(c, args):
    try:
        p = subprocess.run([c] + args, capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:
        return None, "timed out"
    if p.returncode not in (0, 1, 2):
        return None, "exit %d" % p.returncode
    return p, None


def classes_of(ledger):
    out = set()
    for line in ledger.splitlines():
        parts = line.split(": ", 2)
        if len(parts) >= 2:
            out.add(parts[1])
    return out


def classify(t, res, classes, data, lenient):
    valid = t["valid"]
    problems = res.get("problems") or []
    if valid:
        if has_dup(data):
            return "policy: duplicate key"
        pol = instance_policy(data, None)
        if pol:
            return pol
        for pr in problems:
            msg, kind = pr.get("message", ""), pr.get("kind", "")
            if kind == "limit":
                return "policy: max_depth or max_bytes"
            if "outside the exact integer range" in msg:
                return "policy: integer beyond +-(2^53-1)"
            if "is not an integer" in msg and isinstance(find(data, pr.get("path", "$"), False), decimal.Decimal):
                return "policy: 1.0 is not an integer"
            if kind == "duplicate":
                return "policy: duplicate key"
            if kind in ("type", "null") and "type-implied" in classes:
                return "type-implied"
            if kind == "unexpected" and "closed-object" in classes:
                return "closed-object"
            if kind == "format" and "format-profile" in classes:
                return "format-profile"
            if kind == "pattern" and "key pattern" in msg and "closed-object" in classes:
                return "closed-object"  # a key patternProperties left free
            if kind in ("pattern", "range", "format") and "format-mapped" in classes:
                return "format-mapped"
            if kind == "pattern" and "pattern-translated" in classes:
                return "pattern-translated"
            if kind == "range" and "bound-folded" in classes:
                return "bound-folded"
        if lenient and "dropped" in classes:
            return "dropped"
        return None
    # an invalid instance accepted
    if lenient and "dropped" in classes:
        return "dropped"
    pe = t.get("python_error", "")
    if "Failed validating 'format'" in pe and ("format-profile" in classes or "format-mapped" in classes):
        return "format-profile" if "format-profile" in classes else "format-mapped"
    if "Failed validating 'pattern'" in pe and "pattern-translated" in classes:
        return "pattern-translated"
    return None


def main():
    argv = sys.argv[1:]
    verbose = "--verbose" in argv
    guard = "--guard" in argv
    argv = [a for a in argv if a not in ("--verbose", "--guard")]
    cap = 10
    if "--cap" in argv:
        i = argv.index("--cap")
        cap = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    c, corpus, work = argv
    if not os.path.isfile(os.path.join(corpus, "MANIFEST.jsonl")):
        print("SKIP: %s is absent (JSONSchemaBench's sample, kept outside the repository)" % corpus)
        return 77
    os.makedirs(work, exist_ok=True)
    t0 = time.time()
    entries = []
    with open(os.path.join(corpus, "MANIFEST.jsonl"), encoding="utf-8") as f:
        for line in f:
            e = json.loads(line)
            if e.get("tests"):
                entries.append(e)
    crashes = []

    def one(idx_e):
        idx, e = idx_e
        out = []  # (mode, subset, n, agree, [(cls, text)])
        tests = json.loads(open(os.path.join(corpus, e["tests"]), "rb").read().decode("utf-8"),
                           parse_float=decimal.Decimal, object_pairs_hook=pairs)["tests"][:cap]
        for mode in ("strict", "lenient"):
            contract = os.path.join(work, "%d.%s.contract.yaml" % (idx, mode))
            args = ["import", os.path.join(corpus, e["file"]), "-o", contract]
            if mode == "lenient":
                args.insert(1, "--lenient")
            p, err = run(c, args)
            if p is None:
                crashes.append("import %s %s: %s" % (mode, e["file"], err))
                continue
            if p.returncode != 0:
                continue
            classes = classes_of(p.stderr.decode("utf-8", "replace"))
            n = agree = 0
            dis = []
            for ti, t in enumerate(tests):
                data = t["data"]
                reply = os.path.join(work, "%d.reply.json" % idx)
                with open(reply, "w", encoding="utf-8") as g:
                    g.write(dump(data).replace('"\\u0000dup":true,', "").replace(',"\\u0000dup":true', "").replace('"\\u0000dup":true', ""))
                v, err = run(c, ["validate", contract, reply, "--json", "-q"])
                if v is None:
                    crashes.append("validate %s %s #%d: %s" % (mode, e["file"], ti, err))
                    continue
                if v.returncode == 2:
                    res = {"accepted": None, "problems": [{"kind": "exit-2", "message": v.stderr.decode("utf-8", "replace")}]}
                else:
                    res = json.loads(v.stdout.decode("utf-8"))
                n += 1
                if res["accepted"] == t["valid"]:
                    agree += 1
                    continue
                cls = classify(t, res, classes, data, mode == "lenient") or "unexplained"
                dis.append((cls, "%s %s #%d: valid %s, accepted %s: %s" % (
                    mode, e["file"], ti, t["valid"], res["accepted"],
                    "; ".join("%s %s" % (q.get("path", ""), q.get("message", "")) for q in res["problems"][:2])[:300]
                    or ("python: " + t.get("python_error", "").split("\n")[0][:200]))))
            out.append((mode, e["subset"], n, agree, dis))
            for fn in (contract,):
                try:
                    os.remove(fn)
                except OSError:
                    pass
        return out

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        results = list(ex.map(one, enumerate(entries)))
    all_unexplained = 0
    for mode in ("strict", "lenient"):
        print("JSONSchemaBench sample, import %s: the first %d test instances of each imported schema validated" % (
            "strictly" if mode == "strict" else "with --lenient", cap))
        print("%-16s %8s %6s %9s %11s  disagreeing by class" % ("subset", "schemas", "run", "agreeing", "unexplained"))
        tot = collections.Counter()
        tot_cls = collections.Counter()
        unexplained = []
        subsets = sorted({e["subset"] for e in entries})
        for s in subsets:
            k = collections.Counter()
            cls = collections.Counter()
            for res in results:
                for (m, sub, n, agree, dis) in res:
                    if m != mode or sub != s:
                        continue
                    k["schemas"] += 1
                    k["run"] += n
                    k["agree"] += agree
                    for cl, text in dis:
                        cls[cl] += 1
                        if cl == "unexplained":
                            unexplained.append(text)
                        elif verbose:
                            print("  %s: %s" % (cl, text))
            tot.update(k)
            tot_cls.update(cls)
            print("%-16s %8d %6d %9d %11d  %s" % (s, k["schemas"], k["run"], k["agree"], cls["unexplained"],
                  ", ".join("%s %d" % (a, b) for a, b in sorted(cls.items()) if a != "unexplained")))
        print("%-16s %8d %6d %9d %11d  %s" % ("total", tot["schemas"], tot["run"], tot["agree"], tot_cls["unexplained"],
              ", ".join("%s %d" % (a, b) for a, b in sorted(tot_cls.items()) if a != "unexplained")))
        for u in unexplained:
            print("  unexplained: " + u)
        all_unexplained += len(unexplained)
    print("%.1f s" % (time.time() - t0))
    for x in crashes:
        print("CRASH: " + x)
    if guard and all_unexplained:
        print("FAIL: %d unexplained disagreement(s): each is an importer bug or a ledger class "
              "the import did not print" % all_unexplained)
        return 1
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
