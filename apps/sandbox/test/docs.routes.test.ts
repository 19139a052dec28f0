/**
 * `/docs` over HTTP, without a browser: what each page carries (the server, the token, the
 * examples the try-it console starts from), the bundle, and the 404 page.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/start-sandbox.js';
import { scalarBundlePath } from '../src/docs/scalar-bundle.js';

let clock = Date.parse('2026-01-05T09:00:00Z');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ hubPort: 0, lfiPort: 0, now: () => clock });
});
afterAll(async () => {
  await sandbox?.close();
});

async function get(path: string): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(`${sandbox.hubUrl}${path}`, { signal: AbortSignal.timeout(30_000) });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

interface PageConfig {
  content: { servers: { url: string }[]; components: { parameters: Record<string, { example?: unknown }> } };
  authentication?: { securitySchemes: Record<string, { flows?: Record<string, { token: string }>; token?: string }> };
  hideTestRequestButton: boolean;
  withDefaultFonts: boolean;
  telemetry: boolean;
}

/** The Scalar configuration a reference page carries. */
function pageConfig(html: string): PageConfig {
  const match = /<script id="docs-config" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
  if (match === null) throw new Error('no configuration on the page');
  return JSON.parse(match[1]!) as PageConfig;
}

function tokenOf(config: PageConfig): string | undefined {
  return config.authentication?.securitySchemes['UserOAuth2Security']?.flows?.['authorizationCode']?.token;
}

describe('/docs', () => {
  it('serves the v2.2 reference with this hub as the server and the seeded consent, account and token filled in', async () => {
    const page = await get('/docs/v2.2');
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    const config = pageConfig(page.text);
    expect(config.content.servers).toEqual([expect.objectContaining({ url: sandbox.baseUrls['v2.2'] })]);
    expect(config.content.components.parameters['ConsentId']?.example).toBe(sandbox.seeded.consent.consent.Data.ConsentId);
    expect(config.content.components.parameters['AccountId']?.example).toBe(sandbox.seeded.consent.accountIds[0]);
    expect(config.content.components.parameters['x-fapi-interaction-id']?.example).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(tokenOf(config)).toBe(sandbox.seeded.token.accessToken);
    expect(config).toMatchObject({ withDefaultFonts: false, telemetry: false, hideTestRequestButton: false });
  });

  it('once the printed token has expired, fills in a new valid one for the same consent', async () => {
    clock += 11 * 60 * 1000;
    expect(sandbox.auth.tokens.check(sandbox.seeded.token.accessToken).ok).toBe(false);
    const token = tokenOf(pageConfig((await get('/docs/v2.2')).text));
    expect(token).not.toBe(sandbox.seeded.token.accessToken);
    const check = sandbox.auth.tokens.check(token);
    expect(check.ok && check.token.consentId).toBe(sandbox.seeded.consent.consent.Data.ConsentId);
  });

  it('shows the hub-to-LFI contract on the sandbox LFI, without a credential or a send button', async () => {
    const page = await get('/docs/lfi/v2.2');
    expect(page.status).toBe(200);
    const config = pageConfig(page.text);
    expect(config.content.servers).toEqual([expect.objectContaining({ url: `${sandbox.lfiUrl}/lfi/v2.2` })]);
    expect(config.authentication).toBeUndefined();
    expect(config.hideTestRequestButton).toBe(true);
    expect(page.text).not.toContain(sandbox.hubCredential);
  });

  /** The settings of the paging-links panel a page carries, if any. */
  function followLinksSettings(html: string): { apiBase: string } | undefined {
    const match = /<script id="follow-links-settings" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
    return match === null ? undefined : (JSON.parse(match[1]!) as { apiBase: string });
  }

  it.each(['v2.2', 'v2.1'] as const)('gives the %s page the paging-links panel, for links under that version on this hub', async (slug) => {
    const page = await get(`/docs/${slug}`);
    expect(followLinksSettings(page.text)).toEqual({ apiBase: sandbox.baseUrls[slug] });
  });

  it.each(['lfi/v2.2', 'directory'])('gives the %s page, which sends nothing, no paging-links panel', async (slug) => {
    const page = await get(`/docs/${slug}`);
    expect(page.status).toBe(200);
    expect(followLinksSettings(page.text)).toBeUndefined();
  });

  it.each(['v2.2', 'lfi/v2.1', 'directory'])('links the %s reference page back to the index', async (slug) => {
    const page = await get(`/docs/${slug}`);
    expect(page.text).toContain('<nav class="portal"><a href="/docs/">');
  });

  it("serves Scalar's bundle from the installed package", async () => {
    const bundle = await get('/docs/assets/scalar-api-reference.js');
    expect(bundle.status).toBe(200);
    expect(bundle.type).toContain('javascript');
    expect(bundle.text).toBe(await readFile(scalarBundlePath(), 'utf8'));
  });

  it('serves what changed from v2.1 to v2.2', async () => {
    const page = await get('/docs/changes/v2.1..v2.2');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>What changed from v2.1 to v2.2</h1>');
    expect(page.text).toContain('href="/docs/"');
  });

  it.each(['/docs/v9.9', '/docs/lfi', '/docs/v2.2/extra', '/docs/changes/v2.2..v2.1', '/docs/changes/v1..v2.2', '/docs/changes/', '/docs/%E0%A4%A', '/docs/changes/%E0%A4%A'])('answers %s with the 404 page', async (path) => {
    const page = await get(path);
    expect(page.status).toBe(404);
    expect(page.type).toContain('text/html');
    expect(page.text).toContain('No such page');
  });
});
