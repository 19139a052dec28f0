/**
 * `codegen test` from the command line: exit codes 0, 1 and 2, progress lines, the text,
 * JSON and JUnit reports. The server runs in this process, so the CLI is spawned
 * asynchronously.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlantedServer, type PlantedServer } from './planted/planted-server.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.resolve(HERE, '../../bin/codegen.mjs');
const SPEC = path.join(HERE, 'planted/inventory.yaml');

function codegen(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

let correct: PlantedServer;
let broken: PlantedServer;
let dir: string;
beforeAll(async () => {
  correct = await startPlantedServer();
  broken = await startPlantedServer({ defect: 'wrong-type' });
  dir = await mkdtemp(path.join(os.tmpdir(), 'codegen-test-cli-'));
});
afterAll(async () => {
  await correct.close();
  await broken.close();
  await rm(dir, { recursive: true, force: true });
});

describe('codegen test (CLI)', () => {
  it('exits 0 with a progress line per operation when nothing fails', async () => {
    const result = await codegen(['test', '--spec', SPEC, '--base-url', correct.url, '--auth', 'bearerAuth=good-token', '--max-examples', '5']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    // Producers first: the POST that creates items before the list and the item.
    expect(result.stdout).toMatch(/\[1\/3\] POST +\/items +createItem: \d+ request\(s\)/);
    expect(result.stdout).toMatch(/\[2\/3\] GET +\/items +listItems: \d+ request\(s\)/);
    expect(result.stdout).toMatch(/\n  getItem +seen 200 400 401 404/);
    expect(result.stdout).toMatch(/No failures: 3 operation\(s\), \d+ request\(s\)/);
  });

  it('exits 1 and reports the failure with a curl line; --junit writes a JUnit file', async () => {
    const junit = path.join(dir, 'reports', 'contract.xml');
    const result = await codegen(['test', '--spec', SPEC, '--base-url', broken.url, '--auth', 'good-token', '--max-examples', '5', '--junit', junit]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('getItem (GET /items/{itemId}) — response-body');
    expect(result.stdout).toContain('at /quantity');
    expect(result.stdout).toMatch(/curl -i -H 'authorization: Bearer good-token'.*\/inventory\/v1\/items\//);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="codegen test" tests="3" failures="\d+"/);
    expect(xml).toContain('<testcase classname="getItem" name="response-body">');
    expect(xml).toContain('<testcase classname="listItems" name="contract"');
  });

  it('--json prints only the report on stdout, progress on stderr', async () => {
    const result = await codegen(['test', '--spec', SPEC, '--base-url', broken.url, '--auth', 'good-token', '--max-examples', '3', '--json', '--operations', 'getItem']);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout) as { failures: Array<{ operation: string; check: string }>; operations: unknown[]; requests: number };
    expect(report.operations).toHaveLength(1);
    expect(report.requests).toBeGreaterThan(0);
    expect(report.failures.map((f) => [f.operation, f.check])).toContainEqual(['getItem', 'response-body']);
    expect(result.stderr).toMatch(/\[1\/1\] GET +\/items\/\{itemId\}/);
  });

  it('--set, --header and --no-negative shape the requests', async () => {
    const result = await codegen(['test', '--spec', SPEC, '--base-url', broken.url, '--auth', 'good-token', '--max-examples', '3', '--json', '--operations', 'getItem', '--set', 'path.itemId=itm-003', '--header', 'X-Trace: abc', '--no-negative']);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout) as { failures: Array<{ request: { url: string; headers: Record<string, string> } }>; operations: Array<{ negative: number; positive: number }> };
    expect(report.operations[0]).toMatchObject({ negative: 0 });
    expect(report.failures[0]!.request.url).toMatch(/\/items\/itm-003$/);
    expect(report.failures[0]!.request.headers['x-trace']).toBe('abc');
  });

  it('names an operation not reached, marks it skipped in JUnit, and fails the run with --require-reached', async () => {
    const junit = path.join(dir, 'unreached.xml');
    const args = ['test', '--spec', SPEC, '--base-url', correct.url, '--auth', 'good-token', '--max-examples', '3', '--operations', 'getItem', '--set', 'path.itemId=itm-998', '--junit', junit];
    const result = await codegen(args);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/getItem: .* ok, NOT REACHED \(every answer 404: the server knows no item for the --set values of itemId; pass --set with values the server knows\)/);
    expect(result.stdout).toContain('No failures; 1 operation(s) not reached: getItem, every answer 404\n1 operation(s), ');
    expect(await readFile(junit, 'utf8')).toContain('<skipped message="not reached: every answer 404: the server knows no item');
    const required = await codegen([...args, '--require-reached']);
    expect(required.status).toBe(1);
    expect(required.stderr).toContain('--require-reached: 1 operation(s) not reached');
    // Reached: --require-reached changes nothing.
    const reached = await codegen(['test', '--spec', SPEC, '--base-url', correct.url, '--auth', 'good-token', '--max-examples', '3', '--operations', 'getItem', '--set', 'path.itemId=itm-003', '--require-reached']);
    expect(reached.status).toBe(0);
  });

  it('exits 2 for wrong usage, naming the problem', async () => {
    const missing = await codegen(['test', '--spec', SPEC]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--base-url is required');
    const badUrl = await codegen(['test', '--spec', SPEC, '--base-url', 'not a url']);
    expect(badUrl.status).toBe(2);
    expect(badUrl.stderr).toContain('is not a URL');
    const unknown = await codegen(['test', '--spec', SPEC, '--base-url', correct.url, '--operations', 'nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no operation named "nope"');
    const header = await codegen(['test', '--spec', SPEC, '--base-url', correct.url, '--header', 'no colon']);
    expect(header.status).toBe(2);
    expect(header.stderr).toContain("--header takes 'Name: value'");
    const set = await codegen(['test', '--spec', SPEC, '--base-url', correct.url, '--set', 'no-equals']);
    expect(set.status).toBe(2);
    expect(set.stderr).toContain('--set takes');
    const alg = await codegen(['test', '--spec', SPEC, '--base-url', correct.url, '--sign-alg', 'ES256']);
    expect(alg.status).toBe(2);
    expect(alg.stderr).toContain('--sign-alg goes with --sign-key');
    const key = await codegen(['test', '--spec', SPEC, '--base-url', correct.url, '--sign-key', path.join(dir, 'no-such-key.pem')]);
    expect(key.status).toBe(2);
    expect(key.stderr).toContain('no-such-key.pem');
  });

  it('documents itself in --help', async () => {
    const help = await codegen(['test', '--help']);
    expect(help.status).toBe(0);
    for (const option of ['--spec', '--base-url', '--operations', '--max-examples', '--seed', '--header', '--auth', '--set', '--json', '--junit', '--require-reached']) expect(help.stdout).toContain(option);
    expect((await codegen(['mock', '--help'])).stdout).toContain('--sign-answers');
    const main = await codegen(['--help']);
    expect(main.stdout).toMatch(/\n  test +Check a running server against its OpenAPI file/);
  });
});
