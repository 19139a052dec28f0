/**
 * `pnpm demo`: the generated TPP client against the sandbox, over loopback. Uses a running
 * sandbox (`pnpm start`) or, when none answers, starts one in this process for the run.
 */
import { DEMO_USAGE, parseDemoArgs } from './cli/demo-args.js';
import { commandLine } from './cli/args.js';
import { demoFailureLine } from './demo/failure.js';
import { runDemo } from './demo/run-demo.js';
import { openSession, sandboxIsUp } from './demo/session.js';
import { startSandbox, type Sandbox } from './sandbox/start-sandbox.js';
import { runMain } from './cli/run-main.js';

async function main(): Promise<number> {
  const args = commandLine(parseDemoArgs, DEMO_USAGE);
  if (typeof args === 'number') return args;

  let local: Sandbox | undefined;
  let hubUrl = args.hubUrl;
  if (args.inProcess || !(await sandboxIsUp(hubUrl))) {
    if (!args.inProcess) console.log(`No sandbox answers at ${hubUrl}; starting one in this process.`);
    local = await startSandbox({ hubPort: 0, lfiPort: 0 });
    hubUrl = local.hubUrl;
  }
  try {
    const report = await runDemo(await openSession(hubUrl), (line) => console.log(line));
    return report.history.ordered && report.history.unique ? 0 : 1;
  } finally {
    await local?.close();
  }
}

runMain(main, (error) => demoFailureLine(error) ?? error);
