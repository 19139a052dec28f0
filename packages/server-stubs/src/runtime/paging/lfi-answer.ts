/**
 * Checks an LFI answer against the paging contract (section 4.7 rules 3 and 4) before the
 * hub builds anything from it. Every breach is listed, so the hub's log says exactly what
 * the LFI got wrong.
 */
import { parseInstant } from './instant.js';

/** What the hub knows after checking an LFI answer. */
export interface CheckedAnswer {
  readonly records: readonly unknown[];
  /** `meta.paginated === true`. */
  readonly paginated: boolean;
  readonly totalPages: number;
  readonly totalRecords: number;
  readonly firstAvailableDateTime?: string;
  readonly lastAvailableDateTime?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function count(meta: Record<string, unknown>, name: string, problems: string[], required: boolean): number | undefined {
  const value = meta[name];
  if (value === undefined) {
    if (required) problems.push(`meta.${name} is missing`);
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    problems.push(`meta.${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
    return undefined;
  }
  return value;
}

/** `meta.firstAvailableDateTime` (or the TPP spelling `FirstAvailableDateTime`), when valid. */
function availability(meta: Record<string, unknown>, name: string, problems: string[]): string | undefined {
  const value = meta[name.charAt(0).toLowerCase() + name.slice(1)] ?? meta[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !parseInstant(value) || !value.includes('T')) {
    problems.push(`meta.${name} must be a date-time, got ${JSON.stringify(value)}`);
    return undefined;
  }
  return value;
}

/**
 * The checked content of an LFI answer to page `page` of size `pageSize`, or the problems.
 * A page number beyond the last is reported separately (`beyondLast`): that is the
 * caller's mistake, not the LFI's.
 *
 * @example
 * checkAnswer({ data: [], meta: { paginated: true, totalPages: 0, totalRecords: 0 } }, 1, 100)
 * // → { ok: true, answer: { records: [], paginated: true, totalPages: 0, totalRecords: 0 } }
 */
export function checkAnswer(
  body: unknown,
  page: number,
  pageSize: number,
): { ok: true; answer: CheckedAnswer } | { ok: false; problems: string[] } | { ok: false; beyondLast: number } {
  const problems: string[] = [];
  if (!isRecord(body)) return { ok: false, problems: ['the answer is not a JSON object'] };
  const records = body['data'];
  if (!Array.isArray(records)) problems.push('data is not an array');
  const meta = body['meta'];
  if (!isRecord(meta)) {
    problems.push('meta is missing');
    return { ok: false, problems };
  }
  const paginatedValue = meta['paginated'];
  if (paginatedValue !== undefined && typeof paginatedValue !== 'boolean') problems.push(`meta.paginated must be a boolean, got ${JSON.stringify(paginatedValue)}`);
  const paginated = paginatedValue === true;
  const totalPages = count(meta, 'totalPages', problems, paginated);
  const totalRecords = count(meta, 'totalRecords', problems, paginated);
  const first = availability(meta, 'FirstAvailableDateTime', problems);
  const last = availability(meta, 'LastAvailableDateTime', problems);
  if (!Array.isArray(records) || problems.length > 0) return { ok: false, problems };

  if (!paginated) {
    // The full set: counts, when given, must describe exactly these records.
    if (totalRecords !== undefined && totalRecords !== records.length) {
      problems.push(`meta.totalRecords is ${totalRecords} but the unpaginated answer holds ${records.length} records`);
    }
    const allowedPages = records.length === 0 ? [0, 1] : [1];
    if (totalPages !== undefined && !allowedPages.includes(totalPages)) {
      problems.push(`meta.totalPages is ${totalPages} but the answer is not paginated`);
    }
    if (problems.length > 0) return { ok: false, problems };
    if (page > 1) return { ok: false, beyondLast: records.length === 0 ? 0 : 1 };
    return {
      ok: true,
      answer: { records, paginated, totalPages: records.length === 0 ? 0 : 1, totalRecords: records.length, ...(first ? { firstAvailableDateTime: first } : {}), ...(last ? { lastAvailableDateTime: last } : {}) },
    };
  }

  const pages = totalPages!;
  const total = totalRecords!;
  const expectedPages = Math.ceil(total / pageSize);
  if (pages !== expectedPages) {
    problems.push(`meta.totalPages is ${pages} but ceil(totalRecords ${total} / page-size ${pageSize}) is ${expectedPages}`);
    return { ok: false, problems };
  }
  if (page > pages && !(page === 1 && pages === 0)) {
    if (records.length > 0) problems.push(`page ${page} is beyond the last page (${pages}) but holds ${records.length} records`);
    return problems.length > 0 ? { ok: false, problems } : { ok: false, beyondLast: pages };
  }
  const expected = pages === 0 ? 0 : page < pages ? pageSize : total - (pages - 1) * pageSize;
  if (records.length !== expected) {
    problems.push(`page ${page} of ${pages} must hold ${expected} records (totalRecords ${total}, page-size ${pageSize}) but holds ${records.length}`);
    return { ok: false, problems };
  }
  return {
    ok: true,
    answer: { records, paginated, totalPages: pages, totalRecords: total, ...(first ? { firstAvailableDateTime: first } : {}), ...(last ? { lastAvailableDateTime: last } : {}) },
  };
}
