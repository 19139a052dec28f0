/**
 * What callers of the device grant write, checked by the type checker against the client
 * generated for the OpenAPI 3.2 test document: its `securitySchemes.device` (a literal type)
 * is a scheme `deviceAuthorizationTokens` takes, and `credentials` is typed as before.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generatedCodeCompilerOptions } from '@bank-data-sharing/codegen';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { generateInto, packageRoot, type GeneratedOutput } from './helpers/generated-client.js';
import { MARKET_FEED_SPEC } from './helpers/market-feed.js';

/** Compiled beside the generated client; each line is an assertion the checker must accept. */
const ASSERTIONS = `
import { expectTypeOf } from 'vitest';
import { deviceAuthorizationTokens, OAuthError, TokenError, type AccessToken } from '@bank-data-sharing/client/runtime';
import { createClient, securitySchemes } from './client/index.js';

expectTypeOf(securitySchemes.device.deprecated).toEqualTypeOf<true>();
expectTypeOf(securitySchemes.device.flows.deviceAuthorization.tokenUrl).toEqualTypeOf<'https://auth.example.test/token'>();
expectTypeOf(securitySchemes.device.flows.deviceAuthorization.scopes).toEqualTypeOf<readonly ['quotes']>();

export async function signIn(): Promise<void> {
  const tokens = deviceAuthorizationTokens({
    clientId: 'quotes-cli',
    scheme: securitySchemes.device,
    onUserCode: ({ userCode, verificationUri, verificationUriComplete, expiresIn }) => {
      expectTypeOf(userCode).toEqualTypeOf<string>();
      expectTypeOf(verificationUri).toEqualTypeOf<string>();
      expectTypeOf(verificationUriComplete).toEqualTypeOf<string | undefined>();
      expectTypeOf(expiresIn).toEqualTypeOf<number>();
    },
  });
  expectTypeOf(await tokens.authorize()).toEqualTypeOf<AccessToken>();
  createClient({ tokens, credentials: { device: 'a-token', bearer: () => 'another' } });
  // @ts-expect-error a device scheme takes a token, not user and password
  createClient({ credentials: { device: { username: 'u', password: 'p' } } });
  // @ts-expect-error onUserCode is required: the user must be told where to go
  deviceAuthorizationTokens({ clientId: 'quotes-cli', scheme: securitySchemes.device });
  expectTypeOf<OAuthError>().toExtend<TokenError>();
}
`;

let output: GeneratedOutput | undefined;

afterAll(async () => {
  await output?.remove();
});

describe('device grant types', () => {
  it('takes the generated scheme entry as it is, and keeps credentials typed', { timeout: 120_000 }, async () => {
    output = await generateInto(MARKET_FEED_SPEC, 'device-types');
    const check = path.join(output.dir, 'check.ts');
    await writeFile(check, ASSERTIONS);
    const program = ts.createProgram([check], {
      ...generatedCodeCompilerOptions(ts),
      // The runtime's sources, so the check does not depend on a build.
      paths: { '@bank-data-sharing/client/runtime': [path.join(packageRoot, 'src/runtime/index.ts')] },
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${path.relative(output!.dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  });
});
