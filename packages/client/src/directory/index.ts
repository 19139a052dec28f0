/**
 * The directory client (`@bank-data-sharing/client/directory`): section 4.8's token,
 * organisations and software statements, and the TPP software-statement report.
 */
export {
  createDirectoryClient,
  DirectoryAuthError,
  DirectoryDataError,
  type DataProblem,
  type DirectoryClient,
  type DirectoryClientOptions,
  type DirectoryEndpoints,
  type ListedOrganisation,
  type ListedStatement,
  type Listing,
} from './client.js';
export { mapSettled } from './concurrency.js';
export { checkBaseUrl, ConfigError, ENVIRONMENTS, parseDirectoryConfig, resolveEndpoints, type DirectoryConfig, type DirectoryEnvironment } from './config.js';
export { FORMATS, formatCsv, formatJson, formatReport, formatTable, type ReportFormat } from './format.js';
export { createMtlsFetch, type MtlsCredentials, type MtlsFetch } from './mtls.js';
export { buildTppReport, type OrganisationFailure, type ReportOptions, type ReportRow, type TppReport } from './report.js';
export { EXIT, HELP, runCli, type CliIo } from './cli.js';
