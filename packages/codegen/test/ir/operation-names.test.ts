import { describe, expect, it } from 'vitest';
import { assignOperationNames, isOperationName, wantedOperationName } from '../../src/ir/operation-names.js';
import type { HttpMethod } from '../../src/ir/types.js';

function named(...ops: Array<[string, HttpMethod, string]>) {
  return assignOperationNames(ops.map(([operationId, method, path], i) => ({ operationId, method, path, pointer: `#/paths/p${i}/${method}` })));
}

describe('the name an operationId asks for', () => {
  it('keeps an operationId that already is an identifier exactly, whatever its case', () => {
    for (const id of ['GetAccounts', 'Parties_read', 'getToken', 'findPets', '$select', '_private', 'créerAnimal']) {
      expect(wantedOperationName(id, 'get', '/x')).toBe(id);
    }
  });

  it('makes lowerCamel of any other operationId', () => {
    expect(wantedOperationName('find pet by id', 'get', '/pets/{id}')).toBe('findPetById');
    expect(wantedOperationName('get-token', 'post', '/token')).toBe('getToken');
    expect(wantedOperationName('repos/get-content', 'get', '/repos')).toBe('reposGetContent');
    expect(wantedOperationName('v2.list items', 'get', '/items')).toBe('v2ListItems');
    expect(wantedOperationName('GET /URL list', 'get', '/l')).toBe('getUrlList');
    expect(wantedOperationName('Find Pet', 'get', '/p')).toBe('findPet');
  });

  it('sets reserved words and inherited object members apart with a trailing underscore', () => {
    expect(wantedOperationName('delete', 'delete', '/pets')).toBe('delete_');
    expect(wantedOperationName('default', 'get', '/')).toBe('default_');
    expect(wantedOperationName('constructor', 'get', '/c')).toBe('constructor_');
    expect(wantedOperationName('__proto__', 'get', '/p')).toBe('proto');
    expect(wantedOperationName('to string', 'get', '/p')).toBe('toString_');
    expect(isOperationName('delete')).toBe(false);
    expect(isOperationName('deletePet')).toBe(true);
  });

  it('sets `then` apart: a client or handlers object with a `then` method is a promise to `await`, which would call the operation', () => {
    expect(wantedOperationName('then', 'get', '/then')).toBe('then_');
    expect(isOperationName('then')).toBe(false);
    const { names } = named(['then', 'get', '/then'], ['then_', 'get', '/other']);
    expect(new Set(names).size).toBe(2);
    expect(names).not.toContain('then');
  });

  it('prefixes a name that would start with a digit', () => {
    expect(wantedOperationName('2fa verify', 'post', '/2fa')).toBe('_2faVerify');
    expect(wantedOperationName('123', 'get', '/n')).toBe('_123');
    expect(isOperationName('_2faVerify')).toBe(true);
  });

  it('keeps letters of any script, and drops what no identifier may hold', () => {
    expect(wantedOperationName('créer un animal', 'post', '/animaux')).toBe('créerUnAnimal');
    expect(wantedOperationName('ペット 取得', 'get', '/pets')).toBe('ペット取得');
    expect(wantedOperationName('Ärger-melden', 'post', '/a')).toBe('ärgerMelden');
    expect(wantedOperationName('pets 🐶 list', 'get', '/pets')).toBe('petsList');
  });

  it('names an operationId without any word after its method and path', () => {
    expect(wantedOperationName('', 'get', '/pets/{petId}/toys')).toBe('getPetsPetIdToys');
    expect(wantedOperationName('!!!', 'delete', '/')).toBe('delete_');
    expect(wantedOperationName('🐶', 'put', '/dogs/{id}')).toBe('putDogsId');
  });

  it('gives every name an identifier TypeScript accepts as a declaration', () => {
    for (const id of ['find pet by id', '', '0', 'a-b', 'delete', 'été', 'x.y.z', '  ', '-']) {
      const name = wantedOperationName(id, 'get', '/a/{b}');
      expect(isOperationName(name), `${JSON.stringify(id)} → ${name}`).toBe(true);
    }
  });
});

describe('names of all operations of a file', () => {
  it('tells apart operations that ask for one name with _2, _3 in document order, and reports each', () => {
    const { names, diagnostics } = named(['list pets', 'get', '/pets'], ['list-pets', 'get', '/v2/pets'], ['list_pets!', 'get', '/v3/pets']);
    expect(names).toStrictEqual(['listPets', 'listPets_2', 'listPets_3']);
    expect(diagnostics.map((d) => [d.severity, d.code, d.pointer])).toStrictEqual([
      ['warning', 'operation-name-collision', '#/paths/p1/get'],
      ['warning', 'operation-name-collision', '#/paths/p2/get'],
    ]);
    expect(diagnostics[0]!.message).toContain('"list-pets" (GET /v2/pets)');
    expect(diagnostics[0]!.message).toContain('"list pets" (GET /pets)');
    expect(diagnostics[0]!.message).toContain('"listPets_2"');
  });

  it('leaves the exact name to the operation whose operationId it is, wherever it comes in the file', () => {
    const { names, diagnostics } = named(['find pet', 'get', '/a'], ['findPet', 'get', '/b']);
    expect(names).toStrictEqual(['findPet_2', 'findPet']);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]!.pointer).toBe('#/paths/p0/get');
    expect(diagnostics[0]!.message).toContain('"find pet"');
    expect(diagnostics[0]!.message).toContain('"findPet"');
  });

  it('does not take a suffixed name another operation holds exactly', () => {
    const { names } = named(['a b', 'get', '/1'], ['aB', 'get', '/2'], ['aB_2', 'get', '/3']);
    expect(names).toStrictEqual(['aB_3', 'aB', 'aB_2']);
  });

  it('reports nothing and renames nothing when every operationId is an identifier', () => {
    const { names, diagnostics } = named(['GetAccounts', 'get', '/accounts'], ['getAccounts', 'post', '/accounts'], ['Parties_read', 'get', '/parties']);
    expect(names).toStrictEqual(['GetAccounts', 'getAccounts', 'Parties_read']);
    expect(diagnostics).toStrictEqual([]);
  });

  it('is deterministic: the same file gives the same names', () => {
    const ops: Array<[string, HttpMethod, string]> = [['x y', 'get', '/1'], ['x-y', 'get', '/2'], ['xY', 'get', '/3'], ['', 'get', '/x/y']];
    expect(named(...ops)).toStrictEqual(named(...ops));
    expect(named(...ops).names).toStrictEqual(['xY_2', 'xY_3', 'xY', 'getXY']);
  });
});
