/**
 * `codegen test` against a router built on these stubs whose handler answers outside the
 * contract: the router answers 500, and the test report names the member and the rule when the
 * router tells them (X-Contract-Violation, explainResponseErrors), or says where to find them.
 */
import { fileURLToPath } from 'node:url';
import { testServer } from '@bank-data-sharing/codegen';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPRESS, PREFIX, startApp } from './helpers/apps.js';
import { newState } from './helpers/handlers.js';
import { testKeys, type TestKeys } from './helpers/keys.js';

const SPEC = fileURLToPath(new URL('../../../spec/v2.2/account-information.yaml', import.meta.url));
const express = EXPRESS[0]![1];

let keys: TestKeys;
beforeAll(async () => {
  keys = await testKeys();
});

async function serverErrorOf(explainResponseErrors: boolean) {
  const state = newState();
  state.behaviour = 'invalid-body';
  const app = await startApp({ version: 'v2.2', express, state, keys, options: { explainResponseErrors } });
  try {
    const report = await testServer({ spec: SPEC, baseUrl: `${app.origin}${PREFIX['v2.2']}`, operations: ['GetAccounts'], auth: { '*': 'user' }, maxExamples: 2, cases: { negative: false, sequences: false } });
    return report.failures.find((f) => f.check === 'server-error');
  } finally {
    await app.close();
  }
}

describe('codegen test on a router that refuses its own handler\'s answer', () => {
  it('names the member and the rule the router gives in X-Contract-Violation', async () => {
    const failure = await serverErrorOf(true);
    expect(failure?.operation).toBe('GetAccounts');
    expect(failure?.pointer).toBe('/Meta/TotalPages');
    expect(failure?.rule).toBe('Too small: expected number to be >=0');
    expect(failure?.message).toContain("HTTP 500: the router refused its handler's answer: status 200: ");
  });

  it('says where the cause is when the router keeps it to its log', async () => {
    const failure = await serverErrorOf(false);
    expect(failure?.pointer).toBeUndefined();
    expect(failure?.message).toMatch(/refused its handler's answer; the member or status and the rule are in the server's log \(onError\), or in the X-Contract-Violation header once the server runs with NODE_ENV=development or explainResponseErrors: true$/);
  });
});
