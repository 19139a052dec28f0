/**
 * Talking to a mock server over loopback with Node's own `fetch`, and judging its answers
 * by the generated validators: a declared status, declared headers, a body its schema accepts.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { MockServer } from '../../src/index.js';

const require = createRequire(import.meta.url);
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const OWN_SPEC = path.join(REPO_ROOT, 'spec/v2.2/account-information.yaml');

/** A file of `@readme/oas-examples`, e.g. `3.0/json/petstore-expanded.json`. */
export function oasExample(file: string): string {
  return require.resolve(`@readme/oas-examples/${file}`);
}

/** What came back, read once. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  contentType: string | undefined;
  text: string;
  json: unknown;
}

/** Sends a request (below the server's prefix) and reads the whole answer; at most 10 s. */
export async function send(
  server: MockServer,
  request: { method: string; target: string; headers?: Record<string, string>; body?: string | undefined },
): Promise<Answer> {
  const res = await fetch(`${server.url}${request.target}`, {
    method: request.method,
    headers: request.headers ?? {},
    ...(request.body !== undefined ? { body: request.body } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? undefined;
  let json: unknown;
  if (contentType !== undefined && /json/i.test(contentType) && text !== '') json = JSON.parse(text);
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: res.status, headers, contentType, text, json };
}

/** The sampled request of an operation, with headers changed (`undefined` removes one). */
export function sampled(server: MockServer, name: string, headers: Record<string, string | undefined> = {}, seed?: number) {
  const request = server.sampleRequest(name, seed === undefined ? {} : { seed });
  const merged: Record<string, string> = { ...request.headers };
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) delete merged[k.toLowerCase()];
    else merged[k.toLowerCase()] = v;
  }
  return { ...request, headers: merged };
}

function essence(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** The status key an operation declares for `status`: exact, then its range, then `default`. */
export function declaredKey(server: MockServer, name: string, status: number): string | undefined {
  const responses = server.schemas[name]!.responses;
  const key = String(status);
  return [key, `${key[0]}XX`, 'default'].find((k) => responses[k] !== undefined);
}

/**
 * Expects `answer` to be one the operation declares: its status (exact, range or default),
 * its headers valid, and its body valid for the media type it was sent as.
 */
export function expectDeclared(server: MockServer, name: string, answer: Answer): void {
  const key = declaredKey(server, name, answer.status);
  expect(key, `${name}: status ${answer.status} is not declared (${Object.keys(server.schemas[name]!.responses).join(', ')})`).toBeDefined();
  const response = server.schemas[name]!.responses[key!]!;
  const headers = response.headers.safeParse(answer.headers);
  expect(headers.success, `${name} ${answer.status} headers: ${JSON.stringify(headers.error?.issues)}`).toBe(true);
  const types = Object.keys(response.content);
  if (types.length === 0) {
    expect(answer.text).toBe('');
    return;
  }
  expect(answer.contentType, `${name} ${answer.status}: no Content-Type`).toBeDefined();
  const declared = types.find((t) => t.toLowerCase() === answer.contentType!.toLowerCase()) ?? types.find((t) => essence(t) === essence(answer.contentType!));
  expect(declared, `${name} ${answer.status}: ${answer.contentType} is not among ${types.join(', ')}`).toBeDefined();
  if (!/json/i.test(declared!)) return;
  const body = response.content[declared!]!.safeParse(answer.json);
  expect(body.success, `${name} ${answer.status} body: ${JSON.stringify(body.error?.issues)}\n${answer.text.slice(0, 500)}`).toBe(true);
}
