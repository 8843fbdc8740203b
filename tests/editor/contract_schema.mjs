/* SPDX-License-Identifier: MIT */
// The editor schema of a contract (docs/contract.schema.json, draft-07, for
// yaml-language-server) against `contractc lint`, the loader's own verdict.
//
//   node contract_schema.mjs --node-modules DIR --contractc EXE --root SRC --work DIR
//
//   0. The schema's key lists are the loader's: every list of names in
//      generator/parse_yaml.c (top-level keys, field keys and which type
//      takes which, rule kinds and their keys, reply, source, schema, the
//      built-in types, ops, dialects) equals the schema's, so a key added
//      to the loader fails here until the schema has it.
// Each contract is read as yaml-language-server reads it: the `yaml`
// package, YAML 1.2 core schema, duplicate keys an error; then ajv (draft-07,
// strict, every error) checks it against the schema.
//   1. Every contract under examples/ and tests/data/, and every ```yaml
//      block of README.md and docs/*.md that is a contract, that lint
//      accepts is valid against the schema; so is every contract under
//      tests/editor/valid/ (every key; scalars the loader reads as text),
//      which lint must accept.
//   2. Every contract under tests/editor/invalid/ is rejected by lint and
//      flagged by the schema (not by the YAML reader), with the error its
//      first line names: "# schema: KEYWORD at /instance/path".
//   3. Agreement: a corpus contract lint rejects and the schema accepts is
//      a disagreement; each of its lint errors must fall in a named class of
//      errors a schema cannot see (CLASSES below).  An error in no class
//      fails the test: the schema should catch it, or the class be named;
//      so does a structural error (STRUCTURAL: a key, a kind, a type, a
//      value outside its list) in a contract the schema accepts.
// Prints "N valid contracts accepted, M invalid flagged" and the
// disagreements by class.
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { flags } from '../schema/lib.mjs';

const opt = flags(process.argv.slice(2));
for (const k of ['node-modules', 'contractc', 'root', 'work'])
  if (!opt[k]) throw new Error(`--${k} is required`);
if (!fs.existsSync(path.join(opt['node-modules'], 'ajv')) ||
    !fs.existsSync(path.join(opt['node-modules'], 'yaml'))) {
  console.log(`SKIP: ajv or yaml is not installed in ${opt['node-modules']} (the dialects_node_setup test installs them)`);
  process.exit(77);
}
const require = createRequire(path.resolve(opt['node-modules'], 'x.js'));
const Ajv = require('ajv').default; // draft-07
const YAML = require('yaml');

const root = opt.root;
const schema = JSON.parse(fs.readFileSync(path.join(root, 'docs/contract.schema.json'), 'utf8'));
// strict: unknown keywords, ignored keywords and type mix-ups in the schema
// are errors; enumDescriptions is yaml-language-server's completion text.
// strictRequired is off: `required` inside `if` and `oneOf` names keys the
// enclosing schema's `properties` define.
const ajv = new Ajv({ strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true });
ajv.addKeyword({ keyword: 'enumDescriptions', schemaType: 'array' });
const validate = ajv.compile(schema);

// Named classes of lint errors a JSON Schema cannot see.  Each is a
// regular expression over lint's message (after "error: ").
const CLASSES = [
  ['YAML features the loader refuses (anchors, aliases, tags, merge keys)',
    /^(anchors|aliases|tags) \(|^merge keys/],
  ['encoding of the file (UTF-8, BOM, NUL, control characters)',
    /byte order mark|a contract is UTF-8 text|the character U\+|NUL character|UTF-16/],
  ['size and depth limits (YAML nodes, nesting, expansion, DFA states)',
    /YAML nodes, the limit|nests more than \d+|expands to|DFA states|work units/],
  ['cross references (named types, rule fields, type cycles, source)',
    /unknown type '|names unknown field|not a field of this object|reaches itself|has no 'source'/],
  ['rule operands against their fields (types, scales, nullability)',
    /^rule '[^']*': (compare takes|a sum adds|'equals' is|the operands of a sum|'[^']*' and '[^']*' differ|[a-z_]+ takes nullable)|^rule '[^']*' (names field '[^']*' twice|compares )/],
  ['names that can never be generated (reserved C names, collisions)',
    /reserved|collide|is a C keyword|is a type of <|is a macro|shadow|would not compile|choose another (name|c_name)|has no C constant/],
  ['patterns (syntax and the supported subset)', /invalid pattern|pattern not compiled/],
  ['values against other values (min above max, tolerance, example, max_depth)',
    /is not a valid value|fraction digits|is greater than|tolerance is in the operands|max_depth/],
  ['uniqueness the schema cannot see (rule ids)', /duplicate rule id|is already the id/],
];

// Structural errors: a key, a value's kind or type, a value outside its
// list or range.  The schema must flag every contract with one of these.
const STRUCTURAL = /^unknown key |^missing key |expects (a|an|true) |is not valid (for|on|in) |^'fence' is |^unknown operator |^unknown schema dialect |must be between |^duplicate key |^invalid (field|type|contract) name |needs 'fields'|needs at least|needs one of|exactly one kind|an array needs 'items'|is a built-in type|^a contract is a YAML mapping|^a rule is a mapping|^field '[^']*' expects a mapping/;

function lint(file) {
  const r = spawnSync(opt.contractc, ['lint', file], { encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`contractc lint ${file}: exit ${r.status}: ${r.stderr}`);
  const errors = [];
  for (const line of r.stderr.split('\n')) {
    const m = /: error: (.*)$/.exec(line);
    if (m) errors.push(m[1]);
  }
  if (r.status === 1 && errors.length === 0)
    throw new Error(`contractc lint ${file}: exit 1 without an error line: ${r.stderr}`);
  return { accepted: r.status === 0, errors };
}

// {yaml: [messages], schema: [ajv errors]}: what an editor with
// yaml-language-server would flag.
function editorCheck(file) {
  const text = new TextDecoder('utf-8').decode(fs.readFileSync(file));
  const doc = YAML.parseDocument(text, { version: '1.2', uniqueKeys: true });
  const yaml = doc.errors.map((e) => e.message.split('\n')[0]);
  if (yaml.length) return { yaml, schema: [] };
  let value;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return { yaml: [String(e.message)], schema: [] };
  }
  const ok = validate(value);
  return { yaml: [], schema: ok ? [] : validate.errors.slice() };
}

function contractsUnder(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...contractsUnder(p));
    else if (/\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

const rel = (f) => path.relative(root, f);
const failures = [];

// 0: the loader's lists of names against the schema's.
function loaderLists(src) {
  const lists = {};
  const byFirst = { of: 'sum', left: 'compare', function: 'check', name: 'source', fence: 'reply',
    dialect: 'schema' };
  for (const m of src.matchAll(/static const char \*const (\w+)\[[^\]]*\] = \{([^}]*)\}/g)) {
    const items = [...m[2].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((x) => x[1]);
    const name = m[1] === 'names' ? byFirst[items[0]] ?? `names starting '${items[0]}'` : m[1];
    if (lists[name]) throw new Error(`parse_yaml.c: two lists read as '${name}'`);
    lists[name] = items;
  }
  const t = /field_key_types\[FK_COUNT\] = \{([^}]*)\}/.exec(src);
  if (!t) throw new Error('parse_yaml.c: no field_key_types table');
  const keyTypes = t[1].replace(/\/\*[\s\S]*?\*\//g, '').split(',').map((x) => x.trim()).filter(Boolean)
    .map((e) => (e === '0' ? null : [...e.matchAll(/CONTRACTC_TYPE_(\w+)/g)].map((x) => x[1].toLowerCase())));
  return { lists, keyTypes };
}
const same = (a, b) => JSON.stringify([...new Set(a)].sort()) === JSON.stringify([...new Set(b)].sort());
{
  const { lists, keyTypes } = loaderLists(fs.readFileSync(path.join(root, 'generator/parse_yaml.c'), 'utf8'));
  const d = schema.definitions;
  const rule = d.rule.properties;
  const keys = (o) => Object.keys(o.properties);
  const perType = {};
  for (const b of d.byType.allOf) {
    const t = b.if.properties.type;
    for (const name of t.const ? [t.const] : t.enum ?? []) perType[name] = b.then.propertyNames.enum;
  }
  const fk = lists.field_keys ?? [];
  if (keyTypes.length !== fk.length) failures.push('parse_yaml.c: field_key_types and field_keys differ in length');
  const checks = [
    ['top_keys', keys(schema), lists.top_keys],
    ['source', keys(schema.properties.source), lists.source],
    ['reply', keys(schema.properties.reply), lists.reply],
    ['schema', keys(schema.properties.schema), lists.schema],
    ['dialects', schema.properties.schema.properties.dialect.enum, lists.dialects],
    ['builtin_types', d.builtinType.enum, lists.builtin_types],
    ['builtin_types (key_type)', d.key_type.anyOf[0].enum, lists.builtin_types],
    ['object_keys + enum_keys', keys(d.namedType), [...(lists.object_keys ?? []), ...(lists.enum_keys ?? [])]],
    ['field_keys', keys(d.field), fk],
    ['field_keys of items', keys(d.items), fk.filter((k) => !['description', 'format_text', 'example', 'nullable', 'optional', 'c_name'].includes(k))],
    ['rule_keys', Object.keys(rule), lists.rule_keys],
    ['rule kinds', d.rule.oneOf.map((x) => x.required[0]), (lists.rule_keys ?? []).filter((k) => k !== 'id' && k !== 'prompt')],
    ['sum', keys(rule.sum), lists.sum],
    ['compare', keys(rule.compare), lists.compare],
    ['check', keys(rule.check), lists.check],
    ['ops', rule.compare.properties.op.enum, lists.ops],
  ];
  for (const t of lists.builtin_types ?? []) {
    // the keys field_key_types gives type t; an object or array takes no example
    const want = fk.filter((k, i) => (keyTypes[i] === null || keyTypes[i].includes(t)) &&
      !(k === 'example' && (t === 'object' || t === 'array' || t === 'map')));
    checks.push([`keys of type ${t}`, perType[t] ?? [], want]);
  }
  const named = d.byType.allOf.find((b) => b.if.properties.type.not);
  checks.push(['keys of a named type reference', named ? named.then.propertyNames.enum : [],
    fk.filter((k, i) => keyTypes[i] === null)]);
  for (const [what, got, want] of checks) {
    if (!want) failures.push(`parse_yaml.c: no list found for ${what}`);
    else if (!same(got, want))
      failures.push(`schema and parse_yaml.c differ in ${what}: schema [${got}], loader [${want}]`);
  }
  console.log(`key lists: ${checks.length} lists of the schema compared with generator/parse_yaml.c`);
}

// The contracts the documentation shows: ```yaml blocks with a top-level
// `contract:` key, each written to the work directory as DOC-N.yaml.
function documentedContracts() {
  const out = [];
  fs.rmSync(opt.work, { recursive: true, force: true });
  fs.mkdirSync(opt.work, { recursive: true });
  const docs = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)];
  for (const doc of docs) {
    const text = fs.readFileSync(path.join(root, doc), 'utf8');
    let n = 0;
    for (const m of text.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)) {
      if (!/^contract:/m.test(m[1])) continue;
      const f = path.join(opt.work, `${doc.replace(/[/.]/g, '_')}-${++n}.yaml`);
      fs.writeFileSync(f, m[1]);
      out.push(f);
    }
  }
  return out;
}

// 1 and 3: the corpus.
const documented = documentedContracts();
const valid = contractsUnder(path.join(root, 'tests/editor/valid'));
const corpus = [...valid, ...contractsUnder(path.join(root, 'examples')),
  ...contractsUnder(path.join(root, 'tests/data')), ...documented];
let accepted = 0, lintAccepted = 0, rejectedFlagged = 0, rejectedByYaml = 0;
const disagreements = new Map(); // class -> [file]
for (const f of corpus) {
  const l = lint(f);
  const e = editorCheck(f);
  const flagged = e.yaml.length > 0 || e.schema.length > 0;
  if (valid.includes(f) && !l.accepted)
    failures.push(`${rel(f)}: lint rejects it (${l.errors[0]}); tests/editor/valid/ holds valid contracts`);
  if (l.accepted) {
    lintAccepted++;
    if (flagged)
      failures.push(`${rel(f)}: lint accepts it, the schema flags it: ${
        e.yaml.length ? e.yaml[0] : ajv.errorsText(e.schema)}`);
    else
      accepted++;
    continue;
  }
  if (flagged) {
    if (process.env.CONTRACTC_EDITOR_VERBOSE)
      console.log(`flagged ${rel(f)}\n  lint:   ${l.errors[0]}\n  editor: ${
        e.yaml.length ? e.yaml[0] : ajv.errorsText(e.schema.slice(0, 2))}`);
    rejectedFlagged++;
    if (!e.schema.length) rejectedByYaml++;
    continue;
  }
  for (const msg of l.errors) {
    if (STRUCTURAL.test(msg)) {
      failures.push(`${rel(f)}: lint finds a structural error the schema does not flag: ${msg}`);
      continue;
    }
    const c = CLASSES.find(([, re]) => re.test(msg));
    if (!c) {
      failures.push(`${rel(f)}: lint error in no named class, not flagged by the schema: ${msg}`);
      continue;
    }
    if (!disagreements.has(c[0])) disagreements.set(c[0], new Set());
    disagreements.get(c[0]).add(rel(f));
  }
}

// 2: the invalid contracts.
const invalidDir = path.join(root, 'tests/editor/invalid');
const invalid = contractsUnder(invalidDir);
let invalidFlagged = 0;
for (const f of invalid) {
  const first = fs.readFileSync(f, 'utf8').split('\n')[0];
  const m = /^# schema: (\S+) at (\S*)$/.exec(first);
  if (!m) {
    failures.push(`${rel(f)}: the first line does not say "# schema: KEYWORD at /path"`);
    continue;
  }
  const [, keyword, at] = m;
  const instancePath = at === '/' ? '' : at;
  const l = lint(f);
  const e = editorCheck(f);
  if (l.accepted) failures.push(`${rel(f)}: lint accepts it; an invalid contract must be invalid`);
  if (e.yaml.length) {
    failures.push(`${rel(f)}: the YAML reader refuses it (${e.yaml[0]}); it must reach the schema`);
    continue;
  }
  if (!e.schema.length) {
    failures.push(`${rel(f)}: the schema accepts it; lint says: ${l.errors.join(' | ')}`);
    continue;
  }
  if (!e.schema.some((x) => x.keyword === keyword && x.instancePath === instancePath)) {
    failures.push(`${rel(f)}: no '${keyword}' error at '${at}'; the schema says: ${ajv.errorsText(e.schema)}`);
    continue;
  }
  invalidFlagged++;
}
if (invalid.length < 20) failures.push(`only ${invalid.length} invalid contracts under tests/editor/invalid`);

console.log(`corpus: ${corpus.length} contracts (${corpus.length - documented.length - valid.length} under examples/ and tests/data/, ${documented.length} in README.md and docs/, ${valid.length} under tests/editor/valid/)`);
console.log(`${accepted} valid contracts accepted, ${invalidFlagged} invalid flagged (of ${invalid.length} under tests/editor/invalid/)`);
console.log(`lint-rejected corpus contracts: ${corpus.length - lintAccepted} ` +
  `(${rejectedFlagged} flagged, ${rejectedByYaml} of them by the YAML reader alone)`);
const disagreeFiles = new Set();
for (const v of disagreements.values()) for (const f of v) disagreeFiles.add(f);
console.log(`disagreements (lint rejects, the schema accepts): ${disagreeFiles.size} contracts; their errors by class:`);
for (const [c] of CLASSES) {
  const files = disagreements.get(c);
  if (files) console.log(`  ${c}: ${files.size} (${[...files].map((x) => path.basename(x)).join(', ')})`);
}
if (failures.length) {
  for (const x of failures) console.log(`FAIL ${x}`);
  process.exit(1);
}
console.log('PASS');
