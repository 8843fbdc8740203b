/* SPDX-License-Identifier: MIT */
// Shared by the ajv tests: command-line flags, ajv set-up, running contractc.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const DIALECTS = ['openai-strict', 'gemini', 'anthropic', 'llama-cpp'];

export function flags(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--') || i + 1 >= argv.length) throw new Error(`bad argument ${argv[i]}`);
    out[argv[i].slice(2)] = argv[++i];
  }
  return out;
}

// Ajv2020 in strict mode with ajv-formats (date, date-time).  Union types
// (`type: [T, "null"]`) are the portable form of a nullable scalar, so they
// are allowed explicitly; every other strict check stays on.
export function makeAjv(nodeModules) {
  if (!fs.existsSync(path.join(nodeModules, 'ajv'))) {
    console.log(`SKIP: ajv is not installed in ${nodeModules} (the dialects_node_setup test installs it)`);
    process.exit(77);
  }
  const require = createRequire(path.resolve(nodeModules, 'x.js'));
  const Ajv2020 = require('ajv/dist/2020').default;
  const addFormats = require('ajv-formats').default;
  // A fresh instance per call: schemas share $id values across runs.
  return () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: false });
    addFormats(ajv);
    return ajv;
  };
}

// Runs `contractc generate CONTRACT -o DIR --schema-dialect D...` and returns
// {portable, dialects: {D: file}, refused: [D...], contract: NAME}.
export function generate(contractc, contract, dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const args = ['generate', contract, '-o', dir];
  for (const d of DIALECTS) args.push('--schema-dialect', d);
  let stderr = '';
  try {
    execFileSync(contractc, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    stderr = String(e.stderr || '');
    if (e.status !== 1) throw new Error(`contractc generate ${contract} failed: ${stderr}`);
  }
  const files = fs.readdirSync(dir);
  const portable = files.find((f) => /^[a-z][a-z0-9_]*\.schema\.json$/.test(f));
  if (!portable) throw new Error(`contractc generate ${contract} wrote no schema: ${stderr}`);
  const name = portable.replace(/\.schema\.json$/, '');
  const dialects = {};
  const refused = [];
  for (const d of DIALECTS) {
    const f = `${name}.${d}.schema.json`;
    if (files.includes(f)) dialects[d] = path.join(dir, f);
    else refused.push(d);
  }
  return { name, portable: path.join(dir, portable), dialects, refused, stderr };
}
