/**
 * `bds-directory report`: prints the TPP software-statement report as a table, CSV or JSON.
 * Progress goes to stderr, and only when stderr is a terminal; the report alone goes to
 * stdout, so it can be piped.
 */
import { readFile } from 'node:fs/promises';
import { createDirectoryClient } from './client.js';
import { ConfigError, ENVIRONMENTS, parseDirectoryConfig, resolveEndpoints, type DirectoryConfig, type DirectoryEnvironment } from './config.js';
import { FORMATS, formatReport, type ReportFormat } from './format.js';
import { createMtlsFetch, type MtlsCredentials, type MtlsFetch } from './mtls.js';
import { buildTppReport, type TppReport } from './report.js';

/** Exit codes, as `--help` documents them. */
export const EXIT = { ok: 0, failed: 1, usage: 2, partial: 3 } as const;

export const HELP = `Usage: bds-directory report [options]

Lists the directory's organisations, keeps those whose Size is "TPP", fetches each
one's software statements (a few at a time) and prints them, one line per statement.
Requests run over mutual TLS with your transport certificate and key.

Options:
  --env <name>          ${ENVIRONMENTS.join(' | ')} (default: sandbox)
  --config <file>       JSON file with the bases of each environment (default: $BDS_DIRECTORY_CONFIG):
                          { "sandbox":    { "authUrl": "https://...", "apiUrl": "https://..." },
                            "production": { "authUrl": "https://...", "apiUrl": "https://..." } }
  --auth-url <url>      Base of the token endpoint (overrides the config)
  --api-url <url>       Base of the directory API (overrides the config)
  --client-id <id>      client_id of your registered application (default: $BDS_DIRECTORY_CLIENT_ID)
  --cert <file>         PEM transport certificate (required)
  --key <file>          PEM private key of the certificate (required)
  --ca <file>           PEM CA certificates to trust instead of the system store
  --format <format>     ${FORMATS.join(' | ')} (default: table)
  --concurrency <n>     Software-statement requests in flight, 1 to 16 (default: 4)
  --timeout <seconds>   Time limit of one request (default: 30)
  -h, --help            Show this help

Output: the report on stdout; progress (on a terminal only), data problems and
failures on stderr. JSON output also lists problems and failures.

Exit codes:
  0  the report is complete (problems in the directory's data are listed on stderr)
  1  no report: configuration, token, listing or network failure
  2  wrong usage
  3  the report is partial: some organisations' statements could not be fetched

Example:
  bds-directory report --env sandbox --config directory.json --client-id my-client \\
    --cert transport.pem --key transport.key --format csv > tpps.csv`;

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  readFile?: (path: string) => Promise<Buffer>;
  /** Builds the mTLS connection pool (tests substitute a plain one). */
  createMtls?: (credentials: MtlsCredentials) => MtlsFetch;
}

class UsageError extends Error {}

const VALUE_FLAGS = new Set(['env', 'config', 'auth-url', 'api-url', 'client-id', 'cert', 'key', 'ca', 'format', 'concurrency', 'timeout']);

interface Parsed {
  command: string | undefined;
  help: boolean;
  flags: Map<string, string>;
}

function parse(argv: readonly string[]): Parsed {
  const flags = new Map<string, string>();
  let command: string | undefined;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      if (command !== undefined) throw new UsageError(`unexpected argument "${arg}"`);
      command = arg;
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (!VALUE_FLAGS.has(name)) throw new UsageError(`unknown option --${name}`);
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
    flags.set(name, value);
  }
  return { command, help, flags };
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}

function integer(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${flag} must be an integer from ${min} to ${max} (got "${value}")`);
  return n;
}

function problemLines(report: TppReport): string[] {
  const lines: string[] = [];
  for (const p of report.problems) lines.push(`warning: ${p.where}: ${p.issues.join('; ')}`);
  for (const f of report.failures) lines.push(`error: organisation ${f.OrganisationId}${f.OrganisationName ? ` (${f.OrganisationName})` : ''}: ${f.error}`);
  return lines;
}

/** Sanitises untrusted text before it reaches a terminal. */
function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\uFFFD');
}

/**
 * Runs the CLI and returns its exit code.
 *
 * @example
 * process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const read = io.readFile ?? ((path: string) => readFile(path));
  let parsed: Parsed;
  try {
    parsed = parse(argv);
    if (parsed.help) {
      io.stdout.write(`${HELP}\n`);
      return EXIT.ok;
    }
    if (parsed.command !== 'report') throw new UsageError(parsed.command === undefined ? 'missing command (report)' : `unknown command "${parsed.command}"`);
    for (const required of ['cert', 'key'] as const) if (!parsed.flags.has(required)) throw new UsageError(`--${required} is required (the directory needs mutual TLS)`);
    if (!parsed.flags.has('client-id') && !io.env['BDS_DIRECTORY_CLIENT_ID']) throw new UsageError('--client-id is required (or set BDS_DIRECTORY_CLIENT_ID)');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`bds-directory: ${error.message}\nRun "bds-directory --help" for usage.\n`);
    return EXIT.usage;
  }

  let format: ReportFormat;
  let environment: DirectoryEnvironment;
  let concurrency: number;
  let timeoutSeconds: number;
  try {
    format = oneOf(parsed.flags.get('format') ?? 'table', FORMATS, 'format');
    environment = oneOf(parsed.flags.get('env') ?? 'sandbox', ENVIRONMENTS, 'env');
    concurrency = integer(parsed.flags.get('concurrency') ?? '4', 'concurrency', 1, 16);
    timeoutSeconds = integer(parsed.flags.get('timeout') ?? '30', 'timeout', 1, 600);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`bds-directory: ${error.message}\n`);
    return EXIT.usage;
  }

  const progress = io.stderr.isTTY === true;
  let mtls: MtlsFetch | undefined;
  try {
    const configFile = parsed.flags.get('config') ?? io.env['BDS_DIRECTORY_CONFIG'];
    const config: DirectoryConfig = configFile ? parseDirectoryConfig((await read(configFile)).toString('utf8'), configFile) : {};
    const overrides = {
      ...(parsed.flags.has('auth-url') ? { authUrl: parsed.flags.get('auth-url')! } : {}),
      ...(parsed.flags.has('api-url') ? { apiUrl: parsed.flags.get('api-url')! } : {}),
    };
    const endpoints = resolveEndpoints(environment, config, overrides);
    const ca = parsed.flags.get('ca');
    const credentials: MtlsCredentials = {
      cert: await read(parsed.flags.get('cert')!),
      key: await read(parsed.flags.get('key')!),
      ...(ca !== undefined ? { ca: await read(ca) } : {}),
    };
    mtls = (io.createMtls ?? createMtlsFetch)(credentials);
    const directory = createDirectoryClient({
      endpoints,
      clientId: parsed.flags.get('client-id') ?? io.env['BDS_DIRECTORY_CLIENT_ID']!,
      dispatcher: mtls.dispatcher,
      timeoutMs: timeoutSeconds * 1000,
    });
    if (progress) io.stderr.write(`Listing organisations (${environment})...`);
    const report = await buildTppReport(directory, {
      concurrency,
      ...(progress ? { onProgress: (done: number, total: number) => io.stderr.write(`\r\x1b[KSoftware statements: ${done}/${total} TPP organisations`) } : {}),
    });
    if (progress) io.stderr.write('\r\x1b[K');
    io.stdout.write(formatReport(report, format));
    for (const line of problemLines(report)) io.stderr.write(`${plain(line)}\n`);
    io.stderr.write(
      `${report.rows.length} software statements from ${report.tppOrganisations} TPP organisations (${report.organisationsListed} listed)` +
        `${report.problems.length ? `, ${report.problems.length} data problems` : ''}${report.failures.length ? `, ${report.failures.length} organisations failed` : ''}\n`,
    );
    return report.failures.length > 0 ? EXIT.partial : EXIT.ok;
  } catch (error) {
    if (progress) io.stderr.write('\r\x1b[K');
    const message = error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error);
    io.stderr.write(`bds-directory: ${plain(message)}\n`);
    return EXIT.failed;
  } finally {
    await mtls?.close().catch(() => undefined);
  }
}

