/** The three forms of a run's report: text, JSON and JUnit XML. */
import { describe, expect, it } from 'vitest';
import { reportJson, reportJunit, reportText } from '../../../src/server-test/report.js';
import { CHECKS, type Failure, type OperationSummary, type ServerTestReport } from '../../../src/server-test/types.js';

function summary(operation: string, method: string, path: string, failures: number): OperationSummary {
  return {
    operation,
    operationId: operation,
    method,
    path,
    requests: 10,
    positive: 6,
    negative: 3,
    sequences: 1,
    failures,
    statuses: { '200': 6, '400': 4 },
    notes: [],
    durationMs: 1234,
    reached: true,
    coverage: { seen: ['200', '400'], never: ['404'] },
  };
}

/** listItems not reached: every valid request got 404. */
const unreachedList: OperationSummary = { ...summary('listItems', 'GET', '/items', 0), statuses: { '404': 6, '400': 4 }, reached: false, why: 'every answer 404: the path is not served there; check --base-url', coverage: { seen: ['400'], never: ['200', '404'] } };

const bodyFailure: Failure = {
  operation: 'getItem',
  operationId: 'get-item',
  method: 'GET',
  path: '/items/{id}',
  check: 'response-body',
  case: 'positive',
  message: '/a/0/b: Invalid input: expected number, received string',
  pointer: '/a/0/b',
  rule: 'Invalid input: expected number, received string',
  request: { method: 'GET', url: 'http://api.example.test/items/1', headers: { accept: 'application/json' } },
  curl: "curl -X GET 'http://api.example.test/items/1' -H 'accept: application/json'",
  response: { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': 'r-9', server: 'hidden' }, bodyExcerpt: '{"a":[{"b":"x"}]}' },
  shrinkSteps: 3,
  seed: 7,
};

const negativeFailure: Failure = {
  operation: 'createItem',
  operationId: 'createItem',
  method: 'POST',
  path: '/items',
  check: 'invalid-request-accepted',
  case: 'negative',
  message: 'HTTP 201: the request was not refused',
  mutation: 'required body member name left out',
  request: { method: 'POST', url: 'http://api.example.test/items', headers: { 'content-type': 'application/json' }, body: '{}' },
  curl: "curl -X POST 'http://api.example.test/items' --data-raw '{}'",
  response: { status: 201, headers: {}, bodyExcerpt: '' },
  shrinkSteps: 0,
  seed: 7,
};

const report: ServerTestReport = {
  spec: 'api.yaml',
  baseUrl: 'http://api.example.test',
  seed: 7,
  failures: [bodyFailure, negativeFailure],
  operations: [summary('getItem', 'GET', '/items/{id}', 1), summary('createItem', 'POST', '/items', 1), summary('listItems', 'GET', '/items', 0)],
  requests: 30,
  durationMs: 1500,
  timedOut: false,
};

describe('reportText', () => {
  const text = reportText(report);

  it('names the operation, check, message, pointer and rule of a failure', () => {
    expect(text).toContain(`1. getItem (GET /items/{id}) — response-body: ${CHECKS['response-body']}`);
    expect(text).toContain('   /a/0/b: Invalid input: expected number, received string');
    expect(text).toContain('   at /a/0/b: Invalid input: expected number, received string');
  });

  it('shows the answer, with only the telling headers, and the body', () => {
    expect(text).toContain('   answer: HTTP 200 (content-type: application/json; x-request-id: r-9)');
    expect(text).not.toContain('server: hidden');
    expect(text).toContain('     | {"a":[{"b":"x"}]}');
  });

  it('gives the curl line, with the shrink steps when there were some', () => {
    expect(text).toContain(`   reproduce (shrunk in 3 step(s)):\n     ${bodyFailure.curl}`);
    expect(text).toContain(`   reproduce:\n     ${negativeFailure.curl}`);
  });

  it('names the mutation of a negative case', () => {
    expect(text).toContain(`2. createItem (POST /items) — invalid-request-accepted: ${CHECKS['invalid-request-accepted']}`);
    expect(text).toContain('   request made wrong in one place: required body member name left out');
    expect(text).toContain('   answer: HTTP 201\n');
  });

  it('ends with the totals', () => {
    expect(text).toContain('Failures (2):');
    expect(text.trimEnd().split('\n').at(-1)).toBe('2 failure(s): 3 operation(s), 30 request(s) in 1.5 s against http://api.example.test (seed 7)');
  });

  it('says so when there are no failures, or the time ran out', () => {
    const clean = reportText({ ...report, failures: [], timedOut: true });
    expect(clean).not.toContain('Failures');
    expect(clean.trimEnd().split('\n').at(-1)).toBe('No failures: 3 operation(s), 30 request(s) in 1.5 s against http://api.example.test (seed 7); the time budget ran out before every operation was tested');
    expect(clean).not.toContain('not reached');
  });

  it('lists the declared statuses each operation saw and never saw', () => {
    expect(text).toContain('Declared statuses seen, and never seen:\n  getItem     seen 200 400; never 404\n  createItem  seen 200 400; never 404\n  listItems   seen 200 400; never 404\n');
  });

  it('names the operations not reached, why, and says so in the last lines', () => {
    const partly = reportText({ ...report, failures: [], operations: [summary('getItem', 'GET', '/items/{id}', 0), unreachedList] });
    expect(partly).toContain('  listItems  seen 400; never 200 404  (not reached)');
    expect(partly).toContain('Not reached (1): no valid request got the success answer declared, so those answers were never checked:\n  listItems (GET /items): every answer 404: the path is not served there; check --base-url\n');
    const [verdict, totals] = partly.trimEnd().split('\n').slice(-2);
    expect(verdict).toBe('No failures; 1 operation(s) not reached: listItems, every answer 404');
    expect(totals).toBe('2 operation(s), 30 request(s) in 1.5 s against http://api.example.test (seed 7)');
  });

  it('shows a failure at the root of the body', () => {
    const root = reportText({ ...report, failures: [{ ...bodyFailure, pointer: '', rule: 'Expected object' }] });
    expect(root).toContain('   at (root): Expected object');
  });
});

describe('reportJson', () => {
  it('round-trips through JSON.parse', () => {
    const json = reportJson(report);
    expect(json.endsWith('\n')).toBe(true);
    const parsed = JSON.parse(json) as ServerTestReport;
    expect(parsed).toEqual(report);
    expect(parsed.failures).toHaveLength(2);
    expect(parsed.operations.map((o) => o.operation)).toEqual(['getItem', 'createItem', 'listItems']);
    expect(parsed.requests).toBe(30);
    expect(parsed.failures[0]?.pointer).toBe('/a/0/b');
  });

  it('gives each operation reached, why and coverage', () => {
    const parsed = JSON.parse(reportJson({ ...report, operations: [summary('getItem', 'GET', '/items/{id}', 1), unreachedList] })) as ServerTestReport;
    expect(parsed.operations.map((o) => [o.operation, o.reached, o.why])).toEqual([
      ['getItem', true, undefined],
      ['listItems', false, 'every answer 404: the path is not served there; check --base-url'],
    ]);
    expect(parsed.operations[1]!.coverage).toEqual({ seen: ['400'], never: ['200', '404'] });
  });
});

// A small XML reader: enough to prove the JUnit output well-formed and to read it back.

interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeText(raw: string, where: string): string {
  if (raw.includes('<')) throw new Error(`raw < in ${where}`);
  return raw.replace(/&([^;]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new Error(`unterminated entity in ${where}: ${whole}`);
    const numeric = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(name);
    if (numeric) return String.fromCodePoint(numeric[1]!.startsWith('x') ? Number.parseInt(numeric[1]!.slice(1), 16) : Number(numeric[1]));
    const value = ENTITIES[name];
    if (value === undefined) throw new Error(`unknown entity &${name}; in ${where}`);
    return value;
  });
}

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. With the
// `u` flag a surrogate pair reads as one astral character, so only lone surrogates match.
const NOT_XML_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff\ud800-\udfff]/u;

function parseXml(source: string): XmlElement {
  if (NOT_XML_CHAR.test(source)) throw new Error('a character XML 1.0 does not allow');
  let rest = source.replace(/^<\?xml[^?]*\?>\s*/, '');
  if (rest === source) throw new Error('no XML declaration');
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  const NAME = '[A-Za-z_][\\w.-]*';
  const openTag = new RegExp(`^<(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*(/?)>`);
  const attribute = new RegExp(`(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');
  const closeTag = new RegExp(`^</(${NAME})\\s*>`);
  while (rest.length > 0) {
    const top = stack.at(-1)!;
    if (rest.startsWith('</')) {
      const match = closeTag.exec(rest);
      if (!match) throw new Error(`bad closing tag near ${rest.slice(0, 40)}`);
      if (match[1] !== top.name) throw new Error(`</${match[1]}> closes <${top.name}>`);
      stack.pop();
      rest = rest.slice(match[0].length);
    } else if (rest.startsWith('<')) {
      const match = openTag.exec(rest);
      if (!match) throw new Error(`bad tag near ${rest.slice(0, 60)}`);
      const attributes: Record<string, string> = {};
      for (const a of match[2]!.matchAll(attribute)) {
        if (a[1]! in attributes) throw new Error(`attribute ${a[1]} twice`);
        // Attribute-value normalization (XML 1.0 section 3.3.3): literal white space reads as a space.
        attributes[a[1]!] = decodeText((a[2] ?? a[3] ?? '').replace(/[\t\n\r]/g, ' '), `attribute ${a[1]}`);
      }
      const element: XmlElement = { name: match[1]!, attributes, children: [], text: '' };
      if (top === root && root.children.length > 0) throw new Error('more than one root element');
      top.children.push(element);
      if (match[3] !== '/') stack.push(element);
      rest = rest.slice(match[0].length);
    } else {
      const end = rest.indexOf('<');
      const raw = end < 0 ? rest : rest.slice(0, end);
      if (top === root) {
        if (raw.trim() !== '') throw new Error('text outside the root element');
      } else {
        top.text += decodeText(raw, `<${top.name}>`);
      }
      rest = end < 0 ? '' : rest.slice(end);
    }
  }
  if (stack.length !== 1) throw new Error(`<${stack.at(-1)!.name}> never closed`);
  if (root.children.length !== 1) throw new Error('no root element');
  return root.children[0]!;
}

describe('the XML reader of these tests', () => {
  it('refuses what is not well-formed', () => {
    expect(() => parseXml('<?xml version="1.0"?><a><b></a>')).toThrow();
    expect(() => parseXml('<?xml version="1.0"?><a x=1/>')).toThrow();
    expect(() => parseXml('<?xml version="1.0"?><a>1 < 2</a>')).toThrow();
    expect(() => parseXml('<?xml version="1.0"?><a>fish & chips</a>')).toThrow();
    expect(() => parseXml('<?xml version="1.0"?><a x="1 < 2"/>')).toThrow();
    expect(() => parseXml('<?xml version="1.0"?><a>\u0001</a>')).toThrow();
    expect(() => parseXml('<?xml version="1.0"?><a>\ud800</a>')).toThrow();
    expect(() => parseXml('<?xml version="1.0"?><a x="\udc00"/>')).toThrow();
    expect(parseXml('<?xml version="1.0"?><a>\u{1F600}</a>').text).toBe('\u{1F600}');
    expect(parseXml('<?xml version="1.0"?><a x="&lt;&amp;"><b>&quot;&apos;&#65;</b></a>')).toEqual({
      name: 'a',
      attributes: { x: '<&' },
      children: [{ name: 'b', attributes: {}, children: [], text: '"\'A' }],
      text: '',
    });
  });
});

describe('reportJunit', () => {
  const nasty: Failure = {
    ...bodyFailure,
    operation: 'get<Item>',
    message: `a "quoted" 'message' with <tags> & amps\u0001\u0008\u000b\u001b\ufffe\uffff!`,
    // A body cut in the middle of a surrogate pair, a lone low surrogate, and whole emoji.
    response: { status: 500, headers: { 'content-type': 'text/html' }, bodyExcerpt: '<html>&nbsp;\u0000\ttab \ud83d \ude00 \u{1F600}\u{1F44D}</html>\ud83d' },
  };
  const junitReport: ServerTestReport = {
    ...report,
    failures: [nasty, { ...nasty, check: 'response-headers', message: 'second' }, negativeFailure],
    operations: [summary('get<Item>', 'GET', '/items/{id}', 2), summary('createItem', 'POST', '/items', 1), summary('listItems', 'GET', '/items', 0), unreachedList],
  };
  // Read in each test, so that output that is not well-formed fails the tests one by one.
  let parsed: XmlElement | undefined;
  const junit = (): XmlElement => (parsed ??= parseXml(reportJunit(junitReport)));

  it('is well-formed XML, with a test suite per operation', () => {
    const root = junit();
    expect(root.name).toBe('testsuites');
    expect(root.children.map((s) => s.name)).toEqual(['testsuite', 'testsuite', 'testsuite', 'testsuite']);
    expect(root.children.map((s) => s.attributes['name'])).toEqual(['GET /items/{id}', 'POST /items', 'GET /items', 'GET /items']);
  });

  it('escapes markup characters and puts U+FFFD for characters XML does not allow', () => {
    const root = junit();
    const failure = root.children[0]!.children[0]!.children[0]!;
    expect(failure.name).toBe('failure');
    expect(failure.attributes['message']).toBe(`a "quoted" 'message' with <tags> & amps\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd!`);
    expect(failure.attributes['type']).toBe('response-body');
    expect(failure.text).toContain('get<Item> (GET /items/{id}) — response-body');
    expect(failure.text).toContain('<html>&nbsp;\ufffd\ttab \ufffd \ufffd \u{1F600}\u{1F44D}</html>\ufffd');
    expect(root.children[0]!.children[0]!.attributes['classname']).toBe('get<Item>');
  });

  it('counts test cases and failures per suite', () => {
    const root = junit();
    const [first, second, third, fourth] = root.children;
    expect(first!.attributes).toMatchObject({ tests: '2', failures: '2', time: '1.234' });
    expect(first!.children.map((c) => c.attributes['name'])).toEqual(['response-body', 'response-headers']);
    expect(second!.attributes).toMatchObject({ tests: '1', failures: '1' });
    expect(second!.children[0]!.children[0]!.attributes['message']).toBe('HTTP 201: the request was not refused');
    expect(third!.attributes).toMatchObject({ tests: '1', failures: '0' });
    expect(third!.children).toHaveLength(1);
    expect(third!.children[0]!.attributes).toMatchObject({ classname: 'listItems', name: 'contract' });
    expect(third!.children[0]!.children).toEqual([]);
    // Not reached: its one case is skipped, with the reason.
    expect(fourth!.attributes).toMatchObject({ tests: '1', failures: '0', skipped: '1' });
    expect(fourth!.children[0]!.children.map((c) => [c.name, c.attributes['message']])).toEqual([['skipped', 'not reached: every answer 404: the path is not served there; check --base-url']]);
    for (const suite of root.children) {
      expect(Number(suite.attributes['tests'])).toBe(suite.children.length);
      expect(Number(suite.attributes['failures'])).toBe(suite.children.filter((c) => c.children.some((f) => f.name === 'failure')).length);
    }
  });

  it('gives totals over the suites', () => {
    const root = junit();
    const sum = (name: string) => root.children.reduce((total, suite) => total + Number(suite.attributes[name]), 0);
    expect(root.attributes['failures']).toBe(String(sum('failures')));
    expect(root.attributes['skipped']).toBe('1');
    expect(root.attributes['time']).toBe('1.500');
    // JUnit's `tests` on <testsuites> is the number of test cases in all its suites.
    expect(root.attributes['tests']).toBe(String(sum('tests')));
  });
});
