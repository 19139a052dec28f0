/** Command-line and environment options of `demo`. */
import { parseArgs } from 'node:util';
import { UsageError, withoutSeparator } from './args.js';
import { DEFAULT_DEMO_HUB } from './banner.js';

/** Options of `demo`. */
export interface DemoArgs {
  readonly help: boolean;
  /** Hub of a running sandbox. */
  readonly hubUrl: string;
  /** Start a sandbox in this process instead of looking for a running one. */
  readonly inProcess: boolean;
}

/** Help text of `demo`. */
export const DEMO_USAGE = `Usage: pnpm demo [-- options]

Reads every account and the full transaction history of one through the hub with the
generated client, and prints counts and timings. Uses the sandbox running at --hub, or
starts one in this process when none answers there.

Options:
  --hub <url>      hub of a running sandbox (env SANDBOX_HUB_URL, default http://127.0.0.1:4010)
  --in-process     always start a sandbox in this process (on free ports)
  --help           this text`;

/** Reads the options of `demo` from `argv` (without node and the script) and `env`. */
export function parseDemoArgs(argv: readonly string[], env: NodeJS.ProcessEnv): DemoArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: withoutSeparator(argv),
      options: { help: { type: 'boolean' }, hub: { type: 'string' }, 'in-process': { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const hub = typeof values['hub'] === 'string' ? values['hub'] : (env['SANDBOX_HUB_URL'] ?? DEFAULT_DEMO_HUB);
  let url: URL;
  try {
    url = new URL(hub);
  } catch {
    throw new UsageError(`--hub must be a URL, got "${hub}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--hub must be an http(s) URL, got "${hub}"`);
  return { help: values['help'] === true, hubUrl: url.origin, inProcess: values['in-process'] === true };
}
