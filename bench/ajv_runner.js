/* SPDX-License-Identifier: MIT */
// ajv_runner.js - the ajv runner of contractc's benchmark: JSON.parse and an
// ajv 8 validator compiled from the generated draft 2020-12 schema.
//
//   node ajv_runner.js MODE CONTRACT SCHEMA_JSON CORPUS [SECONDS]
//
// MODE: time | verdicts (output as bench_c's, see bench_c.c).
//
// A JSON Schema cannot say "occurs verbatim in the email" or "the line
// items add up to the total", and the generated schema leaves out
// contractc's rules, so this runner adds three custom keywords to the
// schema it loads (the careful node developer's equivalent of the
// generated checks): x-grounded (amount_text occurs in the reply's source
// text; an empty value never does), x-all-or-none (refund's rule) and
// x-sum (invoice: the line items' amount_cents add up to the total within
// the tolerance).  Every reply of the corpora can thus be decided by ajv;
// the benchmark checks that its verdicts equal contractc's, reply by reply.
//
// Replies are turned into JS strings at load time (a node service gets a
// string from its HTTP client); the timed part is JSON.parse + validate.
'use strict';
const fs = require('fs');
const Ajv2020 = require('ajv/dist/2020').default;

const [mode, contract, schemaPath, corpusPath, secondsArg] = process.argv.slice(2);
if (!mode || !contract || !schemaPath || !corpusPath) {
  console.error('usage: node ajv_runner.js time|verdicts CONTRACT SCHEMA_JSON CORPUS [SECONDS]');
  process.exit(2);
}
const seconds = secondsArg ? Number(secondsArg) : 0.3;

// ---- the corpus (format: bench/corpus.h) ----
function readCorpus(path) {
  const buf = fs.readFileSync(path);
  const items = [];
  let at = 0, bytes = 0;
  while (at < buf.length) {
    const nl = buf.indexOf(10, at);
    const [intent, rl, sl] = buf.toString('latin1', at, nl).split(' ').map(Number);
    at = nl + 1;
    items.push({
      reply: buf.toString('utf8', at, at + rl),
      source: sl ? buf.toString('utf8', at + rl, at + rl + sl) : null,
      intent,
    });
    bytes += rl;
    at += rl + sl + 1;
  }
  return { items, bytes };
}

// ---- the validator ----
let currentSource = null; // the reply's source text, for x-grounded
const ajv = new Ajv2020({ strict: false, allErrors: false });
ajv.addKeyword({
  keyword: 'x-grounded',
  schemaType: 'boolean',
  errors: false,
  validate: (on, data) => !on || data === null ||
    (typeof data === 'string' && data.length > 0 && currentSource !== null &&
     currentSource.includes(data)),
});
ajv.addKeyword({
  keyword: 'x-all-or-none',
  type: 'object',
  schemaType: 'array',
  errors: false,
  validate: (fields, data) => {
    let set = 0;
    for (const f of fields) if (data[f] !== null && data[f] !== undefined) set++;
    return set === 0 || set === fields.length;
  },
});
ajv.addKeyword({
  keyword: 'x-sum',
  type: 'object',
  schemaType: 'object',
  errors: false,
  validate: (rule, data) => {
    const items = data[rule.array], total = data[rule.total];
    if (!Array.isArray(items) || typeof total !== 'number') return true; // other keywords decide
    let sum = 0;
    for (const it of items) {
      if (it === null || typeof it !== 'object' || typeof it[rule.item] !== 'number') return true;
      sum += it[rule.item];
    }
    return Math.abs(sum - total) <= rule.tolerance;
  },
});

const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
if (contract === 'refund') {
  schema.properties.amount_text['x-grounded'] = true;
  schema['x-all-or-none'] = ['amount', 'currency', 'amount_text'];
} else if (contract === 'invoice') {
  schema['x-sum'] = { array: 'line_items', item: 'amount_cents', total: 'invoice_total_cents', tolerance: 1 };
}
const validate = ajv.compile(schema);

function runOne(r) {
  currentSource = r.source;
  let data;
  try {
    data = JSON.parse(r.reply);
  } catch (e) {
    return false;
  }
  return validate(data);
}

function pass(items) {
  let ok = 0;
  for (let i = 0; i < items.length; i++) if (runOne(items[i])) ok++;
  return ok;
}

const corpus = readCorpus(corpusPath);
if (mode === 'verdicts') {
  process.stdout.write(corpus.items.map((r) => (runOne(r) ? '1' : '0')).join('') + '\n');
} else if (mode === 'time') {
  pass(corpus.items); pass(corpus.items); // warm-up: let the JIT settle
  const times = [];
  const start = process.hrtime.bigint();
  while (times.length < 5 || Number(process.hrtime.bigint() - start) < seconds * 1e9) {
    const t0 = process.hrtime.bigint();
    pass(corpus.items);
    times.push(Number(process.hrtime.bigint() - t0));
  }
  times.sort((a, b) => a - b);
  const n = times.length;
  const m = n % 2 ? times[(n - 1) / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  console.log(`ns_per_reply=${(m / corpus.items.length).toFixed(1)} mb_per_s=${(corpus.bytes / m * 1e3).toFixed(1)} ` +
              `passes=${n} replies=${corpus.items.length} bytes=${corpus.bytes}`);
} else {
  console.error(`ajv_runner: unknown mode ${mode}`);
  process.exit(2);
}
