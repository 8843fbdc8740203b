#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""run.py - contractc's benchmark against its peers, in one run.

    python3 bench/run.py --build BUILD_DIR [--rounds N] [--seconds S] [--quick]

Steps (all in this one run, so that the ratios compare like with like on a
noisy machine):
  1. the seeded corpora (bench_gen_corpus): refund, invoice, repo_map
     (nested), about 90% valid, and the scaling series (per shape and size
     about 4 MiB of distinct replies);
  2. the agreement check: the verdicts of every validating runner
     (contractc, the strict cJSON validator, ajv) must be equal reply by
     reply, and equal to what the generator meant; contractc must accept
     every valid reply of the scaling series and reject every hostile one;
     any difference is printed and the run fails (exit 1);
  3. timing: N rounds, each running every runner on every corpus, the
     runners' order rotated per round (interleaved); medians of the rounds;
  4. callgrind: instructions per byte and per reply (one pass each);
  5. memory: peak heap and allocations per reply (counting allocators);
  6. the scaling series 100 B .. 1 MB for valid and hostile replies, with
     the fitted slope of log(time) and log(instructions) against log(bytes):
     each size timed over its K distinct replies (interleaved rounds, as in
     3; one reply repeated would let the branch predictor learn it), the
     instructions counted on one reply per size.
Standard library only.
"""
import argparse
import glob
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CONTRACTS = [("refund", "refund_request"), ("invoice", "invoice"), ("repo_map", "repo_map")]
SERIES = ["valid", "keys", "strings", "deep"]


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return p.stdout


def kv(text):
    return {k: float(v) for k, v in re.findall(r"(\w+)=([-\d.]+)", text)}


def read_corpus(path):
    """The records of a corpus file (format: bench/corpus.h)."""
    data = open(path, "rb").read()
    out, at = [], 0
    while at < len(data):
        nl = data.index(b"\n", at)
        intent, rl, sl = map(int, data[at:nl].split())
        at = nl + 1
        out.append((intent, data[at:at + rl], data[at + rl:at + rl + sl]))
        at += rl + sl + 1
    return out


def write_corpus(path, records):
    with open(path, "wb") as f:
        for intent, reply, source in records:
            f.write(b"%d %d %d\n" % (intent, len(reply), len(source)))
            f.write(reply + source + b"\n")


class Bench:
    def __init__(self, args):
        self.a = args
        self.bin = os.path.join(args.build, "bench")
        self.gen = os.path.join(self.bin, "generated")
        self.bench_c = os.path.join(self.bin, "bench_c")
        self.simd = os.path.join(self.bin, "bench_simdjson")
        self.have_simd = os.path.exists(self.simd)
        # The same parser built for x86-64-v3 (AVX2: the UTF-8 check's
        # lookup-table path), when scripts/bench.sh could build it.
        self.bench_v3 = (os.path.join(args.v3_build, "bench", "bench_c")
                         if args.v3_build else None)
        self.have_node = shutil.which("node") is not None and os.path.isdir(
            os.path.join(HERE, "node_modules", "ajv"))
        self.have_valgrind = shutil.which("valgrind") is not None
        self.dir = args.out or tempfile.mkdtemp(prefix="contractc-bench-")
        os.makedirs(self.dir, exist_ok=True)

    def corpus(self, name):
        return os.path.join(self.dir, name + ".corpus")

    def series(self, shape):
        """The scaling series of one shape: [(nominal size, corpus path)]."""
        paths = glob.glob(os.path.join(self.dir, f"series_{shape}_*.corpus"))
        sizes = sorted(int(re.search(r"_(\d+)\.corpus$", p).group(1)) for p in paths)
        return [(s, self.corpus(f"series_{shape}_{s}")) for s in sizes]

    def schema(self, contract):
        return os.path.join(self.gen, dict(CONTRACTS)[contract] + ".schema.json")

    # The command of one runner on one contract, or None when it does not apply.
    def cmd(self, runner, contract, mode, corpus, *extra):
        if runner == "contractc_v3":
            if not self.bench_v3:
                return None
            return [self.bench_v3, mode, "contractc", contract, corpus, *extra]
        if runner in ("contractc", "cjson", "strict"):
            if runner == "strict" and contract == "repo_map":
                return None
            return [self.bench_c, mode, runner, contract, corpus, *extra]
        if runner in ("simdjson", "utf8"):
            if not self.have_simd or mode in ("mem",):
                return None
            return [self.simd, mode, runner, corpus, *extra]
        if runner == "ajv":
            if not self.have_node or mode not in ("time", "verdicts"):
                return None
            return ["node", os.path.join(HERE, "ajv_runner.js"), mode, contract,
                    self.schema(contract), corpus, *extra]
        raise ValueError(runner)

    # ---- 1. corpora --------------------------------------------------------
    def generate(self):
        run([os.path.join(self.bin, "bench_gen_corpus"), str(self.a.seed), self.dir,
             str(self.a.scale)])

    # ---- 2. agreement ------------------------------------------------------
    def agreement(self):
        print("## Agreement of the validating runners (reply by reply)\n")
        failed = False
        for contract, _ in CONTRACTS:
            records = read_corpus(self.corpus(contract))
            intent = "".join(str(r[0]) for r in records)
            verdicts = {}
            for runner in ("contractc", "contractc_v3", "strict", "ajv"):
                c = self.cmd(runner, contract, "verdicts", self.corpus(contract))
                if c:
                    verdicts[runner] = run(c).strip()
            verdicts["generator"] = intent
            base = verdicts["contractc"]
            diffs = []
            for runner, v in verdicts.items():
                for i, (x, y) in enumerate(zip(base, v)):
                    if x != y:
                        diffs.append((runner, i, x, y))
                if len(v) != len(base):
                    diffs.append((runner, -1, len(base), len(v)))
            valid = base.count("1")
            names = ", ".join(k for k in verdicts if k != "contractc")
            if diffs:
                failed = True
                print(f"- {contract}: DISAGREEMENT on {len(diffs)} verdicts:")
                for runner, i, x, y in diffs[:10]:
                    reply = records[i][1][:300].decode("utf-8", "replace") if i >= 0 else ""
                    print(f"  reply {i}: contractc={x} {runner}={y}: {reply}")
            else:
                print(f"- {contract}: {len(base)} replies, {valid} accepted, {len(base) - valid} "
                      f"rejected; contractc agrees with {names} on every reply")
        # The scaling series: valid replies accepted, hostile ones rejected
        # (a shape that drifts would time something else than it says).
        for shape in SERIES:
            want = "1" if shape == "valid" else "0"
            bad, total = [], 0
            for size, path in self.series(shape):
                v = run(self.cmd("contractc", "invoice", "verdicts", path)).strip()
                total += len(v)
                bad += [(size, i) for i, x in enumerate(v) if x != want]
            if not total or bad:
                failed = True
                print(f"- series {shape}: {len(bad)} of {total} replies not "
                      f"{'accepted' if want == '1' else 'rejected'} by contractc"
                      + (f", e.g. size {bad[0][0]} reply {bad[0][1]}" if bad else ""))
            else:
                print(f"- series {shape}: contractc {'accepts' if want == '1' else 'rejects'} "
                      f"all {total} replies")
        if not self.have_node:
            print("- ajv: SKIPPED (node or bench/node_modules missing: run scripts/bench.sh)")
        print("\najv decides grounding and the rules through custom keywords (x-grounded, "
              "x-all-or-none, x-sum in bench/ajv_runner.js), so it is compared on every reply.\n")
        if failed:
            print("bench: the validating runners disagree: FAIL")
            sys.exit(1)

    # ---- 3. timing -----------------------------------------------------------
    def timing(self):
        runners = ["contractc", "contractc_v3", "strict", "cjson", "simdjson", "utf8", "ajv"]
        res = {}
        for rnd in range(self.a.rounds):
            order = runners[rnd % len(runners):] + runners[:rnd % len(runners)]
            for contract, _ in CONTRACTS:
                for runner in order:
                    c = self.cmd(runner, contract, "time", self.corpus(contract),
                                 str(self.a.seconds))
                    if c:
                        res.setdefault((runner, contract), []).append(kv(run(c)))
        med = {k: {m: statistics.median(r[m] for r in v) for m in ("ns_per_reply", "mb_per_s")}
               for k, v in res.items()}
        label = {
            "contractc": "contractc generated parser (strict, validates)",
            "contractc_v3": "the same, built with -march=x86-64-v3 (AVX2)",
            "strict": "hand-written strict validator on cJSON",
            "cjson": "cJSON parse only (no validation)",
            "simdjson": "simdjson DOM parse only (no validation)",
            "utf8": "simdjson UTF-8 check only",
            "ajv": "ajv 8 (JSON.parse + compiled validator)",
        }
        print(f"## Time ({self.a.rounds} interleaved rounds, medians; x = time relative to "
              "contractc, >1 is slower than contractc)\n")
        print("| tool | refund ns/reply | x | invoice MB/s | x | repo_map MB/s | x |")
        print("| --- | --: | --: | --: | --: | --: | --: |")
        for runner in runners:
            if runner == "contractc_v3" and not self.bench_v3:
                continue
            row = [label[runner]]
            for contract, _ in CONTRACTS:
                m, base = med.get((runner, contract)), med.get(("contractc", contract))
                if not m:
                    row += ["n/a", ""]
                    continue
                if contract == "refund":
                    row.append(f"{m['ns_per_reply']:,.0f}")
                else:
                    row.append(f"{m['mb_per_s']:,.0f}")
                row.append(f"{m['ns_per_reply'] / base['ns_per_reply']:.2f}")
            print("| " + " | ".join(row) + " |")
        print()
        self.med = med

    # ---- 4. callgrind --------------------------------------------------------
    def instructions(self, cmd):
        out = os.path.join(self.dir, "callgrind.out")
        p = subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=bench_pass",
                            f"--callgrind-out-file={out}"] + cmd,
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"bench: callgrind failed:\n{p.stderr[-2000:]}")
        text = open(out).read()
        m = re.search(r"^totals:\s+(\d+)", text, re.M) or re.search(r"^summary:\s+(\d+)", text, re.M)
        return int(m.group(1)), kv(p.stdout)

    def callgrind(self):
        if not self.have_valgrind:
            print("## Instructions: SKIPPED (valgrind missing)\n")
            return
        print("## Instructions (valgrind --tool=callgrind, one pass, inside bench_pass only)\n")
        print("| tool | refund instr/reply | refund instr/byte | invoice instr/byte "
              "| repo_map instr/byte |")
        print("| --- | --: | --: | --: | --: |")
        self.instr = {}
        for runner in ["contractc", "contractc_v3", "strict", "cjson", "simdjson", "utf8"]:
            if runner == "contractc_v3" and not self.bench_v3:
                continue
            row = [runner]
            for contract, _ in CONTRACTS:
                c = self.cmd(runner, contract, "once", self.corpus(contract))
                if not c:
                    row += ["n/a"] if contract != "refund" else ["n/a", "n/a"]
                    continue
                ins, info = self.instructions(c)
                per_byte, per_reply = ins / info["bytes"], ins / info["replies"]
                self.instr[(runner, contract)] = per_byte
                if contract == "refund":
                    row += [f"{per_reply:,.0f}", f"{per_byte:.1f}"]
                else:
                    row.append(f"{per_byte:.1f}")
            print("| " + " | ".join(row) + " |")
        print("\n(ajv is not measured under callgrind: a JIT's instruction count says little.)\n")

    # ---- 5. memory -------------------------------------------------------------
    def memory(self):
        print("## Memory per reply (counting allocators)\n")
        print("| contract | k | tool | peak heap (max) | allocations/reply | allocations/accepted "
              "(max) | accepted within k x bytes + 4 KiB | worst peak/byte |")
        print("| --- | --: | --- | --: | --: | --: | --: | --: |")
        for contract, _ in CONTRACTS:
            for runner in ["contractc", "strict", "cjson"]:
                c = self.cmd(runner, contract, "mem", self.corpus(contract))
                if not c:
                    continue
                m = kv(run(c))
                k = f"{m['k']:.0f}" if runner == "contractc" else ""
                bound = (f"{m['within_bound']:.0f} / {m['accepted']:.0f}" if runner == "contractc"
                         else "")
                print(f"| {contract} | {k} | {runner} | {m['peak_max']:,.0f} B | "
                      f"{m['allocs_per_reply']:.2f} | {m['allocs_per_accepted']:.2f} "
                      f"({m['allocs_per_accepted_max']:.0f}) | {bound} | "
                      f"{m['worst_peak_per_byte']:.1f} |")
        print("\nk is the generated NAME_contract.arena_factor (the arena is at most "
              "k x reply bytes + arena_base).  simdjson reuses one parser (no allocation per "
              "reply once warm); ajv's heap is the JS engine's and not counted.\n")

    # ---- 6. scaling --------------------------------------------------------------
    @staticmethod
    def slope(points):
        pts = [(math.log(b), math.log(t)) for b, t in points if b >= 900]
        mx = statistics.mean(x for x, _ in pts)
        my = statistics.mean(y for _, y in pts)
        return (sum((x - mx) * (y - my) for x, y in pts) /
                sum((x - mx) ** 2 for x, _ in pts))

    def scaling(self):
        series = {shape: self.series(shape) for shape in SERIES}
        jobs = [(shape, size, path) for shape in SERIES for size, path in series[shape]]
        times, info = {}, {}
        for rnd in range(self.a.rounds):
            # interleaved: every corpus in every round, the order rotated
            k = (rnd * len(jobs)) // max(self.a.rounds, 1)
            for shape, size, path in jobs[k:] + jobs[:k]:
                m = kv(run(self.cmd("contractc", "invoice", "time", path, str(self.a.seconds))))
                times.setdefault((shape, size), []).append(m["ns_per_reply"])
                info[(shape, size)] = (int(m["replies"]), m["bytes"] / m["replies"])
        ks = [info[("valid", size)][0] for size, _ in series["valid"]]
        print("## Scaling: contractc on invoice replies of 100 B to 1 MB\n")
        print("slope = fitted exponent of time (or instructions) against bytes read, from 1 KB "
              "to 1 MB (1.0 = time per byte flat).  Each size is timed over K distinct replies "
              f"(K = {', '.join(str(k) for k in ks)}: about 4 MiB per size; medians of "
              f"{self.a.rounds} interleaved rounds, ns per reply over the mean reply size), "
              "never one reply repeated; the instructions are counted on one reply per size.\n")
        print("| reply | sizes (bytes) | ns/byte at each size | slope (time) | slope (instructions) |")
        print("| --- | --- | --- | --: | --: |")
        self.slopes = {}
        for shape in SERIES:
            # (mean reply bytes, median ns per reply)
            pts = [(info[(shape, size)][1], statistics.median(times[(shape, size)]))
                   for size, _ in series[shape]]
            ipts = []
            if self.have_valgrind:
                for size, path in series[shape]:
                    rec = read_corpus(path)[0]
                    one = os.path.join(self.dir, f"one_{shape}_{size}.corpus")
                    write_corpus(one, [rec])
                    ins, _ = self.instructions(self.cmd("contractc", "invoice", "once", one))
                    ipts.append((len(rec[1]), ins))
            st = self.slope(pts)
            si = self.slope(ipts) if ipts else float("nan")
            self.slopes[shape] = (st, si)
            print(f"| {shape} | {', '.join(f'{b:.0f}' for b, _ in pts)} | "
                  f"{', '.join(f'{t / b:.2f}' for b, t in pts)} | {st:.3f} | {si:.3f} |")
        print()

    def machine(self):
        cpu = "unknown CPU"
        try:
            for line in open("/proc/cpuinfo"):
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
        except OSError:
            pass
        cc = run(["cc", "--version"]).splitlines()[0] if shutil.which("cc") else "?"
        node = run(["node", "--version"]).strip() if shutil.which("node") else "no node"
        print(f"Machine: {cpu}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
              f"{cc}, node {node}, seed {self.a.seed}, corpora in {self.dir}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True, help="a build directory made with -DCONTRACTC_BENCH=ON")
    ap.add_argument("--out", help="where the corpora go (default: a temporary directory)")
    ap.add_argument("--v3-build", help="a second bench build made with -march=x86-64-v3 "
                    "(its contractc runner is timed and checked too)")
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=0.25, help="per runner, corpus and round")
    ap.add_argument("--scale", type=int, default=1, help="divide the corpus sizes")
    ap.add_argument("--quick", action="store_true",
                    help="agreement check only (small corpora): the ctest smoke test")
    args = ap.parse_args()
    if args.quick:
        args.scale = max(args.scale, 10)
    b = Bench(args)
    b.machine()
    b.generate()
    b.agreement()
    if args.quick:
        return
    b.timing()
    b.callgrind()
    b.memory()
    b.scaling()


if __name__ == "__main__":
    main()
