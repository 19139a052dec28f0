// Which generated schemas zod's AOT compiler (`compile` from zod/v4/core) accepts, why it
// refuses the others, and what compiling them all costs. Input: JSON file argv[2] with
// { validatorsDir }. Output: one JSON line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const { validatorsDir } = JSON.parse(readFileSync(process.argv[2], 'utf8'));

async function main() {
  const core = await import('zod/v4/core');
  await import('zod');
  const t0 = performance.now();
  const generated = await import(pathToFileURL(path.join(validatorsDir, 'index.js')).href);
  const importMs = performance.now() - t0;
  const entries = new Map(); // schema object -> name
  for (const [name, schema] of Object.entries(generated.schemas ?? {})) if (!entries.has(schema)) entries.set(schema, `schemas.${name}`);
  for (const [opId, op] of Object.entries(generated.operations ?? {})) {
    for (const [part, schema] of Object.entries(op.request ?? {})) if (schema && typeof schema === 'object' && '_zod' in schema && !entries.has(schema)) entries.set(schema, `${opId}.request.${part}`);
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      for (const [media, schema] of Object.entries(response?.content ?? {})) if (schema && !entries.has(schema)) entries.set(schema, `${opId}.${status}.${media}`);
      if (response?.headers && !entries.has(response.headers)) entries.set(response.headers, `${opId}.${status}.headers`);
    }
  }
  const refusals = {};
  const examples = {};
  let compiled = 0;
  let definite = 0;
  const t1 = performance.now();
  for (const [schema, name] of entries) {
    try {
      const c = core.compile(schema, { strict: true });
      compiled++;
      if (c._zod.bag.validator?.definite === true) definite++;
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).replace(/^z\.compile does not support /, '').replace(/; this schema must use the runtime parser$/, '');
      refusals[message] = (refusals[message] ?? 0) + 1;
      examples[message] ??= name;
    }
  }
  const compileMs = performance.now() - t1;
  return { ok: true, total: entries.size, compiled, definite, refusals, examples, compileMs, importMs };
}

main().then(
  (out) => process.stdout.write(`${JSON.stringify(out)}\n`),
  (error) => {
    process.stdout.write(`${JSON.stringify({ ok: false, error: error instanceof Error ? error.stack : String(error) })}\n`);
    process.exitCode = 1;
  },
);
