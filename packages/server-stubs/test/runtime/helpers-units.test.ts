import { describe, expect, it } from 'vitest';
import { compilePaths, interactionId, matchPath, pageLinks, requestedPage, selfLink, withPage } from '../../src/runtime/index.js';

describe('matchPath', () => {
  const paths = compilePaths(['/accounts', '/accounts/{AccountId}', '/accounts/{AccountId}/transactions', '/accounts/special', '/files/{name}.{ext}']);

  it.each([
    ['/accounts', '/accounts', {}],
    ['/accounts/', '/accounts', {}],
    ['/accounts/a1', '/accounts/{AccountId}', { AccountId: 'a1' }],
    ['/accounts/special', '/accounts/special', {}],
    ['/accounts/a%2F1/transactions', '/accounts/{AccountId}/transactions', { AccountId: 'a/1' }],
    ['/files/report.pdf', '/files/{name}.{ext}', { name: 'report', ext: 'pdf' }],
  ])('%s → %s', (path, template, params) => {
    expect(matchPath(paths, path)).toMatchObject({ template, params });
  });

  it('keeps the parameters as sent too, for styles whose delimiters may be encoded in values', () => {
    expect(matchPath(paths, '/accounts/a%2C1,b/transactions')).toEqual({
      template: '/accounts/{AccountId}/transactions',
      params: { AccountId: 'a,1,b' },
      raw: { AccountId: 'a%2C1,b' },
    });
  });

  it.each(['/', '/accounts//transactions', '/Accounts', '/accounts/a1/x'])('%s matches nothing', (path) => {
    expect(matchPath(paths, path)).toBeUndefined();
  });

  it('reports a parameter that is not valid percent-encoding', () => {
    expect(matchPath(paths, '/accounts/%E0%A4%A')).toEqual({ malformed: 'AccountId' });
  });
});

describe('interactionId', () => {
  it('echoes a UUID and replaces anything else with a fresh version 4 UUID', () => {
    expect(interactionId('0F8FAD5B-D9CB-469F-A165-70867728950E')).toBe('0F8FAD5B-D9CB-469F-A165-70867728950E');
    const fresh = interactionId('nope');
    expect(fresh).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(interactionId(undefined)).not.toBe(fresh);
  });
});

describe('links', () => {
  it('writes the page parameter into the URL, keeping the other parameters', () => {
    expect(withPage('https://hub.example.com/a?x=1&page=9&y=2', 'page', 3)).toBe('https://hub.example.com/a?x=1&page=3&y=2');
    expect(pageLinks('https://h.example.com/a', 'page', 1, 1)).toEqual({ Self: 'https://h.example.com/a', First: 'https://h.example.com/a?page=1', Last: 'https://h.example.com/a?page=1' });
  });

  it('encodes Self as First and Next are, parameters and their order unchanged', () => {
    const raw = "https://hub.example.com/a?fromBookingDateTime=2025-01-01T00:00:00Z&q=a b&note=it's&page=2";
    const links = pageLinks(raw, 'page', 2, 3);
    expect(links.Self).toBe('https://hub.example.com/a?fromBookingDateTime=2025-01-01T00%3A00%3A00Z&q=a+b&note=it%27s&page=2');
    expect(links.Next).toBe('https://hub.example.com/a?fromBookingDateTime=2025-01-01T00%3A00%3A00Z&q=a+b&note=it%27s&page=3');
    expect(links.Self).toBe(withPage(links.Next!, 'page', 2));
    expect(selfLink('https://hub.example.com/a')).toBe('https://hub.example.com/a');
  });

  it('reads the requested page strictly', () => {
    expect(requestedPage('https://h.example.com/a', 'page')).toEqual({ page: 1 });
    expect(requestedPage('https://h.example.com/a?page=12', 'page')).toEqual({ page: 12 });
    expect(requestedPage('https://h.example.com/a?page=1e3', 'page')).toEqual({ error: 'page must be a positive integer, got "1e3"' });
    expect(requestedPage('https://h.example.com/a?page=2000000000', 'page')).toEqual({ error: 'page must be a positive integer, got "2000000000"' });
  });
});
