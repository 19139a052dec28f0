/**
 * Which diff entries explain a type error in a handler file: the handler is keyed by its
 * operation's name, the diff names operations by operationId, and the two differ where the
 * operationId is not an identifier (`find pet by id` is `findPetById`).
 */
import { describe, expect, it } from 'vitest';
import type { ApiChange, ApiDiff } from '../../src/diff/diff-apis.js';
import type { ApiIR, OperationIR } from '../../src/ir/types.js';
import { causesOf } from '../../src/scaffold/type-check.js';

const removal: ApiChange = {
  location: 'operation find pet by id',
  kind: 'operation-removed',
  description: 'GET /pets/{id} removed',
  breaking: { client: true, server: false },
  pointers: { from: '#/paths/~1pets~1{id}/get' },
};

const diff: ApiDiff = {
  from: { title: 'Pets', version: '1', pathPrefix: '' },
  to: { title: 'Pets', version: '2', pathPrefix: '' },
  changes: [removal],
  renames: [],
  summary: { total: 1, breaking: 1, breakingForClients: 1, breakingForServers: 0 },
};

const older = {
  schemas: [],
  operations: [{ operationId: 'find pet by id', name: 'findPetById', parameters: [], responses: [] } as unknown as OperationIR],
} as unknown as ApiIR;
const newer = { schemas: [], operations: [] } as unknown as ApiIR;

describe('causesOf', () => {
  it('names the removal of an operation whose handler key differs from its operationId', () => {
    expect(causesOf("Object literal may only specify known properties, and 'findPetById' does not exist", 'findPetById', diff, [newer, older])).toStrictEqual([removal]);
  });

  it('finds nothing for another operation', () => {
    expect(causesOf('some error', 'addPet', diff, [newer, older])).toStrictEqual([]);
  });
});
