/**
 * Values an API hands out, kept so that later requests reach resources that exist. From every
 * 2xx answer: members named like a path or query parameter (under any spelling: see names.ts),
 * the `id` of the items of a collection for the parameter of its item path, the parameters a
 * `Location` header or a self link names, and the values of the answer's OpenAPI links.
 */
import { isRecord } from '../ir/json-pointer.js';
import type { OperationIR } from '../ir/types.js';
import type { RequestParts } from '../mock/sample-request.js';
import { evaluate, linkTarget, linkedOperation } from './links.js';
import { nameKey } from './names.js';
import { PathTemplates } from './path-templates.js';

/** Distinct values kept per name. */
const PER_NAME = 8;
/** How deep into an answer members are looked for, and how many items of a list. */
const MAX_DEPTH = 8;
const MAX_ITEMS = 20;

/** A 2xx answer as the harvest reads it. */
export interface Answer {
  /** The URL the request went to (relative references resolve against it). */
  readonly url: string;
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, or undefined. */
  readonly body: unknown;
}

export class Harvest {
  private readonly values = new Map<string, unknown[]>();
  /** Keys of the parameters values are kept for. */
  private readonly wanted: ReadonlySet<string>;
  private readonly templates: PathTemplates;
  /** How many values were kept so far: whether anything new came since a moment. */
  kept = 0;

  constructor(private readonly operations: readonly OperationIR[]) {
    this.wanted = new Set(operations.flatMap((op) => op.parameters.filter((p) => p.in === 'path' || p.in === 'query').map((p) => nameKey(p.name))));
    this.templates = new PathTemplates(operations);
  }

  /** Keeps what a 2xx answer of `op` to `request` hands out. */
  collect(op: OperationIR, answer: Answer, request?: RequestParts): void {
    this.members(answer.body, 0);
    for (const name of this.templates.itemParameters(op.path)) this.ids(answer.body, name, 0);
    const location = answer.headers['location'];
    if (location !== undefined) this.fromUrl(location, answer.url, op.path);
    for (const link of selfLinks(answer.body, 0)) this.fromUrl(link, answer.url, op.path);
    if (request) this.fromLinks(op, answer, request);
  }

  /** The `index`-th value kept for a parameter's name (cycling), or undefined. */
  pick(name: string, index: number): unknown {
    const list = this.values.get(nameKey(name));
    return list && list.length > 0 ? list[Math.floor(index) % list.length] : undefined;
  }

  /** Whether some value is kept for the name. */
  has(name: string): boolean {
    return (this.values.get(nameKey(name))?.length ?? 0) > 0;
  }

  private keep(name: string, value: unknown): void {
    if (typeof value !== 'string' && typeof value !== 'number') return;
    if (value === '') return;
    const key = nameKey(name);
    if (!this.wanted.has(key)) return;
    const list = this.values.get(key) ?? [];
    if (list.length < PER_NAME && !list.includes(value)) {
      list.push(value);
      this.kept++;
    }
    this.values.set(key, list);
  }

  /** Members whose names are parameter names, at any depth. */
  private members(body: unknown, depth: number): void {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(body)) {
      for (const item of body.slice(0, MAX_ITEMS)) this.members(item, depth + 1);
      return;
    }
    if (!isRecord(body)) return;
    for (const [key, value] of Object.entries(body)) {
      if (typeof value === 'object' && value !== null) this.members(value, depth + 1);
      else this.keep(key, value);
    }
  }

  /**
   * The `id` members of the items of a collection: of the answer itself (what a POST created),
   * of the items of its lists, and of an object it wraps (`{ "data": { "id": ... } }`); not of
   * objects nested in an item, whose ids name other things.
   */
  private ids(body: unknown, name: string, depth: number, inList = false): void {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(body)) {
      for (const item of body.slice(0, MAX_ITEMS)) this.ids(item, name, depth + 1, true);
      return;
    }
    if (!isRecord(body)) return;
    const id = Object.entries(body).find(([key]) => key.toLowerCase() === 'id')?.[1];
    if (id !== undefined && (depth <= 1 || inList)) this.keep(name, id);
    for (const value of Object.values(body)) {
      if (Array.isArray(value) || (isRecord(value) && depth === 0)) this.ids(value, name, depth + 1);
    }
  }

  private fromUrl(reference: string, base: string, collection: string): void {
    let url: URL;
    try {
      url = new URL(reference, base);
    } catch {
      return;
    }
    for (const [name, value] of this.templates.valuesOf(url.pathname, collection)) this.keep(name, value);
  }

  /** The values the answer's OpenAPI links give their targets' parameters. */
  private fromLinks(op: OperationIR, answer: Answer, request: RequestParts): void {
    const status = String(answer.status);
    const response = op.responses.find((r) => r.status === status) ?? op.responses.find((r) => r.status.toUpperCase() === `${status[0]}XX`);
    for (const link of response?.links ?? []) {
      const target = linkedOperation(this.operations, link);
      if (!target) continue;
      const context = {
        url: answer.url,
        method: op.method.toUpperCase(),
        request,
        requestBody: request.body && 'value' in request.body ? request.body.value : undefined,
        status: answer.status,
        responseHeaders: answer.headers,
        responseBody: answer.body,
      };
      for (const [name, expression] of Object.entries(link.parameters)) {
        const param = linkTarget(target, name);
        if (param && (param.in === 'path' || param.in === 'query')) this.keep(param.name, evaluate(expression, context));
      }
    }
  }
}

/** Self links of an answer: `self` members that are a URL or hold one in `href`. */
function selfLinks(body: unknown, depth: number): string[] {
  if (depth > MAX_DEPTH) return [];
  if (Array.isArray(body)) return body.slice(0, MAX_ITEMS).flatMap((item) => selfLinks(item, depth + 1));
  if (!isRecord(body)) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key.toLowerCase() === 'self') {
      if (typeof value === 'string') out.push(value);
      else if (isRecord(value) && typeof value['href'] === 'string') out.push(value['href']);
    } else if (typeof value === 'object' && value !== null) {
      out.push(...selfLinks(value, depth + 1));
    }
  }
  return out;
}
