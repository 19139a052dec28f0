/**
 * A directory double (section 4.8) for the report tests: a token endpoint that checks the
 * client-credentials form, organisations, and software statements per organisation.
 */
import type { Handler, Reply } from './server.js';

export interface DirectoryData {
  /** The organisations answer: an array, or page objects (one per page). */
  organisations: unknown[] | Array<{ content: unknown[]; totalPages: number; pageNumber: number }>;
  /** Per organisation id: the statements answer (array or page objects), or a reply to send instead. */
  statements: Record<string, unknown[] | Array<{ content: unknown[]; totalPages: number; pageNumber: number }> | Reply>;
  clientId: string;
}

export interface DirectoryStats {
  tokenRequests: number;
  inFlight: number;
  maxInFlight: number;
}

const isPaged = (value: unknown[]): value is Array<{ content: unknown[]; totalPages: number; pageNumber: number }> =>
  value.length > 0 && typeof value[0] === 'object' && value[0] !== null && 'content' in (value[0] as object) && 'totalPages' in (value[0] as object);

function pick(answer: unknown[], page: string | null): unknown {
  if (!isPaged(answer)) return answer;
  return answer[page === null ? 0 : Number(page)] ?? { content: [], totalPages: answer.length, pageNumber: Number(page) };
}

/** Serves auth and API on one origin: `/auth/token`, `/api/organisations...`. */
export function directoryHandler(data: DirectoryData, stats: DirectoryStats, delay: () => Promise<void> = async () => undefined): Handler {
  return async (request) => {
    const url = new URL(request.url, 'http://directory.test');
    if (request.method === 'POST' && url.pathname === '/auth/token') {
      stats.tokenRequests++;
      const form = new URLSearchParams(request.body);
      const okForm =
        request.headers['content-type'] === 'application/x-www-form-urlencoded' &&
        form.get('grant_type') === 'client_credentials' &&
        form.get('scope') === 'directory:software' &&
        form.get('client_id') === data.clientId &&
        request.headers['authorization'] === undefined;
      if (!okForm) return { status: 400, body: { error: 'invalid_request', error_description: `bad form: ${request.body}` } };
      return { body: { access_token: `dir-token-${stats.tokenRequests}`, token_type: 'Bearer', expires_in: 600 } };
    }
    if (request.headers['authorization'] !== `Bearer dir-token-${stats.tokenRequests}`) return { status: 401 };
    if (request.method === 'GET' && url.pathname === '/api/organisations') return { body: pick(data.organisations, url.searchParams.get('page')) };
    const m = /^\/api\/organisations\/([^/]+)\/softwarestatements$/.exec(url.pathname);
    if (request.method === 'GET' && m) {
      const id = decodeURIComponent(m[1]!);
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      try {
        await delay();
        const answer = data.statements[id];
        if (answer === undefined) return { status: 404 };
        if (!Array.isArray(answer)) return answer;
        return { body: pick(answer, url.searchParams.get('page')) };
      } finally {
        stats.inFlight--;
      }
    }
    return { status: 404 };
  };
}

/** Several organisations, one of each kind of trouble. */
export function sampleDirectory(): DirectoryData {
  return {
    clientId: 'tpp-reporter',
    organisations: [
      { OrganisationId: 'org-alpha', OrganisationName: 'Alpha Payments', Size: 'TPP', Status: 'Active', CreatedOn: '2024-05-02' },
      { OrganisationId: 'org-bank', OrganisationName: 'Example Bank', Size: 'LFI', Status: 'Active' },
      { OrganisationId: 'org-broken', OrganisationName: 'Broken Statements Ltd', Size: 'TPP', Status: 'Active' },
      { OrganisationName: 'Nameless Id', Size: 'TPP' },
      { OrganisationId: 'org-odd', OrganisationName: 'Odd <Size>', Size: 'TPP<script>' },
      { OrganisationId: 'org-gamma', OrganisationName: 'Gamma, "Quoted" Co', Size: 'TPP', Status: 'Active' },
      { OrganisationId: 'org-delta', OrganisationName: 42, Size: 'tpp ' },
    ],
    statements: {
      'org-alpha': [
        { SoftwareStatementId: 'ss-a1', SoftwareClientName: 'Alpha App', Status: 'Active', SoftwareRoles: ['BDSP'] },
        { SoftwareStatementId: 'ss-a2', SoftwareClientName: 'Alpha Batch', Status: 'Inactive', SoftwareRoles: ['BDSP', 'BSIP'], OrganisationId: 'org-alpha' },
      ],
      'org-broken': { status: 500 },
      'org-gamma': [
        { content: [{ SoftwareStatementId: 'ss-g1', SoftwareClientName: '=cmd()', Status: 'Active', SoftwareRoles: ['BSIP'] }], totalPages: 2, pageNumber: 0 },
        { content: [{ SoftwareStatementId: 'ss-g2', SoftwareClientName: 'Gamma Two', Status: 'Active' }], totalPages: 2, pageNumber: 1 },
      ],
      'org-delta': [{ SoftwareStatementId: 'ss-d1', SoftwareClientName: 'Delta', Status: 'Active', SoftwareRoles: [] }],
    },
  };
}
