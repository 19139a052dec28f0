/**
 * The checks on one answer: by the operation's declared responses (status, content type,
 * headers, body in the response direction), and for a refused request, the error contract.
 */
import { declaredContentType, declaredStatusKey, decodeSequenceText, isJsonType, isJwtType, sequenceFormat, sequenceItemOf } from '@bank-data-sharing/wire';
import type { Checkable, OperationSchemas } from '../mock/loaded-modules.js';
import type { Exchange } from './http.js';
import { serverError } from './refused-answer.js';
import type { CheckName } from './types.js';

export interface Finding {
  readonly check: CheckName;
  readonly message: string;
  readonly pointer?: string;
  readonly rule?: string;
}

/** The declared response key for a status: exact, then its range (`4XX`), then `default`. */
export function declaredKey(schemas: OperationSchemas, status: number): string | undefined {
  return declaredStatusKey(schemas, status);
}

/** Whether the operation declares any answer for refused requests (a 4xx, a 4XX range or default). */
export function declaresErrors(schemas: OperationSchemas): boolean {
  return Object.keys(schemas.responses).some((k) => k === 'default' || k.startsWith('4'));
}

/** JSON pointer of a zod issue path. */
function pointerOf(path: readonly PropertyKey[]): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function firstIssue(check: Checkable, value: unknown): { pointer: string; rule: string } | undefined {
  const result = check.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error?.issues[0];
  return { pointer: pointerOf(issue?.path ?? []), rule: issue?.message ?? 'refused' };
}

/** The claims of a compact JWS, unverified (the checks are about shape, not trust). */
function jwsClaims(text: string): unknown {
  const payload = text.trim().split('.')[1];
  if (payload === undefined) throw new Error('not a compact JWS');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

/**
 * What is wrong with an answer by the declared responses (nothing for an answer that keeps
 * the contract). A 5xx is reported as a server error alone.
 */
export function checkAnswer(schemas: OperationSchemas, exchange: Exchange): Finding[] {
  const { status } = exchange;
  // A 5xx is the server failing, unless the operation declares nothing else it could answer.
  const declared = Object.keys(schemas.responses);
  if (status >= 500 && (declared.length === 0 || declared.some((k) => !k.startsWith('5')))) return [serverError(exchange, `HTTP ${status}`)];
  // An operation that declares no response at all promises nothing more to check.
  if (declared.length === 0) return [];
  const key = declaredKey(schemas, status);
  if (key === undefined) return [{ check: 'undeclared-status', message: `HTTP ${status} is not declared; declared: ${Object.keys(schemas.responses).join(', ')}` }];
  const response = schemas.responses[key]!;
  const findings: Finding[] = [];

  const headerIssue = firstIssue(response.headers, exchange.headers);
  if (headerIssue) {
    const name = headerIssue.pointer.split('/')[1] ?? '';
    findings.push({ check: 'response-headers', message: `HTTP ${status}: response header ${name || '(headers)'} is missing or breaks its schema`, pointer: `/headers${headerIssue.pointer}`, rule: headerIssue.rule });
  }

  const types = Object.keys(response.content);
  const received = exchange.headers['content-type'];
  if (types.length === 0) {
    if (exchange.text !== '') findings.push({ check: 'undeclared-content-type', message: `HTTP ${status} declares no body, but one came (${received ?? 'no Content-Type'})` });
    return findings;
  }
  if (exchange.text === '' && status !== 204 && status !== 304) {
    findings.push({ check: 'response-body', message: `the body is empty; HTTP ${key} declares ${types.join(', ')}` });
    return findings;
  }
  if (exchange.text === '') return findings;
  const matched = received === undefined ? undefined : declaredContentType(types, received);
  if (matched === undefined) {
    findings.push({ check: 'undeclared-content-type', message: `${received ?? 'no Content-Type'} is not declared for HTTP ${key}; declared: ${types.join(', ')}` });
    return findings;
  }
  const check = response.content[matched]!;
  const format = sequenceFormat(matched);
  const itemCheck = format === undefined ? undefined : sequenceItemOf<Checkable>(check);
  if (format !== undefined && itemCheck !== undefined) return exchange.truncated ? findings : [...findings, ...sequenceFindings(format, itemCheck, exchange.text, status, matched)];
  let value: unknown;
  if (isJsonType(matched) || isJsonType(received!)) {
    if (exchange.truncated) return findings;
    try {
      value = JSON.parse(exchange.text);
    } catch (error) {
      findings.push({ check: 'response-body', message: `the body is not JSON: ${(error as Error).message}`, rule: 'JSON' });
      return findings;
    }
  } else if (isJwtType(matched)) {
    try {
      value = jwsClaims(exchange.text);
    } catch (error) {
      findings.push({ check: 'response-body', message: `the body is not a compact JWS with JSON claims: ${(error as Error).message}`, rule: 'JWS' });
      return findings;
    }
  } else {
    // Text and binary bodies: their schemas say little a check can use.
    return findings;
  }
  const issue = firstIssue(check, value);
  if (issue) findings.push({ check: 'response-body', message: `the HTTP ${status} body (${matched}) breaks its schema at ${issue.pointer || 'the root'}`, pointer: issue.pointer, rule: issue.rule });
  return findings;
}

/** A sequence answer (OpenAPI 3.2 `itemSchema`): read whole, each item checked; the first bad one named. */
function sequenceFindings(format: NonNullable<ReturnType<typeof sequenceFormat>>, check: Checkable, text: string, status: number, matched: string): Finding[] {
  let items: unknown[];
  try {
    items = decodeSequenceText(format, text);
  } catch (error) {
    return [{ check: 'response-body', message: `the HTTP ${status} body is not a valid ${matched} stream: ${(error as Error).message}`, rule: matched }];
  }
  for (const [i, item] of items.entries()) {
    const issue = firstIssue(check, item);
    if (issue) return [{ check: 'response-body', message: `item ${i + 1} of the HTTP ${status} body (${matched}) breaks its item schema at ${issue.pointer || 'the root'}`, pointer: `/${i}${issue.pointer}`, rule: issue.rule }];
  }
  return [];
}

/**
 * What is wrong with the answer to a request that must be refused: a 2xx/3xx accepted it, a
 * 5xx failed on it, and a 4xx must be declared (where the operation declares errors at all)
 * and keep its declared shape.
 */
export function checkRefusal(schemas: OperationSchemas, exchange: Exchange, acceptedCheck: CheckName): Finding[] {
  const { status } = exchange;
  if (status >= 500) return [serverError(exchange, `HTTP ${status} for a request that should have been refused with 4xx`)];
  if (status < 400) return [{ check: acceptedCheck, message: `HTTP ${status}: the request was not refused` }];
  // HTTP itself defines the 4xx answers; only a declared one has a contract to keep.
  if (declaredKey(schemas, status) === undefined) return [];
  return checkAnswer(schemas, exchange).map((f) => ({ ...f, check: f.check === 'response-headers' ? f.check : 'error-contract', message: `refusal HTTP ${status}: ${f.message}` }));
}
