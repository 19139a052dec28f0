// The release, end to end, against a real registry: a Verdaccio on 127.0.0.1 with its own
// storage, `pnpm release` publishing into it, and a service in a folder outside the workspace
// that installs the packages with plain `npm install` and uses them as any other team would.
//
// Verdaccio serves the @bank-data-sharing scope from its own storage only (never from an
// uplink, so a stranger's package by that name cannot come in) and everything else (zod,
// Express) through an uplink to the registry this machine's npm is configured with.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../..');
const PNPM = path.join(ROOT, 'node_modules/pnpm/bin/pnpm.cjs');
const TSC = require.resolve('typescript/bin/tsc');
const PUBLISHED = ['validators', 'wire', 'server-stubs', 'client', 'codegen'];
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** Time limits of each step: a stuck step fails the test instead of hanging CI. */
const LIMIT = { start: 60_000, release: 600_000, install: 600_000, step: 120_000 } as const;

interface Registry {
  url: string;
  child: ChildProcess;
  output: string[];
}

let work: string; // temp folder: Verdaccio's config and storage, npm's cache, the npmrc files
let consumer: string; // the scratch service, also under the temp folder
let registry: Registry | undefined;
let childEnv: NodeJS.ProcessEnv;

/**
 * The environment for npm and pnpm: without the npm_config_* variables the test runner's own
 * pnpm exported (they would override the npmrc files below), with this Node first on PATH.
 */
function cleanEnv(userconfig: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || /^pnpm_/i.test(key) || key.startsWith('TURBO_') || key === 'VITEST' || key.startsWith('VITEST_')) continue;
    env[key] = value;
  }
  env['PATH'] = `${path.dirname(process.execPath)}${path.delimiter}${process.env['PATH'] ?? ''}`;
  env['NPM_CONFIG_USERCONFIG'] = userconfig;
  env['NPM_CONFIG_CACHE'] = path.join(work, 'npm-cache');
  env['NPM_CONFIG_UPDATE_NOTIFIER'] = 'false';
  env['NPM_CONFIG_FUND'] = 'false';
  env['NPM_CONFIG_AUDIT'] = 'false';
  env['TURBO_TELEMETRY_DISABLED'] = '1';
  return env;
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The registry npm uses on this machine, for Verdaccio's uplink (read, never written down). */
async function upstreamRegistry(): Promise<string> {
  const { stdout } = await run('npm', ['config', 'get', 'registry'], { env: { ...process.env, NPM_CONFIG_UPDATE_NOTIFIER: 'false' }, timeout: LIMIT.step });
  const url = stdout.trim();
  expect(url).toMatch(/^https?:\/\//);
  return url;
}

async function startVerdaccio(): Promise<Registry> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const upstream = await upstreamRegistry();
  const config = [
    `storage: ${JSON.stringify(path.join(work, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(path.join(work, 'htpasswd'))}`,
    '    max_users: 1',
    'uplinks:',
    '  upstream:',
    `    url: ${JSON.stringify(upstream)}`,
    '    timeout: 120s',
    '    maxage: 30m',
    'packages:',
    "  '@bank-data-sharing/*':",
    '    access: $all',
    '    publish: $authenticated',
    '    unpublish: $authenticated',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    '    proxy: upstream',
    'web:',
    '  enable: false',
    'logs: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
  const configFile = path.join(work, 'verdaccio.yaml');
  await writeFile(configFile, config);
  const bin = path.join(path.dirname(require.resolve('verdaccio/package.json')), 'bin/verdaccio');
  const child = spawn(process.execPath, [bin, '--config', configFile, '--listen', `127.0.0.1:${port}`], {
    cwd: work,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const started: Registry = { url, child, output };

  // Ready when it answers its ping; bounded by LIMIT.start, and over at once if it exits.
  const deadline = Date.now() + LIMIT.start;
  while (true) {
    if (child.exitCode !== null) throw new Error(`Verdaccio exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      const answer = await fetch(`${url}-/ping`, { signal: AbortSignal.timeout(2_000) });
      if (answer.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`Verdaccio did not answer within ${LIMIT.start} ms:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return started;
}

async function stopVerdaccio(stopped: Registry): Promise<void> {
  const { child } = stopped;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** A user on the registry (Verdaccio's htpasswd lets the first one register): its token. */
async function registryToken(url: string): Promise<string> {
  const name = 'release-test';
  const answer = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: `pw-${process.pid}-${Date.now()}`, type: 'user', roles: [] }),
    signal: AbortSignal.timeout(LIMIT.step),
  });
  const body = (await answer.json()) as { token?: string };
  expect(answer.status, JSON.stringify(body)).toBe(201);
  return body.token!;
}

async function tsc(project: string): Promise<string> {
  try {
    await run(process.execPath, [TSC, '-p', project], { cwd: consumer, timeout: LIMIT.step });
    return '';
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}` || failed.message;
  }
}

async function node(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return await run(process.execPath, args, { cwd: consumer, env: childEnv, timeout: LIMIT.step });
}

const manifest = async (name: string) => JSON.parse(await readFile(path.join(ROOT, 'packages', name, 'package.json'), 'utf8'));

const cleanupOnExit = () => {
  if (registry && registry.child.exitCode === null) registry.child.kill('SIGKILL');
};

describe('the packages, released to a registry and installed by another service', () => {
  beforeAll(async () => {
    process.once('exit', cleanupOnExit);
    work = await mkdtemp(path.join(os.tmpdir(), 'bds-registry-'));
    registry = await startVerdaccio();
    const token = await registryToken(registry.url);
    const host = registry.url.replace(/^https?:/, '');

    // The publisher: the scope points at the registry, as the README tells a team to do.
    const publisherRc = path.join(work, 'publisher.npmrc');
    await writeFile(publisherRc, `@bank-data-sharing:registry=${registry.url}\n${host}:_authToken=${token}\n`);
    const publisherEnv = cleanEnv(publisherRc);
    const { stdout: scoped } = await run(process.execPath, [PNPM, 'config', 'get', '@bank-data-sharing:registry'], { cwd: ROOT, env: publisherEnv, timeout: LIMIT.step });
    // Never publish anywhere but the registry this test started.
    expect(scoped.trim()).toBe(registry.url);
    let started = Date.now();
    await run(process.execPath, [PNPM, 'release'], { cwd: ROOT, env: publisherEnv, timeout: LIMIT.release, maxBuffer: 64 * 1024 * 1024 });

    console.log(`pnpm release: ${Math.round((Date.now() - started) / 1000)} s`);
    // The service: a folder outside the workspace, every package through the registry.
    consumer = path.join(work, 'service');
    expect(path.relative(ROOT, consumer).startsWith('..')).toBe(true);
    await mkdir(consumer);
    const consumerRc = path.join(work, 'consumer.npmrc');
    await writeFile(consumerRc, `registry=${registry.url}\n`);
    childEnv = cleanEnv(consumerRc);
    const stubs = await manifest('server-stubs');
    await writeFile(path.join(consumer, 'package.json'), JSON.stringify({ name: 'a-service', version: '1.0.0', private: true, type: 'module' }, null, 2));
    started = Date.now();
    await installWithRetry([
        'install',
        '--no-audit',
        '--no-fund',
        '@bank-data-sharing/validators',
        // The wire model the server stubs and the client depend on, also used on its own.
        '@bank-data-sharing/wire',
        '@bank-data-sharing/server-stubs',
        '@bank-data-sharing/client',
        // The generator, for the team's own OpenAPI file (own-api/).
        '@bank-data-sharing/codegen',
        `zod@${stubs.devDependencies.zod}`,
        `express@${stubs.devDependencies.express}`,
        `express4@${stubs.devDependencies.express4}`,
        // The server stubs' declarations name node:http types, as any Node service's do.
        `@types/node@${stubs.devDependencies['@types/node']}`,
        `@types/express@${stubs.devDependencies['@types/express']}`,
      ]);
    console.log(`npm install: ${Math.round((Date.now() - started) / 1000)} s`);
    await cp(path.join(HERE, 'fixtures'), consumer, { recursive: true });
    await cp(path.join(HERE, 'own-api'), path.join(consumer, 'own-api'), { recursive: true });
  }, LIMIT.start + LIMIT.release + LIMIT.install + 4 * LIMIT.step);

  /**
   * `npm install` in the service folder. Verdaccio fetches zod and Express through its uplink;
   * when that fetch fails npm reports an unresolvable peer (`ERESOLVE ... Found: zod@undefined`).
   * A failure that lasts (the uplink cannot reach the upstream registry at all: turbo.json
   * passes the machine's CA and proxy variables through for this) fails the test; a passing
   * one (a timeout on a loaded machine) is retried, twice at most. The packages of this
   * workspace never come through the uplink, so a retry cannot mask a problem with them.
   */
  async function installWithRetry(args: string[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await run('npm', args, { cwd: consumer, env: childEnv, timeout: LIMIT.install, maxBuffer: 64 * 1024 * 1024 });
        return;
      } catch (error) {
        const text = String((error as { stderr?: unknown }).stderr ?? error);
        const upstream = /ERESOLVE|ETIMEDOUT|ECONNRESET|E50[0-9]|socket hang up/.test(text);
        if (!upstream || attempt === 3) throw error;
        console.log(`npm install, attempt ${attempt}: the registry's uplink failed (${text.split('\n').find((l) => /ERR|ERESOLVE|E50/.test(l)) ?? 'see above'}); retrying`);
      }
    }
  }

  afterAll(async () => {
    if (registry) await stopVerdaccio(registry);
    process.removeListener('exit', cleanupOnExit);
    if (work) await rm(work, { recursive: true, force: true });
  }, 30_000);

  it('published every public package at its version, with real versions for workspace dependencies', async () => {
    for (const name of PUBLISHED) {
      const local = await manifest(name);
      const answer = await fetch(`${registry!.url}${local.name.replace('/', '%2f')}`, { signal: AbortSignal.timeout(LIMIT.step) });
      expect(answer.status, local.name).toBe(200);
      const doc = (await answer.json()) as { 'dist-tags': { latest: string }; versions: Record<string, Record<string, unknown>> };
      expect(doc['dist-tags'].latest).toBe(local.version);
      const published = doc.versions[local.version]!;
      for (const field of ['dependencies', 'peerDependencies'] as const) {
        for (const range of Object.values((published[field] ?? {}) as Record<string, string>)) expect(range).not.toMatch(/^workspace:/);
      }
      // The version says which spec versions it carries.
      expect(published['bankDataSharing']).toStrictEqual(local.bankDataSharing);
    }
    const client = await manifest('client');
    const validators = await manifest('validators');
    const wire = await manifest('wire');
    const installed = JSON.parse(await readFile(path.join(consumer, 'node_modules/@bank-data-sharing/client/package.json'), 'utf8'));
    expect(installed.dependencies['@bank-data-sharing/validators']).toBe(validators.version);
    expect(client.dependencies['@bank-data-sharing/validators']).toBe('workspace:*');
    // Both runtimes depend on the wire model at its released version.
    for (const name of ['client', 'server-stubs']) {
      const runtime = JSON.parse(await readFile(path.join(consumer, `node_modules/@bank-data-sharing/${name}/package.json`), 'utf8'));
      expect(runtime.dependencies['@bank-data-sharing/wire'], name).toBe(wire.version);
    }
  });

  it('imports the validators and the wire model from an ES module', async () => {
    const { stdout } = await node(['esm.mjs']);
    expect(JSON.parse(stdout)).toStrictEqual({ ok: true, bad: false, guard: true, prefix: '/open-finance/account-information/v2.2', spec: 'v2.2', wire: ['ids=a|b'] });
  });

  it('requires the validators, the server stubs and the wire model from CommonJS (require of ES modules, Node 20.19 and later)', async () => {
    const { stdout } = await node(['cjs.cjs']);
    expect(JSON.parse(stdout)).toStrictEqual({ ok: true, bad: false, guard: true, router: 'function', directory: true, wire: { title: 'Not Found', ids: ['a', 'b'] } });
  });

  // node16 also checks the packages' own declaration files (skipLibCheck off); the others skip them.
  it.each(['node16', 'nodenext', 'bundler'])('type-checks service code under moduleResolution %s', async (resolution) => {
    expect(await tsc(`tsconfig.${resolution}.json`)).toBe('');
  });

  it('type-checks a CommonJS TypeScript file that requires the validators under nodenext', async () => {
    expect(await tsc('tsconfig.cjs-nodenext.json')).toBe('');
  });

  it('says why a CommonJS TypeScript file cannot require them under node16', async () => {
    // TypeScript's node16 mode predates require(esm): it reports TS1471 ("The specifier only
    // resolves to an ES module, which cannot be imported with 'require'"), as the README explains.
    const out = await tsc('tsconfig.cjs-node16.json');
    expect(out).toContain('TS1471');
    expect(out).toContain('@bank-data-sharing/validators/v2.2');
  });

  it.each([
    ['Express 5', 'express', /^5\./],
    ['Express 4', 'express4', /^4\./],
  ])('serves a route with the server stubs on %s and reads it with the client over 127.0.0.1', async (_label, module, version) => {
    const { stdout } = await node(['serve-and-read.mjs', module]);
    const read = JSON.parse(stdout);
    expect(read.express).toMatch(version);
    expect(read).toMatchObject({ status: 200, ids: ['acc-001', 'acc-002'], allAccounts: true, readAll: 2, withoutToken: 401 });
  });

  it.skipIf(NODE_MAJOR < 22)('runs on Node 22 and later without warnings about loading ES modules', async () => {
    const { stderr } = await node(['cjs.cjs']);
    expect(stderr).not.toMatch(/ExperimentalWarning/);
  });

  // The README's "Use it with your own OpenAPI file": a file nobody here wrote (own-api/openapi.yaml,
  // RFC 9457 problem details for errors), generated with the installed generator, compiled by
  // strict TypeScript (the packages' declarations included) and run: the server mounted on
  // Express, called through the generated client.
  it("generates a team's own OpenAPI file, type-checks it strictly and serves and calls it", async () => {
    const ownApi = path.join(consumer, 'own-api');
    const cli = path.join(consumer, 'node_modules/@bank-data-sharing/codegen/bin/codegen.mjs');
    await run(process.execPath, [cli, 'generate', '--spec', 'openapi.yaml', '--out', 'api'], { cwd: ownApi, env: childEnv, timeout: LIMIT.step });
    expect(await tsc(path.join('own-api', 'tsconfig.json'))).toBe('');
    const { stdout } = await run(process.execPath, [path.join(ownApi, 'dist/service.js')], { cwd: ownApi, env: childEnv, timeout: LIMIT.step });
    const seen = JSON.parse(stdout);
    expect(seen).toMatchObject({ added: 201, titles: ['Middlemarch'], missing: 404 });
    expect(seen.invalid.status).toBe(400);
    expect(seen.invalid.contentType).toBe('application/problem+json');
    expect(seen.invalid.body).toMatchObject({ type: expect.any(String), title: 'Bad Request', status: 400, detail: expect.stringContaining('limit') });
    // The file declares no interaction id, so none is sent.
    expect(seen.invalid.interactionId).toBeNull();
  });

  // The README's "Without a registry": `npm run pack -- <dir>` from another folder (the folder
  // is read from where the command was started), and plain npm installing the tarballs
  // together into an empty folder. The @bank-data-sharing scope points at a closed port, so
  // every one of our packages must come from the tarballs; zod, Express and the rest come
  // through the registry above, which has them cached from the install before (this adds
  // seconds to the test, not a second download).
  describe('without a registry: the packed tarballs, installed with plain npm', () => {
    let folder: string;
    let tarballEnv: NodeJS.ProcessEnv;
    const inFolder = async (command: string, args: string[]) => await run(command, args, { cwd: folder, env: tarballEnv, timeout: LIMIT.step });

    beforeAll(async () => {
      const packEnv = cleanEnv(path.join(work, 'publisher.npmrc'));
      await run('npm', ['--prefix', ROOT, 'run', 'pack', '--', 'tarballs', '--no-build'], { cwd: work, env: packEnv, timeout: LIMIT.release, maxBuffer: 64 * 1024 * 1024 });
      const tarballs = (await readdir(path.join(work, 'tarballs'))).filter((file) => file.endsWith('.tgz')).sort();
      expect(tarballs).toStrictEqual(await Promise.all(PUBLISHED.map(async (name) => `bank-data-sharing-${name}-${(await manifest(name)).version}.tgz`)).then((all) => all.sort()));

      folder = path.join(work, 'from-tarballs');
      await mkdir(folder);
      const rc = path.join(work, 'tarballs.npmrc');
      // npm still asks the scope's registry about the packages' dependencies among themselves
      // (wire, validators) and, finding none, takes the tarballs beside them: no retries, so
      // that takes no time.
      await writeFile(rc, `registry=${registry!.url}\n@bank-data-sharing:registry=http://127.0.0.1:9/\nfetch-retries=0\n`);
      tarballEnv = cleanEnv(rc);
      await writeFile(path.join(folder, 'package.json'), JSON.stringify({ name: 'from-tarballs', version: '1.0.0', private: true }, null, 2));
      await run('npm', ['install', '--no-audit', '--no-fund', ...tarballs.map((file) => path.join(work, 'tarballs', file))], { cwd: folder, env: tarballEnv, timeout: LIMIT.install });
      // Every one of ours came from its tarball.
      const lock = JSON.parse(await readFile(path.join(folder, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
      for (const name of PUBLISHED) expect(lock.packages[`node_modules/@bank-data-sharing/${name}`]?.resolved, name).toMatch(/^file:.*\.tgz$/);
      await cp(path.join(HERE, 'fixtures', 'esm.mjs'), path.join(folder, 'esm.mjs'));
      await cp(path.join(HERE, 'fixtures', 'cjs.cjs'), path.join(folder, 'cjs.cjs'));
    }, LIMIT.release + LIMIT.install);

    it('resolves the workspace dependencies to the versions packed beside them', async () => {
      const wire = await manifest('wire');
      const installed = JSON.parse(await readFile(path.join(folder, 'node_modules/@bank-data-sharing/server-stubs/package.json'), 'utf8'));
      expect(installed.dependencies['@bank-data-sharing/wire']).toBe(wire.version);
    });

    it('runs npx bds-codegen there', async () => {
      const { stdout } = await inFolder('npx', ['--no-install', 'bds-codegen', '--help']);
      expect(stdout).toMatch(/^Usage: codegen <command>/);
    });

    it('imports the packages from an ES module and requires them from CommonJS', async () => {
      const esm = JSON.parse((await inFolder(process.execPath, ['esm.mjs'])).stdout);
      expect(esm).toMatchObject({ ok: true, bad: false, spec: 'v2.2', wire: ['ids=a|b'] });
      const cjs = JSON.parse((await inFolder(process.execPath, ['cjs.cjs'])).stdout);
      expect(cjs).toMatchObject({ ok: true, router: 'function', directory: true });
    });
  });

  // The README's "Test your server against the contract": the installed `bds-codegen test`
  // (which finds the installed server stubs beside it) checks a running server written by hand
  // against its file and writes a JUnit report; a server with a defect makes it exit 1.
  it('checks a running server against its file with the installed codegen test, writing JUnit', async () => {
    const { startPlantedServer } = (await import(pathToFileURL(path.join(ROOT, 'packages/codegen/test/server-test/planted/planted-server.mjs')).href)) as typeof import('../../../packages/codegen/test/server-test/planted/planted-server.mjs');
    const spec = path.join(ROOT, 'packages/codegen/test/server-test/planted/inventory.yaml');
    const bin = path.join(consumer, 'node_modules/.bin/bds-codegen');
    const correct = await startPlantedServer();
    const broken = await startPlantedServer({ defect: 'wrong-type' });
    try {
      const junit = path.join(consumer, 'reports/contract.xml');
      const ok = await run(bin, ['test', '--spec', spec, '--base-url', correct.url, '--auth', 'good-token', '--max-examples', '5', '--junit', junit], { cwd: consumer, env: childEnv, timeout: LIMIT.step });
      expect(ok.stdout).toMatch(/No failures: 3 operation\(s\)/);
      expect(await readFile(junit, 'utf8')).toMatch(/<testsuites name="codegen test" tests="3" failures="0"/);
      const failed = await run(bin, ['test', '--spec', spec, '--base-url', broken.url, '--auth', 'good-token', '--max-examples', '5'], { cwd: consumer, env: childEnv, timeout: LIMIT.step }).then(
        () => ({ code: 0, stdout: '' }),
        (error: { code?: number; stdout?: string }) => ({ code: error.code, stdout: error.stdout ?? '' }),
      );
      expect(failed.code).toBe(1);
      expect(failed.stdout).toContain('getItem (GET /items/{itemId}) — response-body');
    } finally {
      await correct.close();
      await broken.close();
    }
  });
});
