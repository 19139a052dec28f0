/** What the harvest keeps from answers, for which parameters, and in what order it gives it back. */
import { describe, expect, it } from 'vitest';
import { Harvest, type Answer } from '../../../src/server-test/harvest.js';
import { nameKey } from '../../../src/server-test/names.js';
import { operation, param, parts, str } from './fixtures.js';

const listAccounts = operation({ operationId: 'listAccounts', path: '/accounts' });
const getAccount = operation({ operationId: 'getAccount', path: '/accounts/{accountId}', parameters: [param('accountId', 'path', str())] });
const createNote = operation({ operationId: 'createNote', method: 'post', path: '/notes' });
const getNote = operation({ operationId: 'getNote', path: '/notes/{noteRef}', parameters: [param('noteRef', 'path', str())] });
const search = operation({ operationId: 'search', path: '/search', parameters: [param('base_consent_id', 'query', str(), true)] });
const all = [listAccounts, getAccount, createNote, getNote, search];

const answer = (body: unknown, headers: Record<string, string> = {}, url = 'http://api.test/v1/x'): Answer => ({ url, status: 200, headers, body });

describe('nameKey', () => {
  it('makes the usual spellings of a name one key', () => {
    const keys = ['accountId', 'AccountId', 'account_id', 'account-id', 'ACCOUNT_ID'].map(nameKey);
    expect(new Set(keys)).toEqual(new Set(['accountid']));
    expect(nameKey('accountIds')).not.toBe(nameKey('accountId'));
  });
});

describe('Harvest', () => {
  it('keeps members named like a path or query parameter under any spelling, at any depth', () => {
    const harvest = new Harvest(all);
    harvest.collect(listAccounts, answer({ Data: { Account: [{ AccountId: 'acc-1', Nickname: 'main' }, { account_id: 'acc-2' }] }, meta: { BaseConsentId: 'base-9' } }));
    expect([0, 1, 2].map((i) => harvest.pick('accountId', i))).toEqual(['acc-1', 'acc-2', 'acc-1']);
    expect(harvest.pick('base_consent_id', 0)).toBe('base-9');
    expect(harvest.pick('Nickname', 0)).toBeUndefined();
  });

  it("keeps the id of a collection's items for its item path's parameter, not ids nested in an item", () => {
    const harvest = new Harvest(all);
    harvest.collect(listAccounts, answer([{ id: 'a-1', owner: { id: 'person-1' } }, { id: 'a-2' }]));
    expect([0, 1, 2].map((i) => harvest.pick('accountId', i))).toEqual(['a-1', 'a-2', 'a-1']);
    // From a wrapped list and from a created item.
    const wrapped = new Harvest(all);
    wrapped.collect(listAccounts, answer({ data: [{ id: 'w-1' }], meta: { count: 1 } }));
    expect(wrapped.pick('accountId', 0)).toBe('w-1');
    const created = new Harvest(all);
    created.collect(createNote, answer({ id: 'n-7', text: 'x' }));
    expect(created.pick('noteRef', 0)).toBe('n-7');
    // An id in the answer of an operation that is no collection names nothing.
    const elsewhere = new Harvest(all);
    elsewhere.collect(search, answer({ id: 'x-1' }));
    expect(elsewhere.pick('accountId', 0)).toBeUndefined();
  });

  it('reads the parameters a Location header names, by the template it ends with, or its last segment', () => {
    const harvest = new Harvest(all);
    harvest.collect(createNote, answer(undefined, { location: '/v1/notes/n%2042' }, 'http://api.test/v1/notes'));
    expect(harvest.pick('noteRef', 0)).toBe('n 42');
    const absolute = new Harvest(all);
    absolute.collect(createNote, answer(undefined, { location: 'https://elsewhere.test/api/accounts/acc-9' }));
    expect(absolute.pick('accountId', 0)).toBe('acc-9');
    // A path no template ends with: its last segment for the item of the collection answering.
    const opaque = new Harvest(all);
    opaque.collect(createNote, answer(undefined, { location: '/v1/n/opaque-3' }));
    expect(opaque.pick('noteRef', 0)).toBe('opaque-3');
  });

  it('reads self links, as strings or in href', () => {
    const harvest = new Harvest(all);
    harvest.collect(listAccounts, answer({ Links: { Self: 'http://api.test/v1/accounts' }, Data: [{ _links: { self: { href: '/v1/accounts/acc-5' } } }] }));
    expect(harvest.pick('accountId', 0)).toBe('acc-5');
    expect(harvest.pick('accountId', 1)).toBe('acc-5');
  });

  it("keeps the values an OpenAPI link gives its target's parameters", () => {
    const linking = operation({
      operationId: 'makeNote',
      method: 'post',
      path: '/drafts',
      responses: [{ status: '201', description: 'made', headers: [], content: [], links: [{ name: 'read', operationId: 'getNote', parameters: { noteRef: '$response.body#/ref' } }] }],
    });
    const harvest = new Harvest([...all, linking]);
    harvest.collect(linking, { ...answer({ ref: 'n-1' }), status: 201 }, parts());
    expect(harvest.pick('noteRef', 0)).toBe('n-1');
  });

  it('keeps strings and numbers only, each once, at most 8 per name', () => {
    const harvest = new Harvest(all);
    harvest.collect(listAccounts, answer({ items: Array.from({ length: 20 }, (_, i) => ({ AccountId: `v${i >> 1}` })), flag: { accountId: true }, empty: { accountId: '' } }));
    const picked = Array.from({ length: 16 }, (_, i) => harvest.pick('accountId', i));
    expect(picked.slice(0, 8)).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7']);
    expect(picked.slice(8)).toEqual(picked.slice(0, 8));
  });

  it('gives nothing before anything was kept', () => {
    const harvest = new Harvest(all);
    harvest.collect(listAccounts, answer('text'));
    harvest.collect(listAccounts, answer(null));
    expect(harvest.pick('accountId', 0)).toBeUndefined();
    expect(harvest.has('accountId')).toBe(false);
  });

  it('reads a self link of many slashes in linear time (denial of service: a server may answer anything)', () => {
    // 200 000 slashes no template ends with: a trailing-slash trim by /\/+$/ took minutes here.
    const link = `/a${'/'.repeat(200_000)}x`;
    const harvest = new Harvest(all);
    const started = performance.now();
    harvest.collect(createNote, answer({ self: link }, { location: link }));
    // Generous safety bound: the quadratic reading takes minutes.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(harvest.pick('noteRef', 0)).toBe('x');
  });
});
