/**
 * An LFI team's path: `codegen scaffold` run from a folder of its own (no codegen.config.json
 * there or above), for the hub-to-LFI contract given by its path in a checked-out repository,
 * for a copy of that contract where the server stubs are installed, and for a file of the
 * team's own (which needs `--server`, and the message says so). The scaffolded LFI handlers
 * show how to page with `lfiPage` and `transactionOrder`, and that code type-checks.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile, copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/load/load-spec.js';
import { REPO_ROOT } from '../helpers/generated.js';
import { FIXTURES, scratchProject } from '../helpers/scaffold-project.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/codegen.mjs');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const LFI_SPEC = path.join(REPO_ROOT, 'spec', 'v2.2', 'lfi-paging.yaml');

function codegen(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('codegen scaffold from a folder of its own', () => {
  // Outside the repository: no codegen.config.json in it or above it.
  let team: string;
  beforeAll(async () => {
    team = await mkdtemp(path.join(os.tmpdir(), 'bds-lfi-team-'));
  });
  afterAll(async () => {
    await rm(team, { recursive: true, force: true });
  });

  it('scaffolds the hub-to-LFI contract given by its path in the repository, typed from server-stubs/v2.2/lfi', async () => {
    const out = codegen(team, 'scaffold', '--spec', LFI_SPEC, '--out', 'src/handlers');
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const manifest = JSON.parse(await readFile(path.join(team, 'src/handlers/scaffold.json'), 'utf8'));
    expect(manifest.server).toBe('@bank-data-sharing/server-stubs/v2.2/lfi');
    const transactions = await readFile(path.join(team, 'src/handlers/transactions.ts'), 'utf8');
    expect(transactions).toContain("import type { Handlers } from '@bank-data-sharing/server-stubs/v2.2/lfi';");
    // The stub says how to page, with the contract's order for transactions.
    expect(transactions).toContain("lfiPage(records, { page: query.page, pageSize: query['page-size'], order: transactionOrder })");
    expect(transactions).toMatch(/import lfiPage and\s+(\* )?transactionOrder from\s+(\* )?'@bank-data-sharing\/server-stubs\/runtime'/);
    const statements = await readFile(path.join(team, 'src/handlers/statements.ts'), 'utf8');
    expect(statements).toContain('order: statementOrder');
    // Accounts have no order rule of their own: lfiPage without one.
    const accounts = await readFile(path.join(team, 'src/handlers/accounts.ts'), 'utf8');
    expect(accounts).toContain("lfiPage(records, { page: query.page, pageSize: query['page-size'] })");
  });

  it('says what it looked for and what to pass for a file of the team’s own', async () => {
    await copyFile(path.join(FIXTURES, 'pets-v1.yaml'), path.join(team, 'pets.yaml'));
    const out = codegen(team, 'scaffold', '--spec', 'pets.yaml', '--out', 'pets-handlers');
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('pets-handlers: a new scaffold needs the module of the generated server stubs of pets.yaml (Pet Shelter 1.0.0)');
    expect(out.stderr).toContain('no codegen.config.json was found in . or any folder above');
    expect(out.stderr).toContain('--server @bank-data-sharing/server-stubs/<api>');
    expect(out.stderr).toContain('codegen generate --spec pets.yaml --out <gen> --target server');
  });

  it('says a version name needs a codegen.config.json, and none is here', () => {
    const out = codegen(team, 'scaffold', '--spec', 'v2.2/lfi', '--out', 'x');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('"v2.2/lfi" is not a file, and not a version name either: no codegen.config.json was found');
  });

  it('recognises a copy of the contract by its title and version where the server stubs are installed', async () => {
    const copy = path.join(team, 'copy');
    await mkdir(path.join(copy, 'node_modules', '@bank-data-sharing'), { recursive: true });
    await symlink(path.join(REPO_ROOT, 'packages', 'server-stubs'), path.join(copy, 'node_modules', '@bank-data-sharing', 'server-stubs'), 'dir');
    // One self-contained file, as a team would keep it.
    await writeFile(path.join(copy, 'lfi.json'), JSON.stringify((await loadSpec(LFI_SPEC)).document));
    const out = codegen(copy, 'scaffold', '--spec', 'lfi.json', '--out', 'handlers');
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('note: lfi.json is Bank Data Sharing - Hub-to-LFI Paging Contract v2.2: the handlers are typed from the installed @bank-data-sharing/server-stubs/v2.2/lfi');
    expect(JSON.parse(await readFile(path.join(copy, 'handlers/scaffold.json'), 'utf8')).server).toBe('@bank-data-sharing/server-stubs/v2.2/lfi');
  });
});

describe('the paging the scaffolded LFI handler shows', () => {
  it('type-checks strictly when filled in as its comment says', async () => {
    const project = await scratchProject();
    const out = codegen(project, 'scaffold', '--spec', LFI_SPEC, '--out', 'src/handlers');
    expect(out.code).toBe(0);
    const file = path.join(project, 'src/handlers/transactions.ts');
    const text = await readFile(file, 'utf8');
    const stub = "Handlers['LfiGetAccountsAccountIdTransactions'] = async () => {";
    const start = text.indexOf(stub);
    expect(start).toBeGreaterThan(0);
    const end = text.indexOf('};\n', start) + 3;
    const filled = `Handlers['LfiGetAccountsAccountIdTransactions'] = async ({ query }) => {
  const records: Transaction[] = await ledger(query);
  return { status: 200, body: lfiPage(records, { page: query.page, pageSize: query['page-size'], order: transactionOrder }) };
};
`;
    const imports = [
      "import { lfiPage, transactionOrder } from '@bank-data-sharing/server-stubs/runtime';",
      "import type { Transaction } from '@bank-data-sharing/validators/v2.2/lfi';",
      'declare function ledger(filters: object): Promise<Transaction[]>;',
      '',
    ].join('\n');
    await writeFile(file, `${imports}${text.slice(0, start)}${filled}${text.slice(end)}`);
    const result = spawnSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8', timeout: 120_000 });
    expect(`${result.stdout}${result.stderr}`).toBe('');
  });
});
