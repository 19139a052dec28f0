/**
 * The directory client of section 4.8: a client-credentials token from the authorisation
 * base, then organisations and their software statements from the API base, all over the
 * caller's mTLS connection pool (or fetch).
 *
 * Directory data is read leniently: the answer must be a list (or a page object holding
 * one), but each entry is checked on its own, so one bad organisation is reported instead
 * of failing the whole listing.
 */
import { Organisation, SoftwareStatement } from '@bank-data-sharing/validators/directory';
import { createClient } from '../generated/directory/index.js';
import { ApiError, ClientError, type ClientEvent, type DispatcherLike, type FetchLike, type RetryPolicy, type TokenProvider } from '../runtime/index.js';

/** The two bases of one directory environment. */
export interface DirectoryEndpoints {
  /** Base of the token endpoint (`{directory_auth_url}`). */
  authUrl: string;
  /** Base of the API (`{directory_api_url}`). */
  apiUrl: string;
}

export interface DirectoryClientOptions {
  endpoints: DirectoryEndpoints;
  /** `client_id` of the registered application. */
  clientId: string;
  /** Scope asked for (default `directory:software`). */
  scope?: string;
  /** The fetch to use instead of the built-in transport (a test double, a proxy). */
  fetch?: FetchLike;
  /** The undici dispatcher to send through: in production, `dispatcher` of `createMtlsFetch`. */
  dispatcher?: DispatcherLike;
  retry?: RetryPolicy | false;
  /** Time limit of one request in ms (default 30 000). */
  timeoutMs?: number;
  /** Longest list walk, in pages, when the directory pages its answers (default 100). */
  maxPages?: number;
  onEvent?: (event: ClientEvent) => void;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Something in the directory's data that does not match its contract. */
export interface DataProblem {
  /** Where: `organisations[3]`, `organisations/<id>/softwarestatements[0]`. */
  where: string;
  organisationId?: string;
  issues: string[];
}

/** An organisation entry as listed, kept even when some of its fields are odd. */
export interface ListedOrganisation {
  OrganisationId: string;
  OrganisationName?: string;
  Size?: string;
  Status?: string;
  CreatedOn?: string;
  /** True when the entry matched the contract. */
  valid: boolean;
}

export interface ListedStatement {
  SoftwareStatementId: string;
  SoftwareClientName?: string;
  Status?: string;
  SoftwareRoles?: string[];
  OrganisationId?: string;
}

export interface Listing<T> {
  /** Usable entries. */
  items: T[];
  problems: DataProblem[];
  /** Entries the directory returned, usable or not. */
  total: number;
}

/** The directory's answer was not a list at all. */
export class DirectoryDataError extends ClientError {
  constructor(message: string) {
    super('directory-data', message);
  }
}

function issuesOf(result: { success: boolean; error?: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> } }): string[] {
  return (result.error?.issues ?? []).map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : '(root)'}: ${i.message}`);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The entries of a list answer: a plain array, or a page object's `content`. */
function entriesOf(body: unknown, what: string): { entries: unknown[]; page: { number: number; total: number } | undefined } {
  if (Array.isArray(body)) return { entries: body, page: undefined };
  if (body !== null && typeof body === 'object' && Array.isArray((body as { content?: unknown }).content)) {
    const page = body as { content: unknown[]; totalPages?: unknown; pageNumber?: unknown };
    const total = typeof page.totalPages === 'number' ? page.totalPages : 1;
    const number = typeof page.pageNumber === 'number' ? page.pageNumber : 0;
    return { entries: page.content, page: { number, total } };
  }
  throw new DirectoryDataError(`${what}: the directory answered neither a list nor a page object`);
}

/** The token endpoint refused the client-credentials request. */
export class DirectoryAuthError extends ClientError {
  readonly status: number;

  constructor(status: number, message: string, cause: unknown) {
    super('directory-auth', message, { cause });
    this.status = status;
  }
}

/** OAuth's `error` and `error_description`, when the refusal carries them. */
function oauthDetail(body: unknown): string {
  if (body === null || typeof body !== 'object') return '';
  const { error, error_description: description } = body as { error?: unknown; error_description?: unknown };
  return [error, description].filter((v): v is string => typeof v === 'string' && v !== '').join(': ');
}

/**
 * A directory client.
 *
 * @example
 * const directory = createDirectoryClient({ endpoints: { authUrl, apiUrl }, clientId, dispatcher: mtls.dispatcher });
 * const { items: organisations, problems } = await directory.organisations();
 */
export function createDirectoryClient(options: DirectoryClientOptions) {
  const shared = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.retry !== undefined ? { retry: options.retry } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  };
  const maxPages = options.maxPages ?? 100;
  const auth = createClient({ ...shared, baseUrl: options.endpoints.authUrl });

  const tokens: TokenProvider = {
    async getToken({ signal }) {
      let answer;
      try {
        answer = await auth.getToken(
          { body: { grant_type: 'client_credentials', scope: options.scope ?? 'directory:software', client_id: options.clientId } },
          signal ? { signal } : {},
        );
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const detail = oauthDetail(error.body);
        throw new DirectoryAuthError(error.status, `the directory refused the token request (HTTP ${error.status}${detail ? `, ${detail}` : ''})`, error);
      }
      return { accessToken: answer.body.access_token, ...(answer.body.expires_in !== undefined ? { expiresIn: answer.body.expires_in } : {}) };
    },
  };
  const api = createClient({ ...shared, baseUrl: options.endpoints.apiUrl, tokens });

  /** Walks a possibly paged list answer, bounded by maxPages. */
  async function walk(what: string, fetchPage: (page: number | undefined) => Promise<unknown>): Promise<unknown[]> {
    const all: unknown[] = [];
    let page: number | undefined;
    for (let read = 0; ; read++) {
      if (read >= maxPages) throw new DirectoryDataError(`${what}: more than ${maxPages} pages; stopping`);
      const { entries, page: info } = entriesOf(await fetchPage(page), what);
      all.push(...entries);
      if (!info || info.number + 1 >= info.total) return all;
      if (page !== undefined && info.number < page) throw new DirectoryDataError(`${what}: page ${page} came back as page ${info.number}; stopping`);
      page = info.number + 1;
    }
  }

  return {
    /** A directory access token (client credentials, over the caller's fetch). */
    async token(): Promise<string> {
      const answer = await tokens.getToken({ scheme: undefined, scopes: [], reason: 'initial' });
      return typeof answer === 'string' ? answer : answer.accessToken;
    },

    /** Every organisation; entries that break the contract are reported in `problems`. */
    async organisations(signal?: AbortSignal): Promise<Listing<ListedOrganisation>> {
      const entries = await walk('organisations', async (page) => {
        const result = await api.getOrganisations(page === undefined ? {} : { query: { page } }, { validate: false, ...(signal ? { signal } : {}) });
        return result.body;
      });
      const items: ListedOrganisation[] = [];
      const problems: DataProblem[] = [];
      entries.forEach((entry, index) => {
        const where = `organisations[${index}]`;
        const checked = Organisation.safeParse(entry);
        const raw = (entry !== null && typeof entry === 'object' ? entry : {}) as Record<string, unknown>;
        const id = text(raw['OrganisationId']);
        if (!checked.success) problems.push({ where, ...(id ? { organisationId: id } : {}), issues: issuesOf(checked) });
        if (id === undefined || id === '') {
          if (checked.success) problems.push({ where, issues: ['OrganisationId is missing'] });
          return;
        }
        const org: ListedOrganisation = { OrganisationId: id, valid: checked.success };
        for (const field of ['OrganisationName', 'Size', 'Status', 'CreatedOn'] as const) {
          const value = text(raw[field]);
          if (value !== undefined) org[field] = value;
        }
        items.push(org);
      });
      return { items, problems, total: entries.length };
    },

    /** The software statements of one organisation, each with its OrganisationId filled in. */
    async softwareStatements(organisationId: string, signal?: AbortSignal): Promise<Listing<ListedStatement>> {
      const entries = await walk(`organisations/${organisationId}/softwarestatements`, async (page) => {
        const result = await api.getOrganisationSoftwareStatements(
          { path: { OrganisationId: organisationId }, ...(page === undefined ? {} : { query: { page } }) },
          { validate: false, ...(signal ? { signal } : {}) },
        );
        return result.body;
      });
      const items: ListedStatement[] = [];
      const problems: DataProblem[] = [];
      entries.forEach((entry, index) => {
        const where = `organisations/${organisationId}/softwarestatements[${index}]`;
        const checked = SoftwareStatement.safeParse(entry);
        const raw = (entry !== null && typeof entry === 'object' ? entry : {}) as Record<string, unknown>;
        if (!checked.success) problems.push({ where, organisationId, issues: issuesOf(checked) });
        const id = text(raw['SoftwareStatementId']);
        if (id === undefined || id === '') {
          if (checked.success) problems.push({ where, organisationId, issues: ['SoftwareStatementId is missing'] });
          return;
        }
        const inline = text(raw['OrganisationId']);
        if (inline !== undefined && inline !== organisationId) {
          problems.push({ where, organisationId, issues: [`OrganisationId ${inline} differs from the organisation listed (${organisationId})`] });
        }
        const statement: ListedStatement = { SoftwareStatementId: id, OrganisationId: inline ?? organisationId };
        const name = text(raw['SoftwareClientName']);
        if (name !== undefined) statement.SoftwareClientName = name;
        const status = text(raw['Status']);
        if (status !== undefined) statement.Status = status;
        if (Array.isArray(raw['SoftwareRoles'])) statement.SoftwareRoles = (raw['SoftwareRoles'] as unknown[]).filter((r): r is string => typeof r === 'string');
        items.push(statement);
      });
      return { items, problems, total: entries.length };
    },
  };
}

export type DirectoryClient = ReturnType<typeof createDirectoryClient>;
