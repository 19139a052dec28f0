/**
 * The TPP software-statement report (section 4.8): list organisations, keep those whose
 * `Size` is `TPP`, fetch each one's software statements with bounded concurrency, and fill
 * in `OrganisationId` where the answer omits it. Bad data and per-organisation failures are
 * collected, never thrown, so one broken entry does not hide the rest.
 */
import { ApiError, ClientError } from '../runtime/index.js';
import type { DataProblem, DirectoryClient, ListedOrganisation } from './client.js';
import { mapSettled } from './concurrency.js';

/** One line of the report: a software statement of a TPP organisation. */
export interface ReportRow {
  OrganisationId: string;
  OrganisationName: string;
  SoftwareStatementId: string;
  SoftwareClientName: string;
  Status: string;
  SoftwareRoles: string[];
}

/** An organisation whose statements could not be fetched. */
export interface OrganisationFailure {
  OrganisationId: string;
  OrganisationName: string;
  error: string;
  status?: number;
}

export interface TppReport {
  /** Organisations the directory listed. */
  organisationsListed: number;
  /** Those kept as TPPs. */
  tppOrganisations: number;
  rows: ReportRow[];
  /** Directory data that does not match the contract (reported, not fatal). */
  problems: DataProblem[];
  /** Organisations whose statements could not be fetched (the report is then partial). */
  failures: OrganisationFailure[];
}

export interface ReportOptions {
  /** Statement requests in flight at once (default 4). */
  concurrency?: number;
  /** Called after each organisation's statements are fetched (or failed). */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** `Size` exactly `TPP` is kept; a near miss (case, spaces) is kept too but reported. */
function tppDecision(org: ListedOrganisation): { keep: boolean; problem?: string } {
  if (org.Size === 'TPP') return { keep: true };
  if (org.Size !== undefined && org.Size.trim().toUpperCase() === 'TPP') return { keep: true, problem: `Size ${JSON.stringify(org.Size)} is not exactly "TPP"; kept as a TPP` };
  return { keep: false };
}

function describe(error: unknown): { error: string; status?: number } {
  if (error instanceof ApiError) return { error: error.message, status: error.status };
  if (error instanceof ClientError || error instanceof Error) return { error: error.message };
  return { error: String(error) };
}

/**
 * Builds the report. Throws only when the organisation list itself cannot be read (token or
 * listing failure); everything else lands in `problems` or `failures`.
 *
 * @example
 * const report = await buildTppReport(directory, { concurrency: 4 });
 * console.log(report.rows.length, report.failures.length);
 */
export async function buildTppReport(directory: DirectoryClient, options: ReportOptions = {}): Promise<TppReport> {
  const listing = await directory.organisations(options.signal);
  const problems: DataProblem[] = [...listing.problems];
  const tpps: ListedOrganisation[] = [];
  listing.items.forEach((org) => {
    const decision = tppDecision(org);
    if (decision.problem) problems.push({ where: `organisation ${org.OrganisationId}`, organisationId: org.OrganisationId, issues: [decision.problem] });
    if (decision.keep) tpps.push(org);
  });

  let done = 0;
  options.onProgress?.(0, tpps.length);
  const settled = await mapSettled(tpps, options.concurrency ?? 4, async (org) => {
    try {
      return await directory.softwareStatements(org.OrganisationId, options.signal);
    } finally {
      options.onProgress?.(++done, tpps.length);
    }
  });

  const rows: ReportRow[] = [];
  const failures: OrganisationFailure[] = [];
  settled.forEach((outcome, index) => {
    const org = tpps[index]!;
    const name = org.OrganisationName ?? '';
    if (outcome.status === 'rejected') {
      failures.push({ OrganisationId: org.OrganisationId, OrganisationName: name, ...describe(outcome.reason) });
      return;
    }
    problems.push(...outcome.value.problems);
    for (const statement of outcome.value.items) {
      rows.push({
        // Filled from the organisation when the directory leaves it out of the statement.
        OrganisationId: statement.OrganisationId ?? org.OrganisationId,
        OrganisationName: name,
        SoftwareStatementId: statement.SoftwareStatementId,
        SoftwareClientName: statement.SoftwareClientName ?? '',
        Status: statement.Status ?? '',
        SoftwareRoles: statement.SoftwareRoles ?? [],
      });
    }
  });
  return { organisationsListed: listing.total, tppOrganisations: tpps.length, rows, problems, failures };
}
