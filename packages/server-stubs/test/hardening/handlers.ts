/**
 * Handlers for every operation of an API that answer valid data: a success body sampled
 * from the operation's own response schema once, with `Links.Self` set to `request.url` as
 * the README shows. They also record anything suspicious they were handed.
 */
import { assertNoProtoKeys, type OperationSchemas } from '../../src/runtime/index.js';
import { bodyKindOf } from './cases.js';
import type { Prng } from './prng.js';
import { defOf, core, sampleValid } from './schema-sample.js';

interface Prepared {
  status: number;
  body: unknown;
}

/** Replaces every `Links.Self` in `value` with `url`. */
function withSelf(value: unknown, url: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withSelf(v, url));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === 'Links' && member !== null && typeof member === 'object' && 'Self' in member) out[key] = { ...(member as object), Self: url };
    else out[key] = withSelf(member, url);
  }
  return out;
}

function prepare(op: OperationSchemas, rng: Prng): Prepared {
  const [status, response] = Object.entries(op.responses).find(([s]) => s.startsWith('2')) ?? [];
  if (status === undefined || response === undefined) throw new Error(`${op.operationId} declares no success`);
  const types = Object.keys(response.content);
  if (types.length === 0) return { status: Number(status), body: undefined };
  const json = types.find((t) => bodyKindOf(t) === 'json');
  const schema = json !== undefined ? response.content[json]! : (defOf(core(response.content[types[0]!]!)).shape?.['message'] ?? response.content[types[0]!]!);
  return { status: Number(status), body: sampleValid(schema, rng).value };
}

export interface HandlerLog {
  calls: number;
  /** Handler inputs that should never get through (e.g. an own `__proto__` member). */
  suspicious: string[];
}

/** A handler for every operation in `operations`. */
export function answeringHandlers(operations: Record<string, OperationSchemas>, rng: Prng, log: HandlerLog): Record<string, (req: { url: string; body: unknown; operationId: string }) => unknown> {
  const handlers: Record<string, (req: { url: string; body: unknown; operationId: string }) => unknown> = {};
  for (const op of Object.values(operations)) {
    const prepared = prepare(op, rng.fork(op.operationId));
    handlers[op.operationId] = (req) => {
      log.calls++;
      try {
        assertNoProtoKeys(req.body, 1000);
      } catch (error) {
        log.suspicious.push(`${req.operationId} received ${(error as Error).message}`);
      }
      return prepared.body === undefined ? { status: prepared.status } : { status: prepared.status, body: withSelf(structuredClone(prepared.body), req.url) };
    };
  }
  return handlers;
}
