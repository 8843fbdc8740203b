// SPDX-License-Identifier: MIT
// exactness.mjs CONTRACTC SRC_DIR WORK_DIR [CORPUS_DIR GEN_CORPUS]: how much
// of the contract each grammar carries, side by side: contractc's GBNF and
// the peer, node-llama-cpp's own TypeScript JSON-Schema-to-grammar
// converter (llama.createGrammarForJsonSchema, fed the portable schema with
// anyOf rewritten to oneOf, which it reads).  Rows: the replies the parser
// rejects (cases, corpora, fuzzed), white space outside strings removed, by
// the kind of their problem; a control row of valid canonical replies.
// A grammar "refuses" a reply when llama.cpp's engine does not admit it.
// The peer's grammars end every reply with "\n\n\n\n" (its own end
// marker), so the peer is asked about the text plus those four newlines.
// Prints a Markdown table; exit 1 when contractc's grammar misses a valid
// canonical reply (a completeness bug) or admits a reply whose only problem
// is of a kind it carries (pattern, format, enum, range, items, type,
// encoding: a soundness bug).
import fs from "node:fs";
import {spawnSync} from "node:child_process";
import {contractc, llama, contracts, replies, validate, fuzz, excusedBy} from "./lib.mjs";

const oneOf = (s) => Array.isArray(s) ? s.map(oneOf) : s && typeof s === "object"
    ? Object.fromEntries(Object.entries(s).map(([k, v]) => [k === "anyOf" ? "oneOf" : k, oneOf(v)])) : s;

function compact(text) { // white space outside strings removed
    let out = "", inStr = false;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (inStr) { out += c; if (c === "\\") out += text[++i] ?? ""; else if (c === '"') inStr = false; }
        else if (c === '"') { inStr = true; out += c; }
        else if (!" \t\n\r".includes(c)) out += c;
    }
    return out;
}

const PEER_END = "\n\n\n\n";
const mine = new Map(), peer = new Map(), excused = new Map();
for (const c of contracts) {
    if (!fs.existsSync(c)) continue;
    const g = spawnSync(contractc, ["grammar", c], {encoding: "utf8"});
    mine.set(c, await llama.createGrammar({grammar: g.stdout}));
    excused.set(c, excusedBy(g.stderr));
    const schema = JSON.parse(spawnSync(contractc, ["schema", c], {encoding: "utf8"}).stdout);
    try { peer.set(c, await llama.createGrammarForJsonSchema(oneOf(schema))); } catch (e) { console.log(`peer cannot convert ${c}: ${e.message}`); }
}
const rows = {}, control = {n: 0, mine: 0, peer: 0};
const row = (k) => (rows[k] ??= {n: 0, mine: 0, peer: 0});
function invalid(r, text) {
    const v = validate(r.contract, text, r.source);
    if (v.accepted) return false;
    const kinds = [...new Set(v.problems.map((p) => p.kind))].sort();
    // a kind the grammar's notes say it does not carry there (a json value's
    // max_bytes is a `length` it cannot spell) has a row of its own
    const noted = v.problems.every(excused.get(r.contract)) ? " (noted as not carried)" : "";
    const k = row(kinds.length === 1 ? kinds[0] + noted : "several kinds");
    k.n++;
    if (!mine.get(r.contract)._testText(text)) k.mine++;
    if (peer.has(r.contract) && !peer.get(r.contract)._testText(text + PEER_END)) k.peer++;
    return true;
}
for (const r of replies) {
    if (!mine.has(r.contract)) continue;
    const v = validate(r.contract, r.reply, r.source);
    if (v.accepted) {
        const canonical = JSON.stringify(v.value);
        control.n++;
        if (mine.get(r.contract)._testText(canonical)) control.mine++;
        if (peer.has(r.contract) && peer.get(r.contract)._testText(canonical + PEER_END)) control.peer++;
        for (let k = 0; k < 3; k++) invalid(r, fuzz(canonical));
    } else {
        invalid(r, compact(r.reply.toString("utf8")));
    }
}
console.log("| replies the parser rejects, by problem kind | n | contractc GBNF refuses | node-llama-cpp JSON Schema grammar refuses |");
console.log("| --- | ---: | ---: | ---: |");
for (const [k, r] of Object.entries(rows).sort((a, b) => b[1].n - a[1].n))
    console.log(`| ${k} | ${r.n} | ${r.mine} (${(100 * r.mine / r.n).toFixed(0)} %) | ${r.peer} (${(100 * r.peer / r.n).toFixed(0)} %) |`);
console.log(`| control: valid replies (canonical), admitted | ${control.n} | ${control.mine} admitted | ${control.peer} admitted |`);
const carried = ["pattern", "format", "enum", "range", "items", "type", "encoding", "length", "null", "syntax"];
const leaks = carried.filter((k) => rows[k] && rows[k].mine !== rows[k].n);
if (leaks.length) console.log(`FAIL contractc's grammar admits replies rejected for ${leaks.join(", ")}`);
process.exit(control.mine === control.n && !leaks.length ? 0 : 1);
