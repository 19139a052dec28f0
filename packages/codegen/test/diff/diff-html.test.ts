/**
 * `codegen diff --format html` and `formatDiffHtml`: one page a person reads and a browser test
 * can query (data-operation, data-change, data-breaking), built from the same ApiDiff as the
 * other formats, with everything from the specs escaped.
 */
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dump } from 'js-yaml';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildIR, diffApis, diffSpecFiles, formatDiffHtml, type ApiChange, type ApiDiff } from '../../src/index.js';
import { escapeHtml } from '../../src/diff/escape-html.js';
import { REPO_ROOT, scratchDir } from '../helpers/generated.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/codegen.mjs');
const V21 = path.join(REPO_ROOT, 'spec/v2.1/account-information.yaml');
const V22 = path.join(REPO_ROOT, 'spec/v2.2/account-information.yaml');

/** The opening tags of the elements that have the class, each as its decoded attributes. */
function elements(html: string, tag: string, className: string): Array<Record<string, string>> {
  const decode = (value: string) => value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return [...html.matchAll(new RegExp(`<${tag} class="${className}"([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/ ([a-z-]+)="([^"]*)"/g)].map((a) => [a[1]!, decode(a[2]!)])),
  );
}

/** Every element standing for one change of the model: operations and schemas added or removed, and change rows. */
const changeRows = (html: string) => [...elements(html, 'tr', 'operation'), ...elements(html, 'tr', 'schema'), ...elements(html, 'tr', 'change')];

const label = (c: ApiChange) => `${c.operation!.method} ${c.operation!.path}`;

describe('the HTML diff of spec/v2.1 → spec/v2.2', () => {
  let diff: ApiDiff;
  let html: string;
  beforeAll(async () => {
    diff = await diffSpecFiles(V21, V22);
    html = formatDiffHtml(diff);
  });

  it('lists every operation v2.2 added, as the model has them', () => {
    const added = diff.changes.filter((c) => c.kind === 'operation-added');
    expect(added.length).toBeGreaterThan(0);
    const rows = elements(html, 'tr', 'operation').filter((row) => row['data-change'] === 'added');
    expect(rows.map((row) => [row['data-operation'], row['data-operation-id']])).toStrictEqual(added.map((c) => [label(c), c.operation!.operationId]));
    const addedCount = html.match(/<td data-count="operations-added">(\d+)<\/td>/)?.[1];
    expect(Number(addedCount)).toBe(added.length);
  });

  it('marks each breaking change, for whom the model says, and no other', () => {
    const rows = changeRows(html);
    expect(rows).toHaveLength(diff.changes.length);
    const forClients = rows.filter((r) => r['data-breaking'] === 'clients' || r['data-breaking'] === 'both').length;
    const forServers = rows.filter((r) => r['data-breaking'] === 'servers' || r['data-breaking'] === 'both').length;
    expect(rows.filter((r) => r['data-breaking'] !== undefined)).toHaveLength(diff.summary.breaking);
    expect([forClients, forServers]).toStrictEqual([diff.summary.breakingForClients, diff.summary.breakingForServers]);
    expect(diff.summary.breaking).toBeGreaterThan(0);
    // The visible badge, one per breaking change plus one per block heading.
    const badges = html.match(/<span class="badge breaking">breaking for (clients and servers|clients|servers)<\/span>/g) ?? [];
    const blocks = [...elements(html, 'article', 'operation'), ...elements(html, 'article', 'schema')].filter((b) => b['data-breaking'] !== undefined).length;
    expect(badges).toHaveLength(diff.summary.breaking + blocks);
  });

  it('gives the JSON pointers and member paths of every change', () => {
    for (const change of diff.changes) {
      for (const pointer of [change.pointers.from, change.pointers.to]) if (pointer) expect(html).toContain(`<code>${escapeHtml(pointer)}</code>`);
      if (change.path) expect(html).toContain(`<code>${escapeHtml(change.path)}</code>`);
    }
  });
});

const ITEM = { $ref: '#/components/schemas/Item' };

/** A pair of specs whose names, title, members and enum values try to break out of the HTML. */
function shop(version: '1' | '2') {
  const v2 = version === '2';
  return {
    openapi: '3.0.3',
    info: { title: 'Shop <script>alert("title")</script>', version },
    servers: [{ url: `/shop/v${version}` }],
    paths: {
      '/items/{id}': {
        get: {
          operationId: `Get"Item'<script>`,
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            ...(v2 ? [{ name: 'q"<b>', in: 'query', required: true, schema: { type: 'string' } }] : []),
          ],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: ITEM } } } },
        },
      },
      ...(v2
        ? { '/new': { get: { operationId: 'New<script>alert(1)</script>', responses: { '204': { description: 'none' } } } } }
        : { '/old': { delete: { operationId: 'Old"One', responses: { '204': { description: 'none' } } } } }),
    },
    components: {
      schemas: {
        Item: {
          type: 'object',
          additionalProperties: false,
          properties: {
            kind: { type: 'string', enum: v2 ? ['a', '<script>b</script>'] : ['a'] },
            ...(v2 ? { '"><img src=x onerror=alert(1)>': { type: 'string' } } : {}),
          },
        },
      },
    },
  };
}

async function writePair(): Promise<{ dir: string; from: string; to: string }> {
  const dir = await scratchDir();
  const from = path.join(dir, 'old.yaml');
  const to = path.join(dir, 'new.yaml');
  await writeFile(from, dump(shop('1')));
  await writeFile(to, dump(shop('2')));
  return { dir, from, to };
}

describe('the HTML diff of specs that hold markup', () => {
  it('escapes every value from the specs, in text and in attributes', async () => {
    const { from, to } = await writePair();
    const diff = await diffSpecFiles(from, to);
    const html = formatDiffHtml(diff, { title: 'Changes <script>', note: 'from "old" & <new>' });
    expect(html).not.toMatch(/<script|<img|<b>/i);
    expect(html).toContain('<h1>Changes &lt;script&gt;</h1>');
    expect(html).toContain('<p class="note">from &quot;old&quot; &amp; &lt;new&gt;</p>');
    expect(html).toContain('Shop &lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt; 1');
    expect(html).toContain('<code>&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</code>');
    // Attributes hold the names whole: a quote in a name does not end the attribute.
    const operations = [...elements(html, 'tr', 'operation'), ...elements(html, 'article', 'operation')];
    expect(operations.map((o) => [o['data-operation-id'], o['data-change'], o['data-breaking']])).toStrictEqual([
      ['New<script>alert(1)</script>', 'added', 'servers'],
      ['Old"One', 'removed', 'clients'],
      [`Get"Item'<script>`, 'changed', 'clients'],
    ]);
    const changedRows = elements(html, 'tr', 'change').filter((r) => r['data-kind'] === 'parameter-added');
    expect(changedRows).toStrictEqual([{ 'data-kind': 'parameter-added', 'data-breaking': 'clients' }]);
  });

  it('loads and runs nothing: no script, no external address, only links inside the page', async () => {
    const { from, to } = await writePair();
    const html = formatDiffHtml(await diffSpecFiles(from, to));
    expect(html.startsWith('<!DOCTYPE html>\n')).toBe(true);
    // Every tag in the page (the specs' markup is text, escaped): only these, none that loads or runs.
    const tags = [...html.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*)>/g)];
    const names = new Set(tags.map((t) => t[1]!.toLowerCase()));
    const allowed = ['html', 'head', 'meta', 'title', 'style', 'body', 'header', 'h1', 'h2', 'h3', 'p', 'nav', 'ul', 'li', 'a', 'main', 'section', 'article', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'code', 'span'];
    expect([...names].filter((n) => !allowed.includes(n))).toStrictEqual([]);
    // Attributes are name="value", nothing else in a tag.
    expect(tags.map((t) => t[2]!.replace(/ [a-z-]+="[^"]*"/g, '')).filter((rest) => rest !== '')).toStrictEqual([]);
    const attributes = tags.flatMap((t) => [...t[2]!.matchAll(/ ([a-z-]+)="[^"]*"/g)].map((a) => a[1]!));
    expect(attributes.filter((a) => !/^(class|id|href|lang|charset|http-equiv|content|name|scope|data-[a-z-]+)$/.test(a))).toStrictEqual([]);
    const style = html.slice(html.indexOf('<style>'), html.indexOf('</style>'));
    expect(style).not.toMatch(/url\(|@import|@font-face/i);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) {
      expect(href).toMatch(/^#[a-z-]+$/);
      expect(html).toContain(`id="${href.slice(1)}"`);
    }
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });
});

describe('the HTML diff of webhooks', () => {
  const event = (enumValues: string[]) => ({
    post: { requestBody: { content: { 'application/json': { schema: { type: 'string', enum: enumValues } } } }, responses: { '200': { description: 'received' } } },
  });
  const api = (webhooks: Record<string, unknown>) =>
    buildIR({ source: 'x.yaml', document: { openapi: '3.1.0', info: { title: 'Shop', version: '1' }, paths: {}, webhooks }, diagnostics: [] }).api;

  it('gives webhooks their own sections, apart from operations', () => {
    const diff = diffApis(api({ orderPlaced: event(['new']), orderShipped: event(['new']) }), api({ orderPlaced: event(['new', 'paid']), orderRefunded: event(['new']) }));
    const html = formatDiffHtml(diff);
    const inSection = (id: string) => html.slice(html.indexOf(`<section id="${id}">`), html.indexOf('</section>', html.indexOf(`<section id="${id}">`)));
    expect(elements(inSection('webhooks-added'), 'tr', 'operation').map((r) => [r['data-operation'], r['data-breaking']])).toStrictEqual([['POST webhook orderRefunded', 'servers']]);
    expect(elements(inSection('webhooks-removed'), 'tr', 'operation').map((r) => [r['data-operation'], r['data-breaking']])).toStrictEqual([['POST webhook orderShipped', 'clients']]);
    // A delivery that may carry a new value breaks receivers (clients).
    expect(elements(inSection('webhooks-changed'), 'article', 'operation').map((r) => [r['data-operation'], r['data-breaking']])).toStrictEqual([['POST webhook orderPlaced', 'clients']]);
    expect(inSection('operations-added')).toContain('<p class="none">None.</p>');
    expect(html).toContain('<td data-count="webhooks-changed">1</td>');
  });
});

describe('the same diff gives the same page', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('byte for byte, whatever the date', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2001-02-03T04:05:06Z'));
    const first = formatDiffHtml(await diffSpecFiles(V21, V22));
    vi.setSystemTime(new Date('2039-12-31T23:59:59Z'));
    const second = formatDiffHtml(await diffSpecFiles(V21, V22));
    expect(second).toBe(first);
  });
});

describe('codegen diff --format html and positional specs', () => {
  const run = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [BIN, 'diff', ...args], { cwd, encoding: 'utf8', timeout: 60_000 });

  it('writes the page to --out, as formatDiffHtml gives it, and takes the specs as two positional files', async () => {
    const { dir, from, to } = await writePair();
    const named = run(dir, '--from', 'old.yaml', '--to', 'new.yaml', '--format', 'html', '--out', 'named.html');
    expect(named.stderr).toBe('');
    expect(named.status).toBe(0);
    const positional = run(dir, 'old.yaml', 'new.yaml', '--format', 'html', '--out', 'positional.html');
    expect(positional.status).toBe(0);
    const page = await readFile(path.join(dir, 'named.html'), 'utf8');
    expect(page).toBe(formatDiffHtml(await diffSpecFiles(from, to), { note: 'Generated by codegen diff --from old.yaml --to new.yaml.' }));
    expect(await readFile(path.join(dir, 'positional.html'), 'utf8')).toBe(page);
    // Exit codes as for the other formats.
    expect(run(dir, 'old.yaml', 'new.yaml', '--format', 'html', '--fail-on', 'client').status).toBe(1);
  });

  it('compares positional files as --from and --to do, in text too', async () => {
    const { dir } = await writePair();
    const positional = run(dir, 'old.yaml', 'new.yaml');
    expect(positional.status).toBe(0);
    expect(positional.stdout).toBe(run(dir, '--from', 'old.yaml', '--to', 'new.yaml').stdout);
    expect(positional.stdout).toContain('operation Old"One');
  });

  it('refuses one positional spec, three, or a mix with --from/--to, with exit code 2', async () => {
    const { dir } = await writePair();
    const one = run(dir, 'old.yaml');
    expect(one.status).toBe(2);
    expect(one.stderr).toContain('diff takes two specs, the older then the newer (got 1: old.yaml)');
    expect(run(dir, 'old.yaml', 'new.yaml', 'new.yaml').status).toBe(2);
    const mixed = run(dir, 'old.yaml', '--to', 'new.yaml');
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toContain('either as <old> <new> or with --from and --to, not both');
    expect(run(dir, 'old.yaml', 'new.yaml', '--from', 'old.yaml', '--to', 'new.yaml').status).toBe(2);
    const badFormat = run(dir, 'old.yaml', 'new.yaml', '--format', 'pdf');
    expect(badFormat.status).toBe(2);
    expect(badFormat.stderr).toContain('--format must be text, markdown, json or html (got "pdf")');
  });
});
