/**
 * Shrinking: the smallest request found that still fails the same check. Optional
 * parameters and body members are left out and lists cut short, one step at a time, each
 * step kept only when the request is still of its kind (valid, or wrong in its one place)
 * and still fails.
 */
import type { OperationIR } from '../ir/types.js';
import type { RequestParts } from '../mock/sample-request.js';

/** Requests sent while shrinking one failure, at most. */
export const MAX_SHRINK_STEPS = 40;

const LOCATIONS = ['query', 'header', 'cookie'] as const;

/** Smaller neighbours of a request, largest cut first. */
function smaller(op: OperationIR, parts: RequestParts): RequestParts[] {
  const out: RequestParts[] = [];
  for (const location of LOCATIONS) {
    for (const name of Object.keys(parts[location])) {
      const param = op.parameters.find((p) => p.in === location && p.name === name);
      if (param && !param.required) {
        const { [name]: _gone, ...rest } = parts[location];
        out.push({ ...parts, [location]: rest });
      }
    }
  }
  const body = parts.body;
  if (body && 'value' in body && body.value !== null && typeof body.value === 'object') {
    const value = body.value as Record<string, unknown> | unknown[];
    if (Array.isArray(value)) {
      if (value.length > 0) out.push({ ...parts, body: { contentType: body.contentType, value: value.slice(0, Math.floor(value.length / 2)) } });
    } else {
      for (const name of Object.keys(value)) {
        const { [name]: _gone, ...rest } = value;
        out.push({ ...parts, body: { contentType: body.contentType, value: rest } });
      }
      for (const [name, member] of Object.entries(value)) {
        if (Array.isArray(member) && member.length > 0) out.push({ ...parts, body: { contentType: body.contentType, value: { ...value, [name]: member.slice(0, Math.floor(member.length / 2)) } } });
      }
    }
  }
  return out;
}

/**
 * Shrinks `parts` while `keep` says a smaller request is still of its kind and still fails.
 * Returns the smallest request kept and the number of requests tried.
 */
export async function shrinkRequest(op: OperationIR, parts: RequestParts, keep: (candidate: RequestParts) => Promise<boolean>): Promise<{ parts: RequestParts; steps: number }> {
  let current = parts;
  let steps = 0;
  for (let progress = true; progress && steps < MAX_SHRINK_STEPS; ) {
    progress = false;
    for (const candidate of smaller(op, current)) {
      if (steps >= MAX_SHRINK_STEPS) break;
      steps++;
      if (await keep(candidate)) {
        current = candidate;
        progress = true;
        break;
      }
    }
  }
  return { parts: current, steps };
}
