import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../src/generate.js';
import { writeFiles } from '../../src/write-files.js';
import { scaffold, ScaffoldError, type ScaffoldReport } from '../../src/scaffold/scaffold.js';
import { FIXTURES, onlyInsertions, scratchProject, SPEC_V21, SPEC_V22 } from '../helpers/scaffold-project.js';

const PETS_V1 = path.join(FIXTURES, 'pets-v1.yaml');
const PETS_V2 = path.join(FIXTURES, 'pets-v2.yaml');

async function generateServer(spec: string, out: string): Promise<void> {
  const result = await generate({ spec, targets: ['validators', 'server'] });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([]);
  await writeFiles(out, result.files, { check: false });
}

async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of (await readdir(dir)).sort()) out.set(name, await readFile(path.join(dir, name), 'utf8'));
  return out;
}

/** Replaces the 501 body of one stub with the team's code, as a person would in an editor. */
async function fillIn(file: string, operationKey: string, code: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const start = text.indexOf(`Handlers[${operationKey}] = async () => {`);
  expect(start).toBeGreaterThan(0);
  const end = text.indexOf('};\n', start) + 3;
  const head = text.slice(0, start);
  await writeFile(file, `${head}Handlers[${operationKey}] = ${code}\n${text.slice(end)}`);
}

const LIST_PETS = `async ({ query }) => {
  // The team's own comment,   with its   spacing.
  const all = [ { id: 1, name: 'Rex' },{ id: 2, name: 'Tom' } ];
  return { status: 200, body: all.slice(0, query.limit ?? all.length) };
};`;

describe('scaffold update on a petstore-like fixture (ts-morph, in place)', () => {
  let project: string;
  let handlers: string;
  let created: ScaffoldReport;
  let before: Map<string, string>;
  let updated: ScaffoldReport;
  let after: Map<string, string>;

  beforeAll(async () => {
    project = await scratchProject();
    handlers = path.join(project, 'src', 'handlers');
    await generateServer(PETS_V1, path.join(project, 'src', 'gen'));
    created = await scaffold({ spec: PETS_V1, out: handlers, server: '../gen/server/index.js', check: false, typeCheck: true });
    await fillIn(path.join(handlers, 'pets.ts'), "'listPets'", LIST_PETS);
    // The team's own file and its own import in a scaffolded file.
    await writeFile(path.join(handlers, 'store.ts'), "export const greeting = 'hello';   // theirs\n");
    const pets = await readFile(path.join(handlers, 'pets.ts'), 'utf8');
    await writeFile(path.join(handlers, 'pets.ts'), pets.replace("from '../gen/server/index.js';\n", "from '../gen/server/index.js';\nimport { greeting } from './store.js';\nvoid greeting;\n"));
    before = await snapshot(handlers);
    await generateServer(PETS_V2, path.join(project, 'src', 'gen'));
    updated = await scaffold({ spec: PETS_V2, out: handlers, from: PETS_V1, check: false });
    after = await snapshot(handlers);
  });

  it('writes a folder that type-checks strictly the moment it is written', () => {
    expect(created.mode).toBe('create');
    expect(created.changed).toStrictEqual(['pets.ts', 'health.ts', 'index.ts', 'README.md', 'scaffold.json']);
    expect(created.typeProblems).toStrictEqual([]);
  });

  it('stubs a new operation at the end of its group file, and a new group in a new file wired into index.ts', () => {
    expect(updated.mode).toBe('update');
    expect(updated.actions.filter((a) => a.kind === 'stub' || a.kind === 'create' || a.kind === 'index').map((a) => [a.kind, a.file])).toStrictEqual([
      ['stub', 'pets.ts'],
      ['create', 'pet-stores.ts'],
      ['index', 'index.ts'],
    ]);
    expect(after.get('pets.ts')!.endsWith("export const updatePet: Handlers['updatePet'] = async () => {\n  throw new ApiError(501, 'NotImplemented', 'updatePet is not implemented yet');\n};\n")).toBe(true);
    expect(after.get('pet-stores.ts')).toContain("export const getStore: Handlers['getStore'] = async () => {");
    const index = after.get('index.ts')!;
    expect(index).toContain("import * as health from './health.js';\nimport * as petStores from './pet-stores.js';\n");
    // Operations named from operationIds that are not identifiers need no alias: the spread holds them.
    expect(index).toContain('  ...health,\n  ...petStores,\n};');
  });

  it('keeps every byte the team wrote: their bodies, comments, formatting, own imports and own files', () => {
    for (const file of ['pets.ts', 'index.ts', 'health.ts']) expect(onlyInsertions(before.get(file)!, after.get(file)!), file).toBe(true);
    expect(after.get('pets.ts')).toContain(LIST_PETS);
    expect(after.get('pets.ts')).toContain("import { greeting } from './store.js';\nvoid greeting;\n");
    expect(after.get('store.ts')).toBe(before.get('store.ts'));
    expect(after.get('health.ts')).toBe(before.get('health.ts'));
    expect(after.get('README.md')).toBe(before.get('README.md'));
  });

  it('marks the handler of a removed operation with a comment and lists it, never deleting it', () => {
    expect(updated.removed).toStrictEqual([{ operationId: 'deletePet', file: 'pets.ts', line: expect.any(Number) }]);
    const pets = after.get('pets.ts')!;
    expect(pets).toContain(
      '// codegen scaffold: "deletePet" is not an operation of Pet Shelter 2.0.0: nothing serves it.\n' +
        '// Move its code to the operation that replaced it (see codegen diff), then delete it.\n/**\n * DELETE /pets/{id}',
    );
    expect(pets).toContain("export const deletePet: Handlers['deletePet'] = async () => {");
  });

  it('lists each type error beside the codegen diff entry that caused it', () => {
    const problems = updated.typeProblems!;
    const listPets = problems.find((p) => p.operationId === 'listPets');
    expect(listPets?.file).toBe('pets.ts');
    expect(listPets?.causes.map((c) => [c.location, c.path, c.description])).toStrictEqual([['schema Pet', 'tag', 'now required']]);
    const deletePet = problems.find((p) => p.operationId === 'deletePet');
    expect(deletePet?.message).toMatch(/deletePet/);
    expect(deletePet?.causes.map((c) => [c.location, c.description])).toStrictEqual([['operation deletePet', 'DELETE /pets/{id} removed']]);
    expect(problems.every((p) => p.operationId === 'listPets' || p.operationId === 'deletePet')).toBe(true);
  });

  it('changes nothing on a second run, and --check then exits clean', async () => {
    const again = await scaffold({ spec: PETS_V2, out: handlers, from: PETS_V1, check: false, typeCheck: false });
    expect(again.changed).toStrictEqual([]);
    expect(again.actions).toStrictEqual([]);
    expect(await snapshot(handlers)).toStrictEqual(after);
    const check = await scaffold({ spec: PETS_V2, out: handlers, check: true });
    expect(check.changed).toStrictEqual([]);
  });

  it('names the operation that took over the method and path of a renamed one, keeping the old handler', async () => {
    const v3 = path.join(project, 'pets-v3.yaml');
    await writeFile(v3, (await readFile(PETS_V2, 'utf8')).replace('operationId: listPets', 'operationId: listAllPets').replace('version: 2.0.0', 'version: 3.0.0'));
    await generateServer(v3, path.join(project, 'src', 'gen'));
    const renamed = await scaffold({ spec: v3, out: handlers, check: false });
    const pets = await readFile(path.join(handlers, 'pets.ts'), 'utf8');
    expect(onlyInsertions(after.get('pets.ts')!, pets)).toBe(true);
    expect(pets).toContain(
      '// codegen scaffold: "listPets" is not an operation of Pet Shelter 3.0.0: nothing serves it.\n// GET /pets is now "listAllPets": move its code there, then delete it.\n',
    );
    expect(pets).toContain(LIST_PETS);
    expect(pets).toContain("export const listAllPets: Handlers['listAllPets'] = async () => {");
    // Marked once: deletePet's comment from the earlier update is not repeated.
    expect(pets.split('"deletePet" is not an operation').length).toBe(2);
    expect(renamed.removed.map((r) => r.operationId).sort()).toStrictEqual(['deletePet', 'listPets']);
    const listPets = renamed.typeProblems!.find((p) => p.operationId === 'listPets');
    expect(listPets?.causes.map((c) => [c.location, c.description])).toStrictEqual([['operation listPets', 'GET /pets removed']]);
  });

  it("keeps the marker of a removed operation one comment line whatever the spec's version holds", async () => {
    const other = await scratchProject();
    const dir = path.join(other, 'h');
    await scaffold({ spec: PETS_V1, out: dir, server: '../gen/server/index.js', check: false, typeCheck: false });
    // A version with a line break: written as is, the rest of it became code in the team's file.
    const v2 = path.join(other, 'pets-v2-multiline.yaml');
    await writeFile(v2, (await readFile(PETS_V2, 'utf8')).replace('version: 2.0.0', 'version: "2.0.0\\nglobalThis.injected = 1; //"'));
    await scaffold({ spec: v2, out: dir, check: false, typeCheck: false });
    const pets = await readFile(path.join(dir, 'pets.ts'), 'utf8');
    expect(pets).toContain('// codegen scaffold: "deletePet" is not an operation of Pet Shelter 2.0.0 globalThis.injected = 1; //: nothing serves it.\n');
    expect(pets).not.toMatch(/^globalThis\.injected/m);
  });

  it('keeps the first line of a group file one comment line whatever its tag holds', async () => {
    const other = await scratchProject();
    const spec = path.join(other, 'pets-tag.yaml');
    await writeFile(spec, (await readFile(PETS_V1, 'utf8')).replaceAll('tags: [pets]', 'tags: ["pets\\nglobalThis.injected = 1; //"]'));
    const dir = path.join(other, 'h');
    await scaffold({ spec, out: dir, server: '../gen/server/index.js', groupBy: 'tag', check: false, typeCheck: false });
    const texts = await snapshot(dir);
    const group = [...texts.entries()].find(([, text]) => text.includes('globalThis.injected'));
    expect(group?.[1]).toMatch(/^\/\/ pets globalThis\.injected = 1; \/\/: handlers of /);
    for (const text of texts.values()) expect(text).not.toMatch(/^globalThis\.injected/m);
  });

  it('--check reports what an update would change and writes nothing', async () => {
    const other = await scratchProject();
    const dir = path.join(other, 'h');
    await scaffold({ spec: PETS_V1, out: dir, server: '../gen/server/index.js', check: false });
    const first = await snapshot(dir);
    const check = await scaffold({ spec: PETS_V2, out: dir, check: true });
    expect(check.changed).toStrictEqual(['index.ts', 'pet-stores.ts', 'pets.ts', 'scaffold.json']);
    expect(check.typeProblems).toBeUndefined();
    expect(await snapshot(dir)).toStrictEqual(first);
    expect(existsSync(path.join(dir, 'pet-stores.ts'))).toBe(false);
  });
});

describe('scaffold trust', () => {
  it('gives the same bytes for the same input', async () => {
    const a = path.join(await scratchProject(), 'h');
    const b = path.join(await scratchProject(), 'h');
    await scaffold({ spec: PETS_V1, out: a, server: 'x', check: false });
    await scaffold({ spec: PETS_V1, out: b, server: 'x', check: false });
    expect(await snapshot(a)).toStrictEqual(await snapshot(b));
  });

  it('writes nothing into a folder it did not scaffold, and says which files are in the way', async () => {
    const dir = path.join(await scratchProject(), 'h');
    await scaffold({ spec: PETS_V1, out: dir, server: 'x', check: true });
    expect(existsSync(dir)).toBe(false);
    await writeFiles(dir, [{ path: 'index.ts', contents: '// ours\n' }], { check: false, ownNone: true });
    await expect(scaffold({ spec: PETS_V1, out: dir, server: 'x', check: false })).rejects.toThrow(ScaffoldError);
    await expect(scaffold({ spec: PETS_V1, out: dir, server: 'x', check: false })).rejects.toThrow(/index\.ts already exists and scaffold\.json does not/);
    expect(await snapshot(dir)).toStrictEqual(new Map([['index.ts', '// ours\n']]));
  });

  it('refuses a scaffold.json it cannot read, naming the field', async () => {
    const dir = path.join(await scratchProject(), 'h');
    await writeFiles(dir, [{ path: 'scaffold.json', contents: '{"spec": "a.yaml", "title": "t", "version": "1", "server": "x", "groupBy": "size", "files": []}' }], { check: false, ownNone: true });
    await expect(scaffold({ spec: PETS_V1, out: dir, check: false })).rejects.toThrow(/scaffold\.json: "groupBy" must be "tag" or "path"/);
  });
});

describe('scaffold update from v2.1 to v2.2 of our spec', () => {
  it('reports a handler that no longer fits beside the diff entry (Transaction › TransactionInformation now required)', async () => {
    const project = await scratchProject();
    const dir = path.join(project, 'src', 'handlers');
    await scaffold({ spec: SPEC_V21, out: dir, server: '@bank-data-sharing/server-stubs/v2.1', check: false });
    await fillIn(
      path.join(dir, 'transactions.ts'),
      "'GetAccountsAccountIdTransactions'",
      `async ({ path: { AccountId }, url }) => {
  const Transaction = [
    {
      TransactionId: 'tx-1',
      CreditDebitIndicator: 'Credit' as const,
      Status: 'Booked' as const,
      BookingDateTime: '2025-03-14T09:30:00+04:00',
      TransactionDateTime: '2025-03-14T09:30:00+04:00',
      TransactionType: 'LocalBankTransfer' as const,
      SubTransactionType: 'Deposit' as const,
      Amount: { Amount: '10.00', Currency: 'AED' },
    },
  ];
  return { status: 200, body: { Data: { AccountId, Transaction }, Links: { Self: url }, Meta: { TotalPages: 1 } } };
};`,
    );
    const v21 = await scaffold({ spec: SPEC_V21, out: dir, check: false, typeCheck: true });
    expect(v21.changed).toStrictEqual([]);
    expect(v21.typeProblems).toStrictEqual([]);
    const report = await scaffold({ spec: SPEC_V22, out: dir, server: '@bank-data-sharing/server-stubs/v2.2', check: false });
    expect(report.typeProblems?.length).toBeGreaterThan(0);
    for (const problem of report.typeProblems!) {
      expect(problem.file).toBe('transactions.ts');
      expect(problem.operationId).toBe('GetAccountsAccountIdTransactions');
      expect(problem.causes.map((c) => `${c.location} › ${c.path}: ${c.description}`)).toStrictEqual(['schema Transaction › TransactionInformation: now required']);
    }
  });
});
