// SPDX-License-Identifier: MIT
// lib.mjs: what oracle.mjs and exactness.mjs share.  Arguments (of the
// script that imports it): CONTRACTC SRC_DIR WORK_DIR [CORPUS_DIR GEN_CORPUS
// [GROUNDED_TOOL]].
// llama.cpp's engine (node-llama-cpp 3.21.1, CPU build, from WORK_DIR), a
// seeded random source, a reader and random walker of the GBNF subset
// contractc writes, the parser's verdict (`contractc validate --json`), the
// classes a grammar's notes excuse, and the contracts and reply corpora.
import fs from "node:fs";
import path from "node:path";
import {spawnSync} from "node:child_process";

export const [contractc, src, work, corpusDir, genCorpus, groundedTool] = process.argv.slice(2);
// the bench corpora (bench/gen_corpus.c, seed 7, a hundredth of their size)
if (corpusDir && genCorpus && !fs.existsSync(path.join(corpusDir, "refund.corpus"))) {
    // made aside and renamed into place: oracle and exactness may run at once
    const tmp = fs.mkdtempSync(corpusDir + "-tmp-");
    const r = spawnSync(genCorpus, ["7", tmp, "100"], {encoding: "utf8"});
    if (r.status !== 0) throw new Error(`gen_corpus: ${r.stderr}`);
    try { fs.renameSync(tmp, corpusDir); } catch { fs.rmSync(tmp, {recursive: true, force: true}); }
}
export const {getLlama} = await import(path.join(work, "node_modules/node-llama-cpp/dist/index.js"));
export const llama = await getLlama({gpu: false, build: "never", logLevel: "error"});
fs.mkdirSync(work, {recursive: true});

let seed = 0x2545F491n;
export function rand() { // xorshift64*, deterministic
    seed ^= seed >> 12n; seed ^= (seed << 25n) & 0xFFFFFFFFFFFFFFFFn; seed ^= seed >> 27n;
    return Number(((seed * 0x2545F4914F6CDD1Dn) & 0xFFFFFFFFFFFFFFFFn) >> 11n) / 2 ** 53;
}
export const pick = (n) => Math.floor(rand() * n);

// ---- a GBNF reader (the subset contractc writes) and a random walker ----
export function parseGbnf(text) {
    const rules = new Map();
    let i = 0;
    const ws = () => { while (i < text.length && /[ \t\r\n]/.test(text[i])) i++; };
    const isName = (c) => /[A-Za-z0-9-]/.test(c);
    function esc() { // after a backslash
        const c = text[i++];
        const hex = (n) => { const v = parseInt(text.slice(i, i + n), 16); i += n; return v; };
        if (c === "x") return hex(2);
        if (c === "u") return hex(4);
        if (c === "U") return hex(8);
        return {n: 10, t: 9, r: 13}[c] ?? c.codePointAt(0);
    }
    function cp() { const v = text.codePointAt(i); i += v > 0xFFFF ? 2 : 1; return v; }
    function primary() {
        ws();
        const c = text[i];
        if (c === '"') {
            i++;
            let s = "";
            while (text[i] !== '"') s += String.fromCodePoint(text[i] === "\\" ? (i++, esc()) : cp());
            i++;
            return {k: "lit", s};
        }
        if (c === "[") {
            i++;
            const neg = text[i] === "^";
            if (neg) i++;
            const ranges = [];
            while (text[i] !== "]") {
                const lo = text[i] === "\\" ? (i++, esc()) : cp();
                let hi = lo;
                if (text[i] === "-" && text[i + 1] !== "]") { i++; hi = text[i] === "\\" ? (i++, esc()) : cp(); }
                ranges.push([lo, hi]);
            }
            i++;
            return {k: "cls", neg, ranges};
        }
        if (c === "(") { i++; const e = alts(); ws(); i++; return e; }
        let name = "";
        while (i < text.length && isName(text[i])) name += text[i++];
        return {k: "ref", name};
    }
    function postfix() {
        let e = primary();
        for (;;) {
            const c = text[i];
            if (c === "?") { i++; e = {k: "rep", e, min: 0, max: 1}; }
            else if (c === "*") { i++; e = {k: "rep", e, min: 0, max: Infinity}; }
            else if (c === "+") { i++; e = {k: "rep", e, min: 1, max: Infinity}; }
            else if (c === "{") {
                const m = /^\{(\d+)(,(\d*))?\}/.exec(text.slice(i));
                i += m[0].length;
                const min = +m[1], max = m[2] === undefined ? min : m[3] === "" ? Infinity : +m[3];
                e = {k: "rep", e, min, max};
            } else return e;
        }
    }
    function seq() {
        const items = [];
        for (;;) {
            const save = i;
            ws();
            const c = text[i];
            if (i >= text.length || c === "|" || c === ")") { break; }
            // the next rule's head: NAME ::=
            const m = /^[A-Za-z0-9-]+\s*::=/.exec(text.slice(i));
            if (m && (save === 0 || /\n/.test(text.slice(save, i)))) { i = save; break; }
            items.push(postfix());
        }
        return {k: "seq", items};
    }
    function alts() {
        const list = [seq()];
        for (;;) { ws(); if (text[i] !== "|") return {k: "alt", list}; i++; list.push(seq()); }
    }
    for (;;) {
        ws();
        if (i >= text.length) break;
        const m = /^([A-Za-z0-9-]+)\s*::=/.exec(text.slice(i));
        if (!m) throw new Error("cannot read the grammar at " + text.slice(i, i + 40));
        i += m[0].length;
        rules.set(m[1], alts());
    }
    return rules;
}

export const POOL = [];
for (let c = 0x20; c < 0x7F; c++) POOL.push(c);
POOL.push(0x7F, 0xE9, 0xFC, 0x20AC, 0x65E5, 0x2028, 0x1F600, 0xFFFD);
export function inRanges(r, c) { return r.some(([a, b]) => c >= a && c <= b); }

export function walk(rules, e, out, depth) {
    if (out.len > 6000 || depth > 400) throw new Error("too long");
    switch (e.k) {
    case "lit": out.s += e.s; out.len += e.s.length; return;
    case "cls": {
        let cands;
        if (e.neg) cands = POOL.filter((c) => !inRanges(e.ranges, c));
        else {
            const [a, b] = e.ranges[pick(e.ranges.length)];
            cands = [a + pick(Math.min(b - a + 1, 0x10000))].filter((c) => c < 0xD800 || c > 0xDFFF);
        }
        if (!cands.length) throw new Error("empty class");
        const c = cands[pick(cands.length)];
        out.s += String.fromCodePoint(c); out.len++;
        return;
    }
    case "ref": {
        if (e.name === "ws") { const n = rand() < 0.7 ? 0 : 1 + pick(3); for (let k = 0; k < n; k++) out.s += " \n\t\r"[pick(4)]; return; }
        walk(rules, rules.get(e.name), out, depth + 1);
        return;
    }
    case "rep": {
        const max = Math.min(e.max, e.min + 4);
        const n = e.min + pick(max - e.min + 1);
        for (let k = 0; k < n; k++) walk(rules, e.e, out, depth + 1);
        return;
    }
    case "seq": for (const x of e.items) walk(rules, x, out, depth + 1); return;
    case "alt": {
        // deep in a pattern's state rules, prefer an alternative that ends
        let list = e.list;
        if (depth > 60) { const end = list.filter((s) => s.items.every((x) => x.k === "lit")); if (end.length) list = end; }
        walk(rules, list[pick(list.length)], out, depth + 1);
        return;
    }
    }
}

// ---- the parser's verdict and the notes' classes ----
// scratch files of this process only (oracle and exactness may run at once)
export const scratch = fs.mkdtempSync(path.join(work, "scratch-"));
process.on("exit", () => fs.rmSync(scratch, {recursive: true, force: true}));
let fileNo = 0;
export function validate(contract, reply, source) {
    const rp = path.join(scratch, `reply-${fileNo}.json`), sp = path.join(scratch, `source-${fileNo++ % 4}.txt`);
    fs.writeFileSync(rp, reply);
    fs.writeFileSync(sp, source ?? "");
    const hasSource = /^source:/m.test(fs.readFileSync(contract, "utf8"));
    const r = spawnSync(contractc, ["validate", contract, rp, "--json", ...(hasSource ? ["--source", sp] : [])], {encoding: "utf8"});
    fs.unlinkSync(rp);
    if (r.status !== 0 && r.status !== 1) throw new Error(`validate ${contract}: ${r.stderr}`);
    return JSON.parse(r.stdout);
}
// A note's path ("$.items[*].x", "$.labels.*") as a pattern of problem
// paths: [*] any index, .* any key of a map (an identifier or a bracketed key).
function notePathPattern(notePath) {
    const esc = notePath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp("^" + esc.replace(/\\\[\\\*\\\]/g, "\\[\\d+\\]")
        .replace(/\\\.\\\*/g, "(?:\\.[A-Za-z_][A-Za-z0-9_]*|\\['(?:[^'\\\\]|\\\\.)*'\\])") + "$");
}
export function excusedBy(notes) {
    const lines = notes.split("\n").filter((l) => l && !l.startsWith("#"));
    const patterns = lines.map((l) => notePathPattern(l.slice(0, l.indexOf(": "))));
    return (problem) => {
        const p = problem.path.replace(/\[\d+\]/g, "[*]");
        const at = (words) => lines.some((l, i) => patterns[i].test(problem.path) &&
            words.some((w) => l.includes(w)));
        switch (problem.kind) {
        case "grounding": return at(["grounded"]);
        case "rule": return lines.some((l) => l.includes(": rule "));
        case "range": return at(["minimum", "maximum"]);
        case "length": return at(["length"]);
        case "items": return at(["_items"]);
        case "limit": return lines.some((l) => l.includes("max_bytes"));
        // a map's key written twice (v2): the note is on the map, the problem on its key
        case "duplicate": return lines.some((l) => l.includes("distinct keys") && p.startsWith(l.slice(0, l.indexOf(": "))));
        default: return false;
        }
    };
}

// ---- the contracts and their replies ----
export const contracts = [
    "examples/refund/refund_request.contract.yaml", "examples/invoice/invoice.contract.yaml",
    "examples/ticket/ticket.contract.yaml", "examples/codemap/codemap.contract.yaml",
    "examples/inbox/inbox_route.contract.yaml", "examples/agent/lookup_order.contract.yaml",
    "examples/agent/issue_refund.contract.yaml",
    "tests/data/contracts/refund_request.contract.yaml", "tests/data/contracts/invoice.contract.yaml",
    "tests/data/contracts/signup_form.contract.yaml",
    "tests/data/contracts/support_route.contract.yaml",
    "tests/data/contracts/sensor_log.contract.yaml",
    "tests/data/contracts/asset_tags.contract.yaml",
    "tests/data/contracts/api_capture.contract.yaml",
    "tests/data/contracts/flex_values.contract.yaml",
    "tests/data/differential/all_types.contract.yaml", "bench/contracts/repo_map.contract.yaml",
].map((c) => path.join(src, c));

export const replies = []; // {contract, reply (Buffer), source, from}
export function casesFile(file, dir) {
    if (!fs.existsSync(file)) return;
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
        if (!line.trim()) continue;
        const c = JSON.parse(line);
        const reply = c.reply_encoding === "base64" ? Buffer.from(c.reply, "base64") : Buffer.from(c.reply, "utf8");
        replies.push({contract: path.join(dir, `${c.contract}.contract.yaml`), reply, source: c.source_text, from: "cases"});
    }
}
casesFile(path.join(src, "tests/data/cases/replies.jsonl"), path.join(src, "tests/data/contracts"));
for (const ex of ["refund", "invoice", "codemap"]) {
    const dir = path.join(src, "examples", ex, "data");
    const contract = contracts.find((c) => c.includes(`examples/${ex}/`));
    for (const line of fs.readFileSync(path.join(dir, "cases.txt"), "utf8").split("\n")) {
        const [reply, source] = line.trim().split(/\s+/);
        if (!reply || reply.startsWith("#")) continue;
        replies.push({contract, reply: fs.readFileSync(path.join(dir, reply)),
                      source: source && source !== "-" && fs.existsSync(path.join(dir, source)) ? fs.readFileSync(path.join(dir, source), "utf8") : "", from: "examples"});
    }
}
export const regressions = path.join(src, "tests/data/differential/regressions");
for (const f of fs.readdirSync(regressions)) {
    const c = JSON.parse(fs.readFileSync(path.join(regressions, f), "utf8"));
    const name = f.split("-")[0];
    // by file name, not position: the list grows
    const contract = contracts.find((c) => c.endsWith(name === "all_types"
        ? "differential/all_types.contract.yaml" : "examples/refund/refund_request.contract.yaml"));
    replies.push({contract, reply: Buffer.from(c.reply, "base64"), source: c.source ?? "", from: "differential"});
}
export const CORPUS_SAMPLE = 25;
if (corpusDir && fs.existsSync(corpusDir)) {
    for (const [file, contract] of [["refund.corpus", "examples/refund/refund_request.contract.yaml"],
                                    ["invoice.corpus", "examples/invoice/invoice.contract.yaml"],
                                    ["repo_map.corpus", "bench/contracts/repo_map.contract.yaml"]]) {
        const p = path.join(corpusDir, file);
        if (!fs.existsSync(p)) continue;
        const buf = fs.readFileSync(p);
        const all = [];
        for (let at = 0; at < buf.length;) {
            const nl = buf.indexOf(10, at);
            const [, rl, sl] = buf.subarray(at, nl).toString().split(" ").map(Number);
            all.push({contract: path.join(src, contract), reply: buf.subarray(nl + 1, nl + 1 + rl),
                      source: buf.subarray(nl + 1 + rl, nl + 1 + rl + sl).toString(), from: "bench"});
            at = nl + 1 + rl + sl + 1;
        }
        for (let k = 0; k < CORPUS_SAMPLE && all.length; k++) replies.push(all[pick(all.length)]);
    }
}

export function fuzz(text) {
    const alphabet = ['"', "\\", ",", "0", "9", "-", ".", "e", " ", "x", "{", "}", "[", "]", "null", "é", ":"];
    let s = text;
    const n = 1 + pick(2);
    for (let k = 0; k < n; k++) {
        const at = pick(s.length + 1);
        const op = pick(3);
        if (op === 0) s = s.slice(0, at) + s.slice(at + 1);
        else if (op === 1) s = s.slice(0, at) + alphabet[pick(alphabet.length)] + s.slice(at);
        else s = s.slice(0, at) + alphabet[pick(alphabet.length)] + s.slice(at + 1);
    }
    return s;
}
