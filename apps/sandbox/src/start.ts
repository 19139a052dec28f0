/**
 * `pnpm start`: the sandbox LFI and hub on loopback, until Ctrl+C (SIGINT) or SIGTERM.
 */
import { banner } from './cli/banner.js';
import { commandLine, parseStartArgs, START_USAGE } from './cli/args.js';
import { startSandbox, type Sandbox } from './sandbox/start-sandbox.js';
import { runMain } from './cli/run-main.js';

async function main(): Promise<number> {
  const args = commandLine(parseStartArgs, START_USAGE);
  if (typeof args === 'number') return args;

  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      hubPort: args.hubPort,
      lfiPort: args.lfiPort,
      data: { seed: args.seed, customers: args.customers, years: args.years, perDay: args.perDay },
      ...(args.lfi ? { lfi: args.lfi } : {}),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      console.error(`A port is already in use (${(error as Error).message}). Is the sandbox already running? Pick others with --hub-port and --lfi-port.`);
      return 1;
    }
    if (args.lfi) {
      console.error(`Cannot use the LFI at ${args.lfi.origin}: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  }
  console.log(banner(sandbox, args).join('\n'));

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      // A second signal while closing ends the process at once.
      if (stopping) process.exit(130);
      stopping = true;
      console.log(`\n${signal}: stopping the sandbox`);
      sandbox.close().then(resolve, (error: unknown) => {
        console.error(error);
        resolve();
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}

runMain(main);
