#!/usr/bin/env node
// Entry point of the `codegen` command. The CLI is compiled TypeScript in dist/.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('codegen: not built yet. Run "pnpm build" (or "npm run setup") at the repository root first.\n');
  process.exit(2);
}
const { main } = await import(cli.href);
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // A bug in the generator, not in the user's input: say so plainly, with the detail on request.
  process.stderr.write(`codegen: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  if (process.env.DEBUG) process.stderr.write(`${error instanceof Error ? error.stack : ''}\n`);
  process.stderr.write('Please report it with the spec that triggered it (set DEBUG=1 for details).\n');
  process.exitCode = 1;
}
