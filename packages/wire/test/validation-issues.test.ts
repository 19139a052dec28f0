/** Validation issues as error items: body fields by JSON path, parameters by name. */
import { describe, expect, it } from 'vitest';
import { issueLines, issuesToErrors, jsonPath } from '../src/index.js';

describe('issuesToErrors', () => {
  it('names body fields by JSON path and parameters by name', () => {
    expect(jsonPath([])).toBe('$');
    expect(jsonPath(['Data', 'Items', 2, 'odd key'])).toBe('$.Data.Items[2]["odd key"]');
    expect(issuesToErrors('body', [{ path: ['Data', 'Status'], message: 'Invalid option' }])).toEqual([
      { code: 'Body.InvalidFormat', message: 'body $.Data.Status: Invalid option', path: '$.Data.Status' },
    ]);
    expect(issuesToErrors('query', [{ path: ['ids', 1], message: 'Expected number' }])).toEqual([
      { code: 'Resource.InvalidFormat', message: 'query parameter ids[1]: Expected number', path: 'ids[1]' },
    ]);
    expect(issuesToErrors('header', [{ path: [], message: 'Expected object' }])).toEqual([{ code: 'Resource.InvalidFormat', message: 'header: Expected object' }]);
  });
});

describe('issueLines', () => {
  it('lists the first 20 issues as path: message lines', () => {
    expect(issueLines([{ path: ['Data', 0], message: 'Required' }, { path: [], message: 'Expected object' }])).toEqual(['Data.0: Required', '(root): Expected object']);
    expect(issueLines(Array.from({ length: 30 }, () => ({ path: ['a'], message: 'x' })))).toHaveLength(20);
  });
});
