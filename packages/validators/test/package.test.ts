import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** pnpm when the tests run under it (it rewrites workspace: ranges when packing), npm otherwise. */
function packCommand(): [string, string[]] {
  const exec = process.env['npm_execpath'];
  if (exec && /pnpm/.test(exec)) return [process.execPath, [exec, 'pack', '--pack-destination']];
  return ['npm', ['pack', '--silent', '--pack-destination']];
}

describe.skipIf(!existsSync(path.join(PACKAGE_DIR, 'dist/generated/v2.2/index.js')))('the packed package, installed in a scratch project', () => {
  let project: string;

  beforeAll(async () => {
    project = await mkdtemp(path.join(os.tmpdir(), 'bds-validators-consumer-'));
    const [command, args] = packCommand();
    execFileSync(command, [...args, project], { cwd: PACKAGE_DIR, stdio: 'pipe' });
    const tarball = (await readdir(project)).find((f) => f.endsWith('.tgz'))!;
    await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // Installed by hand, offline: the package has no dependencies, only zod as a peer, so
    // unpacking it into node_modules is what any package manager would do.
    const target = path.join(project, 'node_modules/@bank-data-sharing/validators');
    await mkdir(target, { recursive: true });
    execFileSync('tar', ['-xzf', path.join(project, tarball), '-C', target, '--strip-components=1']);
    await symlink(path.dirname(require.resolve('zod/package.json')), path.join(project, 'node_modules/zod'), 'dir');
  }, 120_000);

  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('imports a version subpath and validates with it', () => {
    const script = [
      "import { Links, schemas, api } from '@bank-data-sharing/validators/v2.2';",
      "const ok = Links.safeParse({ Self: 'https://hub.example/x' }).success;",
      "const bad = schemas.Links.safeParse({ Self: 'https://hub.example/x', Extra: 1 }).success;",
      'console.log(JSON.stringify({ ok, bad, prefix: api.pathPrefix }));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
    expect(JSON.parse(out)).toStrictEqual({ ok: true, bad: false, prefix: '/open-finance/account-information/v2.2' });
  });

  it('resolves its types for TypeScript consumers', async () => {
    await writeFile(
      path.join(project, 'check.ts'),
      [
        "import { isLinks, type Links } from '@bank-data-sharing/validators/v2.2';",
        "export const links: Links = { Self: 'https://hub.example/x' };",
        // The check function is a type guard: after it, the value has the schema's type.
        'export function self(value: unknown): string | undefined {',
        '  return isLinks(value) ? value.Self : undefined;',
        '}',
        '',
      ].join('\n'),
    );
    const tsc = require.resolve('typescript/bin/tsc');
    const out = execFileSync(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', 'check.ts'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(out).toBe('');
  });

  it('tree-shakes: importing one schema does not bring in the others', async () => {
    const entry = path.join(project, 'entry.js');
    await writeFile(entry, "import { Links } from '@bank-data-sharing/validators/v2.2';\nconsole.log(Links.safeParse({ Self: 'x' }).success);\n");
    const one = await build({ entryPoints: [entry], bundle: true, write: false, format: 'esm', platform: 'node', external: ['zod'] });
    const code = one.outputFiles[0]!.text;
    expect(code).toContain('Self');
    for (const unrelated of ['TransactionReference', 'StandingOrderId', 'BaseConsentId', 'GetAccountsAccountIdTransactions']) {
      expect(code).not.toContain(unrelated);
    }
    await writeFile(entry, "import { schemas } from '@bank-data-sharing/validators/v2.2';\nconsole.log(Object.keys(schemas).length);\n");
    const all = await build({ entryPoints: [entry], bundle: true, write: false, format: 'esm', platform: 'node', external: ['zod'] });
    // The control: asking for everything does bring the rest in.
    expect(all.outputFiles[0]!.text).toContain('StandingOrderId');
    expect(code.length * 10).toBeLessThan(all.outputFiles[0]!.text.length);
  });
});
