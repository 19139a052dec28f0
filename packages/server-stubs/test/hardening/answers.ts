/**
 * What every answer of the bad-input suite must satisfy: a status the operation declares
 * (404/405 also for a broken path or method), a body (JSON or signed) that validates against
 * the schema declared for that status and media type, the declared response headers with
 * `x-fapi-interaction-id` on every answer, no 5xx, and the case's own expectation
 * (valid: 2xx; broken: 4xx; sometimes an exact status).
 */
import { jwtVerify } from 'jose';
import type { Case } from './cases.js';
import { bodyKindOf } from './cases.js';
import type { WireOutcome, WireReply } from './wire.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Claims section 2.1 allows in a signed envelope. */
const SIGNED_CLAIMS = new Set(['iss', 'exp', 'nbf', 'aud', 'iat', 'message']);

function sameMediaType(a: string, b: string): boolean {
  const norm = (t: string): string => t.toLowerCase().replace(/\s+/g, '');
  return norm(a) === norm(b);
}

function headerObject(reply: WireReply): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

function issueText(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/**
 * The problems with one answer (empty when it is right).
 *
 * @example
 * const problems = await checkAnswer(testCase, await sendWire(origin, testCase.request, agent), keys.serverPublic);
 */
export async function checkAnswer(c: Case, outcome: WireOutcome, serverPublic: CryptoKey): Promise<string[]> {
  if ('error' in outcome) return [`no answer: ${outcome.error}`];
  const problems: string[] = [];
  const { status, body } = outcome;
  const declared = c.op.responses[String(status)];
  const routingStatus = c.routing && (status === 404 || status === 405);
  if (!declared && !routingStatus) problems.push(`status ${status} is not one ${c.op.operationId} declares (${Object.keys(c.op.responses).join(', ')})`);
  if (status >= 500) problems.push(`server error ${status}`);

  const id = outcome.headers['x-fapi-interaction-id'];
  if (typeof id !== 'string' || !UUID.test(id)) problems.push(`x-fapi-interaction-id missing or not a UUID (${JSON.stringify(id)})`);
  const sent = c.request.headers['x-fapi-interaction-id']?.trim();
  if (sent !== undefined && UUID.test(sent) && typeof id === 'string' && id.toLowerCase() !== sent.toLowerCase()) problems.push(`x-fapi-interaction-id ${id} does not echo ${sent}`);

  const success = status >= 200 && status < 300;
  if (c.expect === 'success' && !success) problems.push(`valid request refused with ${status}`);
  if (c.expect === 'reject' && !(status >= 400 && status < 500)) problems.push(`invalid request answered ${status} (expected 4xx)`);
  if (c.statuses && !c.statuses.includes(status)) problems.push(`expected ${c.statuses.join(' or ')}, got ${status}`);
  if (status === 401 && !outcome.headers['www-authenticate']) problems.push('401 without WWW-Authenticate');
  if (status === 405 && !outcome.headers['allow']) problems.push('405 without Allow');

  if (declared) {
    const checked = declared.headers.safeParse(headerObject(outcome));
    if (!checked.success) problems.push(`response headers break the spec: ${issueText(checked.error.issues)}`);
  }

  const content = declared?.content ?? {};
  const types = Object.keys(content);
  if (c.request.method === 'HEAD' || types.length === 0) {
    if (body.length > 0) problems.push(`status ${status} has no body in the spec${c.request.method === 'HEAD' ? ' (HEAD)' : ''}, but ${body.length} bytes came`);
    return problems;
  }
  const contentType = outcome.headers['content-type'];
  const key = contentType === undefined ? undefined : types.find((t) => sameMediaType(t, contentType));
  if (key === undefined) {
    problems.push(`content type ${contentType ?? '(none)'} is not declared for ${status} (${types.join(', ')})`);
    return problems;
  }
  const text = body.toString('utf8');
  let value: unknown;
  if (bodyKindOf(key) === 'jwt') {
    try {
      const verified = await jwtVerify(text, serverPublic, { algorithms: ['ES256'] });
      value = verified.payload;
      const extra = Object.keys(verified.payload).filter((k) => !SIGNED_CLAIMS.has(k));
      if (extra.length > 0) problems.push(`signed answer carries claims beyond section 2.1: ${extra.join(', ')}`);
    } catch (error) {
      problems.push(`signed answer does not verify: ${(error as Error).message}`);
      return problems;
    }
  } else {
    try {
      value = JSON.parse(text);
    } catch {
      problems.push(`body of ${status} is not JSON: ${text.slice(0, 80)}`);
      return problems;
    }
  }
  const checked = content[key]!.safeParse(value);
  if (!checked.success) problems.push(`body of ${status} (${key}) breaks its schema: ${issueText(checked.error.issues)}`);
  return problems;
}
