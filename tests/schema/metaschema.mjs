/* SPDX-License-Identifier: MIT */
// Issue 6 part 1: every schema contractc emits is valid against the draft
// 2020-12 meta-schema, checked with Ajv2020 in strict mode (+ ajv-formats):
// the golden files (tests/golden/*/*.schema.json, dialects included) and a
// fresh `contractc generate` of every test and example contract present now.
import fs from 'node:fs';
import path from 'node:path';
import { flags, makeAjv, generate } from './lib.mjs';

const opt = flags(process.argv.slice(2));
const newAjv = makeAjv(opt['node-modules']);
const files = [];
const golden = path.join(opt.root, 'tests', 'golden');
for (const d of fs.readdirSync(golden).sort()) {
  const dir = path.join(golden, d);
  if (!fs.statSync(dir).isDirectory()) continue;
  for (const f of fs.readdirSync(dir).sort())
    if (f.endsWith('.schema.json')) files.push(path.join(dir, f));
}
const contracts = [];
for (const sub of ['tests/data/contracts', 'tests/data/differential'])
  for (const f of fs.readdirSync(path.join(opt.root, sub)).sort())
    if (f.endsWith('.contract.yaml')) contracts.push(path.join(opt.root, sub, f));
const examples = path.join(opt.root, 'examples');
for (const d of fs.readdirSync(examples).sort()) {
  const dir = path.join(examples, d);
  if (!fs.statSync(dir).isDirectory()) continue;
  for (const f of fs.readdirSync(dir).sort())
    if (f.endsWith('.contract.yaml')) contracts.push(path.join(dir, f));
}
let n = 0;
for (const c of contracts) {
  const g = generate(opt.contractc, c, path.join(opt.work, String(n++)));
  files.push(g.portable, ...Object.values(g.dialects));
  if (g.refused.length) console.log(`note: ${path.relative(opt.root, c)}: dialects refused: ${g.refused.join(', ')}`);
}
let bad = 0;
for (const f of files) {
  const schema = JSON.parse(fs.readFileSync(f, 'utf8'));
  const ajv = newAjv();
  const rel = path.relative(opt.root, f).startsWith('..') ? path.basename(f) : path.relative(opt.root, f);
  if (!ajv.validateSchema(schema)) {
    bad++;
    console.log(`FAIL ${rel}: not valid against the 2020-12 meta-schema: ${ajv.errorsText(ajv.errors)}`);
    continue;
  }
  try {
    ajv.compile(schema); // strict mode: unknown keywords, ignored keywords, ...
  } catch (e) {
    bad++;
    console.log(`FAIL ${rel}: Ajv2020 strict mode refuses it: ${e.message}`);
    continue;
  }
  console.log(`ok   ${rel}`);
}
console.log(`meta-schema (draft 2020-12, Ajv2020 strict + ajv-formats): ${files.length - bad}/${files.length} schemas valid, from ${contracts.length} contracts and the golden files`);
process.exit(bad ? 1 : 0);
