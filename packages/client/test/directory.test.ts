import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import {
  buildTppReport,
  ConfigError,
  createDirectoryClient,
  DirectoryAuthError,
  EXIT,
  formatCsv,
  formatTable,
  parseDirectoryConfig,
  resolveEndpoints,
  runCli,
  type CliIo,
  type TppReport,
} from '../src/directory/index.js';
import { TokenError } from '../src/runtime/index.js';
import { directoryHandler, sampleDirectory, type DirectoryStats } from './helpers/directory-server.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function newStats(): DirectoryStats {
  return { tokenRequests: 0, inFlight: 0, maxInFlight: 0 };
}

async function serve(data = sampleDirectory(), stats = newStats()) {
  // A short pause in the statements handler lets concurrent requests overlap.
  server = await startServer(directoryHandler(data, stats, () => new Promise((r) => setTimeout(r, 5))));
  const endpoints = { authUrl: `${server.origin}/auth`, apiUrl: `${server.origin}/api` };
  return { server, stats, endpoints, data };
}

describe('directory client', () => {
  it('gets a client-credentials token with the form of section 4.8, without a bearer', async () => {
    const { endpoints, stats, server } = await serve();
    const directory = createDirectoryClient({ endpoints, clientId: 'tpp-reporter' });
    expect(await directory.token()).toBe('dir-token-1');
    expect(stats.tokenRequests).toBe(1);
    expect(server.requests[0]!.method).toBe('POST');
    expect(new URLSearchParams(server.requests[0]!.body).toString()).toBe('grant_type=client_credentials&scope=directory%3Asoftware&client_id=tpp-reporter');
  });

  it('lists organisations leniently: bad entries are reported, the rest kept', async () => {
    const { endpoints } = await serve();
    const directory = createDirectoryClient({ endpoints, clientId: 'tpp-reporter' });
    const listing = await directory.organisations();
    expect(listing.total).toBe(7);
    expect(listing.items.map((o) => o.OrganisationId)).toEqual(['org-alpha', 'org-bank', 'org-broken', 'org-odd', 'org-gamma', 'org-delta']);
    expect(listing.problems.map((p) => p.where)).toEqual(['organisations[3]', 'organisations[4]', 'organisations[6]']);
    expect(listing.problems[0]!.issues.join(' ')).toMatch(/OrganisationId/);
    expect(listing.problems[1]!.issues.join(' ')).toMatch(/Size: Invalid string: must match pattern/);
    expect(listing.problems[2]!.issues.join(' ')).toMatch(/^OrganisationName: /);
  });
});

describe('TPP software-statement report', () => {
  it('keeps the TPPs, fills OrganisationId, reports bad data and the failing organisation', async () => {
    const { endpoints, stats } = await serve();
    const directory = createDirectoryClient({ endpoints, clientId: 'tpp-reporter' });
    const progress: Array<[number, number]> = [];
    const report = await buildTppReport(directory, { concurrency: 2, onProgress: (d, t) => progress.push([d, t]) });
    expect(report.organisationsListed).toBe(7);
    // alpha, broken, gamma, delta ('tpp ' kept as a near miss); not the LFI, not the '<' Size.
    expect(report.tppOrganisations).toBe(4);
    expect(report.rows).toEqual([
      { OrganisationId: 'org-alpha', OrganisationName: 'Alpha Payments', SoftwareStatementId: 'ss-a1', SoftwareClientName: 'Alpha App', Status: 'Active', SoftwareRoles: ['BDSP'] },
      { OrganisationId: 'org-alpha', OrganisationName: 'Alpha Payments', SoftwareStatementId: 'ss-a2', SoftwareClientName: 'Alpha Batch', Status: 'Inactive', SoftwareRoles: ['BDSP', 'BSIP'] },
      { OrganisationId: 'org-gamma', OrganisationName: 'Gamma, "Quoted" Co', SoftwareStatementId: 'ss-g1', SoftwareClientName: '=cmd()', Status: 'Active', SoftwareRoles: ['BSIP'] },
      { OrganisationId: 'org-gamma', OrganisationName: 'Gamma, "Quoted" Co', SoftwareStatementId: 'ss-g2', SoftwareClientName: 'Gamma Two', Status: 'Active', SoftwareRoles: [] },
      { OrganisationId: 'org-delta', OrganisationName: '', SoftwareStatementId: 'ss-d1', SoftwareClientName: 'Delta', Status: 'Active', SoftwareRoles: [] },
    ]);
    expect(report.failures).toEqual([{ OrganisationId: 'org-broken', OrganisationName: 'Broken Statements Ltd', status: 500, error: 'getOrganisationSoftwareStatements failed with HTTP 500' }]);
    expect(report.problems.map((p) => p.where)).toEqual(['organisations[3]', 'organisations[4]', 'organisations[6]', 'organisation org-delta']);
    expect(stats.maxInFlight).toBeLessThanOrEqual(2);
    expect(stats.tokenRequests).toBe(1);
    expect(progress.at(-1)).toEqual([4, 4]);
  });

  it('follows page objects of the organisations list', async () => {
    const data = sampleDirectory();
    data.organisations = [
      { content: [{ OrganisationId: 'org-alpha', OrganisationName: 'Alpha Payments', Size: 'TPP' }], totalPages: 2, pageNumber: 0 },
      { content: [{ OrganisationId: 'org-delta', OrganisationName: 'Delta', Size: 'TPP' }], totalPages: 2, pageNumber: 1 },
    ];
    const { endpoints } = await serve(data);
    const report = await buildTppReport(createDirectoryClient({ endpoints, clientId: 'tpp-reporter' }));
    expect(report.rows.map((r) => r.SoftwareStatementId)).toEqual(['ss-a1', 'ss-a2', 'ss-d1']);
  });

  it('fails as a whole only when the organisation list cannot be read', async () => {
    const { endpoints } = await serve();
    const directory = createDirectoryClient({ endpoints, clientId: 'someone-else' });
    const error = await buildTppReport(directory).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenError);
    expect((error as TokenError).cause).toBeInstanceOf(DirectoryAuthError);
    expect((error as Error).message).toMatch(/^could not get an access token: the directory refused the token request \(HTTP 400, invalid_request: bad form: /);
  });
});

describe('report formats', () => {
  const report: TppReport = {
    organisationsListed: 1,
    tppOrganisations: 1,
    rows: [{ OrganisationId: 'o1', OrganisationName: 'A, "B"', SoftwareStatementId: 's1', SoftwareClientName: '=HYPERLINK()', Status: 'Active\u001b[31m', SoftwareRoles: ['BDSP', 'BSIP'] }],
    problems: [],
    failures: [],
  };

  it('writes RFC 4180 CSV and neutralises formula cells', () => {
    expect(formatCsv(report)).toBe(
      'OrganisationId,OrganisationName,SoftwareStatementId,SoftwareClientName,Status,SoftwareRoles\r\n' +
        `o1,"A, ""B""",s1,'=HYPERLINK(),Active\u001b[31m,BDSP BSIP\r\n`,
    );
  });

  it('aligns a table and strips terminal control characters', () => {
    const lines = formatTable(report).split('\n');
    expect(lines[0]).toBe('OrganisationId  OrganisationName  SoftwareStatementId  SoftwareClientName  Status       SoftwareRoles');
    expect(lines[2]).toBe('o1              A, "B"            s1                   =HYPERLINK()        Active\uFFFD[31m  BDSP BSIP');
  });
});

describe('directory configuration', () => {
  it('reads bases per environment and refuses plain http off loopback', () => {
    const config = parseDirectoryConfig(JSON.stringify({ sandbox: { authUrl: 'https://auth.sandbox.example/', apiUrl: 'https://api.sandbox.example' } }), 'cfg.json');
    expect(resolveEndpoints('sandbox', config, {})).toEqual({ authUrl: 'https://auth.sandbox.example', apiUrl: 'https://api.sandbox.example' });
    expect(() => resolveEndpoints('production', config, {})).toThrow(/no authUrl \(--auth-url\) and apiUrl \(--api-url\) configured for the production directory/);
    expect(() => resolveEndpoints('sandbox', config, { apiUrl: 'http://api.example' })).toThrow(ConfigError);
    expect(resolveEndpoints('sandbox', config, { apiUrl: 'http://127.0.0.1:9/api' }).apiUrl).toBe('http://127.0.0.1:9/api');
    expect(() => parseDirectoryConfig('{"staging":{}}', 'cfg.json')).toThrow(/unknown environment "staging"/);
  });
});

describe('bds-directory CLI', () => {
  function io(tty = false) {
    let out = '';
    let err = '';
    const value: CliIo = {
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (err += t), isTTY: tty },
      env: {},
      readFile: async (p: string) => Buffer.from(`contents of ${p}`),
      // Plain HTTP over loopback: the mTLS handshake itself is tested in mtls.test.ts.
      createMtls: () => {
        const dispatcher = new Agent();
        return { dispatcher, fetch: (input, init) => fetch(input, init), close: () => dispatcher.close() };
      },
    };
    return { value, out: () => out, err: () => err };
  }

  const args = (endpoints: { authUrl: string; apiUrl: string }, ...extra: string[]) => [
    'report',
    '--auth-url',
    endpoints.authUrl,
    '--api-url',
    endpoints.apiUrl,
    '--client-id',
    'tpp-reporter',
    '--cert',
    'client.pem',
    '--key',
    'client.key',
    ...extra,
  ];

  it('prints CSV, lists problems on stderr, and exits 3 when an organisation failed', async () => {
    const { endpoints } = await serve();
    const cli = io();
    const code = await runCli(args(endpoints, '--format', 'csv'), cli.value);
    expect(code).toBe(EXIT.partial);
    expect(cli.out().split('\r\n')[0]).toBe('OrganisationId,OrganisationName,SoftwareStatementId,SoftwareClientName,Status,SoftwareRoles');
    expect(cli.out().split('\r\n')).toHaveLength(7);
    expect(cli.err()).toMatch(/^warning: organisations\[3\]: /m);
    expect(cli.err()).toMatch(/^error: organisation org-broken \(Broken Statements Ltd\): getOrganisationSoftwareStatements failed with HTTP 500$/m);
    expect(cli.err()).toMatch(/5 software statements from 4 TPP organisations \(7 listed\), 4 data problems, 1 organisations failed/);
    // No progress output when stderr is not a terminal.
    expect(cli.err()).not.toContain('\r');
  });

  it('prints JSON with problems and failures, and shows progress on a terminal', async () => {
    const data = sampleDirectory();
    delete data.statements['org-broken'];
    data.statements['org-broken'] = [];
    const { endpoints } = await serve(data);
    const cli = io(true);
    const code = await runCli(args(endpoints, '--format', 'json'), cli.value);
    expect(code).toBe(EXIT.ok);
    const parsed = JSON.parse(cli.out()) as TppReport;
    expect(parsed.rows).toHaveLength(5);
    expect(parsed.failures).toEqual([]);
    expect(parsed.problems).toHaveLength(4);
    expect(cli.err()).toContain('\r\x1b[KSoftware statements: 4/4 TPP organisations');
  });

  it('exits 1 with a clear message when the directory cannot be read', async () => {
    const { endpoints } = await serve();
    const cli = io();
    const code = await runCli(['report', ...args(endpoints).slice(1).map((a) => (a === 'tpp-reporter' ? 'unknown-client' : a))], cli.value);
    expect(code).toBe(EXIT.failed);
    expect(cli.out()).toBe('');
    expect(cli.err()).toBe(
      'bds-directory: could not get an access token: the directory refused the token request ' +
        '(HTTP 400, invalid_request: bad form: grant_type=client_credentials&scope=directory%3Asoftware&client_id=unknown-client)\n',
    );
  });

  it('exits 1 when the configuration is incomplete, 2 on wrong usage, 0 with --help', async () => {
    const missing = io();
    expect(await runCli(['report', '--client-id', 'x', '--cert', 'c', '--key', 'k'], missing.value)).toBe(EXIT.failed);
    expect(missing.err()).toMatch(/no authUrl \(--auth-url\) and apiUrl \(--api-url\) configured for the sandbox directory/);

    const usage = io();
    expect(await runCli(['report', '--client-id', 'x'], usage.value)).toBe(EXIT.usage);
    expect(usage.err()).toMatch(/--cert is required/);
    expect(await runCli(['report', '--format', 'xml', '--cert', 'c', '--key', 'k', '--client-id', 'x'], usage.value)).toBe(EXIT.usage);
    expect(usage.err()).toMatch(/--format must be one of table, csv, json/);
    expect(await runCli(['list'], usage.value)).toBe(EXIT.usage);

    const help = io();
    expect(await runCli(['--help'], help.value)).toBe(EXIT.ok);
    expect(help.out()).toMatch(/^Usage: bds-directory report/);
    expect(help.out()).toMatch(/Exit codes:/);
  });
});
