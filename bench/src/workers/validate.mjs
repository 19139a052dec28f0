// One validator measurement in a fresh process: zod (one variant, in one or more modes) and ajv
// side by side on the same payloads, batches interleaved. A process per variant keeps global
// zod settings (jitless, `zod/compile`) and the JIT state of one variant out of another.
//
// Input: a JSON file named by argv[2] (written by suites/validators.mjs). Output: one JSON line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { measureThroughput } from '../lib/loop.mjs';
import { compileComponent, loadOpenApi, responseComponent } from '../lib/openapi-ajv.mjs';
import * as payloads from '../payloads.mjs';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const variant = config.variant;

async function main() {
  const { z } = await import('zod');
  // Both settings are read when a schema is constructed: set them before the generated module loads.
  if (variant.jitless) z.config({ jitless: true });
  if (variant.globalCompile) await import('zod/compile');
  const core = await import('zod/v4/core');
  const generated = await import(pathToFileURL(path.join(config.validatorsDir, 'index.js')).href);
  const doc = loadOpenApi(config.specFile);

  const out = { ok: true, variant: variant.id, cases: [] };
  const timed = [];
  for (const c of config.cases) {
    const component = responseComponent(doc, c.operationId, c.status, c.mediaType);
    const runtimeSchema = generated.schemas?.[component];
    if (!runtimeSchema) throw new Error(`the generated validators have no schema "${component}"`);
    const opSchema = generated.operations?.[c.operationId]?.responses?.[c.status]?.content?.[c.mediaType];
    const info = { id: c.id, component, sameAsOperation: opSchema === runtimeSchema, modes: [] };

    const ajv = compileComponent(doc, component);
    info.ajvMode = ajv.mode;
    if (ajv.warnings.length > 0) info.ajvWarnings = ajv.warnings.slice(0, 5);
    const payload = payloads[c.payload](...(c.payloadArgs ?? []));
    info.payloadBytes = JSON.stringify(payload).length;
    if (!ajv.validate(payload)) throw new Error(`${c.id}: ajv rejects the payload: ${JSON.stringify(ajv.validate.errors?.slice(0, 3))}`);
    const validateAjv = ajv.validate;
    timed.push({ id: `${c.id}:ajv`, fn: () => validateAjv(payload) });

    for (const mode of variant.modes) {
      const m = { id: mode.id, method: mode.method };
      let schema = runtimeSchema;
      if (mode.compile) {
        try {
          schema = core.compile(runtimeSchema, { strict: true });
          m.compiled = true;
          // false: a rejection by the fast path is re-checked by the runtime (a user callback such as .refine is inside)
          m.definite = schema._zod.bag.validator?.definite;
        } catch (error) {
          m.compiled = false;
          m.refusal = error instanceof Error ? error.message : String(error);
        }
      }
      // Both must accept the payload before anything is timed.
      const result = schema.safeParse(payload);
      if (!result.success) throw new Error(`${c.id} (${mode.id}): zod rejects the payload: ${JSON.stringify(result.error.issues.slice(0, 3))}`);
      info.modes.push(m);
      const fn = mode.method === 'validate' ? () => schema.validate(payload) : () => schema.safeParse(payload).success;
      timed.push({ id: `${c.id}:${mode.id}`, fn });
    }
    out.cases.push(info);
  }
  const results = new Map(measureThroughput(timed, config.loop).map((r) => [r.id, r]));
  for (const info of out.cases) {
    info.ajv = results.get(`${info.id}:ajv`);
    for (const m of info.modes) m.result = results.get(`${info.id}:${m.id}`);
  }
  return out;
}

main().then(
  (out) => process.stdout.write(`${JSON.stringify(out)}\n`),
  (error) => {
    process.stdout.write(`${JSON.stringify({ ok: false, variant: variant.id, error: error instanceof Error ? error.message : String(error) })}\n`);
    process.exitCode = 1;
  },
);
