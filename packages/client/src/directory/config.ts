/**
 * Where the directory is, per environment. Nothing is hard-coded: the bases come from a
 * JSON file (`--config` or `BDS_DIRECTORY_CONFIG`) or from flags, and must be https (plain
 * http is accepted for loopback hosts only, for local test servers).
 */
import type { DirectoryEndpoints } from './client.js';

export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type DirectoryEnvironment = (typeof ENVIRONMENTS)[number];

/** `{ "sandbox": { "authUrl", "apiUrl" }, "production": { ... } }` */
export type DirectoryConfig = Partial<Record<DirectoryEnvironment, Partial<DirectoryEndpoints>>>;

export class ConfigError extends Error {}

/** Parses and checks a config file's text. */
export function parseDirectoryConfig(text: string, source: string): DirectoryConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${source}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(`${source}: expected an object keyed by environment`);
  const config: DirectoryConfig = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!(ENVIRONMENTS as readonly string[]).includes(name)) throw new ConfigError(`${source}: unknown environment "${name}" (expected ${ENVIRONMENTS.join(' or ')})`);
    if (value === null || typeof value !== 'object') throw new ConfigError(`${source}: "${name}" must be an object with authUrl and apiUrl`);
    const entry = value as Record<string, unknown>;
    const endpoints: Partial<DirectoryEndpoints> = {};
    for (const key of ['authUrl', 'apiUrl'] as const) {
      if (entry[key] === undefined) continue;
      if (typeof entry[key] !== 'string') throw new ConfigError(`${source}: ${name}.${key} must be a string`);
      endpoints[key] = entry[key] as string;
    }
    config[name as DirectoryEnvironment] = endpoints;
  }
  return config;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Checks one base URL: absolute, https (or http on loopback), no query or fragment. */
export function checkBaseUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${what} is not an absolute URL: ${value}`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new ConfigError(`${what} must use https (the directory needs mutual TLS): ${value}`);
  }
  if (url.search !== '' || url.hash !== '') throw new ConfigError(`${what} must not carry a query or fragment: ${value}`);
  return value.replace(/\/+$/, '');
}

/** The endpoints of one environment: flags over the config file. */
export function resolveEndpoints(environment: DirectoryEnvironment, config: DirectoryConfig, overrides: Partial<DirectoryEndpoints>): DirectoryEndpoints {
  const authUrl = overrides.authUrl ?? config[environment]?.authUrl;
  const apiUrl = overrides.apiUrl ?? config[environment]?.apiUrl;
  if (authUrl === undefined || apiUrl === undefined) {
    const missing = [authUrl === undefined ? 'authUrl (--auth-url)' : '', apiUrl === undefined ? 'apiUrl (--api-url)' : ''].filter(Boolean).join(' and ');
    throw new ConfigError(`no ${missing} configured for the ${environment} directory: pass --config <file> or the flags`);
  }
  return { authUrl: checkBaseUrl(authUrl, `${environment} authUrl`), apiUrl: checkBaseUrl(apiUrl, `${environment} apiUrl`) };
}
