/**
 * A folder scaffolded before operations had one name keyed the handler of `find pet by id`
 * by that operationId. An update stubs it under its name (`findPetById`) and marks the old
 * handler, pointing at the new name, without touching its code.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/generate.js';
import { writeFiles } from '../../src/write-files.js';
import { scaffold } from '../../src/scaffold/scaffold.js';
import { FIXTURES, scratchProject } from '../helpers/scaffold-project.js';

const PETS_V1 = path.join(FIXTURES, 'pets-v1.yaml');

describe('scaffold update of handlers keyed by an operationId that is not an identifier', () => {
  it('stubs the operation under its name and points the old handler at it', async () => {
    const project = await scratchProject();
    const handlers = path.join(project, 'src', 'handlers');
    const generated = await generate({ spec: PETS_V1, targets: ['validators', 'server'] });
    await writeFiles(path.join(project, 'src', 'gen'), generated.files, { check: false });
    await scaffold({ spec: PETS_V1, out: handlers, server: '../gen/server/index.js', check: false, typeCheck: false });
    // As the scaffold wrote it before: keyed by the operationId, with the team's code in it.
    const pets = path.join(handlers, 'pets.ts');
    const text = await readFile(pets, 'utf8');
    const stub = "export const findPetById: Handlers['findPetById'] = async () => {";
    expect(text).toContain(stub);
    await writeFile(pets, text.replace(stub, "export const find_pet_by_id: Handlers['find pet by id'] = async () => { // the team's code"));

    const report = await scaffold({ spec: PETS_V1, out: handlers, from: PETS_V1, check: false, typeCheck: false });
    const after = await readFile(pets, 'utf8');
    expect(after).toContain("export const find_pet_by_id: Handlers['find pet by id'] = async () => { // the team's code");
    expect(after).toContain('// GET /pets/{id} is now "findPetById": move its code there, then delete it.');
    expect(after).toContain(stub);
    expect(report.actions.find((a) => a.kind === 'marked')?.detail).toBe('find pet by id: not in 1.0.0 (kept, marked; GET /pets/{id} is now findPetById)');
  }, 120_000);
});
