#!/usr/bin/env node
// Checks every vector file under ../protocol/src/test/resources/vectors/<source>/ against the vector file format:
//   {"source":"js-1.0"|"js-0.3"|"java-0.3","version":"1.0"|"0.3","type":T,"description":"…","json":<value>}
// Prints counts per source and type; exits 1 on the first malformed file.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../protocol/src/test/resources/vectors');
const TYPES = new Set(['message', 'task', 'sendResult', 'streamEvent', 'sendParams', 'taskQuery', 'listTasksParams',
  'listTasksResult', 'card', 'error', 'request', 'response']);
const VERSION_OF = { 'js-1.0': '1.0', 'js-0.3': '0.3', 'java-0.3': '0.3' };
const KEYS = ['source', 'version', 'type', 'description', 'json'];

let failures = 0;
const fail = (file, why) => { failures++; process.stderr.write(`${file}: ${why}\n`); };

for (const source of fs.readdirSync(ROOT).sort()) {
  const dir = path.join(ROOT, source);
  if (!fs.statSync(dir).isDirectory()) continue;
  const counts = {};
  let n = 0;
  for (const f of fs.readdirSync(dir).sort()) {
    const file = path.join(source, f);
    if (!f.endsWith('.json')) { fail(file, 'not a .json file'); continue; }
    let v;
    try { v = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')); } catch (e) { fail(file, `invalid JSON: ${e.message}`); continue; }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) { fail(file, 'not an object'); continue; }
    const keys = Object.keys(v);
    if (keys.length !== KEYS.length || !KEYS.every((k) => k in v)) fail(file, `keys ${keys.join(',')}`);
    if (!(source in VERSION_OF)) fail(file, `unknown source folder ${source}`);
    if (v.source !== source) fail(file, `source ${v.source} != folder ${source}`);
    if (v.version !== VERSION_OF[source]) fail(file, `version ${v.version}`);
    if (!TYPES.has(v.type)) fail(file, `type ${v.type}`);
    if (typeof v.description !== 'string' || !v.description) fail(file, 'description');
    if (v.json === undefined) fail(file, 'json missing');
    const isObj = typeof v.json === 'object' && v.json !== null && !Array.isArray(v.json);
    if (!isObj) fail(file, 'json is not an object');
    if (isObj && v.type === 'error' && typeof v.json.code !== 'number') fail(file, 'error without numeric code');
    if (isObj && (v.type === 'request' || v.type === 'response') && v.json.jsonrpc !== '2.0') fail(file, 'envelope without jsonrpc 2.0');
    const kindExpected = v.version === '0.3' && ['message', 'task', 'sendResult', 'streamEvent'].includes(v.type);
    if (isObj && kindExpected && typeof v.json.kind !== 'string') fail(file, '0.3 object without kind');
    if (isObj && v.version === '1.0' && JSON.stringify(v.json).includes('"kind":')) fail(file, '1.0 JSON contains kind');
    counts[v.type] = (counts[v.type] ?? 0) + 1;
    n++;
  }
  process.stdout.write(`${source}: ${n} vectors ${JSON.stringify(counts)}\n`);
}
if (failures) {
  process.stderr.write(`${failures} problem(s)\n`);
  process.exit(1);
}
