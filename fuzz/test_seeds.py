# SPDX-License-Identifier: MIT
"""Checks fuzz/seeds.cmake (the test fuzz_seeds_are_assembled): the seed
corpora it assembles hold every source they are made of, byte for byte, no
two seeds of a target are the same bytes, and two runs write the same files.

    python3 fuzz/test_seeds.py CMAKE SOURCE_DIR WORK_DIR
"""
import glob
import hashlib
import json
import os
import subprocess
import sys

cmake, root, work = sys.argv[1:4]
data = os.path.join(root, "tests", "data")
failures = []


def fail(msg):
    failures.append(msg)


def assemble(out):
    subprocess.run([cmake, "-DSOURCE_DIR=" + root, "-DOUTPUT_DIR=" + out, "-P",
                    os.path.join(root, "fuzz", "seeds.cmake")], check=True,
                   stdout=subprocess.DEVNULL)


def tree(out):
    files = {}
    for dirpath, _, names in os.walk(out):
        for name in names:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, out)] = f.read()
    return files


# The seeds live where the tests read them; a committed fuzz/corpus (a
# branch from before) would be read by nothing.
if os.path.exists(os.path.join(root, "fuzz", "corpus")):
    fail("fuzz/corpus/ is read by nothing: a seed goes into tests/data (fuzz/README.md)")

first, second = os.path.join(work, "one"), os.path.join(work, "two")
assemble(first)
assemble(second)
seeds = tree(first)
if seeds != tree(second):
    fail("two runs of fuzz/seeds.cmake wrote different files")

targets = ["reader", "differential", "generated", "validate", "contract", "stats",
           "client_response", "stream", "client_stream"]
by_target = {t: {} for t in targets}
for rel, body in seeds.items():
    if rel == "seeds.txt":
        continue
    t, name = rel.split(os.sep, 1)
    by_target[t][name] = body
contents = {t: {hashlib.sha256(b).digest() for b in by_target[t].values()} for t in targets}


def has(t, body, what):
    if hashlib.sha256(body).digest() not in contents[t]:
        fail("fuzz_%s has no seed with the bytes of %s" % (t, what))


def read(path):
    with open(path, "rb") as f:
        return f.read()


for t in targets:
    if len(contents[t]) != len(by_target[t]):
        fail("fuzz_%s: %d seeds but %d different contents" %
             (t, len(by_target[t]), len(contents[t])))
expect = "seeds: " + " ".join("%s %d" % (t, len(by_target[t])) for t in targets) + "\n"
if seeds.get("seeds.txt", b"").decode() != expect:
    fail("seeds.txt says %r, the directories hold %r" % (seeds.get("seeds.txt"), expect))

# The reply cases: each case's reply is the seed ID.json of the reply targets.
reply_targets = ["reader", "differential", "generated", "validate", "stream"]
with open(os.path.join(data, "cases", "replies.jsonl"), encoding="utf-8") as f:
    cases = [json.loads(line) for line in f if line.strip()]
for case in cases:
    body = case["reply"].encode("utf-8", "surrogatepass")
    for t in reply_targets:
        if by_target[t].get(case["id"] + ".json") != body:
            fail("fuzz_%s: %s.json is not the case's reply" % (t, case["id"]))
sources = sorted(glob.glob(os.path.join(root, "examples", "**", "*.reply.json"), recursive=True))
sources += sorted(glob.glob(os.path.join(data, "differential", "regressions", "*.json")))
for path in sources:
    for t in reply_targets:
        has(t, read(path), os.path.relpath(path, root))
for path in sorted(glob.glob(os.path.join(data, "jsontestsuite", "test_parsing", "*.json"))):
    for t in ["reader", "differential"]:
        has(t, read(path), os.path.relpath(path, root))

contracts = glob.glob(os.path.join(root, "examples", "*", "*.contract.yaml"))
for folder in ["contracts", "nested", "hostile", "differential", "lint"]:
    contracts += glob.glob(os.path.join(data, folder, "*.yaml"))
for path in sorted(contracts):
    has("contract", read(path), os.path.relpath(path, root))
chain = by_target["contract"].get("named-types-doubling.contract.yaml", b"")
if chain.count(b"{type: t") != 13 or b"  t6:\n" not in chain:
    fail("the doubling chain is not six levels of two fields each")

for path in sorted(glob.glob(os.path.join(data, "logs", "*.log"))):
    whole = read(path)
    has("stats", whole, os.path.relpath(path, root))
    for line in whole.split(b"\n"):
        if line:
            has("stats", line + b"\n", "a line of " + os.path.relpath(path, root))
for path in sorted(glob.glob(os.path.join(data, "logs", "bad", "*.log"))):
    has("stats", read(path), os.path.relpath(path, root))
responses = sorted(p for p in glob.glob(os.path.join(data, "client", "responses", "*"))
                   if not p.endswith("README.md"))
for path in responses:
    has("client_response", read(path), os.path.relpath(path, root))
if len(by_target["client_response"]) != len(responses):
    fail("fuzz_client_response has %d seeds for %d recorded responses" %
         (len(by_target["client_response"]), len(responses)))

streams = sorted(glob.glob(os.path.join(data, "client", "streams", "*.sse")))
for path in streams:
    has("client_stream", read(path), os.path.relpath(path, root))
if len(by_target["client_stream"]) != len(streams):
    fail("fuzz_client_stream has %d seeds for %d recorded streams" %
         (len(by_target["client_stream"]), len(streams)))

for msg in failures:
    print("FAILED:", msg)
print(expect.strip())
sys.exit(1 if failures else 0)
