/**
 * Requests wrong in one place (negative.ts makes them), sent from a base request the server
 * accepted where there is one. Each invalid-data case is first put to the oracle and sent
 * only if the oracle refuses it; credential cases go as they are. The server must refuse each
 * with 4xx, in the declared error contract where that status is declared.
 */
import { declaredContentType } from '@bank-data-sharing/wire';
import type { RequestParts } from '../mock/sample-request.js';
import { signForMock } from '../mock/signed-bodies.js';
import { credentialPlaces, securityOptional } from './credentials.js';
import { isTransportFailure } from './http.js';
import { mutations } from './negative.js';
import type { OperationRun } from './operation-run.js';
import { checkRefusal } from './response-checks.js';

/** Requests wrong in one place sent per operation at most (each mutation is made once). */
export const MAX_NEGATIVE = 100;

export async function negativeCases(run: OperationRun, base: RequestParts): Promise<void> {
  const { session, op, schemas } = run;
  const { loaded } = session;
  const baseAnswer = await session.oracleAnswer(base);
  const baseRefused = baseAnswer === undefined || isTransportFailure(baseAnswer) || baseAnswer.status >= 400;
  if (baseRefused) {
    const why =
      baseAnswer === undefined ? 'it cannot be written'
      : isTransportFailure(baseAnswer) ? baseAnswer.error
      : baseAnswer.status === 406 ? 'HTTP 406: it answers only media types a mock cannot write, such as application/jwt'
      : `HTTP ${baseAnswer.status}`;
    run.notes.push(`the generated router refuses the valid request itself (${why}); invalid-data cases skipped`);
  }
  const declaredTypes = op.requestBody?.content.map((m) => m.contentType) ?? [];
  const accepts = (contentType: string) => declaredContentType(declaredTypes, contentType) !== undefined;
  // Leaving credentials out is a case only where some credential travels in the request
  // (a TLS client certificate does not, on a plain HTTP test).
  const schemeType = new Map(loaded.api.securitySchemes.map((scheme) => [scheme.name, scheme.type]));
  const tlsOnly = op.security.some((r) => Object.keys(r).length > 0 && Object.keys(r).every((name) => schemeType.get(name) === 'mutualTLS'));
  const securityRequired = !securityOptional(op.security) && !tlsOnly;
  // Only credentials the user gave can be told from invalid ones (a mock takes any well-formed one).
  const hasCredentials = Object.keys(session.options.auth ?? {}).length > 0;
  const places = credentialPlaces(op.security, loaded.api.securitySchemes);
  const cases = mutations(op, base, session.components, { securityRequired, hasCredentials, accepts });
  // With the caller's signing key, a body signed with another key (the mock's secret) must be refused.
  const body = base.body;
  if (session.options.signRequest && body && 'value' in body && loaded.runtime.bodyKind(body.contentType) === 'jwt') {
    const claims = body.value !== null && typeof body.value === 'object' ? (body.value as Record<string, unknown>) : {};
    cases.unshift({ kind: 'credentials', description: 'a signed body signed with a key the server does not know', parts: { ...base, body: { contentType: body.contentType, raw: signForMock(claims) } } });
  }
  let made = 0;
  for (const mutation of cases) {
    if (made >= MAX_NEGATIVE || session.outOfTime()) break;
    let parts = mutation.parts;
    if (mutation.kind === 'credentials') {
      // Credentials given with --header go too (not for a body signed with another key).
      const kept = Object.fromEntries(Object.entries(parts.extraHeaders ?? {}).filter(([name]) => parts.body !== base.body || !places.some((p) => p.in === 'header' && p.name === name)));
      parts = { ...parts, extraHeaders: kept };
    } else if (baseRefused || !(await session.oracleRefuses(parts))) {
      continue;
    }
    const request = session.writable(parts);
    if (!request) continue;
    made++;
    run.counts.negative++;
    const answer = await run.send(request);
    if (isTransportFailure(answer)) {
      await run.report('negative', { check: 'transport-error', message: answer.error }, undefined, request, undefined, mutation);
      continue;
    }
    for (const finding of checkRefusal(schemas, answer, mutation.kind === 'credentials' ? 'security-not-enforced' : 'invalid-request-accepted')) {
      await run.report('negative', finding, parts, request, answer, { ...mutation, parts });
    }
  }
}
