/** What `pnpm start` prints once the sandbox is up: where things are and a request that works. */
import type { Sandbox } from '../sandbox/start-sandbox.js';

/** A value safe to paste inside double quotes in a POSIX shell (the sandbox's ids and tokens always are). */
function shellSafe(value: string): string {
  if (!/^[A-Za-z0-9._~:/?&=%+-]*$/.test(value)) throw new Error(`refusing to print a shell-unsafe value: ${value}`);
  return value;
}

/** The `curl` line that lists the seeded consent's accounts through the hub (v2.2). */
export function curlLine(sandbox: Sandbox): string {
  return `curl -s -H "Authorization: Bearer ${shellSafe(sandbox.seeded.token.accessToken)}" ${shellSafe(sandbox.baseUrls['v2.2'])}/accounts`;
}

/** The API docs portal on the hub: a reference page per spec, with "try it" against this sandbox. */
export function docsUrl(sandbox: Sandbox): string {
  return `${shellSafe(sandbox.hubUrl)}/docs`;
}

/** Where `pnpm demo` looks for the hub when not told. */
export const DEFAULT_DEMO_HUB = 'http://127.0.0.1:4010';

/** The demo command for this sandbox: with `--hub` when the hub is not where the demo looks by default. */
export function demoLine(sandbox: Sandbox): string {
  return sandbox.hubUrl === DEFAULT_DEMO_HUB ? 'pnpm demo' : `pnpm demo -- --hub ${shellSafe(sandbox.hubUrl)}`;
}

/** The lines printed at start. */
export function banner(sandbox: Sandbox, data: { seed: number; customers: number; years: number; perDay: number; lfi?: { origin: string } }): string[] {
  const { consent, token } = sandbox.seeded;
  const consentId = consent.consent.Data.ConsentId;
  const firstAccount = consent.accountIds[0] ?? '';
  const transactionsUrl = shellSafe(`${sandbox.baseUrls['v2.2']}/accounts/${firstAccount}/transactions?fromBookingDateTime=2025-06-01T00:00:00Z`);
  return [
    data.lfi
      ? `Bank Data Sharing hub is running in front of the LFI at ${data.lfi.origin} (its accounts: ${consent.accountIds.length})`
      : `Bank Data Sharing sandbox is running (data: seed ${data.seed}, ${data.customers} customers, ${data.years} years, ~${data.perDay} transactions a day per account)`,
    '',
    `  hub (TPP-facing)   ${sandbox.hubUrl}`,
    `    v2.2             ${sandbox.baseUrls['v2.2']}`,
    `    v2.1             ${sandbox.baseUrls['v2.1']}`,
    `    JWKS             ${sandbox.jwksUrl}`,
    `    sandbox helpers  ${sandbox.hubUrl}/sandbox`,
    data.lfi
      ? `  LFI (hub-to-LFI)   ${sandbox.lfiUrl}/lfi/v2.2 and /lfi/v2.1 (an LFI elsewhere, given with --lfi-url)`
      : `  LFI (hub-to-LFI)   ${sandbox.lfiUrl}/lfi/v2.2 and /lfi/v2.1 (called by the hub only)`,
    '',
    `  customer  ${consent.customerId ?? ''} with accounts ${consent.accountIds.join(', ')}`,
    `  consent   ${consentId} (${consent.consent.Data.Status}, ${consent.consent.Data.Permissions.length} permissions)`,
    `  token     ${token.accessToken}`,
    `            scopes "${token.scope}", valid until ${token.expiresAt} (10 minutes)`,
    `  API docs  ${docsUrl(sandbox)}   (try the API in a browser: this consent and a valid token are filled in)`,
    '',
    'Read the accounts:',
    `  ${curlLine(sandbox)}`,
    '',
    'More:',
    `  curl -s -H "Authorization: Bearer ${shellSafe(token.accessToken)}" "${transactionsUrl}"`,
    `  curl -s -X POST ${sandbox.hubUrl}/sandbox/token -d grant_type=client_credentials -d consent_id=${consentId}   # a new token`,
    `  ${demoLine(sandbox)}${' '.repeat(Math.max(1, 48 - demoLine(sandbox).length))}# the generated client reads every account and a full history`,
    '',
    'Ctrl+C stops the sandbox.',
  ];
}
