#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""layering.py - the generator's modules call and include one way.

A module is NAME.c with its NAME.h.  Two graphs over generator/:
  includes: module A -> module B when A's .c or .h includes "B.h";
  calls:    module A -> module B when A's .c calls a function B's .c defines
            (an identifier followed by '(' outside comments and strings).
Both must have no cycle (Tarjan's strongly connected components), and the
front end must run in pipeline order: load -> parse_yaml, check, naming ->
model, with model calling nothing of the pipeline; the descriptor tables
and the schema texts take their words from the phrase book, not from the
prompt's emitter.  Exit 0 and a summary,
or 1 with every cycle and wrong-way edge.
"""
import os
import re
import sys

args = [a for a in sys.argv[1:] if a != "-v"]
ROOT = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "..")
GEN = os.path.join(ROOT, "generator")

def strip(text):
    # comments and string/char literals out, newlines kept
    out = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    out = re.sub(r"//[^\n]*", "", out)
    out = re.sub(r'"(\\.|[^"\\\n])*"', '""', out)
    out = re.sub(r"'(\\.|[^'\\\n])*'", "''", out)
    return out

files = sorted(f for f in os.listdir(GEN) if f.endswith((".c", ".h")))
modules = sorted({os.path.splitext(f)[0] for f in files})
src = {f: open(os.path.join(GEN, f), encoding="utf-8").read() for f in files}
code = {f: strip(t) for f, t in src.items()}

# who defines what: a function definition starts a line, is not static,
# and its parameter list is followed by '{' (possibly on the next line)
defined = {}
for f in files:
    if not f.endswith(".c"):
        continue
    for m in re.finditer(r"^(?!static\b)[A-Za-z_][\w \t\*]*?\b([a-z_]\w*)\s*\([^;{]*?\)\s*\{",
                         code[f], re.M):
        defined.setdefault(m.group(1), os.path.splitext(f)[0])

includes = {m: set() for m in modules}
calls = {m: set() for m in modules}
for f in files:
    mod = os.path.splitext(f)[0]
    for inc in re.findall(r'^\s*#\s*include\s+"([\w.]+)\.h"', src[f], re.M):
        if inc in includes and inc != mod:
            includes[mod].add(inc)
    if f.endswith(".c"):
        for name in set(re.findall(r"\b([a-z_]\w*)\s*\(", code[f])):
            owner = defined.get(name)
            if owner and owner != mod:
                calls[mod].add(owner)

def cycles(graph):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = n[0]; n[0] += 1
        stack.append(v); on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out

def reach(graph, start):
    seen, todo = set(), [start]
    while todo:
        for w in graph.get(todo.pop(), ()):
            if w not in seen:
                seen.add(w); todo.append(w)
    return seen

failed = []
for label, graph in (("include", includes), ("call", calls)):
    for comp in cycles(graph):
        edges = [f"{a} -> {b}" for a in comp for b in sorted(graph[a]) if b in comp]
        failed.append(f"{label} cycle among {', '.join(comp)}: {'; '.join(edges)}")

# the front end in pipeline order
STAGES = ("parse_yaml", "check", "naming")
for stage in STAGES:
    if "load" not in calls or stage not in calls["load"]:
        failed.append(f"load does not call {stage}")
    for other in ("load",) + tuple(s for s in STAGES if s != stage):
        if other in calls.get(stage, ()):
            failed.append(f"wrong way: {stage} calls {other}")
    if "model" not in reach(includes, stage):
        failed.append(f"{stage} does not include the model")
for wrong in ("load",) + STAGES:
    if wrong in calls.get("model", ()) or wrong in includes.get("model", ()):
        failed.append(f"wrong way: model uses {wrong}")
# the phrase book: the descriptor tables and the other texts do not call the
# prompt's emitter for its words
for m in ("tables", "gen_schema", "gen_dialect", "phrase"):
    if "gen_prompt" in calls.get(m, ()):
        failed.append(f"wrong way: {m} calls gen_prompt (the phrase book is phrase.c)")
if calls.get("lexical") or includes.get("lexical"):
    failed.append(f"lexical depends on {sorted(calls['lexical'] | includes['lexical'])}")

if "-v" in sys.argv:
    for m in modules:
        print(f"{m}: calls {' '.join(sorted(calls[m]))}; includes {' '.join(sorted(includes[m]))}")
if failed:
    print("\n".join(failed))
    sys.exit(1)
ncalls = sum(len(v) for v in calls.values())
nincl = sum(len(v) for v in includes.values())
print(f"{len(modules)} modules, {len(defined)} functions; {ncalls} call edges and "
      f"{nincl} include edges, no cycle; load -> {', '.join(sorted(calls['load']))}")
