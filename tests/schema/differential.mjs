/* SPDX-License-Identifier: MIT */
// Issue 6 parts 3 and 4: the differential test of the generated C parser
// against ajv (Ajv2020 strict + ajv-formats) on the portable 2020-12 schema.
//
// The C runner (tests/e2e/dialect_diff.c) writes one JSON line per reply: its
// construction class and deliberate-difference tag, the parser's verdict,
// the reply bytes.  Here every reply goes through what a JavaScript client
// does with a response body -- WHATWG "UTF-8 decode" (as Response.json():
// a BOM is stripped, invalid bytes become U+FFFD), JSON.parse, then ajv --
// and the verdicts are compared:
//   agree         same verdict;
//   deliberate    different verdicts, explained by the reply's tag, in the
//                 tag's direction (the parser rejects and ajv accepts; for
//                 `fence` the parser accepts and JSON.parse refuses);
//   disagree      anything else: the test fails and the reply is saved as a
//                 regression case.
// Part 4: every reply the parser accepts (its canonical JSON) must be valid
// against the portable schema and every dialect schema (looser, never
// stricter).
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { flags, makeAjv, generate } from './lib.mjs';

const opt = flags(process.argv.slice(2));
const newAjv = makeAjv(opt['node-modules']);
const count = Number(opt.count || 10000);
const g = generate(opt.contractc, opt.contract, opt.work);
const load = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));
const portable = newAjv().compile(load(g.portable));
const dialects = Object.entries(g.dialects).map(([d, f]) => [d, newAjv().compile(load(f))]);
if (g.refused.length) console.log(`note: dialects refused for ${g.name}: ${g.refused.join(', ')}`);

const PARSER_ACCEPTS = new Set(['fence']);
const decoder = new TextDecoder('utf-8'); // fatal: false, BOM stripped

function ajvVerdict(bytes) {
  let value;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch (e) {
    return { ok: false, why: `JSON.parse: ${e.message}` };
  }
  const ok = portable(value);
  return { ok, why: ok ? '' : JSON.stringify(portable.errors) };
}

const stats = new Map(); // class -> {n, agree, deliberate: Map(tag -> n), disagree}
let total = 0, generated = 0, disagreements = 0, supersetFailures = 0, accepted = 0;
const saved = [];

function save(rec, bytes, why) {
  fs.mkdirSync(opt.failures, { recursive: true });
  const id = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const file = path.join(opt.failures, `${g.name}-${id}.json`);
  fs.writeFileSync(file, JSON.stringify({
    contract: g.name, class: rec.class, tag: rec.tag, where: rec.where, parser: rec.parser,
    kinds: rec.kinds, why, reply: rec.reply, pad: rec.pad, source: rec.source,
  }, null, 2) + '\n');
  saved.push(file);
}

const runner = spawn(opt.runner, ['--count', String(count), '--regressions', opt.regressions],
  { stdio: ['ignore', 'pipe', 'inherit'] });
const lines = readline.createInterface({ input: runner.stdout, crlfDelay: Infinity });
for await (const line of lines) {
  const rec = JSON.parse(line);
  const raw = Buffer.from(rec.reply, 'base64');
  // `pad` spaces follow the bytes (a reply over max_bytes).  JSON.parse
  // skips trailing white space (RFC 8259 ws) and a JavaScript client has
  // no size limit, so ajv's verdict is that of the bytes without them.
  const bytes = raw;
  const a = ajvVerdict(bytes);
  total++;
  if (rec.class !== 'regression') generated++;
  let s = stats.get(rec.class);
  if (!s) stats.set(rec.class, (s = { n: 0, agree: 0, deliberate: new Map(), disagree: 0 }));
  s.n++;
  if (a.ok === rec.parser) {
    s.agree++;
  } else if (rec.tag && (PARSER_ACCEPTS.has(rec.tag) ? rec.parser && !a.ok : !rec.parser && a.ok)) {
    s.deliberate.set(rec.tag, (s.deliberate.get(rec.tag) || 0) + 1);
  } else {
    s.disagree++;
    disagreements++;
    const why = `parser ${rec.parser ? 'accepts' : 'rejects (' + rec.kinds + ')'}, ajv ${a.ok ? 'accepts' : 'rejects: ' + a.why}`;
    if (disagreements <= 20) console.log(`DISAGREE #${rec.i} ${rec.class}${rec.tag ? '/' + rec.tag : ''} at ${rec.where}: ${why}\n  reply: ${JSON.stringify(raw.toString('utf8')).slice(0, 300)}`);
    save(rec, bytes, why);
  }
  if (rec.parser) {
    accepted++;
    const value = JSON.parse(rec.canonical);
    for (const [d, validate] of [['2020-12', portable], ...dialects]) {
      if (!validate(value)) {
        supersetFailures++;
        const why = `accepted by the parser but invalid against the ${d} schema: ${JSON.stringify(validate.errors)}`;
        if (supersetFailures <= 20) console.log(`STRICTER #${rec.i} ${rec.class}: ${why}\n  canonical: ${rec.canonical.slice(0, 300)}`);
        save(rec, bytes, why);
      }
    }
  }
}
const code = await new Promise((resolve) => runner.on('close', resolve));
if (code !== 0) {
  console.log(`FAIL: the runner exited with ${code}`);
  process.exit(1);
}

// The table: per class, its share and the three outcomes.
const pad = (s, n) => String(s).padEnd(n);
console.log(`\ndifferential ${g.name}: ${total} replies (${generated} generated, ${total - generated} regression cases), parser vs Ajv2020 on ${path.basename(g.portable)}`);
console.log(`${pad('class', 18)}${pad('replies', 9)}${pad('share', 8)}${pad('agree', 8)}${pad('disagree', 10)}deliberate difference (by tag)`);
const problems = [];
for (const [cls, s] of [...stats.entries()].sort()) {
  const share = generated ? (100 * s.n) / generated : 0;
  const deliberate = [...s.deliberate.entries()].map(([t, n]) => `${t} ${n}`).join(', ') || '-';
  console.log(`${pad(cls, 18)}${pad(s.n, 9)}${pad(cls === 'regression' ? '-' : share.toFixed(1) + '%', 8)}${pad(s.agree, 8)}${pad(s.disagree, 10)}${deliberate}`);
  if (cls !== 'regression' && share < 2) problems.push(`class ${cls} is ${share.toFixed(2)}% of the replies (under 2%)`);
}
console.log(`accepted by the parser: ${accepted}; each valid against the 2020-12 schema and the ${dialects.length} dialect schemas (${dialects.map(([d]) => d).join(', ')}): ${accepted * (1 + dialects.length) - supersetFailures}/${accepted * (1 + dialects.length)} checks`);
if (generated < 10000 && count >= 10000) problems.push(`only ${generated} replies generated (at least 10,000 wanted)`);
if (disagreements) problems.push(`${disagreements} disagreements outside the deliberate differences`);
if (supersetFailures) problems.push(`${supersetFailures} accepted replies invalid against a schema (a schema stricter than the parser)`);
if (saved.length) console.log(`saved ${saved.length} replies under ${opt.failures}; keep one as a regression case with: cp FILE ${opt.regressions}/`);
for (const p of problems) console.log(`FAIL: ${p}`);
console.log(problems.length ? 'differential: FAILED' : `differential ${g.name}: disagree = 0`);
process.exit(problems.length ? 1 : 0);
