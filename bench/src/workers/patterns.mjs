// Pattern matching in one fresh process: V8's RegExp beside the linear matcher of the
// generated validators, on attack inputs of growing size and on benign values; and the check
// function of a 100-transaction page with every routed pattern as generated ("after") and as
// plain RegExps ("before"), batches interleaved.
//
// Input: a JSON file named by argv[2] (written by suites/patterns.mjs). Output: one JSON line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { measureThroughput } from '../lib/loop.mjs';
import { loadOpenApi, responseComponent } from '../lib/openapi-ajv.mjs';
import * as payloads from '../payloads.mjs';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));

/** V8 stops growing once one call takes this long: the next size would take seconds or more. */
const V8_STOP_MS = 250;

/** Milliseconds per call: repeated until 20 ms have passed (once, when one call is slower). */
function perCall(fn) {
  let calls = 0;
  const start = performance.now();
  let now = start;
  do {
    fn();
    calls++;
    now = performance.now();
  } while (now - start < 20);
  return (now - start) / calls;
}

async function main() {
  // The generator's own copy of the matcher it writes into generated validators (the official
  // file's validators no longer hold one: none of its patterns is super-linear).
  const { linearMatcher } = await import(pathToFileURL(config.linearEngine).href);
  class LinearMatcher {
    constructor(source, flags) {
      this.matcher = linearMatcher(source, flags);
    }
    test(input) {
      return this.matcher.test(input);
    }
  }
  const out = { ok: true, attacks: [], benign: [], checks: undefined };

  for (const p of config.patterns) {
    const attack = (n) => p.attackPrefix + p.attackPump.repeat(n) + p.attackSuffix;
    const v8 = new RegExp(p.source, p.flags ?? 'u');
    const linear = new LinearMatcher(p.source, p.flags ?? 'u');
    const rows = [];
    let v8Stopped = false;
    for (const n of p.sizes) {
      const input = attack(n);
      if (linear.test(input) !== false) throw new Error(`${p.id}: the attack of size ${n} is expected not to match`);
      const row = { n, chars: input.length, linearMs: perCall(() => linear.test(input)) };
      if (!v8Stopped) {
        row.v8Ms = perCall(() => {
          if (v8.test(input) !== false) throw new Error(`${p.id}: V8 matches the attack of size ${n}`);
        });
        v8Stopped = row.v8Ms > V8_STOP_MS;
      }
      rows.push(row);
    }
    out.attacks.push({ id: p.id, source: p.source, rows });
  }

  const benign = [];
  for (const p of config.benign) {
    const v8 = new RegExp(p.source, 'u');
    const linear = new LinearMatcher(p.source, 'u');
    if (!v8.test(p.value) || !linear.test(p.value)) throw new Error(`${p.id}: the benign value must match`);
    benign.push({ id: `${p.id}:v8`, fn: () => v8.test(p.value) }, { id: `${p.id}:linear`, fn: () => linear.test(p.value) });
  }
  const benignResults = new Map(measureThroughput(benign, config.loop).map((r) => [r.id, r]));
  for (const p of config.benign) out.benign.push({ id: p.id, source: p.source, value: p.value, v8: benignResults.get(`${p.id}:v8`), linear: benignResults.get(`${p.id}:linear`) });

  if (config.specFile) {
    const doc = loadOpenApi(config.specFile);
    const component = responseComponent(doc, 'GetAccountsAccountIdTransactions', '200', 'application/json');
    const after = await import(pathToFileURL(path.join(config.afterDir, 'index.js')).href);
    const before = await import(pathToFileURL(path.join(config.beforeDir, 'index.js')).href);
    const payload = payloads.transactionsPage(100);
    const checkAfter = after.checks[component];
    const checkBefore = before.checks[component];
    if (!checkAfter || !checkBefore) throw new Error(`no check function for ${component}`);
    if (!checkAfter(payload) || !checkBefore(payload)) throw new Error('the check functions must accept the page');
    const results = measureThroughput(
      [
        { id: 'before', fn: () => checkBefore(payload) },
        { id: 'after', fn: () => checkAfter(payload) },
      ],
      config.loop,
    );
    out.checks = { component, routed: config.routed, payloadBytes: JSON.stringify(payload).length, before: results[0], after: results[1] };
  }
  return out;
}

main().then(
  (out) => process.stdout.write(`${JSON.stringify(out)}\n`),
  (error) => {
    process.stdout.write(`${JSON.stringify({ ok: false, error: error instanceof Error ? error.stack : String(error) })}\n`);
    process.exitCode = 1;
  },
);
