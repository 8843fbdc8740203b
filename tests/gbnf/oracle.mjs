// SPDX-License-Identifier: MIT
// oracle.mjs CONTRACTC SRC_DIR WORK_DIR [CORPUS_DIR GEN_CORPUS]: contractc's GBNF
// grammars against llama.cpp's own grammar engine (node-llama-cpp 3.21.1,
// CPU build), and against contractc's parser (`contractc validate --json`).
//
//   parse     every grammar of every example and test contract parses in
//             llama.cpp (createGrammar throws otherwise)
//   sound     every reply the grammar admits is accepted by the parser,
//             except in the classes the grammar's notes list: replies from
//             a random walk of the grammar, the reply cases, the bench
//             corpora and fuzzed replies, each admitted by llama.cpp first
//   complete  the canonical form of every accepted reply of the cases and
//             corpora is admitted by llama.cpp
//
//   grounded  with GROUNDED_TOOL (contractc_gbnf_grounded): for every case
//             with a source, the grounded grammar admits the canonical form
//             of an accepted reply and refuses a reply whose only problems
//             are grounding
//
// Seeded (xorshift), bounded: a fixed number of samples per contract.
import fs from "node:fs";
import path from "node:path";
import {spawnSync} from "node:child_process";
import fs2 from "node:fs";
import {contractc, llama, contracts, replies, validate, excusedBy, parseGbnf, walk, fuzz, groundedTool, scratch} from "./lib.mjs";

// ---- the run ----
const WALKS = 15, FUZZ = 4;
const grammars = new Map();
const count = {parsed: 0, walked: 0, walkAccepted: 0, walkExcused: 0, walkLlamaMismatch: 0,
               replies: 0, accepted: 0, complete: 0, admitted: 0, admittedAccepted: 0, admittedExcused: 0,
               fuzzed: 0, fuzzAdmitted: 0, fuzzAccepted: 0, fuzzExcused: 0};
const failures = [];
const noted = {}; // problem kinds of rejected-but-admitted texts, all in noted classes
const tally = (v) => { for (const p of v.problems) noted[p.kind] = (noted[p.kind] ?? 0) + 1; };
const t0 = Date.now();
for (const c of contracts) {
    if (!fs.existsSync(c)) { failures.push(`missing contract ${c}`); continue; }
    const g = spawnSync(contractc, ["grammar", c], {encoding: "utf8"});
    if (g.status !== 0) { failures.push(`contractc grammar ${c}: ${g.stderr}`); continue; }
    let grammar;
    try { grammar = await llama.createGrammar({grammar: g.stdout}); } catch (e) { failures.push(`llama.cpp cannot parse the grammar of ${c}: ${e.message}`); continue; }
    count.parsed++;
    const entry = {text: g.stdout, grammar, notes: g.stderr, excused: excusedBy(g.stderr), rules: parseGbnf(g.stdout)};
    grammars.set(c, entry);
    for (let k = 0; k < WALKS; k++) {
        const out = {s: "", len: 0};
        try { walk(entry.rules, entry.rules.get("root"), out, 0); } catch { continue; }
        count.walked++;
        if (!grammar._testText(out.s)) { count.walkLlamaMismatch++; failures.push(`walker text not admitted by llama.cpp (${path.basename(c)}): ${out.s.slice(0, 200)}`); continue; }
        const v = validate(c, out.s, "");
        if (v.accepted) count.walkAccepted++;
        else if (v.problems.every(entry.excused)) { count.walkExcused++; tally(v); }
        else failures.push(`unsound (${path.basename(c)}): admitted but rejected: ${JSON.stringify(v.problems)}\n  ${out.s.slice(0, 300)}`);
    }
}
for (const r of replies) {
    const entry = grammars.get(r.contract);
    if (!entry) continue;
    count.replies++;
    const text = r.reply.toString("utf8");
    const v = validate(r.contract, r.reply, r.source);
    // sound: a raw reply llama.cpp admits must be accepted (or excused)
    if (Buffer.from(text, "utf8").equals(r.reply) && entry.grammar._testText(text)) {
        count.admitted++;
        if (v.accepted) count.admittedAccepted++;
        else if (v.problems.every(entry.excused)) { count.admittedExcused++; tally(v); }
        else failures.push(`unsound (${r.from}, ${path.basename(r.contract)}): ${JSON.stringify(v.problems)}\n  ${text.slice(0, 300)}`);
    }
    if (!v.accepted) continue;
    count.accepted++;
    // complete: the canonical form (compact, contract order, the canonical
    // escapes: what JSON.stringify writes for these values) is admitted
    const canonical = JSON.stringify(v.value);
    if (entry.grammar._testText(canonical)) count.complete++;
    else failures.push(`incomplete (${r.from}, ${path.basename(r.contract)}): canonical form not admitted: ${canonical.slice(0, 300)}`);
    for (let k = 0; k < FUZZ; k++) {
        const f = fuzz(canonical);
        count.fuzzed++;
        if (!entry.grammar._testText(f)) continue;
        count.fuzzAdmitted++;
        const fv = validate(r.contract, f, r.source);
        if (fv.accepted) count.fuzzAccepted++;
        else if (fv.problems.every(entry.excused)) { count.fuzzExcused++; tally(fv); }
        else failures.push(`unsound (fuzz, ${path.basename(r.contract)}): ${JSON.stringify(fv.problems)}\n  ${f.slice(0, 300)}`);
    }
}
// grounded grammars, per case with a source text
const gcount = {accepted: 0, admitted: 0, groundingOnly: 0, refused: 0};
for (const r of groundedTool ? replies : []) {
    const entry = grammars.get(r.contract);
    if (!entry || !r.source || !/^source:/m.test(fs2.readFileSync(r.contract, "utf8"))) continue;
    const gp = path.join(scratch, "base.gbnf"), sp = path.join(scratch, "grounded-source.txt");
    fs2.writeFileSync(gp, entry.text);
    fs2.writeFileSync(sp, r.source);
    const t = spawnSync(groundedTool, [gp, sp], {encoding: "utf8", maxBuffer: 1 << 26});
    if (t.status !== 0) continue; // 1: source above 64 KiB
    const v = validate(r.contract, r.reply, r.source);
    let grammar;
    try { grammar = await llama.createGrammar({grammar: t.stdout}); } catch (e) { failures.push(`llama.cpp cannot parse a grounded grammar: ${e.message}`); continue; }
    if (v.accepted) {
        gcount.accepted++;
        const canonical = JSON.stringify(v.value);
        if (grammar._testText(canonical)) gcount.admitted++;
        else failures.push(`grounded grammar refuses an accepted reply: ${canonical.slice(0, 200)}`);
    } else if (v.problems.every((p) => p.kind === "grounding")) {
        const text = r.reply.toString("utf8");
        if (!entry.grammar._testText(text)) continue; // refused for its layout already (a fence)
        gcount.groundingOnly++;
        if (!grammar._testText(text)) gcount.refused++;
        else failures.push(`grounded grammar admits a reply that is not grounded: ${text.slice(0, 200)}`);
    }
}
console.log(`gbnf oracle (llama.cpp via node-llama-cpp): ${count.parsed}/${contracts.length} grammars parse`);
console.log(`  walker: ${count.walked} texts, all admitted by llama.cpp: ${count.walkLlamaMismatch === 0}; parser accepted ${count.walkAccepted}, rejected only for noted classes ${count.walkExcused}`);
console.log(`  replies: ${count.replies} (cases, examples, differential, bench sample); admitted raw ${count.admitted}: accepted ${count.admittedAccepted}, noted ${count.admittedExcused}`);
console.log(`  complete: ${count.complete}/${count.accepted} canonical forms of accepted replies admitted`);
console.log(`  fuzzed: ${count.fuzzed}, admitted ${count.fuzzAdmitted}: accepted ${count.fuzzAccepted}, noted ${count.fuzzExcused}`);
if (groundedTool) console.log(`  grounded: ${gcount.admitted}/${gcount.accepted} accepted replies admitted by their grounded grammar; ${gcount.refused} of ${gcount.groundingOnly} grounding-only rejections the base grammar admits refused by the grounded one`);
console.log(`  noted problems of admitted texts, by kind: ${JSON.stringify(noted)}`);
console.log(`  ${((Date.now() - t0) / 1000).toFixed(1)} s`);
for (const f of failures.slice(0, 30)) console.log("FAIL " + f);
process.exit(failures.length ? 1 : 0);
