/** Command-line and environment options of `start` and `demo`. */
import { parseArgs } from 'node:util';

/**
 * The arguments without a leading `--`: `pnpm start -- --hub-port 5000` hands the separator
 * on to the script, while `pnpm start --hub-port 5000` does not; both must work.
 */
export function withoutSeparator(argv: readonly string[]): string[] {
  return argv[0] === '--' ? argv.slice(1) : [...argv];
}

/** A usage mistake: printed with the help text, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * The parsed command line, or the exit code when there is nothing to run: 0 after printing
 * `usage` for --help, 2 after a usage mistake (printed with `usage`).
 */
export function commandLine<A extends { readonly help: boolean }>(parse: (argv: readonly string[], env: NodeJS.ProcessEnv) => A, usage: string): A | number {
  let args: A;
  try {
    args = parse(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${usage}`);
    return 2;
  }
  if (args.help) {
    console.log(usage);
    return 0;
  }
  return args;
}

/** An integer in [min, max] from a flag or an environment variable, or the default. */
export function integerOption(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`${name} must be an integer from ${min} to ${max}, got "${text}"`);
  return value;
}

/** A positive number (fractions allowed) from a flag, or the default. */
export function numberOption(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || value > max) throw new UsageError(`${name} must be a number above 0 and at most ${max}, got "${text}"`);
  return value;
}

/** Options of `start`. */
export interface StartArgs {
  readonly help: boolean;
  readonly hubPort: number;
  readonly lfiPort: number;
  readonly seed: number;
  readonly customers: number;
  readonly years: number;
  readonly perDay: number;
  /** An LFI elsewhere to put the hub in front of, and the credential it takes from the hub. */
  readonly lfi?: { readonly origin: string; readonly credential: string };
}

/** Help text of `start`. */
export const START_USAGE = `Usage: pnpm start [-- options]

Starts the sandbox LFI and hub on 127.0.0.1 and prints a ready-made token.

Options:
  --hub-port <n>    hub port (env SANDBOX_HUB_PORT, default 4010; 0 = any free port)
  --lfi-port <n>    LFI port (env SANDBOX_LFI_PORT, default 4011; 0 = any free port)
  --seed <n>        seed of the synthetic data (default 1)
  --customers <n>   number of customers (default 3)
  --years <x>       years of transaction history (default 2)
  --per-day <x>     mean transactions per account per day (default 3)
  --lfi-url <origin>
                    put the hub in front of an LFI elsewhere instead of the sandbox's own
                    (env SANDBOX_LFI_URL), e.g. http://127.0.0.1:8080; it must serve the
                    hub-to-LFI contract under /lfi/v2.2 and /lfi/v2.1 (the specs' servers)
  --lfi-credential <token>
                    bearer credential the hub presents to that LFI (env
                    SANDBOX_LFI_CREDENTIAL; required with --lfi-url)
  --help            this text`;

/** Reads the options of `start` from `argv` (without node and the script) and `env`. */
export function parseStartArgs(argv: readonly string[], env: NodeJS.ProcessEnv): StartArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: withoutSeparator(argv),
      options: {
        help: { type: 'boolean' },
        'hub-port': { type: 'string' },
        'lfi-port': { type: 'string' },
        seed: { type: 'string' },
        customers: { type: 'string' },
        years: { type: 'string' },
        'per-day': { type: 'string' },
        'lfi-url': { type: 'string' },
        'lfi-credential': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const lfiUrl = text('lfi-url') ?? env['SANDBOX_LFI_URL'];
  const lfiCredential = text('lfi-credential') ?? env['SANDBOX_LFI_CREDENTIAL'];
  if (lfiUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(lfiUrl);
    } catch {
      throw new UsageError(`--lfi-url must be an origin such as http://127.0.0.1:8080, got ${JSON.stringify(lfiUrl)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--lfi-url must be http or https, got ${url.protocol}`);
    if (lfiCredential === undefined || lfiCredential === '') throw new UsageError('--lfi-url needs --lfi-credential (the bearer credential the LFI takes from the hub)');
  } else if (lfiCredential !== undefined) {
    throw new UsageError('--lfi-credential goes with --lfi-url');
  }
  return {
    ...(lfiUrl !== undefined ? { lfi: { origin: new URL(lfiUrl).origin, credential: lfiCredential! } } : {}),
    help: values['help'] === true,
    hubPort: integerOption('--hub-port', text('hub-port') ?? env['SANDBOX_HUB_PORT'], 4010, 0, 65_535),
    lfiPort: integerOption('--lfi-port', text('lfi-port') ?? env['SANDBOX_LFI_PORT'], 4011, 0, 65_535),
    seed: integerOption('--seed', text('seed'), 1, 0, 2 ** 32 - 1),
    customers: integerOption('--customers', text('customers'), 3, 1, 50),
    years: numberOption('--years', text('years'), 2, 10),
    perDay: numberOption('--per-day', text('per-day'), 3, 50),
  };
}
