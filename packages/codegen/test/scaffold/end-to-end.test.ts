/**
 * The whole flow a team goes through, with the real CLI: scaffold v2.1 into a project, fill
 * in real handlers, update the folder to v2.2, type-check it strictly with tsc, and serve a
 * request through it with the generated client over loopback.
 */
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/generated.js';
import { onlyInsertions, scratchProject } from '../helpers/scaffold-project.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/codegen.mjs');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function codegen(...args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function tsc(project: string) {
  const result = spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The team's code, replacing the 501 body of a stub. */
async function fillIn(file: string, operationId: string, code: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const start = text.indexOf(`Handlers['${operationId}'] = async () => {`);
  expect(start, `${operationId} stub in ${file}`).toBeGreaterThan(0);
  const end = text.indexOf('};\n', start) + 3;
  await writeFile(file, `${text.slice(0, start)}Handlers['${operationId}'] = ${code}\n${text.slice(end)}`);
}

const GET_ACCOUNTS = `async ({ url }) => {
  // Our accounts: one, in dirhams.
  const Account = [{ AccountId: 'acc-001', Currency: 'AED', Nickname: 'Salary' }];
  return { status: 200, body: { Data: { Account }, Links: { Self: url }, Meta: { TotalPages: 1 } } };
};`;

const GET_ACCOUNT = `async ({ path: { AccountId }, url }) => {
  if (AccountId !== 'acc-001') throw new ApiError(404, 'Resource.NotFound', 'No such account');
  return { status: 200, body: { Data: { AccountId, Account: { AccountId, Currency: 'AED' } }, Links: { Self: url }, Meta: { TotalPages: 1 } } };
};`;

const SERVE = `import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { router } from './handlers/index.js';

/** Serves the handlers on 127.0.0.1 (a free port), every token granting every scope. */
export async function start(): Promise<{ origin: string; close(): Promise<void> }> {
  const app = router({
    authorize: async () => ({ scopes: ['openid', 'accounts'], permissions: ['ReadAccountsBasic', 'ReadAccountsDetail'] }),
    verification: { key: new TextEncoder().encode('a shared secret for this test only, 32+ bytes'), algorithms: ['HS256'] },
    onError: () => {},
  });
  const server: Server = createServer((req, res) => app(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: \`http://127.0.0.1:\${port}\`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
`;

const CALL = `import { staticToken } from '@bank-data-sharing/client/runtime';
import { createClient } from '@bank-data-sharing/client/v2.2';

export function client(origin: string) {
  return createClient({ origin, tokens: staticToken('token'), retry: false });
}
`;

describe('scaffold, fill in, bump: end to end', () => {
  let project: string;
  let dir: string;
  let filled: Map<string, string>;

  beforeAll(async () => {
    project = await scratchProject();
    dir = path.join(project, 'src', 'handlers');
    const created = codegen('scaffold', '--spec', 'v2.1', '--out', dir, '--quiet');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    await fillIn(path.join(dir, 'accounts.ts'), 'GetAccounts', GET_ACCOUNTS);
    await fillIn(path.join(dir, 'accounts.ts'), 'GetAccountsAccountId', GET_ACCOUNT);
    await writeFile(path.join(project, 'src', 'serve.ts'), SERVE);
    await writeFile(path.join(project, 'src', 'call.ts'), CALL);
    filled = new Map();
    for (const file of ['accounts.ts', 'bank-data-sharing-consent.ts', 'index.ts']) filled.set(file, await readFile(path.join(dir, file), 'utf8'));
  });

  it('type-checks strictly on v2.1 with hand-written handlers', () => {
    const result = tsc(project);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });

  it('updates to v2.2: bodies intact, attestation stubs added, imports on /v2.2, tsc clean, second run a no-op', async () => {
    const check = codegen('scaffold', '--spec', 'v2.2', '--out', dir, '--check');
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('would update from v2.1 to v2.2');
    expect(await readFile(path.join(dir, 'accounts.ts'), 'utf8')).toBe(filled.get('accounts.ts'));

    const update = codegen('scaffold', '--spec', 'v2.2', '--out', dir);
    expect(update.stderr).toBe('');
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('updated from v2.1 to v2.2');
    expect(update.stdout).toMatch(/stub +\S*bank-data-sharing-consent\.ts:\d+ +ReadAccountAccessConsentAttestations/);
    expect(update.stdout).toMatch(/stub +\S*bank-data-sharing-consent\.ts:\d+ +CreateAccountAccessConsentAttestation/);
    expect(update.stdout).toContain('type-check: clean');

    const v21 = (t: string) => t.replace(/\/v2\.2'/g, "/v2.1'");
    for (const [file, before] of filled) {
      const after = await readFile(path.join(dir, file), 'utf8');
      expect(after).not.toContain("/v2.1'");
      expect(onlyInsertions(before, after, [["/v2.1'", "/v2.2'"]]), file).toBe(true);
      if (file === 'accounts.ts') expect(v21(after)).toBe(before);
    }
    const accounts = await readFile(path.join(dir, 'accounts.ts'), 'utf8');
    expect(accounts).toContain(GET_ACCOUNTS);
    expect(accounts).toContain(GET_ACCOUNT);
    expect(accounts).toContain("import type { Handlers } from '@bank-data-sharing/server-stubs/v2.2';");
    const consent = await readFile(path.join(dir, 'bank-data-sharing-consent.ts'), 'utf8');
    expect(consent).toContain("export const ReadAccountAccessConsentAttestations: Handlers['ReadAccountAccessConsentAttestations'] = async () => {");
    expect(consent).toContain("export const CreateAccountAccessConsentAttestation: Handlers['CreateAccountAccessConsentAttestation'] = async () => {");

    const result = tsc(project);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);

    const again = codegen('scaffold', '--spec', 'v2.2', '--out', dir, '--check');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to change');
  });

  it('serves a request through the updated handlers to the generated client over 127.0.0.1, and 501 from a stub', async () => {
    const { start } = (await import(path.join(project, 'src', 'serve.ts'))) as typeof import('./end-to-end-types.js');
    const { client } = (await import(path.join(project, 'src', 'call.ts'))) as typeof import('./end-to-end-types.js');
    const server = await start();
    try {
      const api = client(server.origin);
      const accounts = await api.GetAccounts();
      expect(accounts.status).toBe(200);
      expect(accounts.body.Data.Account).toStrictEqual([{ AccountId: 'acc-001', Currency: 'AED', Nickname: 'Salary' }]);
      expect(accounts.body.Links.Self).toBe(`${server.origin}/open-finance/account-information/v2.2/accounts`);
      const missing = await api.GetAccountsAccountId({ path: { AccountId: 'acc-404' } }).then(
        () => undefined,
        (error: { status?: number }) => error.status,
      );
      expect(missing).toBe(404);
      const stub = await api.ReadAccountAccessConsentAttestations({ path: { ConsentId: 'c-1' } }).then(
        () => undefined,
        (error: { status?: number }) => error.status,
      );
      expect(stub).toBe(501);
    } finally {
      await server.close();
    }
  });
});
