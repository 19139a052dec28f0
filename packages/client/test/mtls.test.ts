/**
 * The directory over real mutual TLS: certificates are made at test time with the openssl
 * command (a throwaway CA, a server certificate for 127.0.0.1, client certificates), and an
 * HTTPS loopback server that requires a client certificate signed by that CA.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTppReport, createDirectoryClient, createMtlsFetch } from '../src/directory/index.js';
import { NetworkError, TokenError } from '../src/runtime/index.js';
import { directoryHandler, sampleDirectory } from './helpers/directory-server.js';
import { startServer, type TestServer } from './helpers/server.js';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
if (!hasOpenssl) console.log('mtls.test.ts: skipped, the openssl command is not available to make test certificates');

let dir = '';
let server: TestServer | undefined;
const file = (name: string) => path.join(dir, name);
const read = (name: string) => readFileSync(file(name));

/** A key and a certificate for `cn`, signed by `ca` (or self-signed). */
function issue(name: string, cn: string, ca: string | undefined, extensions: string): void {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  ssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`);
  writeFileSync(file(`${name}.ext`), `${extensions}\n`);
  if (ca === undefined) {
    ssl('req', '-x509', '-new', '-key', `${name}.key`, '-subj', `/CN=${cn}`, '-days', '2', '-out', `${name}.pem`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=keyCertSign');
    return;
  }
  ssl('req', '-new', '-key', `${name}.key`, '-subj', `/CN=${cn}`, '-out', `${name}.csr`);
  ssl('x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-days', '2', '-extfile', `${name}.ext`, '-out', `${name}.pem`);
}

describe.skipIf(!hasOpenssl)('directory over mutual TLS', () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bds-mtls-'));
    issue('ca', 'Test Directory CA', undefined, '');
    issue('server', '127.0.0.1', 'ca', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth');
    issue('client', 'tpp-reporter-transport', 'ca', 'extendedKeyUsage=clientAuth');
    issue('rogue-ca', 'Rogue CA', undefined, '');
    issue('rogue', 'rogue-client', 'rogue-ca', 'extendedKeyUsage=clientAuth');
    server = await startServer(directoryHandler(sampleDirectory(), { tokenRequests: 0, inFlight: 0, maxInFlight: 0 }), {
      tls: { key: read('server.key'), cert: read('server.pem'), ca: read('ca.pem'), requestCert: true, rejectUnauthorized: true },
    });
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const endpoints = () => ({ authUrl: `${server!.origin}/auth`, apiUrl: `${server!.origin}/api` });

  it('presents the client certificate on every request (token and API)', async () => {
    const mtls = createMtlsFetch({ cert: read('client.pem'), key: read('client.key'), ca: read('ca.pem') });
    try {
      const directory = createDirectoryClient({ endpoints: endpoints(), clientId: 'tpp-reporter', fetch: mtls.fetch });
      const report = await buildTppReport(directory);
      expect(report.rows.map((r) => r.SoftwareStatementId)).toEqual(['ss-a1', 'ss-a2', 'ss-g1', 'ss-g2', 'ss-d1']);
      expect(new Set(server!.requests.map((r) => r.peerCommonName))).toEqual(new Set(['tpp-reporter-transport']));
    } finally {
      await mtls.close();
    }
  });

  it('presents the client certificate through the built-in transport (dispatcher)', async () => {
    const mtls = createMtlsFetch({ cert: read('client.pem'), key: read('client.key'), ca: read('ca.pem') });
    try {
      const seen = server!.requests.length;
      const directory = createDirectoryClient({ endpoints: endpoints(), clientId: 'tpp-reporter', dispatcher: mtls.dispatcher });
      const report = await buildTppReport(directory);
      expect(report.rows).toHaveLength(5);
      const names = server!.requests.slice(seen).map((r) => r.peerCommonName);
      expect(names.length).toBeGreaterThan(1);
      expect(new Set(names)).toEqual(new Set(['tpp-reporter-transport']));
    } finally {
      await mtls.close();
    }
  });

  it('fails the handshake with a certificate the directory does not trust', async () => {
    const mtls = createMtlsFetch({ cert: read('rogue.pem'), key: read('rogue.key'), ca: read('ca.pem') });
    try {
      for (const transport of [{ fetch: mtls.fetch }, { dispatcher: mtls.dispatcher }]) {
        const directory = createDirectoryClient({ endpoints: endpoints(), clientId: 'tpp-reporter', ...transport, retry: false });
        const error = await directory.token().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NetworkError);
      }
    } finally {
      await mtls.close();
    }
  });

  it('refuses to connect without a client certificate at all', async () => {
    const directory = createDirectoryClient({ endpoints: endpoints(), clientId: 'tpp-reporter', retry: false });
    const error = await directory.organisations().catch((e: unknown) => e);
    // The platform fetch neither trusts the test CA nor presents a certificate.
    expect(error).toBeInstanceOf(TokenError);
    expect((error as TokenError).cause).toBeInstanceOf(NetworkError);
  });

  const bin = path.join(packageRoot, 'bin', 'bds-directory.mjs');
  const built = existsSync(path.join(packageRoot, 'dist', 'directory', 'cli.js'));
  if (!built) console.log('mtls.test.ts: the bds-directory end-to-end run is skipped until the package is built (pnpm build)');

  it.skipIf(!built)('bds-directory prints the report over mTLS and exits 3 for the failing organisation', async () => {
    const { authUrl, apiUrl } = endpoints();
    // Asynchronous: the server answering it runs in this process.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [bin, 'report', '--auth-url', authUrl, '--api-url', apiUrl, '--client-id', 'tpp-reporter', '--cert', file('client.pem'), '--key', file('client.key'), '--ca', file('ca.pem'), '--format', 'table'],
        { encoding: 'utf8', timeout: 60_000 },
        (_error, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
      );
    });
    expect(run.stderr).toMatch(/error: organisation org-broken/);
    expect(run.status).toBe(3);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^OrganisationId +OrganisationName +SoftwareStatementId +SoftwareClientName +Status +SoftwareRoles$/);
    expect(lines.slice(2).map((l) => l.split(/ {2,}/)[0])).toEqual(['org-alpha', 'org-alpha', 'org-gamma', 'org-gamma', 'org-delta']);
  });
});
