// JSON writing in a fresh process: the compiled writer of a response schema (checking, and
// not) beside JSON.stringify, and the router's two paths to bytes (check + JSON.stringify +
// Buffer.from, before; the writer + Buffer.from, now), batches interleaved.
//
// Input: a JSON file named by argv[2] (written by suites/writers.mjs). Output: one JSON line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { measureThroughput } from '../lib/loop.mjs';
import * as payloads from '../payloads.mjs';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));

async function main() {
  const generated = await import(pathToFileURL(path.join(config.validatorsDir, 'index.js')).href);
  const out = { ok: true, cases: [] };
  const timed = [];
  for (const c of config.cases) {
    const schema = generated.operations?.[c.operationId]?.responses?.[c.status]?.content?.[c.mediaType];
    const writer = schema?._zod?.bag?.bdsJsonWriter;
    if (typeof writer !== 'function') throw new Error(`${c.operationId} ${c.status} ${c.mediaType}: the schema has no compiled writer`);
    const payload = payloads[c.payload](...(c.payloadArgs ?? []));
    const text = writer(payload, true);
    if (text === undefined) throw new Error(`${c.id}: the writer leaves the payload to JSON.stringify`);
    if (!schema.validate(payload)) throw new Error(`${c.id}: the check refuses the payload`);
    // The same JSON value either way (the payload's members are not in schema order, so the text may differ in order only).
    if (JSON.stringify(JSON.parse(text)) !== text || JSON.parse(text).Data === undefined) throw new Error(`${c.id}: the writer's text is not JSON.stringify's`);
    out.cases.push({ id: c.id, writer: writer.name, payloadBytes: Buffer.byteLength(text) });
    timed.push(
      { id: `${c.id}:stringify`, fn: () => JSON.stringify(payload) !== undefined },
      { id: `${c.id}:write-checked`, fn: () => writer(payload, true) !== undefined },
      { id: `${c.id}:write-unchecked`, fn: () => writer(payload, false) !== undefined },
      { id: `${c.id}:router-before`, fn: () => schema.validate(payload) && Buffer.from(JSON.stringify(payload), 'utf8').byteLength > 0 },
      { id: `${c.id}:router-now`, fn: () => Buffer.from(writer(payload, true), 'utf8').byteLength > 0 },
    );
  }
  const results = new Map(measureThroughput(timed, config.loop).map((r) => [r.id, r]));
  for (const info of out.cases) {
    info.results = Object.fromEntries(['stringify', 'write-checked', 'write-unchecked', 'router-before', 'router-now'].map((k) => [k, results.get(`${info.id}:${k}`)]));
  }
  return out;
}

main().then(
  (out) => process.stdout.write(`${JSON.stringify(out)}\n`),
  (error) => {
    process.stdout.write(`${JSON.stringify({ ok: false, error: error instanceof Error ? error.message : String(error) })}\n`);
    process.exitCode = 1;
  },
);
